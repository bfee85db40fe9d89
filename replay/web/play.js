// A seat's page (/play/MATCH), phone first: what the game waits for, the seat's legal actions in
// words (a tap records one; a form builds any action whose choices are combinatorial), then the
// seat's own area and the rest of the table. Signed in by the session a slip's link opened.
//
// Every tap carries the version it was made on (`expected_version`): a tap on a position that
// has moved on records nothing, and a tap sent again after a lost answer gets the first one's
// answer from the server instead of recording twice. While a tap is in flight no other is sent,
// and none can be made: the page keeps its buttons disabled and says so (body[data-busy]) until
// the tap's answer is in, even when a refresh asked for before the tap draws the next position.

import { ApiError, api, el, listen } from "/static/common.js";
import * as generic from "/static/board.js";
import { kit, label, setSeatNames } from "/static/board.js";
import { BOARDS } from "/static/boards/index.js";

const matchRef = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const ui = {
  title: document.getElementById("title"),
  banner: document.getElementById("banner"),
  status: document.getElementById("status"),
  refusal: document.getElementById("refusal"),
  actions: document.getElementById("actions"),
  own: document.getElementById("own"),
  table: document.getElementById("table"),
  who: document.getElementById("who"),
};
const page = { me: null, summary: null, turn: null, board: generic, busy: false, matchId: null,
  actingFor: null, adjustable: null };

function isStaff() {
  return page.me && (page.me.role === "judge" || page.me.role === "organiser");
}

// A judge, or the match's scorekeeper: records for any seat, chosen by a tab.
function actsForAnySeat() {
  return isStaff() || (page.me && page.me.role === "scorekeeper");
}

function seatText(seat) {
  const name = page.summary ? page.summary.players[seat - 1] : null;
  return name ? `${name} (seat ${seat})` : `seat ${seat}`;
}

async function loadBoard(game) {
  if (!Object.hasOwn(BOARDS, game)) return generic;
  const { load, style } = BOARDS[game];
  document.head.append(el("link", { rel: "stylesheet", href: style, "data-board": game }));
  try { return await load(); } catch { return generic; }
}

// ---- what the game waits for ----

function showStatus(turn) {
  ui.banner.hidden = !turn.paused;
  ui.banner.textContent = turn.paused
    ? "Paused: a judge is hearing a dispute. Actions wait for the ruling." : "";
  ui.status.classList.toggle("mine", turn.to_act.includes(turn.seat));
  if (turn.result) {
    const r = turn.result;
    const who = r.drawn ? "drawn" : `won by ${(r.winners || []).map(seatText).join(" and ")}`;
    ui.status.textContent = `The match is over: ${who}${r.reason ? ` (${label(r.reason)})` : ""}.`;
  } else if (turn.to_act.includes(turn.seat)) {
    ui.status.textContent = actsForAnySeat() ? `${seatText(turn.seat)} to act: you act for them.`
      : `Your turn: ${seatText(turn.seat)} to act.`;
  } else {
    ui.status.textContent = `Waiting for ${turn.to_act.map(seatText).join(" and ") || "nobody"}.`;
  }
}

// ---- a tournament table's best-of-N match: the score, and the next game once this one ends ----

let seriesTimer = null;

