// On the Edge's own board: each seat's conspiracy (陰謀団, E6) as a grid of ranks and files,
// rank 1 (the front line) on top and file 1 on the left, each character in the cell of its
// rank and file with its state (cranked, flipped: face down but still named, OQ28) and its
// attachments under it, empty cells dotted; beside it the seat's influence, hand, deck, field
// (resources, environments, the secret and their attachments) and dead pile (死者の山). The
// table's centre: the reserve, the first player, the turn's 0-cost card, the defenders
// attacked, a pending attack (attacker and target facing each other) and a card-victory claim.
// The view is engine/edge/views.py's `view`; whatever else it holds goes through kit.rest.

const DRAWN = ["seats", "reserve", "first_player", "zero_cost_used", "attacked", "combat", "claim"];
const SEAT_KEYS = new Set(["seat", "influence", "hand_count", "hand", "deck_count", "deck",
                           "conspiracy", "field", "dead"]);
const STATE_TEXT = { cranked: "cranked", flipped: "flipped" };
const STATE_TITLE = { cranked: "cranked", flipped: "flipped: face down, still named (OQ28)" };

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const list = (value) => (Array.isArray(value) ? value : []);
const isInt = (value) => Number.isInteger(value);

function seatLabel(kit, seat) {
  const name = isInt(seat) ? kit.seatName(seat) : null;
  return `Seat ${kit.scalarText(seat)}${name ? ` · ${name}` : ""}`;
}

// A zone as the contract wants it: titled, a group for screen readers, data-zone/data-seat.
// The seat is also in the title (visually hidden), so "what changed" tells seats' zones apart;
// counts are written "(N)", which it leaves out when naming the place.
function zoneNode(kit, name, seat, title, body, native = null) {
  const { el } = kit;
  const who = isInt(seat) ? `Seat ${seat} ` : "";
  return el("div", { class: `zone edge-zone edge-${name}`, role: "group",
                     "aria-label": `${who}${title}`, "data-zone": name,
                     "data-seat": isInt(seat) ? String(seat) : null },
  el("div", { class: "zone-title", title: native }, who ? el("span", { class: "visually-hidden" }, who) : null, title),
  body);
}

function chips(kit, cards) {
  const { el } = kit;
  return cards.length ? el("div", { class: "chips" }, cards.map((c) => kit.chip(c)))
    : el("p", { class: "none" }, "none");
}

// A piece in play (a character or a permanent): its chip, marked by its state, and what is
// attached to it underneath.
function piece(kit, card, marks = {}) {
  const { el } = kit;
  const state = isObject(card) && typeof card.state === "string" ? card.state : null;
  const classes = ["edge-card"];
  if (state && state !== "active") classes.push(`edge-${state}`);
  if (marks.attacker) classes.push("edge-attacker");
  if (marks.target) classes.push("edge-target");
  const stateText = state && state !== "active" ? (STATE_TEXT[state] || state) : null;
  const chip = kit.chip(card, { extraClass: stateText ? `edge-${state}` : "",
                                 title: stateText ? (STATE_TITLE[state] || stateText) : null });
  const attached = isObject(card) ? list(card.attached) : [];
  return el("div", { class: classes.join(" "), "data-state": state },
    chip,
    stateText ? el("span", { class: `edge-state edge-state-${state}` }, stateText) : null,
    marks.attacker ? el("span", { class: "edge-tag edge-tag-attack" }, "attacking") : null,
    marks.target ? el("span", { class: "edge-tag edge-tag-target" }, "attacked") : null,
    attached.length ? el("ul", { class: "edge-attached", "aria-label": "attached" },
      attached.map((a) => el("li", {}, el("span", { class: "edge-hook", "aria-hidden": "true" }, "↳"),
        el("span", { class: "visually-hidden" }, "attached: "), kit.chip(a)))) : null);
}

