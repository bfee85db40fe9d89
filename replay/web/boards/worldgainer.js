// World Gainer's own board: the 3x3 field as it lies on the table (seat 2's home row M2 at the
// far end, the border row B in the middle, seat 1's home row M1 nearest seat 1; the viewing
// seat's side at the bottom), each square with its holder, points and cards (a stack, top card
// first), and each seat's area beside its end of the field: five stand-by slots (exhausted stuns
// turned), hand, deck and break zone. What it does not draw goes through kit.rest.

const SEATS = [1, 2];
const ROWS = {
  1: ["M1-1", "M1-2", "M1-3"],
  B: ["B-1", "B-2", "B-3"],
  2: ["M2-1", "M2-2", "M2-3"],
};
const SQUARE_KEYS = new Set(["holder", "cards", "points"]);
const SEAT_KEYS = new Set(["seat", "hand", "hand_count", "deck", "deck_count", "standby", "break"]);
const DRAWN = ["board", "seats", "first_player", "stun_placed", "gain_placed"];
const COLOURS = new Set(["red", "green", "blue", "yellow"]);

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const asList = (value) => (Array.isArray(value) ? value : []);

function hidden(kit, text) {
  return kit.el("span", { class: "visually-hidden" }, text);
}

// "Seat 1 · Aiko" (the player's name when the page knows it).
function seatText(kit, seat) {
  if (!Number.isInteger(seat)) return "no one";
  const name = kit.seatName(seat);
  return `Seat ${seat}${name ? ` · ${name}` : ""}`;
}

// The seat whose side is drawn at the bottom: the viewing seat, else seat 1.
function bottomSeat(state) {
  const match = /^seat:(\d+)$/.exec(String(state.viewer ?? ""));
  return match && Number(match[1]) === 2 ? 2 : 1;
}

// A card's colour and cost as a small badge beside its chip (the chip keeps the name and id).
function badge(kit, card) {
  if (!isObject(card)) return null;
  const colour = COLOURS.has(card.colour) ? card.colour : "other";
  const parts = [];
  if (card.colour !== undefined && card.colour !== null) parts.push(String(card.colour));
  if (card.cost !== undefined && card.cost !== null) parts.push(`cost ${card.cost}`);
  if (!parts.length) return null;
  const initial = typeof card.colour === "string" && card.colour ? card.colour[0].toUpperCase() : "";
  return kit.el("span", { class: `wg-badge wg-colour-${colour}`, title: parts.join(", ") },
    kit.el("span", { "aria-hidden": "true" }, `${initial}${card.cost ?? ""}`),
    hidden(kit, ` (${parts.join(", ")})`));
}

// Anything a part of the view holds that the board does not know yet, drawn generically.
function leftovers(kit, value, known, seat = null) {
  if (!isObject(value)) return null;
  const extra = Object.fromEntries(Object.entries(value).filter(([key]) => !known.has(key)));
  if (!Object.keys(extra).length) return null;
  return kit.el("div", { class: "wg-extra" }, kit.contents(extra, 2, seat));
}

// One square: its name, holder (by seat colour), points and its cards, top card first.
function square(kit, name, data) {
  const sq = isObject(data) ? data : {};
  const holder = Number.isInteger(sq.holder) ? sq.holder : null;
  const cards = asList(sq.cards);
  const points = sq.points ?? null;
  const topFirst = [...cards].reverse();
  const holderText = holder === null ? "held by no one" : `held by ${seatText(kit, holder)}`;
  const stack = topFirst.length
    ? kit.el("ol", { class: "wg-stack", "aria-label": `cards on ${name}, top card first` },
      topFirst.map((card, i) => kit.el("li", { class: i === 0 ? "wg-card wg-top" : "wg-card" },
        i === 0 ? kit.chip(card, { extraClass: "wg-top-chip", title: "top card" }) : kit.chip(card),
        badge(kit, card),
        i === 0 && topFirst.length > 1 ? kit.el("span", { class: "wg-toptag" }, "top") : null,
        i === 0 && topFirst.length === 1 ? hidden(kit, " (top card)") : null)))
    : kit.el("p", { class: "none wg-empty" }, "empty");
  const summary = [`Square ${name}`, holderText, points === null ? null : `${points} points`,
                   `${cards.length} card${cards.length === 1 ? "" : "s"}`].filter(Boolean).join(", ");
  return kit.el("div", {
    class: `wg-square ${holder === null ? "wg-unheld" : `wg-seat-${holder}`}`,
    role: "group", "aria-label": summary, "data-zone": "field", "data-square": name, "data-address": name,
    "data-holder": holder === null ? "" : String(holder),
  },
  kit.el("div", { class: "zone-title wg-square-name" }, name),
  kit.el("div", { class: "wg-square-facts" },
    kit.el("span", { class: "wg-holder" }, holder === null ? "no holder" : seatText(kit, holder)),
    points === null ? null : kit.el("span", { class: "wg-points" }, `${kit.scalarText(points)} pts`)),
  stack,
  leftovers(kit, sq, SQUARE_KEYS));
}

