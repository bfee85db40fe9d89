// Quest for the Grail's board, drawn as the table reads: the combat in progress in the middle
// (the two sides facing each other), the table's pending business beside it (a grail attempt, an
// honour challenge, a quest reward, claims), then each seat's area (場) in a responsive grid: its
// face-up active quest, its decks and hand, its domains and its warriors, each warrior as a card
// with its badges (valor, damage, acted, questing...) and what is attached to it tucked under it,
// and its discard piles. The viewing seat's area comes first, then the others in seat order from it.
//
// The view (engine/grail/views.py): state.seats[i] = {seat, hand_count, hand, court_count, court,
// quest_count, quests, active_quest, domains, warriors: [{...card, kind, valor, damage,
// permanent_damage, attached: [cards], acted, assigned}], court_discard, quest_discard, removed,
// victory_challenge: [king ids]}; state.combat = {kind, round, step, result, sides: [{...card,
// seat, quest, quest_damage, wounded, surrender_used, for_king}]} or null; grail, honour_offer,
// reward_due, claims, victory_claim (cards named there by their instance id).

const SEAT_KEYS = new Set(["seat", "hand_count", "hand", "court_count", "court", "quest_count", "quests",
  "active_quest", "domains", "warriors", "court_discard", "quest_discard", "removed", "victory_challenge"]);
const DRAWN = ["seats", "combat", "grail", "honour_offer", "reward_due", "claims", "victory_claim"];
const WARRIOR_KEYS = new Set(["id", "card", "name", "type", "kind", "valor", "damage", "permanent_damage",
  "attached", "acted", "assigned"]);
const COMBAT_KINDS = {
  quest: "Quest combat", mortal: "Mortal combat", honour: "Honour duel", title: "Title challenge",
};
const VERBS = { quest: "attempts", mortal: "attacks", honour: "duels", title: "challenges" };

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v) => (Array.isArray(v) ? v : []);
const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// Every card of the view by its instance id (a reference by id is then named).
function cardIndex(state, kit) {
  const found = new Map();
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      if (kit.isCard(value)) {
        const id = value.id ?? value.card;
        if (!found.has(id)) found.set(id, value);
      }
      Object.values(value).forEach(walk);
    }
  };
  walk(state);
  return found;
}

function seatLabel(kit, seat) {
  if (seat === null || seat === undefined) return "—";
  const name = kit.seatName(seat);
  return `Seat ${seat}${name ? ` · ${name}` : ""}`;
}

function viewerSeat(state) {
  const found = /^seat:(\d+)$/.exec(String(state.viewer ?? ""));
  return found ? Number(found[1]) : null;
}

// What the table says about each warrior beyond its own counters: in a combat, on a grail
// attempt, owed a reward, in an honour challenge, under a victory challenge.
function warriorMarks(state, seats) {
  const marks = new Map();
  const add = (id, cls, text) => {
    if (typeof id !== "string") return;
    if (!marks.has(id)) marks.set(id, []);
    marks.get(id).push([cls, text]);
  };
  const combat = isObject(state.combat) ? state.combat : null;
  if (combat) {
    list(combat.sides).forEach((side, i) => {
      if (!isObject(side) || side.quest) return;
      const id = side.id ?? side.card;
      if (combat.kind === "quest") add(id, "questing", "questing");
      else add(id, "fighting", `${i === 0 ? "attacking" : "defending"} (${String(combat.kind ?? "combat")})`);
      if (side.wounded) add(id, "wounded", "mortally wounded");
      if (side.for_king) add(id, "champion", "champion of a king");
    });
  }
  if (isObject(state.grail)) {
    add(state.grail.knight, "grail", `on the grail quest (${num(state.grail.successes) ?? 0} of 3)`);
  }
  if (isObject(state.reward_due)) add(state.reward_due.warrior, "reward", `reward due (value ${state.reward_due.value ?? "?"})`);
  if (isObject(state.honour_offer)) {
    add(state.honour_offer.challenger, "honour", "honour challenger");
    add(state.honour_offer.target, "honour", "honour challenged");
  }
  for (const seat of seats) {
    for (const king of list(seat.victory_challenge)) add(king, "victory", "victory challenge");
  }
  if (isObject(state.victory_claim)) {
    const claim = state.victory_claim;
    if (claim.what === "grail") add(claim.knight, "victory", "grail claimed");
    else add(claim.king, "victory", "victory claimed");
  }
  return marks;
}

