// The organiser's console: /events/new creates a tournament, /events/{tournament}/console runs it
// on tournament day (issue 42). Signed in by a session (POST /sessions with the organiser's
// token, typed once: the page never keeps it). Three tabs: the round (each table's status, asked
// again every 5 s while the page is seen; results; pairing the next round from the pairing
// program's file; the round sheet and the table slips), the players (registering one by one or
// from a file, each new player's sign-in link shown once; decklists, the deadline, the lock;
// drops) and the event (judges, the files for the pairing program, finishing).
// Every refusal is the server's own sentence, shown where the organiser acted.

import { ApiError, api, el, games } from "/static/common.js";

const POLL_MS = 5000;
const $ = (id) => document.getElementById(id);
const STATUS_WORDS = { not_started: "not started", in_progress: "playing",
  awaiting_ruling: "judge call", result: "result" };
const TIEBREAKERS = { mtr: "MTR tie-breakers", pokemon: "Pokémon tie-breakers" };

const state = {
  me: null,          // GET /me
  tournament: null,  // GET /tournaments/{id}
  game: null,        // the tournament's game (GET /games)
  players: [],       // GET /tournaments/{id}/players
  round: null,       // the round shown: GET /tournaments/{id}/rounds/{n}
  roundNumber: null, // which round is shown (null: the newest)
  cards: new Map(),  // table number -> {signature, node}
  tab: null,
  timer: null,
  busy: false,
};

// ---- talking to the server ---------------------------------------------------------------

// The sentence of a refusal: the server's message (an ErrorBody, or {"error": {...}}), else
// what went wrong on the way.
function why(error) {
  if (error instanceof ApiError) {
    const body = error.body || {};
    const inner = body.error && typeof body.error === "object" ? body.error : body;
    if (inner.code === "not_found" || inner.code === "method_not_allowed") {  // no such route
      return `${inner.message || "Not Found"}: this server does not offer that (yet).`;
    }
    if (inner.message) return String(inner.message);
    return `The server answered HTTP ${error.status}.`;
  }
  return String(error && error.message ? error.message : error);
}

// POST a file's bytes as they are (text/csv: the server reads the pairing program's format from
// the bytes), signed in as the page is; the JSON answer, or ApiError.
async function sendFile(path, file, params = {}) {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, value);
  }
  const answer = await fetch(url, {
    method: "POST", body: file, credentials: "same-origin", cache: "no-store",
    headers: { accept: "application/json", "content-type": "text/csv", "x-kiroku-page": "1" },
  });
  let data = null;
  try { data = await answer.json(); } catch { data = null; }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return data;
}

function tournamentPath(suffix = "") {
  return `/tournaments/${encodeURIComponent(state.tournament.tournament_id)}${suffix}`;
}

// Show `text` in `node` (a refusal paragraph), or hide it.
function say(node, text) {
  node.textContent = text || "";
  node.hidden = !text;
}

// Say what was done (or why nothing can be): under the tabs on an event's console, at the top
// elsewhere; a sentence stays 15 s unless another replaces it.
let told = null;
function tell(text) {
  const event = !$("event").hidden;
  const where = $(event ? "event-message" : "message");
  $(event ? "message" : "event-message").textContent = "";
  where.textContent = text || "";
  clearTimeout(told);
  if (text && event) told = setTimeout(() => { where.textContent = ""; }, 15000);
}