// The conspiracy: ranks as rows (rank 1, the front line, first), files as columns.
function conspiracy(kit, seat, characters, combat) {
  const { el } = kit;
  // A cell for each rank and file (at most 3 ranks, E6; files renumber 1..F, so F is at most the
  // number of characters); anything without a sensible address is listed under the grid.
  const limit = Math.max(3, characters.length);
  const placed = characters.filter((c) => isObject(c) && isInt(c.rank) && isInt(c.file) && c.rank > 0 &&
                                          c.file > 0 && c.rank <= limit && c.file <= limit);
  const loose = characters.filter((c) => !placed.includes(c));
  const ranks = Math.max(0, ...placed.map((c) => c.rank));
  const files = Math.max(0, ...placed.map((c) => c.file));
  const at = new Map();
  for (const c of placed) {
    const key = `${c.rank}.${c.file}`;
    if (!at.has(key)) at.set(key, []);
    at.get(key).push(c);
  }
  const marks = (c) => ({
    attacker: Boolean(combat && isObject(c) && c.id === combat.attacker),
    target: Boolean(combat && isObject(c) && c.id === combat.target),
  });
  const parts = [];
  if (!placed.length) parts.push(el("p", { class: "none edge-empty" }, "no characters"));
  else {
    const head = el("div", { class: "edge-rank edge-files", "aria-hidden": "true" },
      el("span", { class: "edge-rank-label" }, ""),
      Array.from({ length: files }, (_, i) => el("span", { class: "edge-file-label" }, el("span", {}, `file ${i + 1}`))));
    const rows = [];
    for (let r = 1; r <= ranks; r += 1) {
      const cells = [];
      for (let f = 1; f <= files; f += 1) {
        const here = at.get(`${r}.${f}`) || [];
        const where = `rank ${r}, file ${f}`;
        cells.push(here.length
          ? el("div", { class: "box edge-cell", role: "group", "aria-label": where, "data-address": `${r}.${f}`,
                        "data-rank": String(r), "data-file": String(f) },
            here.map((c) => piece(kit, c, marks(c))))
          : el("div", { class: "box edge-cell edge-cell-empty", role: "group", "aria-label": `${where}: empty`,
                        "data-address": `${r}.${f}`, "data-rank": String(r), "data-file": String(f) },
            el("span", { class: "edge-dot", "aria-hidden": "true" }, "·"),
            el("span", { class: "visually-hidden" }, "empty")));
      }
      rows.push(el("div", { class: `edge-rank${r === 1 ? " edge-front" : ""}`, "data-rank": String(r) },
        el("span", { class: "edge-rank-label" }, `rank ${r}`, r === 1 ? el("small", {}, " front") : null),
        cells));
    }
    parts.push(el("div", { class: "edge-grid-scroll" },
      el("div", { class: "edge-grid", "data-ranks": String(ranks), "data-files": String(files) }, head, rows)));
  }
  if (loose.length) {
    parts.push(el("div", { class: "edge-loose" }, el("span", { class: "edge-note" }, "without a cell: "),
      loose.map((c) => (isObject(c) ? piece(kit, c, marks(c)) : kit.chip(c)))));
  }
  const count = characters.length;
  return zoneNode(kit, "conspiracy", seat, `conspiracy (${count})`, parts, "陰謀団");
}

function field(kit, seat, permanents) {
  const { el } = kit;
  const body = permanents.length
    ? el("ul", { class: "edge-field-list" }, permanents.map((p) => el("li", {},
      isObject(p) && typeof p.type === "string" ? el("span", { class: "edge-type" }, p.type) : null,
      isObject(p) ? piece(kit, p) : kit.chip(p))))
    : el("p", { class: "none" }, "none");
  return zoneNode(kit, "field", seat, `field (${permanents.length})`, body, "場");
}

function hand(kit, seat, data) {
  const { el } = kit;
  const count = isInt(data.hand_count) ? data.hand_count : (Array.isArray(data.hand) ? data.hand.length : null);
  const title = `hand (${count === null ? "?" : count})`;
  if (Array.isArray(data.hand)) return zoneNode(kit, "hand", seat, title, chips(kit, data.hand), "手札");
  const body = count ? el("div", { class: "edge-hidden" },
    kit.chip(null, { extraClass: "edge-back", title: `${count} hidden cards` }),
    el("span", {}, ` ${count} hidden`)) : el("p", { class: "none" }, count === 0 ? "none" : "not shown");
  return zoneNode(kit, "hand", seat, title, body, "手札");
}

function deck(kit, seat, data) {
  const { el } = kit;
  const count = isInt(data.deck_count) ? data.deck_count : (Array.isArray(data.deck) ? data.deck.length : null);
  const title = `deck (${count === null ? "?" : count})`;
  if (Array.isArray(data.deck) && data.deck.length) {
    return zoneNode(kit, "deck", seat, title,
      el("details", { class: "edge-deck" }, el("summary", {}, `${data.deck.length} cards (unordered)`),
        chips(kit, data.deck)));
  }
  const body = count ? el("div", { class: "edge-hidden" },
    kit.chip(null, { extraClass: "edge-back", title: `${count} cards face down` }),
    el("span", {}, ` ${count} face down`)) : el("p", { class: "none" }, count === 0 ? "empty" : "not shown");
  return zoneNode(kit, "deck", seat, title, body);
}

function dead(kit, seat, cards) {
  return zoneNode(kit, "dead", seat, `dead pile (${cards.length})`, chips(kit, cards), "死者の山");
}

