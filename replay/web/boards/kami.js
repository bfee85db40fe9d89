// Kami no Kijutsu's own board (docs/games/kami.md): the field as two 7-hex areas (rows of 2, 3
// and 2, rows numbered from the border, §場の構成, K1), seat 2's area across the border from
// seat 1's; each hex with its address, its territory and unit as chips coloured by owner and
// the unit's options under it; each seat's side of the table (VP, the face-down AP pile, deck,
// hand, discard, lasting forces, its battle stack); the open battle as a panel.
// The viewer's own seat sits at the bottom when the view is a seat's (seat 1's otherwise), and
// the field turns with it (seat 2 sees left and right reversed).

const SPOT = /^A([12]):([123])([LCR])$/;
const DRAWN = ["seats", "board", "battle", "declaration", "first_player", "to_decide"];
const SEAT_DRAWN = ["seat", "vp", "ap", "deck_count", "hand", "hand_count", "hand_limit", "unseen",
                    "deck_top", "ap_pile", "discard", "forces", "mulligans", "kept"];
const BATTLE_DRAWN = ["hex", "attacker", "attacker_seat", "priority", "passes", "stacks", "at_mod", "df_mod"];
const CELL_DRAWN = ["territory", "unit"];
const UNIT_DRAWN = ["id", "card", "name", "kind", "owner", "damage", "lasting_damage", "options"];

const list = (value) => (Array.isArray(value) ? value : []);
const obj = (value) => (value && typeof value === "object" && !Array.isArray(value) ? value : null);
const num = (value) => (typeof value === "number" && Number.isFinite(value) ? value : null);

function seatTitle(kit, seat) {
  if (!Number.isInteger(seat)) return "no seat";
  const name = kit.seatName(seat);
  return `Seat ${seat}${name ? ` · ${name}` : ""}`;
}

function ownerClass(seat) {
  return Number.isInteger(seat) ? `owner-${seat <= 2 ? seat : "x"}` : "owner-x";
}

function cardName(card) {
  if (card === null || card === undefined) return "hidden";
  if (typeof card !== "object") return String(card);
  return String(card.name ?? card.id ?? card.card ?? "card");
}

// A card as a chip, coloured by its owner when the view gives one.
function ownedChip(kit, card, extra = "", title = null) {
  const owner = obj(card) ? card.owner : null;
  if (extra.includes("on-field") && obj(card)) title = [card.id ?? card.card, title].filter(Boolean).join(", ");
  return kit.chip(card, { extraClass: `${ownerClass(owner)} ${extra}`.trim(), title });
}

// The other keys of a part of the view that this board does not draw itself.
function leftover(kit, value, drawn) {
  const part = obj(value);
  if (!part) return [];
  const others = Object.fromEntries(Object.entries(part).filter(([key]) => !drawn.includes(key)));
  return Object.keys(others).length ? kit.rest(others) : [];
}

// Text for screen readers (and for "what changed", which names a chip's place by its zones'
// titles): the seat or hex a title belongs to, out of sight where the table already shows it.
function hidden(kit, text) {
  return kit.el("span", { class: "visually-hidden" }, text);
}

// A seat's zone: kit.zone, its title saying whose it is; a count ends the title as "(N)".
function seatZone(kit, name, seat, title, body, extraClass) {
  const node = kit.zone(name, seat, title, body, { extraClass });
  node.setAttribute("aria-label", `seat ${seat}'s ${title}`);
  node.querySelector(":scope > .zone-title")?.prepend(hidden(kit, `Seat ${seat} · `));
  return node;
}

function viewerSeat(state) {
  const match = /^seat:(\d+)$/.exec(String(state.viewer ?? ""));
  return match ? Number(match[1]) : null;
}

// ---- the field ----

// Where a hex sits in its area's grid: display row 1-3 from the top, grid column start 1-5.
function placeOf(area, row, column, bottomSeat, topArea) {
  const top = area === topArea;
  const displayRow = top ? 4 - row : row;
  const flipped = bottomSeat === 2;
  const order = flipped ? { L: "R", C: "C", R: "L" }[column] : column;
  const start = row === 2 ? { L: 1, C: 3, R: 5 }[order] : { L: 2, R: 4 }[order] ?? 3;
  return { displayRow, start };
}