// Run `work` with `button` disabled; a refusal goes to `out`.
async function acting(button, out, work) {
  if (button) button.disabled = true;
  say(out, "");
  try {
    return await work();
  } catch (error) {
    say(out, why(error));
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

// ---- times: a datetime-local input is the browser's time; the server takes ISO with a zone --

const pad = (n) => String(n).padStart(2, "0");

// "2026-11-28T09:30" (the browser's time) -> "2026-11-28T09:30:00+09:00", with the browser's
// offset on that date (summer time included).
export function isoWithOffset(local) {
  if (!local) return null;
  const moment = new Date(local);
  if (Number.isNaN(moment.getTime())) return null;
  const offset = -moment.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const minutes = Math.abs(offset);
  return `${local.slice(0, 16)}:00${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

// An ISO moment as a datetime-local input's value, in the browser's time.
function localInput(iso) {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function localText(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString([], { weekday: "short", day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit" });
}

// ---- signing in --------------------------------------------------------------------------

async function whoAmI() {
  try {
    state.me = await api("/me");
  } catch {
    state.me = { role: "spectator" };
  }
  const me = state.me;
  $("who").textContent = me.role === "spectator" ? "" : me.role === "organiser" ? me.name : `${me.name} (${me.role})`;
  $("sign-out").hidden = me.role === "spectator";
  $("new-event-link").hidden = me.role !== "organiser";
  return me;
}

function showSignIn(me) {
  for (const id of ["create", "events-list", "event"]) $(id).hidden = true;
  $("signin").hidden = false;
  tell(me.role === "spectator" ? "" : `Signed in as ${me.name} (${me.role}): the console is for organisers.`);
  $("organiser-token").focus();
}

$("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("organiser-token");
  const token = input.value.trim();
  input.value = "";
  if (!token) return;
  const done = await acting($("organiser-sign-in"), $("signin-refusal"), () =>
    api("/sessions", { method: "POST", body: { token } }));
  if (done) start();
});

$("sign-out").addEventListener("click", async () => {
  try { await api("/sessions/current", { method: "DELETE" }); } catch { /* signed out */ }
  stopPolling();
  start();
});

// ---- judges: checkboxes of the judges' credentials, or their ids pasted ------------------

async function staffPicker(fieldset, current) {
  const chosen = new Set((current && current.judges || []).map((j) => j.id));
  const head = current && current.head_judge ? current.head_judge.id : "";
  let judges = null;
  try {
    const all = await api("/credentials", { params: { role: "judge" } });
    judges = all.filter((c) => c.role === "judge" && !c.revoked);
  } catch {
    judges = null;
  }
  const legend = fieldset.querySelector("legend");
  fieldset.replaceChildren(legend);
  if (judges === null) {  // the list is not readable: the ids, pasted
    const ids = el("textarea", { rows: "2", name: "judges", placeholder: "judges' credential ids, one a line" },
      [...chosen].join("\n"));
    const headInput = el("input", { type: "text", name: "head_judge", value: head,
      placeholder: "head judge's credential id (optional)" });
    fieldset.append(el("label", {}, "Judges' credential ids", ids),
      el("label", {}, "Head judge", headInput));
    return () => ({
      judges: ids.value.split(/[\s,]+/).filter(Boolean),
      head_judge: headInput.value.trim() || null,
    });
  }
  if (!judges.length) {
    fieldset.append(el("p", { class: "hint" }, "No judge credentials yet: issue them with "
      + "kiroku credentials issue --role judge, or POST /credentials."));
    return () => ({ judges: [], head_judge: null });
  }
  const rows = judges.map((j) => {
    const box = el("input", { type: "checkbox", name: "judge", value: j.credential_id,
      checked: chosen.has(j.credential_id) || head === j.credential_id });
    const headRadio = el("input", { type: "radio", name: `head-${fieldset.id}`, value: j.credential_id,
      checked: head === j.credential_id });
    headRadio.addEventListener("change", () => { if (headRadio.checked) box.checked = true; });
    box.addEventListener("change", () => { if (!box.checked) headRadio.checked = false; });
    fieldset.append(el("div", { class: "judge" },
      el("label", { class: "check" }, box, j.name),
      el("label", { class: "check hint" }, headRadio, "head judge")));
    return { j, box, headRadio };
  });
  return () => {
    const headRow = rows.find((r) => r.headRadio.checked);
    return {
      judges: rows.filter((r) => r.box.checked && r !== headRow).map((r) => r.j.credential_id),
      head_judge: headRow ? headRow.j.credential_id : null,
    };
  };
}

// ---- /events/new -------------------------------------------------------------------------

let readStaff = null;

async function showCreate() {
  $("signin").hidden = true;
  $("event").hidden = true;
  $("create").hidden = false;
  $("events-list").hidden = false;
  document.title = "Kiroku: new tournament";
  const select = $("t-game");
  if (!select.options.length) {
    const known = await games();
    select.replaceChildren(...Object.values(known).map((g) =>
      el("option", { value: g.id }, g.title)));
  }
  readStaff = await staffPicker($("t-staff"), null);
  listEvents();
}

async function listEvents() {
  const list = $("events");
  let all = [];
  try { all = await api("/tournaments"); } catch (error) {
    list.replaceChildren(el("li", {}, why(error)));
    return;
  }
  const known = await games();
  all.sort((a, b) => Number(a.finished) - Number(b.finished) || String(b.created_at).localeCompare(String(a.created_at)));
  list.replaceChildren(...all.slice(0, 30).map((t) => el("li", {},
    el("a", { href: `/events/${t.tournament_id}/console` }, t.name), " ",
    el("span", { class: "meta" }, `${known[t.game] ? known[t.game].title : t.game} · ${plural(t.players, "player")} · `
      + `${t.rounds ? `round ${t.rounds}` : "not paired"}${t.finished ? " · finished" : ""}`))));
  if (!all.length) list.replaceChildren(el("li", { class: "meta" }, "None yet."));
}

$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const local = $("t-deadline").value;
  const deadline = local ? isoWithOffset(local) : null;
  const staff = readStaff ? readStaff() : { judges: [], head_judge: null };
  const made = await acting($("create-submit"), $("create-refusal"), () => api("/tournaments", {
    method: "POST", body: {
      name: $("t-name").value.trim(), game: $("t-game").value,
      best_of: Number($("t-best-of").value), tiebreakers: $("t-tiebreakers").value,
      decklists: $("t-decklists").value, replay_policy: $("t-replays").value,
      deadline, judges: staff.judges, head_judge: staff.head_judge,
    } }));
  if (made) window.location.assign(`/events/${made.tournament_id}/console#players`);
});

// ---- the event: its head and its tabs ----------------------------------------------------

async function loadTournament(ref) {
  state.tournament = await api(`/tournaments/${encodeURIComponent(ref)}`);
  const known = await games();
  state.game = known[state.tournament.game] || { title: state.tournament.game };
  showHead();
}

function showHead() {
  const t = state.tournament;
  document.title = `Kiroku: ${t.name} (console)`;
  $("event-name").textContent = t.name;
  const lists = t.decklists_locked ? "lists locked"
    : t.deadline ? `lists lock ${localText(t.deadline)}` : "lists open";
  const dropped = t.dropped ? ` (${t.dropped} dropped)` : "";
  $("event-facts").textContent = [state.game.title, `best of ${t.best_of || 1}`,
    t.rounds ? `round ${t.rounds}` : "not paired yet", `${plural(t.players, "player")}${dropped}`, lists]
    .join(" · ");
  $("finished-banner").hidden = !t.finished;
  document.body.dataset.finished = t.finished ? "true" : "false";
  for (const form of document.querySelectorAll("#panel-round form, #panel-players form, #staff-form")) {
    for (const control of form.elements) control.disabled = t.finished;
  }
  $("lock").disabled = t.finished || t.decklists_locked;
  $("finish").disabled = t.finished;
  $("standings-csv").href = tournamentPath("/standings?format=csv");
  $("standings-csv").setAttribute("download", `${slug(t.name)}-standings.csv`);
  $("results-csv").href = tournamentPath("/results.csv");
  $("results-csv").setAttribute("download", `${slug(t.name)}-results.csv`);
  $("calls-link").href = `/judge?tournament=${t.tournament_id}`;
  $("event-calls-link").href = `/judge?tournament=${t.tournament_id}`;
  $("public-link").href = `/events/${t.tournament_id}`;
  $("pair-summary").textContent = `Pair round ${t.rounds + 1} from the pairing program's file`;
  showDetails();
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "event";
}

function showDetails() {
  const t = state.tournament;
  const staff = (t.judges || []).map((j) => j.name);
  const rows = [
    ["Game", state.game.title], ["Matches", `best of ${t.best_of || 1}`],
    ["Standings", TIEBREAKERS[t.tiebreakers] || TIEBREAKERS.mtr],
    ["Decklists", t.decklists === "open" ? "open: public at once" : "closed: public once finished"],
    ["Replays", t.replay_policy === "open" ? "open to spectators" : "closed to spectators"],
    ["Deadline", t.deadline ? localText(t.deadline) : "none (round 1 locks the lists)"],
    ["Head judge", t.head_judge ? t.head_judge.name : "none (an organiser hears appeals)"],
    ["Judges", staff.length ? staff.join(", ") : "none"],
    ["Created", `${localText(t.created_at)} by ${t.created_by && t.created_by.name ? t.created_by.name : "?"}`],
  ];
  $("event-details").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function showTab(tab) {
  state.tab = tab;
  for (const button of document.querySelectorAll(".tabs button")) {
    const on = button.dataset.tab === tab;
    button.setAttribute("aria-selected", on ? "true" : "false");
    $(`panel-${button.dataset.tab}`).hidden = !on;
  }
  if (window.location.hash !== `#${tab}`) history.replaceState(null, "", `#${tab}`);
  if (tab === "round") pollRound();
  if (tab === "players") loadPlayers();
}

for (const button of document.querySelectorAll(".tabs button")) {
  button.addEventListener("click", () => showTab(button.dataset.tab));
}

async function showEvent(ref) {
  $("signin").hidden = true;
  $("create").hidden = true;
  $("events-list").hidden = true;
  try {
    await loadTournament(ref);
  } catch (error) {
    tell(why(error));
    return;
  }
  $("event").hidden = false;
  tell("");
  const asked = window.location.hash.slice(1);
  const tab = ["round", "players", "event"].includes(asked) ? asked
    : state.tournament.rounds ? "round" : "players";
  if (!state.tournament.rounds) $("pair-panel").open = true;
  if (!state.tournament.players) $("register-panel").open = true;
  staffPicker($("staff"), state.tournament).then((read) => { readEventStaff = read; });
  showTab(tab);
  startPolling();
}

// ---- the round: every table's status, asked again every 5 s while the page is seen --------

function startPolling() {
  stopPolling();
  state.timer = setInterval(() => {
    if (document.visibilityState === "visible") pollRound();
  }, POLL_MS);
}

function stopPolling() {
  clearInterval(state.timer);
  state.timer = null;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && state.timer) pollRound();
});

