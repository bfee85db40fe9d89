// Illuminati: New World Order's table: a panel per seat (its Illuminati and the power
// structure (権力構造図) hanging from it as a tree of control arrows, its hands, decks and the
// cards it has on the table), the shared New World Order plots and set-aside cards above them,
// and the attack under way drawn between the attacking card and its target.
//
// The view (engine/illuminati/views.py) gives each seat's `power_structure` as a tree: a card
// with `arrows` {top|right|bottom|left: child or null}; the child hanging from an arrow is
// controlled through it. Every parent→child pair is drawn as an `li.ps-node` with
// data-parent/data-arrow, joined to its parent by a CSS connector labelled with the arrow, and
// said in words ("X controls Y by its right arrow") in a visually-hidden list.

const ARROWS = ["top", "right", "bottom", "left"];
const GLYPH = { top: "↑", right: "→", bottom: "↓", left: "←" };

// The seat's keys drawn by its panel; any other key of a seat is drawn generically.
const SEAT_KEYS = new Set([
  "seat", "illuminati", "power_structure", "groups", "plot_hand_count", "plot_hand",
  "group_hand_count", "group_hand", "plot_deck_count", "group_deck_count", "plot_deck",
  "group_deck", "resources", "agents", "plots", "loose", "links", "discard", "destroyed",
]);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const listOf = (v) => (Array.isArray(v) ? v : []);
const idOf = (card) => (isObject(card) ? (card.id ?? card.card ?? null) : (typeof card === "string" ? card : null));
const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);

// Every card the view names by a dict, by id (so an attack's or a claim's bare id reads as a card).
function indexCards(value, found = new Map(), depth = 0) {
  if (depth > 40 || value === null || typeof value !== "object") return found;
  if (Array.isArray(value)) {
    for (const item of value) indexCards(item, found, depth + 1);
    return found;
  }
  const id = idOf(value);
  if (typeof value.name === "string" && typeof id === "string" && !found.has(id)) found.set(id, value);
  for (const inner of Object.values(value)) indexCards(inner, found, depth + 1);
  return found;
}