async function showSeries(turn) {
  const where = page.summary && page.summary.tournament;
  const box = document.getElementById("series");
  if (!where || !turn.result) { box.hidden = true; return; }
  clearTimeout(seriesTimer);
  let table;
  try {
    const round = await api(`/tournaments/${where.tournament_id}/rounds/${where.round}`);
    table = round.tables.find((t) => t.table === where.table);
  } catch { return; }
  if (!table) return;
  if (table.best_of > 1) {  // this game is one of the table's match
    ui.status.textContent = ui.status.textContent.replace("The match is over",
      `Game ${where.game || 1} is over`);
  }
  // the result's game score first (a judge's entry when time is called), else the games played
  const entered = table.result && (table.result.game_wins || []).length === table.players.length;
  const wins = entered ? table.result.game_wins : table.game_wins;
  const draws = entered ? table.result.game_draws : table.game_draws;
  const score = [...wins, ...(draws ? [draws] : [])].join("-");
  const event = el("a", { href: `/events/${where.tournament_id}/me` }, "My event page");
  const later = table.current_match_id !== page.matchId;
  let what;
  if (table.status === "result" && table.result) {
    const r = table.result;
    what = r.drawn ? `The match is drawn${score ? ` ${score}` : ""}.`
      : `${r.winners.map((w) => w.name).join(" and ")} won the match${score ? ` ${score}` : ""}.`;
    box.replaceChildren(el("p", {}, what, " ", event));
  } else if (later) {
    box.replaceChildren(el("p", {}, `Game ${table.games.length} is on (${score}). `,
      el("a", { href: `/play/${table.current_match_id}`, class: "button", id: "next-game-link" },
        `Go to game ${table.games.length}`)));
  } else if (table.next_game) {
    const start = el("button", { type: "button", id: "next-game" }, `Start game ${table.games.length + 1}`);
    start.addEventListener("click", async () => {
      start.disabled = true;
      try {
        const made = await api(`/tournaments/${where.tournament_id}/rounds/${where.round}/tables/${where.table}/games`,
          { method: "POST" });
        window.location.assign(`/play/${made.current_match_id}`);
      } catch (error) {
        start.disabled = false;
        if (error instanceof ApiError && error.status === 422) { showSeries(turn); return; }
        ui.refusal.hidden = false;
        ui.refusal.textContent = error.message;
      }
    });
    box.replaceChildren(el("p", {}, `Best of ${table.best_of}: ${score}. `, start));
  } else {
    box.replaceChildren(el("p", {}, `Best of ${table.best_of}: ${score}. `, event));
  }
  if (box.hidden) {  // the game just ended: what comes next is what the seat came for now
    box.hidden = false;
    window.scrollTo({ top: 0 });
  }
  if (table.status !== "result" && !later) seriesTimer = setTimeout(() => showSeries(turn), 5000);
}

// ---- the seat's actions ----

function optionName(option) {
  if (typeof option === "string") return page.turn.names[option] || option;
  if (option && typeof option === "object") return Object.values(option).map(optionName).join(" · ");
  return String(option);
}

function withField(action, field, value) {
  const out = structuredClone(action);
  const path = field.split(".");
  let at = out;
  for (const key of path.slice(0, -1)) {
    if (at[key] === undefined || at[key] === null) at[key] = {};
    at = at[key];
  }
  at[path[path.length - 1]] = value;
  return out;
}

// The choices behind one kind of action, in one form: which listed action they build on (the
// card to place, the square to gain...), then a fieldset per choice: checkboxes (numbered in
// the order ticked, for a sequence) or radio buttons. A choice left untouched keeps the listed
// action's value.
function choiceFieldset(choice) {
  const picked = [];
  let changed = false;
  const name = `${choice.action}-${choice.field}`;
  const single = choice.kind === "one_of";
  const fieldset = el("fieldset", { "data-field": choice.field });
  const boxes = choice.options.map((option, i) => {
    const order = el("span", { class: "order" });
    const input = el("input", { type: single ? "radio" : "checkbox", name, value: String(i),
      "data-option": JSON.stringify(option) });
    input.addEventListener("change", () => {
      changed = true;
      if (single) { picked.splice(0, picked.length, i); }
      else if (input.checked) { picked.push(i); }
      else { picked.splice(picked.indexOf(i), 1); }
      if (choice.kind === "sequence") {
        fieldset.querySelectorAll(".order").forEach((o, j) => {
          const at = picked.indexOf(j);
          o.textContent = at >= 0 ? String(at + 1) : "";
        });
      }
    });
    return el("label", {}, input, order, " ", optionName(option));
  });
  const most = choice.most === null ? choice.options.length : choice.most;
  const count = choice.least === most ? `${most}` : `${choice.least} to ${most}`;
  fieldset.append(el("legend", {}, `${choice.description || label(choice.field)} (choose ${single ? "one" : count})`),
    ...boxes);
  const value = () => {
    if (!picked.length && single) return undefined;
    const values = picked.map((i) => choice.options[i]);
    return single ? values[0] : values;
  };
  return { fieldset, field: choice.field, touched: () => changed, value };
}