async function pollRound() {
  if (!state.tournament) return;
  if (state.busy) {  // asked while a poll runs (a tab, a result): once more after it
    state.again = true;
    return;
  }
  state.busy = true;
  state.again = false;
  try {
    const before = state.tournament.rounds;
    try {
      state.tournament = await api(tournamentPath());
      showHead();
    } catch { /* the round below says what is wrong */ }
    const rounds = state.tournament.rounds;
    if (rounds !== before && state.roundNumber === before) state.roundNumber = rounds;
    fillRoundPicker(rounds);
    if (state.tab === "players") await loadPlayers();
    if (state.tab !== "round") return;
    if (!rounds) {
      state.round = null;
      showRound();
      return;
    }
    const number = state.roundNumber || rounds;
    try {
      state.round = await api(tournamentPath(`/rounds/${number}`));
      say($("round-refusal"), "");
    } catch (error) {
      say($("round-refusal"), why(error));
      return;
    }
    showRound();
  } finally {
    state.busy = false;
    if (state.again) pollRound();
  }
}

function fillRoundPicker(rounds) {
  const pick = $("round-pick");
  if (pick.options.length !== rounds) {
    pick.replaceChildren(...Array.from({ length: rounds }, (_, i) =>
      el("option", { value: String(i + 1) }, `${i + 1}${i + 1 === rounds ? " (now)" : ""}`)));
  }
  pick.value = String(state.roundNumber || rounds || "");
  pick.disabled = rounds < 2;
}