function damageText(unit) {
  const damage = num(unit.damage);
  const lasting = num(unit.lasting_damage);
  const parts = [];
  if (damage) parts.push(`damage ${damage}`);
  if (lasting) parts.push(`lasting damage ${lasting}`);
  return parts.join(", ");
}

function unitPart(kit, unit, address, role) {
  const owner = Number.isInteger(unit.owner) ? unit.owner : null;
  const damage = damageText(unit);
  const options = list(unit.options);
  const byOwner = new Map();
  for (const option of options) {
    const seat = obj(option) && Number.isInteger(option.owner) ? option.owner : null;
    if (!byOwner.has(seat)) byOwner.set(seat, []);
    byOwner.get(seat).push(option);
  }
  const optionZones = [...byOwner.entries()].map(([seat, cards]) => kit.el("div", {
    class: "hex-part hex-options", role: "group", "data-zone": "options",
    "data-seat": seat === null ? null : String(seat), "data-hex": address, "data-address": address,
    "aria-label": `options on the unit on ${address}${seat === null ? "" : `, seat ${seat}'s`}`,
  }, kit.el("span", { class: "zone-title" }, seat === null || seat === owner ? "options" : `options · seat ${seat}`,
    hidden(kit, ` on ${address}`)),
  kit.el("span", { class: "chips" }, cards.map((card) => ownedChip(kit, card, "option on-field")))));
  const what = role === "attacker" ? "attacking unit" : "unit";
  return kit.el("div", {
    class: `hex-part unit ${role} ${ownerClass(owner)}`, role: "group", "data-zone": "field",
    "data-seat": owner === null ? null : String(owner), "data-hex": address, "data-address": address,
    "aria-label": `${what} on ${address}${owner === null ? "" : `, seat ${owner}'s`}`,
  }, kit.el("span", { class: "zone-title" }, role === "attacker" ? "⚔ attacker" : "unit", hidden(kit, ` on ${address}`)),
  ownedChip(kit, unit, "unit on-field", role === "attacker" ? "attacking" : null),
  damage ? kit.el("span", { class: "damage" }, damage) : null,
  ...optionZones, ...leftover(kit, unit, UNIT_DRAWN));
}

function hexNode(kit, address, cell, battle, grid) {
  const place = obj(cell) || {};
  const territory = obj(place.territory);
  const unit = obj(place.unit);
  const fight = battle && battle.hex === address ? battle : null;
  const attacker = fight ? obj(fight.attacker) : null;
  const parts = [];
  const said = [`hex ${address}`];
  if (territory) {
    const owner = Number.isInteger(territory.owner) ? territory.owner : null;
    parts.push(kit.el("div", {
      class: `hex-part territory ${ownerClass(owner)}`, role: "group", "data-zone": "field",
      "data-seat": owner === null ? null : String(owner), "data-hex": address, "data-address": address,
      "aria-label": `territory on ${address}${owner === null ? "" : `, seat ${owner}'s`}`,
    }, kit.el("span", { class: "zone-title" }, "territory", hidden(kit, ` on ${address}`)),
    ownedChip(kit, territory, "territory on-field")));
    said.push(`territory ${cardName(territory)}${owner === null ? "" : ` of seat ${owner}`}`);
  }
  if (unit) {
    parts.push(unitPart(kit, unit, address, fight ? "defender" : "standing"));
    const options = list(unit.options).map(cardName);
    said.push(`unit ${cardName(unit)}${Number.isInteger(unit.owner) ? ` of seat ${unit.owner}` : ""}` +
              (damageText(unit) ? `, ${damageText(unit)}` : "") +
              (options.length ? `, with ${options.join(", ")}` : ""));
  }
  if (attacker) {
    parts.push(unitPart(kit, attacker, address, "attacker"));
    said.push(`attacked by ${cardName(attacker)}${Number.isInteger(attacker.owner) ? ` of seat ${attacker.owner}` : ""}`);
  }
  parts.push(...leftover(kit, place, CELL_DRAWN));
  if (!territory && !unit && !attacker) said.push("empty");
  const classes = ["hex", `row-${grid.displayRow}`, `col-${grid.start}`,
                   territory ? `land-${ownerClass(territory.owner)}` : "", fight ? "battle" : "",
                   parts.length ? "" : "empty"].filter(Boolean).join(" ");
  return kit.el("div", { class: classes, role: "group", "data-hex": address, "aria-label": said.join("; ") },
    kit.el("span", { class: "hex-address", "aria-hidden": "true" }, address),
    fight ? kit.el("span", { class: "battle-mark", "aria-hidden": "true" }, "⚔ battle") : null,
    kit.el("div", { class: "hex-body" },
      parts.length ? parts : kit.el("span", { class: "hex-empty", "aria-hidden": "true" }, "empty")));
}