// The 3x3 field: the far seat's home row first, the border, the near seat's home row last.
function field(kit, state, bottom) {
  const board = isObject(state.board) ? state.board : {};
  const top = bottom === 1 ? 2 : 1;
  const rowLabel = (key) => (key === "B" ? "Border row (battlefield)"
    : `${seatText(kit, Number(key))}'s home row`);
  const rows = [String(top), "B", String(bottom)].map((key) => kit.el("div", {
    class: `wg-row ${key === "B" ? "wg-border" : `wg-home wg-home-${key}`}`,
    role: "group", "aria-label": rowLabel(key), "data-row": key === "B" ? "B" : `M${key}`,
  },
  kit.el("div", { class: "wg-row-label" }, key === "B" ? "border" : `M${key} · home of seat ${key}`),
  kit.el("div", { class: "wg-squares" }, ROWS[key].map((name) => square(kit, name, board[name])))));
  // Squares the view names beyond the nine (never in this ruleset): drawn, not lost.
  const known = new Set(Object.values(ROWS).flat());
  const others = Object.keys(board).filter((name) => !known.has(name));
  if (others.length) {
    rows.push(kit.el("div", { class: "wg-row wg-other", role: "group", "aria-label": "other squares" },
      kit.el("div", { class: "wg-squares" }, others.map((name) => square(kit, name, board[name])))));
  }
  const compare = isObject(state.options) ? state.options.stack_compare : null;
  const rule = compare === "total" ? "a stack compares by its total"
    : compare === "top" ? "a stack compares by its top card" : null;
  return kit.el("section", { class: "wg-field", "aria-label": "Field: nine squares" },
    kit.el("h3", { class: "wg-field-title" }, "Field",
      rule ? kit.el("span", { class: "wg-rule" }, ` · ${rule}`) : null),
    kit.el("div", { class: "wg-grid" }, rows));
}

// The five stand-by slots; an exhausted stun is drawn turned, and says so.
function standby(kit, seat, slots) {
  const list = asList(slots);
  const used = list.filter((s) => s !== null && s !== undefined).length;
  const items = list.map((stun, i) => {
    if (stun === null || stun === undefined) {
      return kit.el("li", { class: "wg-slot wg-slot-empty", "data-slot": String(i + 1), "data-address": String(i + 1) },
        kit.el("span", { class: "wg-slot-no" }, String(i + 1)), hidden(kit, ": empty "), kit.chip(null));
    }
    const exhausted = isObject(stun) && stun.ready === false;
    const stateText = !isObject(stun) || stun.ready === undefined ? "" : exhausted ? "exhausted" : "ready";
    return kit.el("li", {
      class: `wg-slot ${exhausted ? "wg-exhausted" : "wg-ready"}`, "data-slot": String(i + 1), "data-address": String(i + 1),
      "data-ready": stateText === "" ? null : String(!exhausted),
    },
    kit.el("span", { class: "wg-slot-no" }, String(i + 1)),
    hidden(kit, stateText ? `: ${stateText} ` : ": "),
    kit.chip(stun, exhausted ? { extraClass: "exhausted", title: "exhausted" }
      : stateText ? { title: "ready" } : {}),
    badge(kit, stun),
    exhausted ? kit.el("span", { class: "wg-state", "aria-hidden": "true" }, "exhausted") : null);
  });
  return zoneWithTitle(kit, "standby", seat, `stand-by (${used})`,
    `stand-by, ${used} of ${list.length} slots used`,
    list.length ? kit.el("ol", { class: "wg-slots" }, items) : kit.el("p", { class: "none" }, "none"),
    "wg-standby");
}

// A zone whose title carries the seat for screen readers and for "what changed" (which tells
// zones apart by their titles), and shows people the short name and count.
function zoneWithTitle(kit, name, seat, title, label, body, extraClass) {
  const node = kit.zone(name, seat, title, body, { extraClass });
  node.setAttribute("aria-label", `${seatText(kit, seat)}: ${label}`);
  const heading = node.querySelector(":scope > .zone-title");
  if (heading) heading.prepend(hidden(kit, `Seat ${seat} `));
  return node;
}