function choiceForm(type, choices, offers) {
  const base = el("select", { class: "base", "aria-label": "For" },
    offers.map((offered, i) => el("option", { value: String(i) }, offered.text)));
  const parts = choices.map(choiceFieldset);
  const form = el("form", { class: "choose", "data-action": type },
    el("label", {}, "For ", base), ...parts.map((p) => p.fieldset),
    el("button", { type: "submit" }, `${label(type)} with these`));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let action = offers[Number(base.value)].action;
    for (const part of parts) {
      if (part.touched()) action = withField(action, part.field, part.value());
    }
    send(action);
  });
  return form;
}

function showActions(turn) {
  ui.actions.replaceChildren();
  if (turn.result || !turn.actions.length) return;
  const groups = new Map();
  for (const offered of turn.actions) {
    if (!groups.has(offered.type)) groups.set(offered.type, []);
    groups.get(offered.type).push(offered);
  }
  ui.actions.append(el("h2", { class: "visually-hidden" }, "Your actions"));
  for (const [type, offers] of groups) {
    const group = el("div", { class: "group", "data-type": type }, el("h3", {}, label(type)));
    for (const offered of offers) {
      group.append(el("button", { type: "button", class: "act", "data-type": type,
        "data-action": JSON.stringify(offered.action), onclick: () => send(offered.action) },
      offered.text));
    }
    const choices = turn.choices.filter((c) => c.action === type);
    if (choices.length) {
      group.append(el("details", { class: "choices" }, el("summary", {}, "Choose…"),
        choiceForm(type, choices, offers)));
    }
    ui.actions.append(group);
  }
  holdTaps();
}

// While a tap is in flight, every button that would send another is disabled: send() drops a
// tap made meanwhile, and a dropped tap must not look taken.
function holdTaps() {
  if (!page.busy) return;
  document.querySelectorAll("#actions button, #outcome-area button").forEach((b) => { b.disabled = true; });
}

// ---- recording a tap ----

async function post(path, body) {
  // a lost answer is sent again as it was: the same expected_version, so it records once
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api(path, { method: "POST", body });
    } catch (error) {
      if (error instanceof ApiError || attempt >= 3) throw error;
      await new Promise((done) => setTimeout(done, 400 * (attempt + 1)));
    }
  }
}

// In a match whose chance is entered at the table, an action that needs an outcome (the card
// the seat draws, a die) is refused until it is given: the page asks for it with a picker (its
// own deck's cards, the die's faces) and sends the action again with every outcome so far.
function askOutcome(action, outcomes, asked) {
  // a card revealed or taken unseen (a judge enters those) is one of the decks' cards
  const everyDeck = () => Object.entries(page.turn.decks).flatMap(([seat, deck]) =>
    Object.entries(deck).map(([id, name]) => [id, `${name} (seat ${seat})`]));
  const choices = asked.outcome === "CardDrawn"
    ? Object.entries(page.turn.decks[String(asked.seat)] || {}).map(([id, name]) => [id, name])
    : asked.outcome === "DieRolled"
      ? Array.from({ length: asked.sides || 6 }, (_, i) => [String(i + 1), String(i + 1)])
      : asked.outcome === "SeatChosen"
        ? page.summary.players.map((name, i) => [String(i + 1), `${name} (seat ${i + 1})`])
        : everyDeck();
  if (!choices.length) return false;
  const select = el("select", { id: "outcome-value" }, choices.map(([v, t]) => el("option", { value: v }, t)));
  const what = asked.outcome === "CardDrawn" ? "Which card was drawn?"
    : asked.outcome === "DieRolled" ? `What did the die show (1 to ${asked.sides || 6})?`
      : asked.outcome === "SeatChosen" ? "Which seat?" : `Which card (${label(asked.kind)})?`;
  const form = el("form", { id: "outcome-form", class: "choose", "data-outcome": outcomes.length + 1 },
    el("label", {}, what, " ", select),
    el("button", { type: "submit" }, "Record"), " ",
    el("button", { type: "button", onclick: () => { form.remove(); } }, "Cancel"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const numeric = asked.outcome === "DieRolled" || asked.outcome === "SeatChosen";
    const value = numeric ? Number(select.value) : select.value;
    form.remove();
    send(action, [...outcomes, value]);
  });
  // beside the actions, not among them: a refresh (another seat's action) keeps it
  document.getElementById("outcome-area").replaceChildren(form);
  return true;
}