function drawField(kit, state, bottomSeat) {
  const board = obj(state.board) || {};
  const battle = obj(state.battle);
  const topArea = bottomSeat === 2 ? 1 : 2;
  const areas = new Map([[topArea, []], [3 - topArea, []]]);
  const others = [];
  for (const [address, cell] of Object.entries(board)) {
    const match = SPOT.exec(address);
    if (!match) {
      others.push([address, cell]);
      continue;
    }
    const area = Number(match[1]);
    const grid = placeOf(area, Number(match[2]), match[3], bottomSeat, topArea);
    areas.get(area).push(hexNode(kit, address, cell, battle, grid));
  }
  const areaNode = (area) => kit.el("div", {
    class: `area area-${area} ${area === topArea ? "far" : "near"} ${ownerClass(area)}`,
    role: "group", "data-area": String(area),
    "aria-label": `${seatTitle(kit, area)}'s area, A${area}`,
  }, kit.el("div", { class: "area-title" }, `${seatTitle(kit, area)}'s area (A${area})`),
  kit.el("div", { class: "hexgrid" }, areas.get(area)));
  const border = kit.el("div", { class: "border-line", role: "separator", "aria-label": "the border" },
    kit.el("span", {}, "border"));
  const drawn = [areaNode(topArea), border, areaNode(3 - topArea)];
  if (others.length) {
    drawn.push(kit.el("div", { class: "other-hexes", role: "group", "aria-label": "other places" },
      others.map(([address, cell]) => hexNode(kit, address, cell, battle, { displayRow: 0, start: 0 }))));
  }
  return kit.el("section", {
    class: "field", role: "group",
    "aria-label": "The field: each area is seven hexes in rows of 2, 3 and 2, rows numbered from " +
                  "the border; each hex is listed with what stands on it",
  }, kit.el("h3", { class: "part-title" }, "The field"),
  kit.el("div", { class: "field-scroll" }, kit.el("div", { class: "field-map" }, drawn)));
}

// ---- a seat's side of the table ----

function pile(kit, count, what) {
  const shown = Math.min(Math.max(count ?? 0, 0), 4);
  return kit.el("div", { class: "pile", "aria-hidden": "true" },
    Array.from({ length: shown }, () => kit.el("span", { class: "back" })),
    kit.el("span", { class: "pile-count" }, count === null ? "?" : String(count)),
    kit.el("span", { class: "visually-hidden" }, what));
}

function hiddenChips(kit, count) {
  const shown = Math.min(Math.max(count ?? 0, 0), 30);
  return Array.from({ length: shown }, () => kit.chip(null, { title: "face down" }));
}

function chipRow(kit, cards, extra = "") {
  const items = list(cards);
  if (!items.length) return kit.el("p", { class: "none" }, "none");
  return kit.el("div", { class: "chips" }, items.map((card) => ownedChip(kit, card, extra)));
}

function stackZone(kit, seat, cards) {
  const items = list(cards);
  const body = items.length
    ? kit.el("ol", { class: "stack-list", "aria-label": `seat ${seat}'s stack, bottom to top` },
      items.map((card, i) => kit.el("li", { class: i === items.length - 1 ? "stack-top-card" : null },
        kit.el("span", { class: "stack-pos" }, i === items.length - 1 ? "top" : i === 0 ? "bottom" : String(i + 1)),
        ownedChip(kit, card, i === items.length - 1 ? "stack-top" : ""))))
    : kit.el("p", { class: "none" }, "no cards used");
  return seatZone(kit, "stack", seat, `battle stack, bottom to top (${items.length})`, body, "stack");
}