$("round-pick").addEventListener("change", () => {
  state.roundNumber = Number($("round-pick").value);
  state.cards.clear();
  $("tables").replaceChildren();
  pollRound();
});
$("unfinished").addEventListener("change", () => showRound());

function showRound() {
  const round = state.round;
  $("round-actions").hidden = !round;
  if (!round) {
    $("round-summary").textContent = "No round paired yet: pair round 1 from the pairing program's file below.";
    $("tables").replaceChildren();
    $("byes").hidden = true;
    return;
  }
  const count = (status) => round.tables.filter((t) => t.status === status).length;
  const parts = [plural(round.tables.length, "table")];
  if (count("result")) parts.push(`${count("result")} done`);
  if (count("in_progress")) parts.push(`${count("in_progress")} playing`);
  if (count("not_started")) parts.push(`${count("not_started")} not started`);
  if (count("awaiting_ruling")) parts.push(`${count("awaiting_ruling")} judge call${count("awaiting_ruling") > 1 ? "s" : ""}`);
  $("round-summary").textContent = `Round ${round.round}: ${parts.join(" · ")}${round.complete ? " · complete" : ""}`;
  $("slips-link").href = `/slips?tournament=${state.tournament.tournament_id}&round=${round.round}`;
  const only = $("unfinished").checked;
  const list = $("tables");
  const seen = new Set();
  let previous = null;
  for (const table of round.tables) {
    if (only && table.status === "result") continue;
    seen.add(table.table);
    const signature = JSON.stringify(table);
    let card = state.cards.get(table.table);
    if (!card || (card.signature !== signature && !editing(card.node))) {
      const node = tableCard(table, round.round);
      if (card) {
        node.classList.add("changed");
        setTimeout(() => node.classList.remove("changed"), 2500);
        card.node.replaceWith(node);
      }
      card = { signature, node };
      state.cards.set(table.table, card);
    } else if (card.signature !== signature) {  // a form is open: refresh its head alone
      card.node.querySelector(".table-head").replaceWith(tableHead(table));
      card.node.dataset.status = table.status;
    }
    const expected = previous ? previous.nextSibling : list.firstChild;
    if (card.node !== expected) list.insertBefore(card.node, expected);
    previous = card.node;
  }
  for (const [number, card] of state.cards) {
    if (!seen.has(number)) {
      card.node.remove();
      state.cards.delete(number);
    }
  }
  const byes = round.byes || [];
  $("byes").hidden = !byes.length;
  $("byes").textContent = byes.length ? `Bye: ${byes.map(playerText).join(", ")}` : "";
}

// Whether the organiser is using a table's form (it is not redrawn under them).
function editing(node) {
  const details = node.querySelector("details.result-entry");
  return Boolean(details && details.open);
}

function playerText(p) {
  return p.external_id ? `${p.name} (${p.external_id})` : p.name;
}

function gameScore(table) {
  const wins = table.result && table.result.game_wins ? table.result.game_wins : table.game_wins;
  if (!wins || !wins.length || (table.best_of || 1) < 2) return "";
  if (!table.result && wins.every((w) => !w)) return "";  // no game decided yet
  const draws = (table.result ? table.result.game_draws : table.game_draws) || 0;
  return `${wins.join("–")}${draws ? `–${draws}` : ""}`;
}