export function draw(state, kit) {
  const { el } = kit;
  const seats = list(state.seats).filter(isObject);
  const index = cardIndex(state, kit);
  const marks = warriorMarks(state, seats);

  // A card named by its instance id: its name as text (not a chip: the card itself is drawn
  // where it lies).
  const ref = (id) => {
    if (id === null || id === undefined) return el("span", { class: "grail-ref unknown" }, "a hidden card");
    const card = index.get(String(id));
    return el("span", { class: "grail-ref", "data-ref": String(id), title: String(id) },
      card ? card.name : String(id));
  };
  const badge = (text, cls = "") => el("li", { class: `grail-badge ${cls}`.trim() }, text);
  const panel = (key, title, body, extra = "") => el("section", {
    class: `zone grail-panel grail-${key.replaceAll("_", "-")} ${extra}`.trim(), role: "group",
    "aria-label": title, "data-zone": key,
  }, el("div", { class: "zone-title" }, title), body);

  const parts = [];

  // ---- the middle of the table: the combat and what the table waits on ----
  const centre = [];
  if (isObject(state.combat)) centre.push(drawCombat(state.combat));
  if (isObject(state.grail)) centre.push(drawGrail(state.grail));
  if (isObject(state.honour_offer)) {
    const offer = state.honour_offer;
    centre.push(panel("honour_offer", "Honour challenge", el("p", { class: "grail-line" },
      ref(offer.challenger), " challenges ", ref(offer.target), " to an honour duel; the answer is awaited.")));
  }
  if (isObject(state.reward_due)) {
    const due = state.reward_due;
    centre.push(panel("reward_due", "Quest reward due", el("p", { class: "grail-line" },
      ref(due.warrior), ` achieved a quest: a reward of value ${kit.scalarText(due.value ?? null)} is due.`)));
  }
  if (list(state.claims).length) {
    centre.push(panel("claims", `Claims (${state.claims.length})`, el("ul", { class: "grail-claims" },
      list(state.claims).map((c) => (isObject(c) ? el("li", { "data-seat": Number.isInteger(c.seat) ? String(c.seat) : null },
        `${seatLabel(kit, c.seat)} claims ${kit.label(c.what ?? "?")}`,
        c.about !== undefined ? [" about ", ref(c.about)] : null,
        c.disputed_by !== null && c.disputed_by !== undefined ? `, disputed by seat ${c.disputed_by}` : ", undisputed",
        extraFacts(c, ["seat", "what", "about", "disputed_by"])) : el("li", {}, kit.scalarText(c)))))));
  }
  if (isObject(state.victory_claim)) {
    const claim = state.victory_claim;
    const accepted = list(claim.accepted);
    const grail = claim.what === "grail";  // a grail won on claimed quests (OQ-22)
    const claimed = grail
      ? [`${seatLabel(kit, claim.seat)} claims the grail, won by `, ref(claim.knight), " on the claimed quest ", ref(claim.quest)]
      : [`${seatLabel(kit, claim.seat)} claims the alternate victory of `, ref(claim.king)];
    centre.push(panel("victory_claim", grail ? "Grail claimed" : "Alternate victory claimed", [el("p", { class: "grail-line" },
      ...claimed,
      `; accepted by ${accepted.length ? accepted.map((s) => `seat ${s}`).join(", ") : "nobody yet"}`,
      claim.disputed_by !== null && claim.disputed_by !== undefined ? `; disputed by seat ${claim.disputed_by}` : "",
      "."), extraFacts(claim, ["seat", "what", "king", "knight", "quest", "disputed_by", "accepted"])]));
  }
  if (centre.length) parts.push(el("div", { class: "grail-centre" }, centre));

  // ---- the seats' areas ----
  const mine = viewerSeat(state);
  const ordered = [...seats].sort((a, b) => (a.seat ?? 0) - (b.seat ?? 0));
  const at = ordered.findIndex((s) => s.seat === mine);
  if (at > 0) ordered.push(...ordered.splice(0, at));
  const eliminated = new Set(list(state.eliminated));
  parts.push(el("div", { class: `grail-seats seats-${Math.min(ordered.length, 4)}` },
    ordered.map((s, i) => drawSeat(s, Number.isInteger(s.seat) ? s.seat : i + 1))));

  parts.push(...kit.rest(state, new Set(DRAWN)));
  return parts;

  // Any field of a part of the view this board does not know, as facts.
  function extraFacts(value, known) {
    const pairs = Object.entries(value).filter(([k, v]) => !known.includes(k) && kit.isScalar(v));
    const others = Object.entries(value).filter(([k, v]) => !known.includes(k) && !kit.isScalar(v));
    return [kit.facts(pairs), ...others.map(([k, v]) => kit.box(kit.label(k), v, 2, k))].filter(Boolean);
  }

  function drawCombat(combat) {
    const sides = list(combat.sides);
    const kind = String(combat.kind ?? "combat");
    const title = COMBAT_KINDS[kind] || kit.label(kind);
    const who = (side) => (isObject(side)
      ? `${side.quest ? `the quest ${side.name}` : side.name} (${seatLabel(kit, side.seat)})` : "—");
    const summary = sides.length >= 2
      ? `${who(sides[0])} ${VERBS[kind] || "fights"} ${who(sides[1])}`
      : sides.map(who).join(", ") || "no sides";
    let result = "under way";
    const won = /^win:(\d+)$/.exec(String(combat.result ?? ""));
    if (won) result = `won by ${who(sides[Number(won[1])])}`;
    else if (combat.result === "draw") result = "a draw";
    else if (combat.result) result = String(combat.result);
    const facing = [];
    sides.forEach((side, i) => {
      if (i > 0) facing.push(el("div", { class: "grail-versus", "aria-hidden": "true" }, "⚔"));
      facing.push(drawSide(side, i, kind));
    });
    return el("section", {
      class: `zone grail-panel grail-combat kind-${kind}`, role: "group",
      "aria-label": `${title}: ${summary}, round ${combat.round ?? 0}`, "data-zone": "combat",
    },
    el("div", { class: "zone-title" }, "Combat"),
    el("p", { class: "grail-combat-summary" }, el("strong", {}, `${title}: `), summary, "."),
    el("ul", { class: "grail-badges grail-combat-facts", "aria-label": "combat facts" },
      badge(`round ${kit.scalarText(combat.round ?? 0)}`, "round"),
      badge(`step: ${kit.label(combat.step ?? "—")}`, "step"),
      badge(`result: ${result}`, combat.result ? "result decided" : "result")),
    el("div", { class: `grail-facing sides-${sides.length}` }, facing),
    extraFacts(combat, ["kind", "round", "step", "result", "sides"]));
  }

  function drawSide(side, i, kind) {
    if (!isObject(side)) return el("div", { class: "grail-side" }, kit.chip(null));
    const role = kind === "quest" ? (side.quest ? "the quest" : "the questing warrior")
      : i === 0 ? "attacker" : "defender";
    const id = side.id ?? side.card;
    const onField = seats.flatMap((s) => list(s.warriors)).find((w) => isObject(w) && (w.id ?? w.card) === id);
    const badges = [];
    if (onField) {
      badges.push(badge(`valor ${kit.scalarText(onField.valor ?? null)}`, "valor"));
      if (num(onField.damage)) badges.push(badge(`damage ${onField.damage}`, "damage"));
      if (num(onField.permanent_damage)) badges.push(badge(`permanent damage ${onField.permanent_damage}`, "damage"));
    }
    if (side.quest) badges.push(badge(`quest damage ${kit.scalarText(side.quest_damage ?? 0)}`, "damage"));
    if (side.wounded) badges.push(badge("mortally wounded", "wounded"));
    if (side.surrender_used) badges.push(badge("surrender asked", "surrender"));
    const known = ["id", "card", "name", "type", "seat", "quest", "quest_damage", "wounded", "surrender_used", "for_king"];
    return el("div", {
      class: `box grail-side side-${i} ${side.quest ? "is-quest" : "is-warrior"} ${side.wounded ? "wounded" : ""}`.trim(),
      role: "group", "aria-label": `Side ${i + 1}, ${role}: ${side.name ?? id}`,
      "data-side": String(i), "data-seat": Number.isInteger(side.seat) ? String(side.seat) : null,
    },
    el("div", { class: "box-title" }, `Side ${i + 1} · ${role}`),
    el("p", { class: "grail-side-seat" }, seatLabel(kit, side.seat)),
    el("div", { class: "grail-fighter" }, kit.chip(side)),
    side.for_king ? el("p", { class: "grail-line" }, "champion for ", ref(side.for_king)) : null,
    badges.length ? el("ul", { class: "grail-badges", "aria-label": "side's state" }, badges) : null,
    extraFacts(side, known));
  }

  function drawGrail(grail) {
    const successes = num(grail.successes) ?? 0;
    const pips = el("span", { class: "grail-pips", "aria-hidden": "true" },
      [0, 1, 2].map((n) => el("span", { class: `pip ${n < successes ? "done" : ""}`.trim() }, n < successes ? "◆" : "◇")));
    const eligible = list(grail.eligible);
    return panel("grail", "Grail quest", [
      el("p", { class: "grail-line" }, `${seatLabel(kit, grail.seat)} sends `, ref(grail.knight),
        " on the grail quest: ", pips, el("span", {}, ` ${successes} of 3 quests achieved`), "."),
      el("p", { class: "grail-line" }, "Eligible quests: ",
        eligible.length ? eligible.flatMap((q, n) => (n ? [", ", ref(q)] : [ref(q)])) : "none shown", "."),
      extraFacts(grail, ["seat", "knight", "successes", "eligible"]),
    ]);
  }

  function zoneTitle(text, count) {
    return count === null || count === undefined ? text : `${text} (${count})`;
  }

  // A hidden pile or deck: its count, the cards when the view holds them (judges), collapsed.
  function deck(name, seat, title, cards, count) {
    const n = num(count) ?? (Array.isArray(cards) ? cards.length : 0);
    const body = [el("div", { class: "grail-deck-back", "aria-hidden": "true" }, String(n))];
    if (Array.isArray(cards)) {
      body.push(el("details", { class: "grail-deck-list" },
        el("summary", {}, `the ${plural(cards.length, "card")}, face down`),
        cards.length ? el("div", { class: "chips" }, cards.map((c) => kit.chip(c))) : el("p", { class: "none" }, "none")));
    } else {
      body.push(el("p", { class: "grail-count" }, `${plural(n, "card")}, face down`), kit.chip(null, { title: "face down" }));
    }
    return kit.zone(name, seat, zoneTitle(title, n), el("div", { class: "grail-deck" }, body),
      { extraClass: `grail-${name}` });
  }

  function drawHand(s, seat) {
    const n = num(s.hand_count) ?? (Array.isArray(s.hand) ? s.hand.length : 0);
    let body;
    if (Array.isArray(s.hand)) {
      body = s.hand.length ? el("div", { class: "chips" }, s.hand.map((c) => kit.chip(c))) : el("p", { class: "none" }, "empty");
    } else {
      body = el("div", { class: "grail-deck" },
        el("p", { class: "grail-count" }, `${plural(n, "card")}, hidden`), kit.chip(null, { title: "hidden hand" }));
    }
    return kit.zone("hand", seat, zoneTitle("Hand", n), body, { extraClass: "grail-hand" });
  }

  function pile(name, seat, title, cards) {
    const items = list(cards);
    return kit.zone(name, seat, zoneTitle(title, items.length),
      items.length ? el("div", { class: "chips" }, items.map((c) => kit.chip(c))) : el("p", { class: "none" }, "empty"),
      { extraClass: `grail-pile grail-${name}` });
  }

  function drawWarrior(w, seat) {
    if (!isObject(w)) return el("li", { class: "grail-warrior" }, kit.chip(null));
    const id = w.id ?? w.card;
    const damage = num(w.damage) ?? 0;
    const permanent = num(w.permanent_damage) ?? 0;
    const own = marks.get(id) || [];
    const badges = [
      w.kind ? badge(String(w.kind), `kind kind-${w.kind}`) : null,
      badge(`valor ${kit.scalarText(w.valor ?? null)}`, "valor"),
      badge(`damage ${damage}`, damage ? "damage injured" : "damage none"),
      permanent ? badge(`permanent damage ${permanent}`, "damage permanent") : null,
      w.acted ? badge("acted", "acted") : null,
      w.assigned ? badge("assigned", "assigned") : null,
      ...own.map(([cls, text]) => badge(text, cls)),
    ].filter(Boolean);
    const attached = list(w.attached);
    const classes = ["box", "grail-warrior", w.acted ? "acted" : "", damage || permanent ? "injured" : "",
      ...own.map(([cls]) => `is-${cls}`)].filter(Boolean).join(" ");
    return el("li", {
      class: classes, role: "group", "data-warrior": id, "data-seat": String(seat),
      "aria-label": `${w.name ?? id}: ${badges.map((b) => b.textContent).join(", ")}; ${plural(attached.length, "card")} attached`,
    },
    el("div", { class: "box-title grail-warrior-card" },
      kit.chip(w, { extraClass: `grail-warrior-chip ${w.acted ? "exhausted" : ""}`.trim(), title: w.acted ? "acted this turn" : null })),
    el("ul", { class: "grail-badges", "aria-label": "state" }, badges),
    extraFacts(w, [...WARRIOR_KEYS]),
    el("div", { class: "grail-attached", role: "group", "aria-label": `attached to ${w.name ?? id}` },
      el("div", { class: "grail-attached-title" }, attached.length ? `attached (${attached.length})` : "nothing attached"),
      attached.length ? el("ol", { class: "grail-attached-list" }, attached.map((a) => el("li", {
        class: `grail-attachment type-${isObject(a) ? String(a.type ?? "card") : "card"}`,
      },
      el("span", { class: "grail-att-kind" }, isObject(a) && a.type ? kit.label(a.type) : "card"), " ",
      kit.chip(a)))) : null));
  }

  function drawSeat(s, seat) {
    const out = eliminated.has(seat);
    const active = state.active === seat;
    const warriors = list(s.warriors);
    const domains = list(s.domains);
    const valorTotal = warriors.reduce((t, w) => t + (isObject(w) ? num(w.valor) ?? 0 : 0), 0);
    const status = [
      active ? badge("to play", "active") : null,
      out ? badge("eliminated", "out") : null,
      mine === seat ? badge("you", "you") : null,
      badge(`hand ${kit.scalarText(s.hand_count ?? (Array.isArray(s.hand) ? s.hand.length : null))}`, "res"),
      badge(`court deck ${kit.scalarText(s.court_count ?? null)}`, "res"),
      badge(`quest deck ${kit.scalarText(s.quest_count ?? null)}`, "res"),
      badge(`${plural(warriors.length, "warrior")}, valor ${valorTotal}`, "res"),
      badge(plural(domains.length, "domain"), "res"),
    ].filter(Boolean);
    const quest = s.active_quest;
    const questZone = kit.zone("active_quest", seat, "Active quest",
      el("div", { class: "grail-quest-card" }, isObject(quest) || typeof quest === "string"
        ? kit.chip(quest, { extraClass: "grail-quest-chip", title: "face up" })
        : [kit.chip(null, { title: "no active quest" }), el("p", { class: "none" }, "no active quest")]),
      { extraClass: "grail-active-quest" });
    const field = kit.zone("field", seat, "Field", [
      el("div", { class: "grail-domains", role: "group", "aria-label": "domains" },
        el("div", { class: "grail-sub-title" }, `Domains (${domains.length})`),
        domains.length ? el("div", { class: "chips" }, domains.map((d) => kit.chip(d, { extraClass: "grail-domain" })))
          : el("p", { class: "none" }, "no domain")),
      el("div", { class: "grail-warriors-wrap", role: "group", "aria-label": "warriors" },
        el("div", { class: "grail-sub-title" }, `Warriors (${warriors.length})`),
        warriors.length ? el("ul", { class: "grail-warriors" }, warriors.map((w) => drawWarrior(w, seat)))
          : el("p", { class: "none" }, "no warrior")),
    ], { extraClass: "grail-field" });
    const kings = list(s.victory_challenge);
    const unknown = Object.entries(s).filter(([k]) => !SEAT_KEYS.has(k));
    return el("section", {
      class: ["box", "grail-seat", active ? "active" : "", out ? "out" : "", mine === seat ? "mine" : ""].filter(Boolean).join(" "),
      role: "group", "data-seat": String(seat),
      "aria-label": `${seatLabel(kit, seat)}${active ? ", to play" : ""}${out ? ", eliminated" : ""}`,
    },
    el("h3", { class: "box-title grail-seat-name" }, seatLabel(kit, seat)),
    el("ul", { class: "grail-badges grail-seat-status", "aria-label": "seat's state" }, status),
    kings.length ? el("p", { class: "grail-line grail-victory-challenge" }, "Victory challenge declared with ",
      kings.flatMap((k, n) => (n ? [", ", ref(k)] : [ref(k)])), ".") : null,
    el("div", { class: "grail-row grail-quests-row" }, questZone,
      deck("quests", seat, "Quest deck", s.quests, s.quest_count),
      deck("court", seat, "Court deck", s.court, s.court_count)),
    drawHand(s, seat),
    field,
    el("div", { class: "grail-row grail-piles" },
      pile("court_discard", seat, "Court discard", s.court_discard),
      pile("quest_discard", seat, "Quest discard", s.quest_discard),
      pile("removed", seat, "Removed", s.removed)),
    unknown.map(([k, v]) => (kit.isScalar(v) ? kit.facts([[k, v]]) : kit.box(kit.label(k), v, 2, k, seat))));
  }
}