function seatPanel(kit, state, data, ctx) {
  const { el } = kit;
  const seat = isInt(data.seat) ? data.seat : null;
  const badges = [];
  if (seat !== null && seat === ctx.me) badges.push(["you", "edge-you"]);
  if (seat !== null && seat === state.active) badges.push(["to play", "edge-badge-active"]);
  if (seat !== null && seat === state.first_player) badges.push(["first player", "edge-badge-first"]);
  if (seat !== null && ctx.attacked.has(seat)) badges.push(["attacked this turn", "edge-badge-attacked"]);
  if (seat !== null && ctx.eliminated.has(seat)) badges.push(["eliminated", "edge-badge-out"]);
  const classes = ["edge-seat"];
  if (seat !== null && seat === state.active) classes.push("edge-active");
  if (seat !== null && ctx.eliminated.has(seat)) classes.push("edge-out");
  if (seat !== null && seat === ctx.me) classes.push("edge-mine");
  const influence = data.influence;
  const extra = Object.entries(data).filter(([key]) => !SEAT_KEYS.has(key));
  return el("section", { class: classes.join(" "), role: "group", "aria-label": seatLabel(kit, seat),
                         "data-seat-panel": seat === null ? null : String(seat),
                         "aria-current": seat !== null && seat === state.active ? "true" : null },
    el("header", { class: "edge-seat-head" },
      el("h3", { class: "edge-seat-name" }, seatLabel(kit, seat)),
      el("span", { class: "edge-influence", title: "influence (影響力)" },
        el("span", { class: "edge-influence-label" }, "influence "),
        el("strong", { class: "edge-influence-value" }, kit.scalarText(influence ?? null))),
      badges.length ? el("ul", { class: "edge-badges" }, badges.map(([text, cls]) => el("li", { class: `edge-badge ${cls}` }, text))) : null),
    conspiracy(kit, seat, list(data.conspiracy), ctx.combat),
    el("div", { class: "edge-seat-zones" },
      hand(kit, seat, data),
      deck(kit, seat, data),
      field(kit, seat, list(data.field)),
      dead(kit, seat, list(data.dead))),
    extra.length ? el("div", { class: "edge-seat-rest" },
      kit.facts(extra.filter(([, v]) => kit.isScalar(v))),
      extra.filter(([, v]) => !kit.isScalar(v)).map(([k, v]) => kit.box(kit.label(k), v, 2, k, seat))) : null);
}

// Where a character stands: [seat, card] from the conspiracies (or the id's "@SEAT.").
function findCharacter(seats, id) {
  for (const data of seats) {
    for (const c of list(data.conspiracy)) {
      if (isObject(c) && c.id === id) return [data.seat, c];
    }
  }
  for (const data of seats) {
    for (const zoneName of ["field", "hand", "dead", "deck"]) {
      for (const c of list(data[zoneName])) {
        if (isObject(c) && (c.id === id || c.card === id)) return [data.seat, c];
      }
    }
  }
  const owner = typeof id === "string" ? /@(\d+)\./.exec(id) : null;
  return [owner ? Number(owner[1]) : null, null];
}

function describeCard(kit, card, id) {
  if (!card) return kit.scalarText(id ?? null);
  const where = isInt(card.rank) && isInt(card.file) ? ` (rank ${card.rank}, file ${card.file})` : "";
  return `${card.name}${where}`;
}

function combatPanel(kit, state, seats, combat) {
  const { el } = kit;
  const [attackerSeat, attacker] = findCharacter(seats, combat.attacker);
  const [targetSeat, target] = findCharacter(seats, combat.target);
  const defender = isInt(combat.defender) ? combat.defender : targetSeat;
  const fromSeat = attackerSeat ?? (isInt(state.active) ? state.active : null);
  const side = (role, seat, card, id, cls) => el("div", { class: `edge-side ${cls}` },
    el("div", { class: "edge-side-role" }, role),
    el("div", { class: "edge-side-seat" }, seatLabel(kit, seat)),
    card ? kit.chip(card, { extraClass: card.state && card.state !== "active" ? `edge-${card.state}` : "" }) : (id === null || id === undefined ? kit.chip(null) : kit.chip(String(id))),
    card && isInt(card.rank) ? el("div", { class: "edge-side-where" }, `rank ${card.rank}, file ${card.file}`) : null);
  const sentence = `${seatLabel(kit, fromSeat)}'s ${describeCard(kit, attacker, combat.attacker)} attacks `
    + `${seatLabel(kit, defender)}'s ${describeCard(kit, target, combat.target)}; waiting for its resolution.`;
  const extra = Object.entries(combat).filter(([k]) => !["attacker", "target", "defender"].includes(k));
  return el("div", { class: "box edge-combat", role: "group", "aria-label": "combat", "data-zone": "combat" },
    el("div", { class: "box-title" }, "combat: an attack declared"),
    el("p", { class: "visually-hidden" }, sentence),
    el("div", { class: "edge-face-off" },
      side("attacker", fromSeat, attacker, combat.attacker, "edge-side-attacker"),
      el("div", { class: "edge-versus", "aria-hidden": "true" }, el("span", { class: "edge-arrow" }, "⟶"), el("span", {}, "attacks")),
      side("target (defender)", defender, target, combat.target, "edge-side-target")),
    extra.length ? kit.facts(extra.filter(([, v]) => kit.isScalar(v))) : null);
}