function tableHead(table) {
  const game = (table.best_of || 1) > 1 && table.status !== "result" && table.status !== "not_started"
    && table.games ? ` · game ${table.games.length}` : "";
  return el("div", { class: "table-head" },
    el("span", { class: "table-no" }, `Table ${table.table}`),
    el("span", { class: `badge ${table.status}` }, `${STATUS_WORDS[table.status] || table.status}${game}`),
    el("span", { class: "score" }, gameScore(table)));
}

function resultLine(table) {
  const result = table.result;
  if (!result) return null;
  const how = { judge: "entered by a judge", ruling: "by a judge's ruling", game: "from the game" }[result.source] || "";
  const what = result.drawn ? "Drawn" : `Won by ${(result.winners || []).map((w) => w.name).join(" and ")}`;
  return el("p", { class: "table-result" }, `${what}${gameScore(table) ? ` ${gameScore(table)}` : ""}${how ? `, ${how}` : ""}.`);
}

function tableCard(table, roundNumber) {
  const winners = new Set(table.result ? (table.result.winners || []).map((w) => w.player_id) : []);
  const card = el("li", { class: "table-card", "data-table": table.table, "data-status": table.status },
    tableHead(table),
    el("ol", { class: "seats", "aria-label": "Seats" }, table.players.map((p, i) =>
      el("li", { class: winners.has(p.player_id) ? "winner" : "" },
        el("span", { class: "seat-no" }, `${i + 1}`), " ", p.name,
        p.external_id ? el("span", { class: "pid" }, ` ${p.external_id}`) : null,
        p.dropped ? el("span", { class: "badge dropped" }, " dropped") : null))),
    resultLine(table),
    el("p", { class: "table-links" },
      el("a", { href: `/play/${table.current_match_id || table.match_id}` }, "Match console"),
      el("a", { href: `/watch/${table.current_match_id || table.match_id}` }, "Replay"),
      table.status === "awaiting_ruling"
        ? el("a", { href: `/judge?tournament=${state.tournament.tournament_id}` }, "The call") : null));
  if (table.next_game && !state.tournament.finished) card.append(nextGame(table, roundNumber));
  const source = table.result ? table.result.source : null;
  if (!state.tournament.finished && (source === null || source === "judge")) card.append(resultEntry(table, roundNumber));
  return card;
}

// A best-of-N table between games: its next game started from here (its players may too).
function nextGame(table, roundNumber) {
  const refusal = el("p", { class: "refusal", role: "alert", hidden: true });
  const start = el("button", { type: "button", class: "next-game" }, `Start game ${(table.games || []).length + 1}`);
  start.addEventListener("click", async () => {
    const done = await acting(start, refusal, () => api(
      tournamentPath(`/rounds/${roundNumber}/tables/${table.table}/games`), { method: "POST" }));
    if (done) {
      tell(`Table ${table.table}: game ${(table.games || []).length + 1} started.`);
      pollRound();
    }
  });
  return el("div", { class: "table-links" }, start, refusal);
}