function seatArea(kit, state, seatView, seat, near) {
  const part = obj(seatView) || {};
  const battle = obj(state.battle);
  const vp = num(part.vp);
  const ap = num(part.ap);
  const deckCount = num(part.deck_count);
  const hand = Array.isArray(part.hand) ? part.hand : null;
  const handCount = num(part.hand_count) ?? (hand ? hand.length : null);
  const limit = num(part.hand_limit);
  const apPile = Array.isArray(part.ap_pile) ? part.ap_pile : null;
  const deckTop = Array.isArray(part.deck_top) ? part.deck_top : null;
  const unseen = Array.isArray(part.unseen) ? part.unseen : null;
  const forces = list(part.forces);

  const vpNode = kit.el("div", { class: "counter vp", role: "group", "aria-label": `seat ${seat}'s VP` },
    kit.el("span", { class: "counter-label" }, "VP"),
    kit.el("span", { class: "count", "data-count": vp === null ? null : String(vp) }, vp === null ? "—" : String(vp)));

  const apZone = seatZone(kit, "ap", seat, `AP, face down (${ap ?? "?"})`, [
    pile(kit, ap, `${ap ?? "unknown"} AP, face down`),
    apPile ? kit.el("div", { class: "judge-only" }, kit.el("span", { class: "small" }, "pile, top first:"),
      apPile.length ? kit.el("div", { class: "chips" }, apPile.map((c) => ownedChip(kit, c))) : " empty") : null,
  ], "ap counter-zone");
  apZone.querySelector(".pile-count")?.classList.add("count");
  apZone.querySelector(".count")?.setAttribute("data-count", ap === null ? "" : String(ap));

  const deckZone = seatZone(kit, "deck", seat, `deck (${deckCount ?? "?"})`, [
    pile(kit, deckCount, `${deckCount ?? "unknown"} cards, face down`),
    deckTop && deckTop.length ? kit.el("div", { class: "judge-only" }, kit.el("span", { class: "small" }, "known top, top first:"),
      kit.el("div", { class: "chips" }, deckTop.map((c) => ownedChip(kit, c)))) : null,
    unseen ? kit.el("details", { class: "unseen" },
      kit.el("summary", {}, `unseen: not fixed yet (${unseen.length}, a judge's view)`), chipRow(kit, unseen)) : null,
  ], "deck counter-zone");
  deckZone.querySelector(".pile-count")?.classList.add("count");
  deckZone.querySelector(".count")?.setAttribute("data-count", deckCount === null ? "" : String(deckCount));

  const handZone = seatZone(kit, "hand", seat, `hand${limit === null ? "" : `, limit ${limit}`} (${handCount ?? "?"})`, [
    hand ? chipRow(kit, hand)
      : kit.el("div", { class: "chips hidden-hand", role: "img", "aria-label": `${handCount ?? "unknown"} cards, face down` },
        handCount ? hiddenChips(kit, handCount) : kit.el("span", { class: "none" }, "none")),
  ], "hand");

  const discard = list(part.discard);
  const discardZone = seatZone(kit, "discard", seat, `discard, latest last (${discard.length})`,
    chipRow(kit, discard), "discard");

  const forcesZone = seatZone(kit, "forces", seat, `lasting forces (${forces.length})`, forces.length
    ? kit.el("ul", { class: "force-list" }, forces.map((card) => {
      const turns = obj(card) ? num(card.turns_left ?? card.turns ?? card.duration) : null;
      return kit.el("li", {}, ownedChip(kit, card, "force"),
        turns === null ? null : kit.el("span", { class: "turns" }, `${turns} turn${turns === 1 ? "" : "s"} left`));
    }))
    : kit.el("p", { class: "none" }, "none"), "forces");

  const stacks = battle ? obj(battle.stacks) : null;
  const stack = stacks && Object.hasOwn(stacks, String(seat)) ? stackZone(kit, seat, stacks[String(seat)]) : null;

  const notes = [];
  if (num(part.mulligans) !== null) notes.push(`mulligans ${part.mulligans}`);
  if (typeof part.kept === "boolean") notes.push(part.kept ? "hand kept" : "deciding on the hand");
  if (state.first_player === seat) notes.push("first player");
  if (state.active === seat) notes.push("active");

  const head = kit.el("div", { class: "seat-head" },
    kit.el("h3", { class: "part-title" }, seatTitle(kit, seat)),
    notes.length ? kit.el("span", { class: "seat-notes" }, notes.join(" · ")) : null);
  return kit.el("section", {
    class: `seat-area ${near ? "near" : "far"} ${ownerClass(seat)}`, role: "group",
    "data-seat-area": String(seat), "aria-label": `${seatTitle(kit, seat)}'s side of the table`,
  }, head,
  kit.el("div", { class: "seat-row counters" }, vpNode, apZone, deckZone),
  kit.el("div", { class: "seat-row zones" }, handZone, discardZone, forcesZone, stack),
  ...leftover(kit, part, SEAT_DRAWN));
}