function claimPanel(kit, seats, claim) {
  const { el } = kit;
  const [, card] = findCharacter(seats, claim.card);
  const accepted = list(claim.accepted);
  const rows = [["claimed by", seatLabel(kit, claim.seat)], ["reason", claim.reason ?? null],
    ["accepted by", accepted.length ? accepted.map((s) => seatLabel(kit, s)).join(", ") : "nobody yet"],
    ["disputed by", claim.disputed_by === null || claim.disputed_by === undefined ? "nobody" : seatLabel(kit, claim.disputed_by)]];
  for (const [k, v] of Object.entries(claim)) {
    if (!["seat", "card", "reason", "accepted", "disputed_by"].includes(k) && kit.isScalar(v)) rows.push([k, v]);
  }
  return el("div", { class: "box edge-claim", role: "group", "aria-label": "card-victory claim", "data-zone": "claim" },
    el("div", { class: "box-title" }, "claim: a card's victory"),
    el("div", { class: "chips" }, card ? kit.chip(card) : (claim.card ? kit.chip(String(claim.card)) : kit.chip(null))),
    kit.facts(rows));
}

function centre(kit, state, seats) {
  const { el } = kit;
  const parts = [];
  const reserve = state.reserve;
  if (isObject(reserve)) {
    const pulls = Object.entries(reserve);
    parts.push(el("div", { class: "box edge-reserve", role: "group", "aria-label": "reserve", "data-zone": "reserve" },
      el("div", { class: "box-title" }, "reserve (pull)"),
      el("ul", { class: "edge-pulls" }, pulls.map(([k, v]) => el("li", {},
        el("strong", { class: "edge-pull-value", "data-pull": k }, kit.scalarText(kit.isScalar(v) ? v : null)),
        ` ${kit.label(k)} pull`)))));
  } else if ("reserve" in state) {
    parts.push(el("div", { class: "box edge-reserve", role: "group", "aria-label": "reserve", "data-zone": "reserve" },
      el("div", { class: "box-title" }, "reserve (pull)"), el("p", { class: "none" }, kit.scalarText(reserve ?? null))));
  }
  const attacked = list(state.attacked);
  const facts = [];
  if ("first_player" in state) facts.push(["first player", isInt(state.first_player) ? seatLabel(kit, state.first_player) : state.first_player ?? null]);
  if ("zero_cost_used" in state) facts.push(["0-cost card used this turn", state.zero_cost_used ?? null]);
  if ("attacked" in state) facts.push(["attacked this turn", attacked.length ? attacked.map((s) => seatLabel(kit, s)).join(", ") : "nobody"]);
  if ("combat" in state && !isObject(state.combat)) facts.push(["attack pending", state.combat ? kit.scalarText(state.combat) : "none"]);
  if ("claim" in state && !isObject(state.claim)) facts.push(["claim pending", state.claim ? kit.scalarText(state.claim) : "none"]);
  if (facts.length) {
    parts.push(el("div", { class: "box edge-turn-facts", role: "group", "aria-label": "this turn" },
      el("div", { class: "box-title" }, "this turn"), kit.facts(facts)));
  }
  if (isObject(state.combat)) parts.push(combatPanel(kit, state, seats, state.combat));
  if (isObject(state.claim)) parts.push(claimPanel(kit, seats, state.claim));
  return el("div", { class: "edge-centre", role: "group", "aria-label": "the table's centre" }, parts);
}

export function draw(state, kit) {
  const { el } = kit;
  const seats = list(state.seats).filter(isObject);
  const viewer = typeof state.viewer === "string" ? /^seat:(\d+)$/.exec(state.viewer) : null;
  const me = viewer ? Number(viewer[1]) : null;
  const ordered = me === null ? seats
    : [...seats.filter((s) => s.seat === me), ...seats.filter((s) => s.seat !== me)];
  const ctx = {
    me,
    attacked: new Set(list(state.attacked)),
    eliminated: new Set(list(state.eliminated)),
    combat: isObject(state.combat) ? state.combat : null,
  };
  const nodes = [centre(kit, state, seats)];
  nodes.push(el("div", { class: `edge-seats edge-seats-${Math.min(ordered.length, 8)}`, role: "group",
                         "aria-label": "the seats' conspiracies" },
    ordered.map((data) => seatPanel(kit, state, data, ctx))));
  const odd = list(state.seats).filter((s) => !isObject(s));
  const skip = new Set(DRAWN.filter((k) => k !== "seats" || !odd.length));
  nodes.push(...kit.rest(state, skip));
  return nodes;
}