export function draw(state, kit) {
  const { el } = kit;
  const st = isObject(state) ? state : {};
  const cards = indexCards(st);
  const attack = isObject(st.attack) ? st.attack : null;
  const eliminated = new Set(listOf(st.eliminated));
  const toAct = new Set(listOf(st.to_act));

  // The attacking card and its target are marked wherever they are drawn.
  const marks = new Map();
  if (attack) {
    if (typeof attack.attacker === "string") marks.set(attack.attacker, ["ill-attacker", "attacking"]);
    if (typeof attack.target === "string") marks.set(attack.target, ["ill-target", "target of the attack"]);
  }

  const nameOf = (id) => {
    const card = cards.get(id);
    return card ? card.name : String(id);
  };
  const seatText = (seat) => {
    const name = kit.seatName(seat);
    return `Seat ${seat}${name ? ` · ${name}` : ""}`;
  };

  // A card as a chip, marked if it attacks or is attacked; `extra` classes added.
  const chipOf = (card, extra = "", title = null) => {
    if (card === null || card === undefined) return kit.chip(null, { extraClass: extra, title });
    const id = idOf(card);
    const mark = id !== null ? marks.get(id) : null;
    const classes = [extra, mark ? mark[0] : ""].filter(Boolean).join(" ");
    const titles = [title, mark ? mark[1] : null].filter(Boolean).join(" · ") || null;
    return kit.chip(typeof card === "string" && cards.has(card) ? cards.get(card) : card,
      { extraClass: classes, title: titles });
  };

  const chipRow = (items, extra = "") => (items.length
    ? el("div", { class: "chips" }, items.map((c) => chipOf(c, extra)))
    : el("p", { class: "none" }, "none"));

  // A card's printed numbers beside its chip: power (global), resistance, tokens.
  const stats = (card) => {
    const parts = [];
    const power = num(card.power);
    if (power !== null) {
      const now = num(card.power_now);
      const global = num(card.global_power);
      parts.push(el("span", { class: "ill-stat ill-power", title: "power (global power)" },
        `P ${now !== null && now !== power ? `${power}→${now}` : power}`,
        global !== null ? ` (${global})` : ""));
    }
    const resistance = num(card.resistance);
    if (resistance !== null) {
      const now = num(card.resistance_now);
      parts.push(el("span", { class: "ill-stat ill-resistance", title: "resistance" },
        `R ${now !== null && now !== resistance ? `${resistance}→${now}` : resistance}`));
    }
    const tokens = num(card.tokens);
    if (tokens !== null && tokens > 0) {
      parts.push(el("span", { class: "ill-stat ill-tokens", title: "action tokens on the card" },
        `${"●".repeat(Math.min(tokens, 5))} ${tokens} token${tokens === 1 ? "" : "s"}`));
    }
    if (card.used_this_turn === true) parts.push(el("span", { class: "ill-stat ill-used" }, "used this turn"));
    const aligns = listOf(card.alignments).filter((a) => typeof a === "string");
    if (aligns.length) {
      parts.push(el("span", { class: "ill-aligns", title: "alignments" },
        aligns.map((a) => el("span", { class: `ill-align ill-align-${a}` }, a))));
    }
    if (typeof card.plot_type === "string") {
      parts.push(el("span", { class: "ill-stat ill-plot-type" }, kit.label(card.plot_type)));
    }
    return parts.length ? el("span", { class: "ill-stats" }, parts) : null;
  };

  // A card drawn as on the table: its chip and its numbers.
  const cardFace = (card, extra = "") => {
    const id = idOf(card);
    const mark = id !== null ? marks.get(id) : null;
    const kind = isObject(card) && typeof card.kind === "string" ? `ill-kind-${card.kind}` : "";
    return el("div", { class: ["ill-card", kind, extra, mark ? `${mark[0]}-card` : ""].filter(Boolean).join(" ") },
      chipOf(card), isObject(card) ? stats(card) : null);
  };

  // ---- the power structure ----
  const sentences = [];
  const node = (card, parent, arrow, depth) => {
    const id = idOf(card);
    const arrows = isObject(card.arrows) ? card.arrows : {};
    const sides = [...ARROWS.filter((a) => Object.hasOwn(arrows, a)),
                   ...Object.keys(arrows).filter((a) => !ARROWS.includes(a))];
    const children = sides.filter((a) => isObject(arrows[a]));
    const open = sides.filter((a) => !isObject(arrows[a]));
    const item = el("li", {
      class: `ps-node${parent === null ? " ps-root" : ""}${arrow ? ` ps-from-${arrow}` : ""}`,
      "data-node": id, "data-parent": parent, "data-arrow": arrow, "data-depth": String(depth),
    });
    const row = el("div", { class: "ps-row" });
    if (arrow) {
      row.append(el("span", { class: `ps-link ps-link-${arrow}`, "aria-hidden": "true",
                              title: `controlled by ${nameOf(parent)}'s ${arrow} arrow` },
        el("span", { class: "ps-glyph" }, GLYPH[arrow] || "•"), ` ${arrow}`));
    }
    const face = cardFace(card, parent === null ? "ps-card ps-root-card" : "ps-card");
    if (open.length) {
      face.append(el("span", { class: "ps-open", title: "control arrows with nothing under them" },
        "open ", open.map((a) => el("span", { class: "ps-open-arrow", title: `${a} arrow free` }, GLYPH[a] || a)),
        el("span", { class: "visually-hidden" }, `: ${open.join(", ")}`)));
    }
    row.append(face);
    item.append(row);
    if (children.length && depth < 30) {
      const below = el("ul", { class: "ps-children" });
      for (const side of children) {
        const child = arrows[side];
        sentences.push(`${card.name} controls ${child.name} by its ${side} arrow.`);
        below.append(node(child, id, side, depth + 1));
      }
      item.append(below);
    }
    return item;
  };

  const structureZone = (seat, s) => {
    sentences.length = 0;
    let body;
    const root = isObject(s.power_structure) ? s.power_structure : null;
    if (root) {
      const tree = el("ul", { class: "ps-tree" }, node(root, null, null, 0));
      const said = sentences.length ? [...sentences]
        : [`${root.name} controls no group yet.`];
      body = [tree, el("ul", { class: "visually-hidden ps-said" }, said.map((t) => el("li", {}, t)))];
    } else if (isObject(s.illuminati)) {
      body = [el("ul", { class: "ps-tree" }, node({ ...s.illuminati, arrows: {} }, null, null, 0))];
    } else {
      body = [el("p", { class: "none" }, "no Illuminati on the table yet")];
    }
    const groups = num(s.groups);
    const goal = num(st.goal_groups);
    const title = `power structure${groups !== null ? ` · ${groups} group${groups === 1 ? "" : "s"}` : ""}` +
      `${groups !== null && goal !== null ? ` of ${goal} to win` : ""}`;
    return kit.zone("structure", seat, title, el("div", { class: "ps-wrap" }, body), { extraClass: "ill-structure" });
  };

  // ---- hands and decks ----
  const handZone = (seat, s, key, title) => {
    const shown = listOf(s[key]);
    const count = num(s[`${key}_count`]);
    const hidden = count !== null ? Math.max(0, count - shown.length) : 0;
    const total = count !== null ? count : shown.length;
    const items = [...shown.map((c) => chipOf(c)),
                   ...Array.from({ length: Math.min(hidden, 12) }, () => kit.chip(null, { extraClass: "ill-back", title: "a card face down" }))];
    const body = [];
    body.push(items.length ? el("div", { class: "chips" }, items) : el("p", { class: "none" }, "none"));
    if (hidden) {
      body.push(el("p", { class: "ill-hidden-note" },
        shown.length ? `${shown.length} shown to all, ${hidden} hidden` : `${hidden} hidden`));
    }
    return kit.zone(key, seat, `${title} ${total}`, body, { extraClass: "ill-hand" });
  };

  const deckZone = (seat, s, key, title) => {
    const count = num(s[`${key}_count`]);
    const known = Array.isArray(s[key]) ? s[key] : null;
    const total = count !== null ? count : known ? known.length : null;
    const body = [el("div", { class: `ill-deck-back ill-deck-${key}`, "aria-hidden": "true" },
      total === null ? "?" : String(total))];
    if (known && known.length) {
      body.push(el("details", { class: "ill-deck-list" },
        el("summary", {}, `its ${known.length} cards (shuffled, unordered)`),
        el("div", { class: "chips" }, known.map((c) => chipOf(c)))));
    } else {
      body.push(el("span", { class: "ill-deck-note" }, total === 0 ? "empty" : "face down"));
    }
    return kit.zone(key, seat, `${title} ${total === null ? "?" : total}`, el("div", { class: "ill-deck" }, body),
      { extraClass: "ill-deck-zone" });
  };

  const tableZone = (seat, s, key, title, faces = false) => {
    const items = listOf(s[key]);
    const body = !items.length ? el("p", { class: "none" }, "none")
      : faces ? el("div", { class: "ill-faces" }, items.map((c) => (isObject(c) ? cardFace(c) : chipOf(c))))
        : chipRow(items);
    const size = !items.length ? "ill-empty" : items.length > 2 || faces ? "ill-wide" : "";
    return kit.zone(key, seat, `${title} (${items.length})`, body, { extraClass: `ill-${key} ${size}`.trim() });
  };

  const linksZone = (seat, s) => {
    const links = listOf(s.links).filter(Array.isArray);
    if (!links.length) return null;
    return el("div", { class: "zone ill-links", role: "group", "aria-label": "links", "data-zone": "links",
                       "data-seat": String(seat) },
      el("div", { class: "zone-title" }, `links (${links.length})`),
      el("ul", { class: "ill-link-list" }, links.map((pair) =>
        el("li", {}, pair.map((id) => nameOf(id)).join(" ⟷ ")))));
  };

  const chosenZone = (seat) => {
    const chosen = isObject(st.chosen) ? st.chosen : null;
    if (!chosen || !Object.hasOwn(chosen, String(seat))) return null;
    const value = chosen[String(seat)];
    const body = isObject(value) ? el("div", { class: "chips" }, chipOf(value))
      : el("div", { class: "chips" }, kit.chip(null, { extraClass: "ill-back", title: "laid face down" }),
        el("span", { class: "ill-hidden-note" }, kit.scalarText(value)));
    return kit.zone("chosen", seat, "chosen, face down", body, { extraClass: "ill-chosen" });
  };

  // ---- a seat's panel ----
  const seatPanel = (s, index) => {
    const seat = Number.isInteger(s.seat) ? s.seat : index + 1;
    const out = eliminated.has(seat);
    const active = st.active === seat;
    const you = st.viewer === `seat:${seat}`;
    const badges = [
      active ? el("span", { class: "ill-badge ill-badge-active" }, "active") : null,
      toAct.has(seat) && !active ? el("span", { class: "ill-badge ill-badge-to-act" }, "to act") : null,
      out ? el("span", { class: "ill-badge ill-badge-out" }, "eliminated") : null,
      you ? el("span", { class: "ill-badge ill-badge-you" }, "you") : null,
    ];
    const head = el("header", { class: "ill-seat-head" },
      el("h3", { class: "ill-seat-name" }, seatText(seat)), badges);
    const zones = el("div", { class: "ill-seat-zones" },
      chosenZone(seat),
      handZone(seat, s, "plot_hand", "plot hand"),
      handZone(seat, s, "group_hand", "group hand"),
      deckZone(seat, s, "plot_deck", "plot deck"),
      deckZone(seat, s, "group_deck", "group deck"),
      tableZone(seat, s, "resources", "resources", true),
      tableZone(seat, s, "agents", "agents"),
      tableZone(seat, s, "plots", "plots on the table"),
      tableZone(seat, s, "loose", "loose groups", true),
      linksZone(seat, s),
      tableZone(seat, s, "discard", "discard"),
      tableZone(seat, s, "destroyed", "destroyed"));
    const others = Object.entries(s).filter(([k]) => !SEAT_KEYS.has(k));
    const extra = others.length ? el("div", { class: "boxes" }, others.map(([k, v]) => (kit.isScalar(v)
      ? kit.facts([[k, v]]) : kit.box(kit.label(k), v, 2, k, seat)))) : null;
    const state = [active ? "active" : null, out ? "eliminated" : null].filter(Boolean).join(", ");
    return el("section", {
      class: ["ill-seat", active ? "ill-active" : "", out ? "ill-out" : "", you ? "ill-you" : ""].filter(Boolean).join(" "),
      role: "group", "aria-label": `${seatText(seat)}${state ? ` (${state})` : ""}`,
      "data-seat": String(seat), "aria-current": active ? "true" : null,
    }, head, structureZone(seat, s), zones, extra);
  };

  // ---- what the seats share ----
  const orderStrip = () => {
    const order = listOf(st.order).filter((x) => Number.isInteger(x));
    if (!order.length) return null;
    return el("div", { class: "ill-order", role: "group", "aria-label": "turn order" },
      el("span", { class: "ill-order-title" }, "Turn order"),
      el("ol", { class: "ill-order-list" }, order.map((seat) => el("li", {
        class: [st.active === seat ? "ill-order-active" : "", eliminated.has(seat) ? "ill-order-out" : ""].filter(Boolean).join(" ") || null,
      }, seatText(seat)))));
  };

  const nwoZone = () => {
    const nwo = isObject(st.new_world_order) ? st.new_world_order : {};
    const entries = Object.entries(nwo);
    return kit.zone("new_world_order", null, `New World Order (${entries.length})`,
      entries.length ? el("ul", { class: "ill-nwo" }, entries.map(([colour, card]) =>
        el("li", { class: `ill-nwo-item ill-colour-${String(colour).replace(/[^a-z0-9_-]/gi, "")}` },
          el("span", { class: "ill-colour" }, colour), " ", chipOf(card))))
        : el("p", { class: "none" }, "no plot in play"), { extraClass: "ill-nwo-zone" });
  };

  const setAsideZone = () => kit.zone("set_aside", null, `set aside (${listOf(st.set_aside).length})`,
    chipRow(listOf(st.set_aside)), { extraClass: "ill-set-aside" });

  const claimsBox = () => {
    const claims = listOf(st.claims).filter(isObject);
    return el("div", { class: "zone ill-claims", role: "group", "aria-label": "claims", "data-zone": "claims" },
      el("div", { class: "zone-title" }, `claims (${claims.length})`),
      claims.length ? el("ul", { class: "ill-claim-list" }, claims.map((c) => el("li", {},
        Number.isInteger(c.seat) ? seatText(c.seat) : "A seat", " claims ",
        c.goal !== undefined && c.goal !== null ? kit.label(String(c.goal)) : "a goal",
        c.card ? [" with ", chipOf(c.card)] : null,
        listOf(c.disputed_by).length ? `; disputed by seat ${listOf(c.disputed_by).join(", ")}` : "",
        c.ruling !== undefined && c.ruling !== null ? `; ruling: ${kit.scalarText(isObject(c.ruling) ? JSON.stringify(c.ruling) : c.ruling)}` : "")))
        : el("p", { class: "none" }, "none"));
  };

  // ---- the attack under way ----
  const terms = (list, what) => {
    const rows = listOf(list).filter(Array.isArray);
    return rows.length ? el("ul", { class: "ill-terms", "aria-label": `${what} terms` },
      rows.map(([name, value]) => el("li", {}, el("span", { class: "ill-term-name" }, kit.scalarText(name)),
        el("span", { class: "ill-term-value" }, kit.scalarText(value))))) : null;
  };

  const attackPanel = () => {
    if (!attack) return null;
    const attackerSeat = Number.isInteger(attack.seat) ? attack.seat : null;
    const targetSeat = Number.isInteger(attack.target_seat) ? attack.target_seat : null;
    const purpose = attack.purpose ? kit.label(String(attack.purpose)) : "attack";
    const attackerName = nameOf(attack.attacker);
    const targetName = nameOf(attack.target);
    const side = (cls, who, card, total, list, what) => el("div", { class: `ill-side ${cls}` },
      el("div", { class: "ill-side-who" }, who),
      card ? el("div", { class: "chips" }, chipOf(card)) : el("p", { class: "none" }, "—"),
      el("div", { class: "ill-total", "data-total": kit.scalarText(total ?? null) },
        el("span", { class: "ill-total-label" }, `${what} total `), el("strong", {}, kit.scalarText(total ?? null))),
      terms(list, what));
    const arrow = el("div", { class: "ill-attack-arrow" },
      el("span", { class: "ill-arrow-line", "aria-hidden": "true" }),
      el("span", { class: "ill-arrow-text" }, `to ${purpose}`,
        attack.power ? ` · ${kit.label(String(attack.power))}` : "",
        attack.arrow ? ` · onto the ${attack.arrow} arrow` : ""),
      el("span", { class: "ill-arrow-head", "aria-hidden": "true" }));
    const foot = [
      ["achieved", attack.achieved], ["stage", attack.stage],
      ["passed", listOf(attack.passed).length ? listOf(attack.passed).map((x) => `seat ${x}`).join(", ") : "nobody yet"],
    ].filter(([, v]) => v !== undefined);
    const said = `${attackerSeat !== null ? seatText(attackerSeat) : "A seat"}: ${attackerName} attacks ` +
      `${targetName} (${targetSeat !== null ? seatText(targetSeat) : "uncontrolled"}) to ${purpose}, ` +
      `attack ${kit.scalarText(attack.attack_total ?? null)} against defence ${kit.scalarText(attack.defence_total ?? null)}.`;
    return el("section", { class: "ill-attack", role: "group", "aria-label": `Attack under way. ${said}`,
                           "data-attacker": attack.attacker ?? null, "data-target": attack.target ?? null },
      el("div", { class: "zone-title" }, "Attack under way"),
      el("p", { class: "visually-hidden" }, said),
      el("div", { class: "ill-attack-row" },
        side("ill-attack-side", attackerSeat !== null ? `attacker · ${seatText(attackerSeat)}` : "attacker",
          attack.attacker ?? null, attack.attack_total, attack.attack_terms, "attack"),
        arrow,
        side("ill-defence-side", targetSeat !== null ? `target · ${seatText(targetSeat)}` : "target · uncontrolled",
          attack.target ?? null, attack.defence_total, attack.defence_terms, "defence")),
      kit.facts(foot),
      attack.paid_with ? el("div", { class: "ill-paid" }, "paid with ", chipOf(attack.paid_with)) : null);
  };

  const seats = Array.isArray(st.seats) ? st.seats.filter(isObject) : [];
  const drawn = new Set(["attack", "claims", "new_world_order", "set_aside", "order", "chosen"]);
  if (Array.isArray(st.seats)) drawn.add("seats");
  const goal = num(st.goal_groups);
  if (goal !== null) drawn.add("goal_groups");

  const shared = el("div", { class: "ill-shared" },
    orderStrip(),
    goal !== null ? el("p", { class: "ill-goal" }, `Basic goal: ${goal} groups`) : null,
    nwoZone(), setAsideZone(), claimsBox());
  const grid = el("div", { class: `ill-seats ill-seats-${seats.length}` }, seats.map(seatPanel));
  return [shared, attackPanel(), grid, ...kit.rest(st, drawn)].filter(Boolean);
}
