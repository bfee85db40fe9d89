// The board's building blocks, shared by the generic board (any game, drawn from its zone
// table as the position's view names it) and each game's own board (replay/web/boards/GAME.js).
//
// A game's board module exports `draw(state, kit)`, returning the nodes drawn under the
// board's header (the header itself, with the turn, who is to act and the scores, is common).
// Its contract, on which highlights, arrows, picking and "what changed" rely:
// - every card shown is `kit.chip(card)` (a `.chip[data-card=ID]`), hidden ones `kit.chip(null)`;
// - every zone is an element with `data-zone=NAME` (the zone table's name) and, when it belongs
//   to a seat, `data-seat=N`, with a `.zone-title` (or `.box-title`) naming it for people;
// - every place of a zone with places that the board draws (a square, a hex, a cell, a slot) is
//   an element with `data-address=ADDRESS` (the zone table's address), in or on its zone's
//   element: highlights name it, and a card in it (ZONE#SEAT:ADDRESS/CARD);
// - every part of the view it does not draw itself is drawn by `kit.rest(state, drawnKeys)`,
//   so nothing the viewer may see is left off the page.
import { el } from "/static/common.js";

// The view's keys the board's header shows.
export const HEADER_KEYS = new Set(["game", "players", "turn", "active", "phase", "step", "result",
                                    "scores", "viewer", "eliminated", "options", "to_act"]);

let seatNames = () => null;

// How a seat's player is named (the page knows the match's players).
export function setSeatNames(lookup) {
  seatNames = lookup;
}

export function seatName(seat) {
  return seatNames(seat);
}

export function label(key) {
  return String(key).replaceAll("_", " ");
}

export function isCard(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
         typeof value.name === "string" &&
         (typeof value.id === "string" || typeof value.card === "string");
}

// A list of numbers (an order of seats, dice) reads as one line.
export function isNumberList(value) {
  return Array.isArray(value) && value.length > 0 &&
         value.every((x) => typeof x === "number" || typeof x === "boolean");
}

export function isScalar(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value) ||
         isNumberList(value);
}