// The form for a table's result: its winners (or drawn), the game wins of a best-of-N match
// (prefilled with the games recorded), and the reason. The winner follows the game wins typed.
function resultEntry(table, roundNumber) {
  const name = `winner-${table.table}`;
  const bestOf = table.best_of || state.tournament.best_of || 1;
  const choices = [
    ...table.players.map((p) => el("label", { class: "choice" },
      el("input", { type: "radio", name, value: p.player_id, required: true }), `${p.name} won`)),
    el("label", { class: "choice" }, el("input", { type: "radio", name, value: "drawn" }), "Drawn"),
  ];
  const known = (table.result && table.result.game_wins) || table.game_wins || [];
  const wins = bestOf > 1 ? table.players.map((p, i) => el("input", { type: "number", min: "0",
    max: String(bestOf), inputmode: "numeric", name: `games-${i + 1}`, value: String(known[i] ?? 0),
    "aria-label": `Games won by ${p.name}` })) : [];
  const draws = bestOf > 1 ? el("input", { type: "number", min: "0", max: String(bestOf),
    inputmode: "numeric", name: "game-draws",
    value: String((table.result ? table.result.game_draws : table.game_draws) || 0) }) : null;
  const reason = el("input", { type: "text", name: "reason", required: true, maxlength: "500",
    list: "result-reasons", placeholder: "e.g. result slip, no-show, intentional draw" });
  const refusal = el("p", { class: "refusal", role: "alert", hidden: true });
  const save = el("button", { type: "submit", class: "primary" }, "Save the result");
  const form = el("form", { class: "result-form" },  // a best-of-N slip's games first
    bestOf > 1 ? el("fieldset", { class: "games" }, el("legend", {}, `Games won (best of ${bestOf})`),
      table.players.map((p, i) => el("label", {}, p.name, wins[i])),
      el("label", {}, "Drawn games", draws)) : null,
    el("fieldset", {}, el("legend", {}, "Result"), choices),
    el("label", {}, "Reason", reason), save, refusal);
  const follow = () => {  // the game wins typed say who won
    const counts = wins.map((w) => Number(w.value) || 0);
    const most = Math.max(...counts);
    if (!(most > 0)) return;
    const leaders = counts.flatMap((c, i) => (c === most ? [i] : []));
    const value = leaders.length === counts.length ? "drawn"
      : leaders.length === 1 ? table.players[leaders[0]].player_id : null;
    const radio = value && form.querySelector(`input[name="${name}"][value="${value}"]`);
    if (radio) radio.checked = true;
  };
  wins.forEach((w) => w.addEventListener("input", follow));
  if (wins.length) follow();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const picked = form.querySelector(`input[name="${name}"]:checked`);
    if (!picked) return;
    const body = { winners: picked.value === "drawn" ? [] : [picked.value],
      drawn: picked.value === "drawn", reason: reason.value.trim() };
    if (wins.length) {  // sent only for a best-of-N match: a best-of-1 entry stays as it was
      body.game_wins = wins.map((w) => Number(w.value) || 0);
      body.game_draws = Number(draws.value) || 0;
    }
    const round = await acting(save, refusal, () => api(
      tournamentPath(`/rounds/${roundNumber}/tables/${table.table}/result`),
      { method: "POST", body }));
    if (round) {
      state.round = round;
      const card = state.cards.get(table.table);
      if (card) {  // drawn again, closed, with the result saved
        card.node.remove();
        state.cards.delete(table.table);
      }
      showRound();
      tell(`Table ${table.table}: result saved.`);
    }
  });
  const label = table.result ? "Change the result" : "Enter the result";
  return el("details", { class: "result-entry" }, el("summary", {}, label), form);
}

// Reasons a TO gives most, offered as the reason is typed.
document.body.append(el("datalist", { id: "result-reasons" },
  ["result slip", "no-show", "intentional draw", "concession", "time called", "game finished on paper"]
    .map((r) => el("option", { value: r }))));

// ---- pairing the next round from the pairing program's file --------------------------------

$("pair-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("pairings-file").files[0];
  if (!file) return;
  const inFile = $("pairings-round").value.trim();
  const round = await acting($("pair-submit"), $("pair-refusal"), () =>
    sendFile(tournamentPath("/rounds/csv"), file, { round: inFile, filename: file.name }));
  if (!round) return;
  $("pair-form").reset();
  $("pair-panel").open = false;
  state.roundNumber = round.round;
  state.round = round;
  state.cards.clear();
  $("tables").replaceChildren();
  tell(`Round ${round.round} is paired: ${round.tables.length} tables. Print the round sheet and the table slips.`);
  await pollRound();
});

// ---- printing: the round sheet (by table, then by name), the new players' slips -----------

function printOut(kind, ...content) {
  $("print-area").replaceChildren(...content);
  document.body.dataset.print = kind;
  window.print();
}

window.addEventListener("afterprint", () => { delete document.body.dataset.print; });

$("print-sheet").addEventListener("click", () => {
  const round = state.round;
  if (!round) return;
  const t = state.tournament;
  const seats = Math.max(...round.tables.map((x) => x.players.length), 2);
  const byTable = el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, "Table"),
      Array.from({ length: seats }, (_, i) => el("th", {}, `Seat ${i + 1}`)))),
    el("tbody", {}, round.tables.map((x) => el("tr", {}, el("td", {}, String(x.table)),
      Array.from({ length: seats }, (_, i) => el("td", {}, x.players[i] ? playerText(x.players[i]) : ""))))));
  const rows = round.tables.flatMap((x) => x.players.map((p, i) => ({
    name: p.name, id: p.external_id || "", table: x.table, seat: i + 1,
    against: x.players.filter((o) => o !== p).map((o) => o.name).join(", ") })))
    .concat((round.byes || []).map((p) => ({ name: p.name, id: p.external_id || "", table: "bye", seat: "", against: "" })))
    .sort((a, b) => a.name.localeCompare(b.name));
  const byName = el("table", {},
    el("thead", {}, el("tr", {}, ["Player", "ID", "Table", "Seat", "Against"].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, [r.name, r.id, String(r.table), String(r.seat), r.against]
      .map((c) => el("td", {}, c))))));
  printOut("sheet", el("div", { class: "sheet" },
    el("h1", {}, `${t.name}: round ${round.round} pairings`),
    el("h2", {}, "By table"), byTable,
    (round.byes || []).length ? el("p", {}, `Bye: ${round.byes.map(playerText).join(", ")}`) : null,
    el("div", { class: "by-name" }, el("h2", {}, "By name"), byName)));
});