async function send(action, outcomes = null) {
  if (page.busy) return;
  page.busy = true;
  document.body.dataset.busy = "1";  // (tests wait for a page at rest before tapping)
  holdTaps();
  ui.refusal.hidden = true;
  let asking = false;
  try {
    const body = { action, expected_version: page.turn.version };
    if (outcomes) body.outcomes = outcomes;
    await post(`/matches/${page.matchId}/actions`, body);
  } catch (error) {
    const details = error instanceof ApiError ? error.body.details || {} : {};
    ui.refusal.hidden = false;
    ui.refusal.textContent = error instanceof ApiError && error.body.code === "concurrent_append"
      ? "The match moved on before your tap arrived; here is where it stands now."
      : (error.message || String(error));
    if (error instanceof ApiError && error.body.reason === "outcome_missing" && details.asked) {
      asking = true;
      page.asking = { action, outcomes: outcomes || [], asked: details.asked };
    }
  } finally {
    page.busy = false;
    delete document.body.dataset.busy;
    // (an outcome picker left from before is no longer held; the actions are drawn anew)
    document.querySelectorAll("#outcome-area button").forEach((b) => { b.disabled = false; });
    await refresh();
  }
  if (asking && page.turn.table) {
    const { action: wanted, outcomes: so_far, asked } = page.asking;
    if (askOutcome(wanted, so_far, asked)) ui.refusal.textContent += " Enter it below.";
  }
}

// ---- the seat's area first, then the table ----

function drawView(answer) {
  const state = answer.state;
  let nodes;
  try { nodes = page.board.draw(state, kit); } catch { nodes = generic.draw(state, kit); }
  const table = el("div", { class: `board table-${state.game}` }, nodes);
  const seat = page.turn.seat;
  const mine = [...table.querySelectorAll(`[data-seat="${seat}"]`)]
    .filter((node) => !node.parentElement.closest("[data-seat]"));
  ui.own.replaceChildren(el("h2", {}, actsForAnySeat() ? `${seatText(seat)}: their area`
    : `Your area: ${seatText(seat)}`),
    el("div", { class: `board table-${state.game}` }, mine));
  ui.table.replaceChildren(el("h2", {}, "The table"), table);
}

// Refreshes overlap (a live notice, a tab, a tap's answer): only the one asked last is drawn,
// so the actions shown are always those of the last position and seat asked for.
let refreshes = 0;

async function refresh() {
  const mine = ++refreshes;
  document.body.dataset.refreshing = "1";  // (tests wait for a page at rest before tapping)
  const params = actsForAnySeat() ? { seat: page.actingFor } : {};
  const [turn, answer] = await Promise.all([
    api(`/matches/${page.matchId}/turn`, { params }),
    api(`/matches/${page.matchId}/state`)]);
  if (mine !== refreshes) return;
  page.turn = turn;
  showStatus(turn);
  showSeries(turn);
  showActions(turn);
  drawView(answer);
  if (isStaff()) await showConsole(turn);
  if (mine !== refreshes) return;
  document.body.dataset.seat = String(turn.seat);
  document.body.dataset.version = String(turn.version);
  delete document.body.dataset.refreshing;
}

// ---- the judge's console: act for any seat, undo, adjust, pause ----

function showSeatTabs() {
  const tabs = document.getElementById("seat-tabs");
  tabs.hidden = false;
  tabs.replaceChildren(...page.summary.players.map((name, i) => {
    const seat = i + 1;
    return el("button", { type: "button", "aria-pressed": String(seat === page.actingFor),
      "data-seat": seat, onclick: async () => { page.actingFor = seat; showSeatTabs(); await refresh(); } },
      `Act for ${name} (seat ${seat})`);
  }));
}

function option(value, text, attrs = {}) {
  return el("option", { value: String(value), ...attrs }, text);
}

function placeAttrs(place) {
  return { "data-ref": place.ref, "data-seat": place.seat ?? "" };
}

function placeOptions(withCards) {
  return page.adjustable.places
    .filter((p) => !withCards || p.cards.length)
    .map((p, i) => option(i, `${p.label} (${p.cards.length})`, placeAttrs(p)));
}