// ---- the battle, the declaration, the setup facts ----

function modText(mods) {
  const entries = Object.entries(obj(mods) || {});
  return entries.length ? entries.map(([s, v]) => `seat ${s} ${Number(v) > 0 ? "+" : ""}${v}`).join(", ") : "none";
}

function battlePanel(kit, state) {
  const battle = obj(state.battle);
  if (!battle) return null;
  const attacker = obj(battle.attacker);
  const cell = obj(obj(state.board)?.[battle.hex]);
  const defender = cell ? obj(cell.unit) : null;
  const facts = kit.facts([
    ["hex", battle.hex ?? "—"],
    ["attacker", attacker ? `${cardName(attacker)} (seat ${battle.attacker_seat ?? attacker.owner ?? "?"}), on the hex` : "—"],
    ["defender", defender ? `${cardName(defender)} (seat ${defender.owner ?? "?"})` : "none"],
    ["priority", Number.isInteger(battle.priority) ? `seat ${battle.priority}` : battle.priority ?? "—"],
    ["passes", battle.passes ?? 0],
    ["AT modifiers", modText(battle.at_mod)],
    ["DF modifiers", modText(battle.df_mod)],
    ["stacks", "in each seat's area"],
  ]);
  return kit.el("section", { class: "battle-panel", role: "group", "aria-label": `the battle on ${battle.hex ?? "the field"}` },
    kit.el("h3", { class: "part-title" }, `⚔ Battle on ${battle.hex ?? "?"}`), facts,
    ...leftover(kit, battle, BATTLE_DRAWN));
}

function tableFacts(kit, state) {
  const pairs = [];
  if (state.first_player !== undefined) pairs.push(["first player", Number.isInteger(state.first_player) ? seatTitle(kit, state.first_player) : state.first_player]);
  const deciding = list(state.to_decide);
  if (Array.isArray(state.to_decide)) pairs.push(["to keep or mulligan", deciding.length ? deciding.map((s) => `seat ${s}`).join(", ") : "nobody"]);
  const declaration = obj(state.declaration);
  const parts = [];
  if (declaration) {
    parts.push(kit.el("p", { class: "declaration", role: "status" },
      `${seatTitle(kit, declaration.seat)} declared victory on turn ${declaration.turn ?? "?"}: ` +
      "it must still hold at the end of the opponent's next turn."));
  } else if ("declaration" in state) pairs.push(["declaration", "none"]);
  const listed = kit.facts(pairs);
  return kit.el("section", { class: "table-facts", role: "group", "aria-label": "the table" }, parts, listed);
}

export function draw(state, kit) {
  const bottomSeat = viewerSeat(state) === 2 ? 2 : 1;
  const topSeat = 3 - bottomSeat;
  const seatViews = list(state.seats).filter((s) => obj(s));
  const bySeat = new Map(seatViews.map((s) => [s.seat, s]));
  const far = bySeat.has(topSeat) ? seatArea(kit, state, bySeat.get(topSeat), topSeat, false) : null;
  const near = bySeat.has(bottomSeat) ? seatArea(kit, state, bySeat.get(bottomSeat), bottomSeat, true) : null;
  const extraSeats = seatViews.filter((s) => s.seat !== topSeat && s.seat !== bottomSeat)
    .map((s) => seatArea(kit, state, s, s.seat, false));
  const middle = kit.el("div", { class: "middle" }, drawField(kit, state, bottomSeat),
    kit.el("div", { class: "middle-side" }, battlePanel(kit, state), tableFacts(kit, state)));
  return [far, middle, near, ...extraSeats,
          ...kit.rest(state, new Set(DRAWN))].filter(Boolean);
}