$("print-links").addEventListener("click", () => {
  const slips = [...$("link-slips").children].map((n) => n.cloneNode(true));
  printOut("links", el("div", { class: "slips" }, slips));
});

$("clear-links").addEventListener("click", () => {
  $("link-slips").replaceChildren();
  $("new-links").hidden = true;
});

// ---- the players ------------------------------------------------------------------------

async function loadPlayers() {
  if (!state.tournament) return;
  try {
    state.players = await api(tournamentPath("/players"));
  } catch (error) {
    say($("register-refusal"), why(error));
    return;
  }
  const signature = JSON.stringify([state.players, state.tournament]);
  if (signature === shownPlayers) return;  // nothing new: the list stays as the organiser left it
  shownPlayers = signature;
  showPlayers();
}

let shownPlayers = "";

function showPlayers() {
  const t = state.tournament;
  const all = state.players;
  const withList = all.filter((p) => p.has_decklist).length;
  const dropped = all.filter((p) => p.dropped).length;
  $("players-summary").textContent = `${plural(all.length, "player")} · ${withList} with a decklist`
    + `${all.length - withList ? ` · ${all.length - withList} without` : ""}${dropped ? ` · ${dropped} dropped` : ""}`;
  $("lists-summary").textContent = `Decklists: ${withList} of ${all.length} in · `
    + (t.decklists_locked ? "locked" : t.deadline ? `lock ${localText(t.deadline)}` : "no deadline");
  if (t.deadline && document.activeElement !== $("deadline")) $("deadline").value = localInput(t.deadline);
  const part = $("player-filter").value.trim().toLowerCase();
  const noList = $("no-list-only").checked;
  const shown = all.filter((p) => (!part || p.name.toLowerCase().includes(part)
    || String(p.external_id || "").toLowerCase() === part) && (!noList || !p.has_decklist));
  const openDrop = document.querySelector(".players .drop-form");
  const keep = openDrop ? openDrop.closest("li").dataset.player : null;
  $("players").replaceChildren(...shown.map((p) => {
    const item = playerItem(p);
    if (p.player_id === keep) item.append(openDrop);
    return item;
  }));
}

function playerItem(p) {
  const t = state.tournament;
  const item = el("li", { "data-player": p.player_id, class: p.dropped ? "dropped" : "" },
    el("span", { class: "who" }, el("span", { class: "pname" }, p.name), " ",
      p.external_id ? el("span", { class: "pid" }, p.external_id) : null, " ",
      p.has_decklist ? el("span", { class: "list-ok" }, "list in") : el("span", { class: "list-missing" }, "no list"),
      p.dropped ? " " : null, p.dropped ? el("span", { class: "badge dropped" }, "dropped") : null));
  const acts = el("span", { class: "acts" });
  if (!t.finished) {
    acts.append(el("button", { type: "button", class: "link", onclick: (e) => newLinks([p], e.currentTarget),
      "aria-label": `New sign-in link for ${p.name}` }, "Link"));
    if (!p.dropped) {
      acts.append(el("button", { type: "button", class: "drop", onclick: () => dropForm(item, p) }, "Drop…"));
    }
  }
  item.append(acts);
  return item;
}

function dropForm(item, p) {
  for (const open of document.querySelectorAll(".players .drop-form")) open.remove();
  const reason = el("input", { type: "text", name: "reason", required: true, maxlength: "500",
    placeholder: "why (e.g. left the event)", "aria-label": `Why ${p.name} drops` });
  const refusal = el("p", { class: "refusal", role: "alert", hidden: true });
  const yes = el("button", { type: "submit", class: "primary danger" }, `Drop ${p.name}`);
  const form = el("form", { class: "drop-form" }, reason, yes,
    el("button", { type: "button", onclick: () => form.remove() }, "Cancel"), refusal);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const done = await acting(yes, refusal, () => api(
      tournamentPath(`/players/${encodeURIComponent(p.player_id)}/drop`),
      { method: "POST", body: { reason: reason.value.trim() } }));
    if (done) {
      form.remove();
      tell(`${p.name} has dropped: not paired again, still in the standings.`);
      await loadPlayers();
      pollRound();
    }
  });
  item.append(form);
  reason.focus();
}

$("player-filter").addEventListener("input", showPlayers);
$("no-list-only").addEventListener("change", showPlayers);

// A sign-in link for each of `players` (an older one stops working), shown once as a slip.
async function newLinks(players, button = null) {
  const out = $("register-refusal");
  const hours = Number($("link-hours").value);
  $("new-links").hidden = false;
  let made = 0;
  for (const p of players) {
    if (players.length > 1) tell(`Issuing sign-in links: ${made + 1} of ${players.length}…`);
    const link = await acting(button, out, () => api(
      tournamentPath(`/players/${encodeURIComponent(p.player_id)}/link`),
      { method: "POST", body: { valid_hours: hours } }));
    if (!link) break;
    made += 1;
    const old = $("link-slips").querySelector(`[data-player="${p.player_id}"]`);
    if (old) old.remove();
    $("link-slips").prepend(linkSlip(link, p));
  }
  if (players.length > 1) tell(`${made} sign-in links issued.`);
  $("new-links").scrollIntoView({ block: "start" });
}