function adjustFields() {
  const kind = document.getElementById("adjust-kind").value;
  const box = document.getElementById("adjust-fields");
  const a = page.adjustable;
  if (kind === "move") {
    const from = el("select", { id: "move-from" }, a.places.map((p, i) => option(i, `${p.label} (${p.cards.length})`, placeAttrs(p))));
    const card = el("select", { id: "move-card" });
    const fill = () => {
      const place = a.places[Number(from.value)];
      card.replaceChildren(...place.cards.map((c) => option(c.id, c.name)));
    };
    from.addEventListener("change", fill);
    const firstWithCards = a.places.findIndex((p) => p.cards.length);
    from.value = String(Math.max(0, firstWithCards));
    fill();
    box.replaceChildren(el("label", {}, "From ", from), el("label", {}, "Card ", card),
      el("label", {}, "To ", el("select", { id: "move-to" }, placeOptions(false))));
  } else if (kind === "counter") {
    box.replaceChildren(
      el("label", {}, "Counter ", el("select", { id: "counter-name" }, a.counters.map((c, i) => option(i,
        `${c.seat ? `seat ${c.seat} ` : ""}${label(c.name.split(":")[0])}${c.key_name ? ` of ${c.key_name}` : ""} = ${c.value}`,
        { "data-name": c.name, "data-seat": c.seat ?? "" })))),
      el("label", {}, "New value ", el("input", { id: "counter-value", type: "number", inputmode: "numeric", required: true })));
  } else if (kind === "turn") {
    box.replaceChildren(
      el("label", {}, "Whose turn ", el("select", { id: "turn-active" }, option("", "unchanged"),
        page.summary.players.map((name, i) => option(i + 1, `${name} (seat ${i + 1})`)))),
      el("label", {}, "Turn number ", el("input", { id: "turn-number", type: "number", min: "1", inputmode: "numeric" })),
      el("label", {}, "Phase ", el("select", { id: "turn-phase" }, option("", "unchanged"), a.phases.map((p) => option(p, label(p))))));
  } else {
    const stat = el("select", { id: "modifier-stat" }, a.stats.map((st, i) => option(i, label(st.name))));
    const card = el("select", { id: "modifier-card" });
    const fill = () => {
      const chosen = a.stats[Number(stat.value)];
      card.replaceChildren(...(chosen ? chosen.cards : []).map((c) => option(c.id, c.name)));
    };
    stat.addEventListener("change", fill);
    fill();
    box.replaceChildren(el("label", {}, "Stat ", stat), el("label", {}, "Card ", card),
      el("label", {}, "Amount ", el("input", { id: "modifier-amount", type: "number", min: "-99", max: "99", inputmode: "numeric" })),
      el("label", {}, "Until ", el("select", { id: "modifier-until" }, option("end_of_turn", "the end of the turn"), option("permanent", "it is ended"))),
      el("label", { class: "check" }, el("input", { id: "modifier-end", type: "checkbox" }), " end this stat's modifiers instead"));
  }
}

function adjustment() {
  const kind = document.getElementById("adjust-kind").value;
  const a = page.adjustable;
  const value = (id) => document.getElementById(id).value;
  if (kind === "move") {
    const from = a.places[Number(value("move-from"))];
    const to = a.places[Number(value("move-to"))];
    return { seat: from.seat || page.actingFor, move: { card: value("move-card"),
      from_zone: from.ref, to_zone: to.ref, from_seat: from.seat || undefined, to_seat: to.seat || undefined } };
  }
  if (kind === "counter") {
    const counter = a.counters[Number(value("counter-name"))];
    return { seat: counter.seat || page.actingFor, counter: { name: counter.name, value: Number(value("counter-value")) } };
  }
  if (kind === "turn") {
    const turn = {};
    if (value("turn-active")) turn.active = Number(value("turn-active"));
    if (value("turn-number")) turn.turn = Number(value("turn-number"));
    if (value("turn-phase")) turn.phase = value("turn-phase");
    return { seat: page.actingFor, turn };
  }
  const ending = document.getElementById("modifier-end").checked;
  return { seat: page.actingFor, modifier: { card: value("modifier-card"), stat: a.stats[Number(value("modifier-stat"))].name,
    amount: ending ? 0 : Number(value("modifier-amount")), until: value("modifier-until"), end: ending } };
}