export function scalarText(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(scalarText).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

// A card's printed facts (cost, colour, ...) as one line, for its tooltip.
export function cardFacts(card) {
  return Object.entries(card)
    .filter(([k, v]) => !["id", "card", "name"].includes(k) && isScalar(v) && v !== null)
    .map(([k, v]) => `${label(k)}: ${scalarText(v)}`).join(", ");
}

// A card as a chip: its name and id (a bare id when the view gives only that; "—" for a hidden
// or empty place). `extra` classes or attributes let a board mark a card (exhausted, flipped).
export function chip(card, { extraClass = "", title = null } = {}) {
  if (card === null || card === undefined) {
    return el("span", { class: `chip blank ${extraClass}`.trim(), title: title || "empty or hidden" }, "—");
  }
  if (typeof card !== "object") {
    return el("span", { class: `chip ${extraClass}`.trim(), "data-card": String(card), title },
      el("span", { class: "cid" }, String(card)));
  }
  const id = card.id ?? card.card;
  const facts = [title, cardFacts(card)].filter(Boolean).join(" · ");
  return el("span", { class: `chip ${extraClass}`.trim(), "data-card": id, title: facts || null },
    el("span", { class: "cname" }, card.name), " ", el("span", { class: "cid" }, id));
}

export function isChipList(list) {
  return list.every((item) => item === null || isCard(item) || typeof item === "string");
}

function itemLabel(item, index, key) {
  if (item && typeof item === "object" && Number.isInteger(item.seat)) {
    const name = seatName(item.seat);
    return `Seat ${item.seat}${name ? ` · ${name}` : ""}`;
  }
  return `${label(key)} ${index + 1}`;
}

// The seat a part of the position belongs to: its own `seat`, or its owner's.
function seatOf(value, seat) {
  return value && typeof value === "object" && !Array.isArray(value) && Number.isInteger(value.seat)
    ? value.seat : seat;
}

// A labelled box for a value that is not a scalar; `key` (the zone it may be) and `seat` are
// kept as data-zone and data-seat, for highlights naming a zone (ZONE or ZONE#SEAT).
export function box(title, value, depth = 1, key = null, seat = null) {
  const own = seatOf(value, seat);
  const node = el("div", { class: `box depth-${Math.min(depth, 4)}`, role: "group", "aria-label": title,
                           "data-zone": key, "data-seat": own === null ? null : String(own) });
  node.append(el("div", { class: "box-title" }, title));
  node.append(...contents(value, depth, own));
  return node;
}

// What a box holds: chips for a list of cards, facts for scalars, boxes for the rest.
export function contents(value, depth = 1, seat = null) {
  if (Array.isArray(value)) {
    if (value.length === 0) return [el("p", { class: "none" }, "none")];
    if (isChipList(value)) return [el("div", { class: "chips" }, value.map((c) => chip(c)))];
    return [el("div", { class: "boxes" }, value.map((item, i) =>
      isScalar(item) ? el("p", {}, scalarText(item)) : box(itemLabel(item, i, "item"), item, depth + 1, null, seat)))];
  }
  const parts = [];
  if (isCard(value)) parts.push(el("div", { class: "chips" }, chip(value)));
  const facts = [];
  const nested = [];
  for (const [key, inner] of Object.entries(value)) {
    if (isCard(value) && (key === "id" || key === "card" || key === "name")) continue;
    if (isScalar(inner)) {
      if (!isCard(value)) facts.push(el("dt", {}, label(key)), el("dd", {}, scalarText(inner)));
    } else if (Array.isArray(inner) && inner.length && !isChipList(inner)) {
      nested.push(el("div", { class: "box-list", "data-zone": key, "data-seat": seat === null ? null : String(seat) },
        el("div", { class: "box-title" }, `${label(key)} (${inner.length})`),
        el("div", { class: "boxes" }, inner.map((item, i) => isScalar(item)
          ? el("p", {}, scalarText(item)) : box(itemLabel(item, i, key), item, depth + 1, null, seat)))));
    } else {
      const count = Array.isArray(inner) ? ` (${inner.length})` : "";
      nested.push(box(`${label(key)}${count}`, inner, depth + 1, key, seat));
    }
  }
  if (facts.length) parts.push(el("dl", { class: "facts" }, facts));
  if (nested.length) parts.push(el("div", { class: "boxes" }, nested));
  if (!parts.length) parts.push(el("p", { class: "none" }, "nothing"));
  return parts;
}

// A labelled list of facts (label: value) for the scalars of an object.
export function facts(pairs) {
  const items = [];
  for (const [key, value] of pairs) items.push(el("dt", {}, label(key)), el("dd", {}, scalarText(value)));
  return items.length ? el("dl", { class: "facts" }, items) : null;
}

// The generic drawing of the view's keys other than the header's and `skip`: its scalars as
// facts, every other key as boxes (a seat's part of the view as a box per seat).
export function rest(state, skip = new Set()) {
  const general = [];
  const boxes = [];
  for (const [key, value] of Object.entries(state)) {
    if (HEADER_KEYS.has(key) || skip.has(key)) continue;
    if (isScalar(value)) general.push([key, value]);
    else if (Array.isArray(value) && value.length && !isChipList(value)) {
      boxes.push(...value.map((item, i) => isScalar(item) ? el("p", {}, scalarText(item))
        : box(itemLabel(item, i, key), item, 1)));
    } else boxes.push(box(`${label(key)}${Array.isArray(value) ? ` (${value.length})` : ""}`, value, 1, key));
  }
  const parts = [];
  const listed = facts(general);
  if (listed) parts.push(listed);
  if (boxes.length) parts.push(el("div", { class: "boxes top-boxes" }, boxes));
  return parts;
}

// A zone as a game's board draws it: a titled element with data-zone/data-seat, its cards as
// chips (or `body`, nodes the board draws inside it).
export function zone(name, seat, title, body, { extraClass = "" } = {}) {
  const inner = Array.isArray(body) && body.every((c) => !(c instanceof Node))
    ? (body.length ? el("div", { class: "chips" }, body.map((c) => chip(c))) : el("p", { class: "none" }, "none"))
    : body;
  return el("div", { class: `zone ${extraClass}`.trim(), role: "group", "aria-label": title,
                     "data-zone": name, "data-seat": seat === null || seat === undefined ? null : String(seat) },
    el("div", { class: "zone-title" }, title), inner);
}

// What a game's board module receives.
export const kit = { el, chip, box, contents, facts, rest, zone, label, scalarText, isCard, isScalar,
                     isChipList, seatName, cardFacts, HEADER_KEYS };

// The generic board: every game is viewable on day one.
export function draw(state) {
  return rest(state);
}