function linkSlip(link, p) {
  return el("article", { class: "slip", "data-player": p.player_id },
    el("h3", {}, state.tournament.name),
    el("p", { class: "player" }, p.name),
    p.external_id ? el("p", {}, `Player id ${p.external_id}`) : null,
    el("p", {}, "Scan to sign in for the event: your matches, each round."),
    el("img", { src: link.qr, alt: `QR code: sign-in link for ${p.name}` }),
    el("p", { class: "link" }, el("a", { href: link.link }, link.link)),
    el("p", { class: "expires" }, `One phone, once; valid until ${localText(link.expires_at)}`));
}

$("register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const external = $("p-external").value.trim();
  const player = await acting($("register"), $("register-refusal"), () => api(
    tournamentPath("/players"), { method: "POST",
      body: { name: $("p-name").value.trim(), external_id: external || null } }));
  if (!player) return;
  $("register-form").reset();
  $("p-name").focus();
  tell(`${player.name} is registered.`);
  await newLinks([player]);
  $("p-name").focus({ preventScroll: true });
  await refreshAfterPlayers();
});

$("players-file-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("players-file").files[0];
  if (!file) return;
  const added = await acting($("register-file"), $("register-refusal"), () =>
    sendFile(tournamentPath("/players/csv"), file));
  if (!added) return;
  $("players-file-form").reset();
  const list = Array.isArray(added) ? added : (added.players || []);
  tell(`${list.length} players registered from ${file.name}.`);
  await newLinks(list);
  await refreshAfterPlayers();
});

async function refreshAfterPlayers() {
  try {
    state.tournament = await api(tournamentPath());
    showHead();
  } catch { /* the list says it */ }
  await loadPlayers();
}

// ---- decklists: the deadline and the lock --------------------------------------------------

$("deadline-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const local = $("deadline").value;
  const t = await acting($("move-deadline"), $("lists-refusal"), () => api(
    tournamentPath("/deadline"), { method: "POST", body: { deadline: local ? isoWithOffset(local) : null } }));
  if (!t) return;
  state.tournament = t;
  showHead();
  showPlayers();
  tell(t.deadline ? `The lists lock ${localText(t.deadline)}.` : "No deadline: round 1 locks the lists.");
});

$("lock").addEventListener("click", async () => {
  const t = await acting($("lock"), $("lists-refusal"), () => api(tournamentPath("/lock"), { method: "POST" }));
  if (!t) return;
  state.tournament = t;
  showHead();
  showPlayers();
  tell("Every decklist is locked: only a judge amends one now, with a reason.");
});

// ---- the event: judges, finishing ----------------------------------------------------------

let readEventStaff = null;

$("staff-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!readEventStaff) return;
  const t = await acting($("save-staff"), $("staff-refusal"), () => api(tournamentPath("/staff"),
    { method: "POST", body: readEventStaff() }));
  if (!t) return;
  state.tournament = t;
  showHead();
  tell("The judges are saved.");
});

$("finish").addEventListener("click", () => {
  const t = state.tournament;
  const open = state.round && !state.round.complete ? " Round " + state.round.round + " is not complete." : "";
  $("finish-question").textContent = `Finish ${t.name}?${open} Every decklist becomes public.`;
  $("finish-confirm").hidden = false;
  $("finish-yes").focus();
});
$("finish-no").addEventListener("click", () => { $("finish-confirm").hidden = true; });
$("finish-yes").addEventListener("click", async () => {
  const t = await acting($("finish-yes"), $("finish-refusal"), () => api(tournamentPath("/finish"), { method: "POST" }));
  if (!t) return;
  $("finish-confirm").hidden = true;
  state.tournament = t;
  state.cards.clear();
  $("tables").replaceChildren();
  showHead();
  tell(`${t.name} is finished. The standings and results files stay here.`);
  pollRound();
});

// ---- start ----------------------------------------------------------------------------------

function route() {
  const parts = window.location.pathname.split("/").filter(Boolean);  // events, ID, console
  if (parts[0] === "events" && parts[1] && parts[1] !== "new") return { event: decodeURIComponent(parts[1]) };
  return { event: null };
}

async function start() {
  const me = await whoAmI();
  if (me.role !== "organiser") {
    stopPolling();
    showSignIn(me);
    return;
  }
  tell("");
  const { event } = route();
  if (event) await showEvent(event);
  else await showCreate();
}

start();