async function showConsole(turn) {
  document.getElementById("console").hidden = false;
  page.adjustable = await api(`/matches/${page.matchId}/adjustable`);
  const undoTo = document.getElementById("undo-to");
  undoTo.max = String(turn.positions);
  if (!undoTo.value) undoTo.value = String(Math.max(0, turn.positions - 1));
  document.getElementById("adjust-kind").querySelector("[value=modifier]").disabled = !page.adjustable.stats.length;
  if (!document.getElementById("adjust-panel").open) adjustFields();
}

async function judged(work, done) {
  ui.refusal.hidden = false;
  try {
    await work();
    ui.refusal.textContent = done;
  } catch (error) {
    ui.refusal.textContent = error.message || String(error);
  }
  await refresh();
}

document.getElementById("adjust-kind").addEventListener("change", adjustFields);
document.getElementById("undo-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const to = Number(document.getElementById("undo-to").value);
  judged(() => api(`/matches/${page.matchId}/undo`, { method: "POST", body: {
    to_position: to, reason: document.getElementById("undo-reason").value,
    expected_version: page.turn.version } }), `Undone back to position ${to}.`);
});
document.getElementById("adjust-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const action = { type: "adjust", reason: document.getElementById("adjust-reason").value, ...adjustment() };
  judged(() => api(`/matches/${page.matchId}/actions`, { method: "POST",
    body: { action, expected_version: page.turn.version } }), "Adjustment recorded.")
    .then(adjustFields);  // the places and counters as they are now
});
document.getElementById("pause-form").addEventListener("submit", (event) => {
  event.preventDefault();
  judged(() => api(`/matches/${page.matchId}/disputes`, { method: "POST",
    body: { claim: document.getElementById("pause-reason").value, pause: true } }), "The match is paused.");
});
document.getElementById("resume").addEventListener("click", () => judged(async () => {
  const disputes = await api(`/matches/${page.matchId}/disputes`);
  for (const d of disputes.filter((x) => x.pausing && (x.status === "open" || x.status === "appealed"))) {
    await api(`/disputes/${d.dispute_id}/rule`, { method: "POST", body: {
      decision: "resumed", reasoning: "The judge resumed the match.", remedy: { kind: "none" } } });
  }
}, "The match is resumed."));

// ---- calling a judge, conceding ----

document.getElementById("call-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const claim = document.getElementById("claim");
  try {
    await api(`/matches/${page.matchId}/disputes`, { method: "POST", body: { claim: claim.value } });
    claim.value = "";
    ui.refusal.hidden = false;
    ui.refusal.textContent = "A judge has been called.";
    document.getElementById("judge").open = false;
  } catch (error) {
    ui.refusal.hidden = false;
    ui.refusal.textContent = error.message;
  }
});
const confirm = document.getElementById("concede-confirm");
document.getElementById("concede").addEventListener("click", () => { confirm.hidden = false; });
document.getElementById("concede-no").addEventListener("click", () => { confirm.hidden = true; });
document.getElementById("concede-yes").addEventListener("click", async () => {
  confirm.hidden = true;
  await send({ type: "concede", seat: page.turn.seat });
});

async function start() {
  page.me = await api("/me");
  if (page.me.role === "spectator") {
    ui.status.textContent = "Not signed in: scan your table's slip to record your match.";
    return;
  }
  page.summary = await api(`/matches/${encodeURIComponent(matchRef)}`);
  page.matchId = page.summary.match_id;
  setSeatNames((seat) => page.summary.players[seat - 1] || null);
  ui.title.textContent = `${page.summary.players.join(" vs ")}`;
  document.getElementById("watch-link").href = `/watch/${page.matchId}`;
  ui.who.textContent = `Signed in as ${page.me.name} (${page.me.role}).`;
  if (actsForAnySeat()) {
    const asked = Number(new URLSearchParams(window.location.search).get("seat"));
    page.actingFor = asked >= 1 && asked <= page.summary.players.length ? asked
      : (page.summary.to_act[0] || 1);
    showSeatTabs();
  }
  page.board = await loadBoard(page.summary.game);
  try {
    await refresh();
  } catch (error) {
    ui.status.textContent = error.message;
    return;
  }
  listen(`/matches/${page.matchId}/live`, (name) => {
    if (name === "position" && !page.busy) refresh();
  });
}
start();