function hand(kit, seat, part) {
  const count = part.hand_count;
  if (Array.isArray(part.hand)) {
    const n = part.hand.length;
    return zoneWithTitle(kit, "hand", seat, `hand (${n})`, `hand, ${n} card${n === 1 ? "" : "s"}`,
      n ? kit.el("div", { class: "chips" }, part.hand.map((c) => kit.chip(c))) : kit.el("p", { class: "none" }, "none"),
      "wg-hand");
  }
  const n = Number.isInteger(count) ? count : null;
  return zoneWithTitle(kit, "hand", seat, `hand (${n ?? "?"})`,
    `hand, ${n ?? "unknown number of"} card${n === 1 ? "" : "s"}, hidden`,
    kit.el("p", { class: "wg-hidden-count" }, n === null ? "hidden" : `${n} card${n === 1 ? "" : "s"}, hidden`),
    "wg-hand");
}

function deck(kit, seat, part) {
  const ids = Array.isArray(part.deck) ? part.deck : null;
  const n = Number.isInteger(part.deck_count) ? part.deck_count : ids ? ids.length : null;
  const body = [kit.el("p", { class: "wg-count" }, n === null ? "face down" : `${n} card${n === 1 ? "" : "s"}, face down`)];
  if (ids) {
    body.push(kit.el("details", { class: "wg-deck-list" },
      kit.el("summary", {}, `${ids.length} card id${ids.length === 1 ? "" : "s"}`),
      ids.length ? kit.el("div", { class: "chips" }, ids.map((c) => kit.chip(c))) : kit.el("p", { class: "none" }, "none")));
  }
  return zoneWithTitle(kit, "deck", seat, `deck (${n ?? "?"})`, `deck, ${n ?? "unknown number of"} cards`,
    body, "wg-deck");
}

function breakZone(kit, seat, part) {
  const cards = asList(part.break);
  return zoneWithTitle(kit, "break", seat, `break (${cards.length})`,
    `break zone, ${cards.length} card${cards.length === 1 ? "" : "s"}, oldest first`,
    cards.length ? kit.el("ol", { class: "wg-break", "aria-label": "oldest first" },
      cards.map((c) => kit.el("li", {}, kit.chip(c), badge(kit, c))))
      : kit.el("p", { class: "none" }, "none"),
    "wg-breakzone");
}

// A seat's area: who it is, then its stand-by slots, hand, deck and break zone.
function seatArea(kit, state, part, seat, where) {
  const tags = [];
  if (state.first_player === seat) tags.push("plays first");
  return kit.el("section", {
    class: `wg-side wg-side-${where} wg-seat-${seat}`, "aria-label": `${seatText(kit, seat)}'s area`,
    "data-side": where, "data-side-seat": String(seat),
  },
  kit.el("h3", { class: "wg-side-title" }, seatText(kit, seat),
    tags.length ? kit.el("span", { class: "wg-tags" }, ` · ${tags.join(" · ")}`) : null),
  kit.el("div", { class: "wg-zones" },
    standby(kit, seat, part.standby), hand(kit, seat, part), deck(kit, seat, part), breakZone(kit, seat, part)),
  leftovers(kit, part, SEAT_KEYS, seat));
}

export function draw(state, kit) {
  const s = isObject(state) ? state : {};
  const bottom = bottomSeat(s);
  const top = bottom === 1 ? 2 : 1;
  const seatParts = new Map();
  for (const part of asList(s.seats)) {
    if (isObject(part) && Number.isInteger(part.seat)) seatParts.set(part.seat, part);
  }
  const others = asList(s.seats).filter((p) => !isObject(p) || !Number.isInteger(p.seat));
  const area = (seat, where) => (seatParts.has(seat) ? seatArea(kit, s, seatParts.get(seat), seat, where) : null);
  const turnFacts = [
    ["first player", Number.isInteger(s.first_player) ? seatText(kit, s.first_player) : s.first_player],
    ["stun placed this turn", s.stun_placed],
    ["gain placed this turn", s.gain_placed],
  ].filter(([, v]) => v !== undefined);
  const table = kit.el("div", {
    class: "wg-table", "data-bottom-seat": String(bottom), "data-viewer": String(s.viewer ?? ""),
  },
  area(top, "top"),
  field(kit, s, bottom),
  area(bottom, "bottom"));
  const nodes = [table];
  const listed = kit.facts(turnFacts);
  if (listed) nodes.push(kit.el("div", { class: "wg-turn-facts", role: "group", "aria-label": "This turn" }, listed));
  if (others.length) nodes.push(kit.box("other seats", others, 1, "seats"));
  for (const [seat, part] of seatParts) {
    if (!SEATS.includes(seat)) nodes.push(kit.box(seatText(kit, seat), part, 1, null, seat));
  }
  const drawn = DRAWN.filter((key) => key in s &&
    !(key === "board" && !isObject(s.board)) && !(key === "seats" && !Array.isArray(s.seats)));
  nodes.push(...kit.rest(s, new Set(drawn)));
  return nodes;
}
