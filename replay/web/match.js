// A match's replay: the board at a position (GET /matches/{id}/state?at=N&viewer=V) drawn
// generically for any game, the timeline (events beside the transcript), stepping by buttons
// and keys, the position and viewer in the URL hash, the annotations of the position shown
// (read, drawn on the board, added), what a step forward changed, the match's variations as
// branches of the timeline, its disputes (called, listed, taken and ruled from the page), and
// following a live match (Server-Sent Events, with the credential when signed in). The embeddable board (/embed/ID, a page
// whose body has data-embed) uses the same code: the board only, as a spectator, always live.
import {
  ApiError, api, el, games, listen, resultText, shortTime, signIn, watchAnonymously,
} from "/static/common.js";
import * as generic from "/static/board.js";
import {
  contents, isCard, isChipList, isScalar, kit, label, scalarText, setSeatNames,
} from "/static/board.js";
import { BOARDS } from "/static/boards/index.js";

const embedded = document.body.hasAttribute("data-embed");

const matchRef = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
const ui = {
  title: $("match-title"), message: $("message"), board: $("board"), heading: $("board-heading"),
  body: $("board-body"), entries: $("entries"), where: $("where"), follow: $("follow"),
  viewer: $("viewer"), viewerLabel: $("viewer-label"),
  first: $("first"), prev: $("prev"), next: $("next"), last: $("last"),
  turnForm: $("turn-form"), turnInput: $("turn-input"),
  notes: $("note-list"), noteForm: $("note-form"), noteText: $("note-text"),
  noteSymbols: $("note-symbols"), noteVisibility: $("note-visibility"),
  noteHighlights: $("note-highlights"), noteMessage: $("note-message"), mainLine: $("main-line"),
  noteArrow: $("note-arrow"), noteArrows: $("note-arrows"), noteCancel: $("note-cancel"),
  noteAdd: $("note-add"), noteFormTitle: $("note-form-title"),
  disputes: $("disputes"), disputeList: $("dispute-list"), disputeForm: $("dispute-form"),
  disputeClaim: $("dispute-claim"), disputeMessage: $("dispute-message"),
  lines: $("lines"), lineTree: $("line-tree"), lineStart: $("line-start"), lineName: $("line-name"),
  lineVisibility: $("line-visibility"), lineStartWhere: $("line-start-where"), lineMessage: $("line-message"),
  play: $("play"), playSeat: $("play-seat"), playList: $("play-list"), takeBack: $("take-back"),
  disputeConcerns: $("dispute-concerns"), disputePause: $("dispute-pause"), disputePauseInput: $("dispute-pause-input"),
};

setSeatNames(seatName);

const view = {
  me: { role: "spectator" }, summary: null, title: "", matchId: null, version: null,
  position: null, positions: 0, viewer: null, answer: null, turns: new Map(), request: 0,
  board: null, busy: false, target: null, source: null, notes: [], picked: [], pickedAt: null,
  // The annotation form's arrows, and the annotation it amends (null: it adds one).
  arrows: [], editing: null,
  // The credential id of the head judge of the match's tournament (null: none, or not known).
  headJudge: null,
  // Every variation the caller may read (nested ones too), and the actions offered at a tip.
  allVariations: [], playOptions: [],
  // The variation shown ({id, name, from, length, at}; null: the main line), the main-line
  // variations the caller may read, the match's disputes (null: the panel is not for this
  // caller), and what the board shows (to tell a step forward from a jump).
  line: null, variations: [], disputes: null, shown: null,
  // The timeline's window: its last events read (more on demand), and where it starts
  // ({after: the version before its first entry, positionsBefore: positions reached by then}).
  timelineLast: 0, timeline: null,
};

// A long match's timeline reads the match's last events first, never the whole match to open
// (issue 43): this many at a time, earlier ones on demand or when an earlier position is shown.
const TIMELINE_STEP = 100;

// ---- the URL hash: #at=12&as=seat:1, or #line=VID&at=3 in a variation (never a credential) ----

// The hash the page last read or wrote: one that differs is a navigation (a link, the back
// button) whose hashchange has not been handled yet, which the page must not overwrite.
let ownHash = null;

function readHash() {
  ownHash = window.location.hash;
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const at = hash.get("at");
  return { at: at !== null && /^\d+$/.test(at) ? Number(at) : null, as: hash.get("as") || null,
           line: hash.get("line") || null };
}

function writeHash() {
  if (embedded) return;
  const hash = new URLSearchParams();
  if (view.line) {
    hash.set("line", view.line.id);
    hash.set("at", String(view.line.at));
  } else if (view.position !== null) hash.set("at", String(view.position));
  if (view.viewer) hash.set("as", view.viewer);
  const text = `#${hash.toString().replaceAll("%3A", ":")}`;
  if (ownHash !== null && window.location.hash !== ownHash) return;  // a newer URL wins
  if (window.location.hash !== text) history.replaceState(null, "", text);
  ownHash = window.location.hash;
}

function isStaff() {
  return view.me.role === "judge" || view.me.role === "organiser";
}

function say(text) {
  ui.message.textContent = text || "";
}

function explain(error, what) {
  if (error instanceof ApiError) {
    if (error.status === 403) return `${what}: not for this credential. ${error.message}`;
    if (error.status === 404) return `${what}: not found. ${error.message}`;
  }
  return `${what}: ${error.message}`;
}

// ---- the board ----

// Each game's own board, loaded when its match is shown; a game without one gets the generic
// board drawn from its view (board.js), so a new game is viewable on day one.
async function loadBoard(game) {
  if (!Object.hasOwn(BOARDS, game)) return generic;
  const { load, style } = BOARDS[game];
  if (!document.querySelector(`link[data-board="${game}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: style, "data-board": game }));
  }
  try {
    return await load();
  } catch (error) {
    console.warn(`the ${game} board did not load; drawing the generic one`, error);
    return generic;
  }
}

function seatName(seat) {
  const players = (view.answer && view.answer.state.players) || [];
  const found = players.find((p) => p && p.seat === seat);
  return found ? found.name : (view.summary ? view.summary.players[seat - 1] : null);
}

// ---- what a step changed: chips in a box they were not in, scalars with another value ----

const UNCOMPARED = new Set(["game", "players", "viewer", "options", "to_act", "result", "eliminated"]);
const FIRST = ["turn", "phase", "step", "active"];

// Every scalar of a position by a readable path ("turn", "seat 2 score", "seat 1 deck count"),
// leaving out cards' own facts and lists of cards.
function scalarsOf(state) {
  const found = new Map();
  const walk = (value, path) => {
    if (isScalar(value)) {
      found.set(path.join(" "), scalarText(value));
    } else if (Array.isArray(value)) {
      if (isChipList(value)) return;
      value.forEach((item, i) => walk(item, item && typeof item === "object" && Number.isInteger(item.seat)
        ? [...path.slice(0, -1), `seat ${item.seat}`] : [...path, String(i + 1)]));
    } else if (value && typeof value === "object" && !isCard(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key !== "seat" || !path.length) walk(inner, [...path, label(key)]);
      }
    }
  };
  for (const [key, value] of Object.entries(state || {})) {
    if (UNCOMPARED.has(key)) continue;
    if (key === "scores" && value && typeof value === "object" && !Array.isArray(value)) {
      for (const [seat, score] of Object.entries(value)) found.set(`seat ${seat} score`, scalarText(score));
    } else walk(value, [label(key)]);
  }
  return found;
}

function scalarChanges(before, after) {
  const was = scalarsOf(before);
  const now = scalarsOf(after);
  const changes = [];
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const a = was.has(key) ? was.get(key) : "—";
    const b = now.has(key) ? now.get(key) : "—";
    if (a !== b) changes.push([key, `${key} ${a} → ${b}`]);
  }
  const rank = (key) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  return changes.sort((x, y) => rank(x[0]) - rank(y[0])).map(([, text]) => text);
}

// Where a chip is: the titles of the boxes around it (without their counts).
const PLACES = ".box, .box-list, [data-zone]";

function boxPath(node) {
  const titles = [];
  for (let part = node.closest(PLACES); part; part = part.parentElement.closest(PLACES)) {
    const title = part.querySelector(":scope > .box-title, :scope > .zone-title");
    const name = title ? title.textContent : part.getAttribute("aria-label") || part.dataset.zone || "?";
    titles.unshift(name.replace(/ \(\d+\)$/, ""));
  }
  return titles.join(" / ");
}

// How many chips of each card are in each box.
function chipPlaces() {
  const places = new Map();
  for (const node of ui.body.querySelectorAll(".chip[data-card]")) {
    if (node.closest("details.options")) continue;
    const key = `${node.dataset.card}\u0000${boxPath(node)}`;
    places.set(key, (places.get(key) || 0) + 1);
  }
  return places;
}

// After one step forward, mark the chips that are in a box they were not in before.
function markChanged(before) {
  const seen = new Map();
  let count = 0;
  for (const node of ui.body.querySelectorAll(".chip[data-card]")) {
    if (node.closest("details.options")) continue;
    const place = boxPath(node);
    const key = `${node.dataset.card}\u0000${place}`;
    seen.set(key, (seen.get(key) || 0) + 1);
    if (seen.get(key) > (before.get(key) || 0)) {
      node.classList.add("changed");
      node.setAttribute("data-changed", place);
      node.title = [node.title, "new here since the previous position"].filter(Boolean).join(" · ");
      count += 1;
    }
  }
  return count;
}

function toActText(state, answer) {
  if (state.result) return `Result: ${resultText(state.result, view.summary && view.summary.players)}`;
  let seats = null;
  if (Array.isArray(answer.toAct)) {
    seats = answer.toAct;
  } else if (view.summary && answer.position === view.summary.positions && Array.isArray(view.summary.to_act)) {
    seats = view.summary.to_act;
  } else if (Array.isArray(state.to_act)) {
    seats = state.to_act;
  }
  const names = (list) => list.map((s) => `seat ${s}${seatName(s) ? ` (${seatName(s)})` : ""}`).join(", ");
  if (seats && seats.length) return `To act: ${names(seats)}`;
  if (Number.isInteger(state.active)) return `Active: ${names([state.active])}`;
  return "";
}

// The table under the header: the game's own board, or the generic one when the game has
// none or its board fails on this position (a bug there must not hide the position).
function drawTable(state) {
  const board = view.board || generic;
  try {
    return board.draw(state, kit);
  } catch (error) {
    if (board === generic) throw error;
    console.warn(`the ${state.game} board could not draw this position; drawing the generic one`, error);
    return generic.draw(state, kit);
  }
}

// Draw a position. `answer.line` (a variation's) is {id, name, from}; `previous` is the
// position shown before when this one is one step after it (what changed is then marked).
function renderBoard(answer, previous = null) {
  const state = answer.state;
  view.answer = answer;
  ui.heading.textContent = `${view.title} · board`;
  const line = answer.line || null;
  const facts = [
    line ? `Variation ${line.name}, ${answer.position} of ${answer.positions}, from position ${line.from}`
      : `Position ${answer.position} of ${answer.positions}`,
    state.turn !== undefined && state.turn !== null ? `Turn ${state.turn}` : null,
    state.phase ? `Phase ${label(state.phase)}` : null,
    state.step ? `Step ${label(state.step)}` : null,
    toActText(state, answer) || null,
    `Seen as ${answer.viewer}`,
  ].filter(Boolean);
  const header = el("div", { class: "board-head" },
    el("ul", { class: "facts-line" }, facts.map((f) => el("li", {}, f))));
  const players = state.players || [];
  const scores = state.scores || null;
  const eliminated = new Set(state.eliminated || []);
  if (players.length) {
    header.append(el("table", { class: "scores" },
      el("caption", { class: "visually-hidden" }, "Players and scores"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Seat"), el("th", { scope: "col" }, "Player"),
        scores ? el("th", { scope: "col" }, "Score") : null)),
      el("tbody", {}, players.map((p) => el("tr", {
        class: [p.seat === state.active ? "active" : "", eliminated.has(p.seat) ? "out" : ""].join(" ").trim() || null,
      },
      el("td", {}, String(p.seat)),
      el("td", {}, p.name, p.seat === state.active ? " ◀" : "", eliminated.has(p.seat) ? " (out)" : ""),
      scores ? el("td", {}, scalarText(scores[String(p.seat)] ?? null)) : null)))));
  }
  const changes = previous ? scalarChanges(previous.state, state) : [];
  const parts = [header];
  if (changes.length) {
    const shown = changes.slice(0, 12).join(", ");
    parts.push(el("p", { id: "changes", class: "changes" },
      el("span", { class: "changes-label" }, "Changes: "),
      changes.length > 12 ? `${shown}, and ${changes.length - 12} more` : shown));
  }
  parts.push(el("div", { class: `table table-${state.game || "generic"}` }, drawTable(state)));
  if (state.options) {
    parts.push(el("details", { class: "options" }, el("summary", {}, "Options"), contents(state.options, 1)));
  }
  const before = previous ? view.places : null;
  ui.body.replaceChildren(...parts);
  ui.board.dataset.position = String(answer.position);
  ui.board.dataset.positions = String(answer.positions);
  if (line) ui.board.dataset.line = line.id; else delete ui.board.dataset.line;
  ui.board.dataset.changed = before ? String(markChanged(before)) : "";
  view.places = chipPlaces();
  view.shown = { line: line ? line.id : null, position: answer.position, viewer: answer.viewer };
  renderNotes();
}

// Whether `answer` (on `line`, null: the main line) is one step forward from what is shown.
function oneStepOn(answer, line) {
  const shown = view.shown;
  return Boolean(shown && view.answer && shown.line === line && shown.viewer === answer.viewer &&
                 answer.position === shown.position + 1);
}

// ---- positions ----

function updateControls() {
  if (embedded) return;
  const line = view.line;
  const known = view.position !== null;
  const at = line ? line.at : view.position;
  const end = line ? line.length : view.positions;
  ui.where.textContent = !known ? "–"
    : line ? `variation ${line.name}, ${line.at} of ${line.length}, from position ${line.from}`
      : `${view.position} / ${view.positions}`;
  ui.first.disabled = ui.prev.disabled = !known || at <= 0;
  ui.next.disabled = ui.last.disabled = !known || at >= end;
  ui.mainLine.hidden = !line;
  if (line) ui.mainLine.textContent = `back to the main line (position ${line.from})`;
  for (const entry of ui.entries.querySelectorAll("[data-position], [data-line]")) {
    const here = line ? entry.dataset.line === line.id
      : entry.dataset.position !== undefined && Number(entry.dataset.position) === view.position;
    entry.classList.toggle("current", here);
    if (here) entry.setAttribute("aria-current", "step");
    else entry.removeAttribute("aria-current");
  }
  const current = ui.entries.querySelector("li.current");
  const list = ui.entries.parentElement;
  if (current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }
}

async function fetchState(at) {
  return api(`/matches/${view.matchId}/state`, { params: { at, viewer: view.viewer } });
}

// Show the position `at` of the main line (null: the last one the credential may see).
async function show(at) {
  const request = ++view.request;
  view.target = at;
  try {
    const answer = await fetchState(at);
    if (request !== view.request) return;
    const previous = oneStepOn(answer, null) ? view.answer : null;
    view.line = null;
    view.position = answer.position;
    view.positions = answer.positions;
    if (answer.state && answer.state.turn !== undefined) view.turns.set(answer.position, answer.state.turn);
    renderBoard(answer, previous);
    say("");
    renderLines();
    reachBack();
    if (ui.play) ui.play.hidden = true;
  } catch (error) {
    if (request !== view.request) return;
    say(explain(error, at === null ? "The position" : `Position ${at}`));
  }
  view.target = null;
  writeHash();
  updateControls();
}

// Show the position after `at` of a variation's actions (null: its last), on the board.
async function showLine(id, at) {
  const request = ++view.request;
  view.target = at;
  try {
    const found = await api(`/variations/${encodeURIComponent(id)}`, { params: { at } });
    if (request !== view.request) return;
    const line = { id: found.variation_id, name: found.name, from: found.from_position,
                   parent: found.parent, parentAt: found.parent_position, author: found.author };
    const answer = {
      position: found.position, positions: found.line.length, state: found.state,
      viewer: found.state.viewer ?? "you", toAct: found.to_act, line,
    };
    const previous = oneStepOn(answer, line.id) ? view.answer : null;
    view.line = { ...line, length: found.line.length, at: found.position };
    renderBoard(answer, previous);
    say("");
    renderLines();
    loadPlay(found);
  } catch (error) {
    if (request !== view.request) return;
    say(explain(error, "The variation"));
  }
  view.target = null;
  writeHash();
  updateControls();
}

// Back from a variation to the position of the main line it branches from.
function leaveLine() {
  if (!view.line) return;
  const { from, parent, parentAt } = view.line;
  if (parent) {
    showLine(parent, parentAt);
    return;
  }
  view.line = null;
  show(from).then(() => { renderLines(); loadPlay(null); });
}

// ---- variations: every line the caller may read as a tree, started, played and taken back
// from the page (by their author or a judge; the API decides who may branch) ----

function linePlace(v) {
  return v.parent ? `at ${v.parent_position} of its parent` : `from position ${v.from_position}`;
}

function lineTree(parent) {
  const children = view.allVariations.filter((v) => (v.parent || null) === parent);
  if (!children.length) return null;
  return el("ul", { class: parent ? "line-children" : "line-tree" }, children.map((v) => el("li", {
    "data-variation": v.variation_id, class: view.line && view.line.id === v.variation_id ? "current" : null },
    el("button", { type: "button", "data-line": v.variation_id },
      `⎇ ${v.name}`, el("span", { class: "line-meta" },
        ` · ${v.line.length} action${v.line.length === 1 ? "" : "s"} ${linePlace(v)} · ${v.visibility} · ${(v.author || {}).name || "?"}`)),
    lineTree(v.variation_id))));
}

function renderLines() {
  if (!ui.lines) return;
  ui.lineTree.replaceChildren(lineTree(null) || el("p", { class: "none" }, "No variation you may read."));
  const where = view.line ? `position ${view.line.at} of the variation ${view.line.name}` : `position ${view.position ?? 0}`;
  ui.lineStartWhere.textContent = where;
  ui.lineStart.hidden = !signedIn();
}

async function loadLines() {
  if (embedded || !view.matchId || !ui.lines) return;
  try {
    view.allVariations = await api(`/matches/${view.matchId}/variations`);
  } catch {
    view.allVariations = [];
  }
  renderLines();
}

async function startLine(event) {
  event.preventDefault();
  const body = { name: ui.lineName.value.trim(), visibility: ui.lineVisibility.value };
  if (view.line) {
    body.parent = view.line.id;
    body.parent_position = view.line.at;
  } else body.position = view.position;
  ui.lineMessage.textContent = "";
  let made;
  try {
    made = await api(`/matches/${view.matchId}/variations`, { method: "POST", body });
  } catch (error) {
    ui.lineMessage.textContent = refusal(error, "Not started");
    return;
  }
  ui.lineName.value = "";
  ui.lineMessage.textContent = `Variation "${made.name}" started: play its actions below.`;
  await Promise.all([loadLines(), loadTimeline()]);
  await showLine(made.variation_id, 0);
}

// Whether the caller may play the line shown: its author, or a judge or an organiser.
function mayPlay(line) {
  return signedIn() && Boolean(line) && (isStaff() || ((line.author || {}).id || null) === view.me.credential_id);
}

// The actions of the line's tip for a seat (the first to act by default), as buttons.
async function loadPlay(found) {
  if (!ui.play) return;
  const line = view.line;
  ui.play.hidden = !(line && mayPlay(line) && found && found.position === found.line.length);
  if (ui.play.hidden) return;
  const seats = view.summary ? view.summary.players.map((name, i) => [i + 1, name]) : [];
  const toAct = found.to_act || [];
  const own = view.me.role === "seat" && view.me.match_id === view.matchId ? view.me.seat : null;
  const chosen = own || Number(ui.playSeat.value) || toAct[0] || 1;
  ui.playSeat.replaceChildren(...seats.filter(([seat]) => !own || seat === own).map(([seat, name]) =>
    el("option", { value: String(seat) }, `seat ${seat} (${name})${toAct.includes(seat) ? " · to act" : ""}`)));
  ui.playSeat.value = String(toAct.includes(chosen) || own ? chosen : toAct[0] || chosen);
  ui.takeBack.disabled = found.line.length === 0;
  await listPlay();
}

async function listPlay() {
  const line = view.line;
  if (!line) return;
  try {
    const options = await api(`/variations/${line.id}/legal`, { params: { seat: ui.playSeat.value } });
    ui.playList.replaceChildren(...(options.length ? options.map((o, i) => el("li", {},
      el("button", { type: "button", "data-option": String(i) }, o.text || JSON.stringify(o.action))))
      : [el("li", { class: "none" }, "Nothing for this seat to do here.")]));
    view.playOptions = options;
  } catch (error) {
    ui.playList.replaceChildren(el("li", { class: "none" }, explain(error, "The actions")));
    view.playOptions = [];
  }
}

async function playOption(event) {
  const button = event.target.closest("button[data-option]");
  if (!button || !view.line) return;
  const option = view.playOptions[Number(button.dataset.option)];
  ui.lineMessage.textContent = "";
  try {
    await api(`/variations/${view.line.id}/actions`, { method: "POST", body: { action: option.action } });
  } catch (error) {
    ui.lineMessage.textContent = refusal(error, "Not played");
    return;
  }
  const id = view.line.id;
  await loadLines();
  await showLine(id, null);
}

async function takeBackOne() {
  if (!view.line) return;
  const id = view.line.id;
  ui.lineMessage.textContent = "";
  try {
    await api(`/variations/${id}/take-back`, { method: "POST", body: { count: 1 } });
  } catch (error) {
    ui.lineMessage.textContent = refusal(error, "Not taken back");
    return;
  }
  await loadLines();
  await showLine(id, null);
}

function go(target) {
  if (view.position === null) return;
  const line = view.line;
  const from = view.target ?? (line ? line.at : view.position);
  if (target === from) return;
  const clamped = Math.max(0, Math.min(line ? line.length : view.positions, target));
  if (clamped === from) return;
  if (line) showLine(line.id, clamped); else show(clamped);
}

// One step from the position shown, or from the one being fetched (keys pressed quickly).
function step(delta) {
  if (view.position === null) return;
  go((view.target ?? (view.line ? view.line.at : view.position)) + delta);
}

function goLast() {
  go(view.line ? view.line.length : view.positions);
}

async function turnAt(position) {
  if (!view.turns.has(position)) {
    const answer = await fetchState(position);
    view.turns.set(position, answer.state.turn);
  }
  return view.turns.get(position);
}

// The first position of the next turn (binary search: turns never go back along a line).
async function nextTurnStart() {
  const here = view.position;
  const turn = await turnAt(here);
  if (typeof turn !== "number") return here + 10;
  if ((await turnAt(view.positions)) <= turn) return view.positions;
  let lo = here;
  let hi = view.positions;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await turnAt(mid)) > turn) hi = mid; else lo = mid;
  }
  return hi;
}

// The first position of this turn, or of the previous one when already at this one's start.
async function previousTurnStart() {
  const here = view.position;
  if (here <= 0) return 0;
  let target = await turnAt(here);
  if (typeof target !== "number") return here - 10;
  const before = await turnAt(here - 1);
  if (before < target) target = before;
  if ((await turnAt(0)) >= target) return 0;
  let lo = 0;
  let hi = here;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await turnAt(mid)) >= target) hi = mid; else lo = mid;
  }
  return hi;
}

async function jumpTurn(forward) {
  if (view.line) {  // a variation is short: its first or last position
    go(forward ? view.line.length : 0);
    return;
  }
  if (view.position === null || view.busy) return;
  view.busy = true;
  try {
    go(forward ? await nextTurnStart() : await previousTurnStart());
  } catch {
    go(view.position + (forward ? 10 : -10));
  } finally {
    view.busy = false;
  }
}

// The first position of turn `turn` of the main line (the last position when the match has
// not reached it; binary search: turns never go back).
async function turnStart(turn) {
  if ((await turnAt(view.positions)) < turn) return null;
  if ((await turnAt(0)) >= turn) return 0;
  let lo = 0;
  let hi = view.positions;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await turnAt(mid)) >= turn) hi = mid; else lo = mid;
  }
  return hi;
}

async function jumpToTurn(event) {
  event.preventDefault();
  const turn = Number(ui.turnInput.value);
  if (!Number.isInteger(turn) || turn < 0 || view.position === null) return;
  if (view.line) leaveLine();
  try {
    const start = await turnStart(turn);
    if (start === null) {
      say(`Turn ${turn} is not reached in the positions you may see.`);
      return;
    }
    go(start);
  } catch (error) {
    say(explain(error, `Turn ${turn}`));
  }
}

// ---- the timeline: events beside the transcript ----

async function loadTimeline() {
  if (embedded) return;
  view.timelineLast = Math.max(view.timelineLast, TIMELINE_STEP);
  const params = { viewer: view.viewer, last: view.timelineLast };
  let events;
  let transcript;
  let variations;
  try {
    [events, transcript, variations] = await Promise.all([
      api(`/matches/${view.matchId}/events`, { params }),
      api(`/matches/${view.matchId}/transcript`, { params }),
      api(`/matches/${view.matchId}/variations`).catch(() => []),
    ]);
  } catch (error) {
    ui.entries.replaceChildren(el("li", { class: "note" }, explain(error, "The timeline")));
    return;
  }
  if (params.last !== view.timelineLast) return;  // a longer window was asked for meanwhile
  view.timeline = { after: transcript.after || 0, positionsBefore: transcript.positions_before || 0 };
  const lines = new Map();
  for (const line of transcript.lines || []) {
    const found = /^v(\d+)\s+\S+\s+(.*)$/s.exec(line);
    if (found) lines.set(Number(found[1]), found[2].replace(/ \[undone\]$/, ""));
  }
  const voided = new Set();
  for (const event of events) {
    if (event.event === "ActionsUndone") for (const seq of event.seqs || []) voided.add(seq);
  }
  view.variations = (Array.isArray(variations) ? variations : []).filter((v) => v.parent === null);
  const branches = (position) => view.variations.filter((v) => v.from_position === position).map((v) =>
    el("li", { class: "branch", "data-line": v.variation_id, "data-from": String(v.from_position) },
      el("button", { type: "button", class: "entry", "data-line": v.variation_id,
                     title: `Open the variation "${v.name}" (${v.visibility}, by ${(v.author || {}).name || "?"})` },
        el("span", { class: "pos" }, "⎇"), " ", `${v.name} · ${v.line.length} action${v.line.length === 1 ? "" : "s"}`)));
  let live = view.timeline.positionsBefore;
  const items = [];
  if (view.timeline.after > 0) {
    const more = Math.min(TIMELINE_STEP, view.timeline.after);
    items.push(el("li", { class: "note" }, el("button", { type: "button", class: "entry", "data-earlier": "" },
      `Show ${more} earlier event${more === 1 ? "" : "s"} (${view.timeline.after} before these)`)));
  }
  for (const event of events) {
    const text = lines.get(event.version) || label(event.event);
    if (event.event === "MatchCreated") {
      items.push(el("li", { "data-position": "0" },
        el("button", { type: "button", class: "entry", "data-go": "0" },
          el("span", { class: "pos" }, "0"), " ", text)), ...branches(0));
    } else if (event.event === "ActionRecorded" && !voided.has(event.seq)) {
      live += 1;
      items.push(el("li", { "data-position": String(live), "data-seq": String(event.seq),
                            "data-version": String(event.version) },
        el("button", { type: "button", class: "entry", "data-go": String(live),
                       title: `Go to position ${live}, after action #${event.seq}` },
          el("span", { class: "pos" }, String(live)), " ", text)), ...branches(live));
    } else if (event.event === "ActionRecorded") {
      items.push(el("li", { class: "undone", "data-seq": String(event.seq) },
        el("s", {}, text), el("span", { class: "visually-hidden" }, " (undone)")));
    } else {
      items.push(el("li", { class: "note" }, text));
    }
  }
  ui.entries.replaceChildren(...items);
  markTimeline();
  updateControls();
  reachBack();
}

// Read the timeline again with `more` events before its window.
function readEarlier(more) {
  view.timelineLast += more;
  loadTimeline();
}

// When the position shown is before the timeline's window, read the timeline again from a
// little before it.
function reachBack() {
  const t = view.timeline;
  if (!t || t.after === 0 || view.line || view.position === null || !view.answer) return;
  if (view.answer.position !== view.position || view.position > t.positionsBefore) return;
  const wanted = view.version - view.answer.version + TIMELINE_STEP;
  if (wanted > view.timelineLast) readEarlier(wanted - view.timelineLast);
}

// ---- annotations: the caller's readable ones of the position shown, and adding one ----

const SYMBOLS = [["good", "!"], ["excellent", "!!"], ["mistake", "?"], ["blunder", "??"],
  ["interesting", "!?"], ["dubious", "?!"], ["key_moment", "□"], ["rules_question", "?R"]];

function signedIn() {
  return !embedded && view.me.role !== "spectator";
}

function onMainLine(note) {
  return note.variation === null || note.variation === undefined;
}

function notesHere() {
  if (view.line) return [];  // a variation's annotations are not shown yet
  return view.notes.filter((n) => onMainLine(n) && n.position === view.position);
}

async function loadNotes() {
  if (embedded || !view.matchId) return;
  try {
    view.notes = await api(`/matches/${view.matchId}/annotations`);
  } catch (error) {
    view.notes = [];
    renderNotes();
    ui.notes.replaceChildren(el("li", { class: "withdrawn" }, explain(error, "The annotations")));
    markTimeline();
    return;
  }
  renderNotes();
  markTimeline();
}

function noteItem(note) {
  const author = note.author || {};
  const who = `${author.name || "?"}${author.seat ? ` (seat ${author.seat})` : ""}`;
  const head = el("div", { class: "note-head" }, `${who} · ${note.visibility}`, note.amended ? " · amended" : "");
  if (note.withdrawn) {
    return el("li", { class: "withdrawn", "data-annotation": note.annotation_id }, head, "withdrawn");
  }
  const marks = (note.symbols || []).map((s) => s.mark).join(" ");
  const names = (note.symbols || []).map((s) => label(s.name)).join(", ");
  const item = el("li", { "data-annotation": note.annotation_id, "data-visibility": note.visibility }, head,
    el("p", { class: "note-text" }, marks ? el("span", { class: "marks", title: names }, marks) : null,
      note.text || ""));
  if ((note.highlights || []).length) {
    item.append(el("div", { class: "note-head" }, `highlights: ${note.highlights.join(", ")}`));
  }
  if ((note.arrows || []).length) {
    item.append(el("ul", { class: "arrows", "aria-label": "Arrows" },
      note.arrows.map(([from, to]) => el("li", {}, `${from} → ${to}`))));
  }
  const mine = signedIn() && author.id && author.id === view.me.credential_id;
  if (mine || (signedIn() && isStaff())) {
    item.append(el("div", { class: "note-actions" },
      mine ? el("button", { type: "button", "data-edit": note.annotation_id }, "Edit") : null,
      el("button", { type: "button", "data-withdraw": note.annotation_id }, "Withdraw")));
  }
  return item;
}

// The small form asking why an annotation is withdrawn, under it in the list.
function withdrawForm(id) {
  return el("form", { class: "withdraw-form note-form", "data-withdrawing": id, "aria-label": "Withdraw this annotation" },
    el("label", { for: `withdraw-${id}` }, "Why withdraw it?"),
    el("input", { type: "text", id: `withdraw-${id}`, name: "reason", required: true, maxlength: "200" }),
    el("button", { type: "submit" }, "Withdraw annotation"));
}

// Edit and Withdraw in the annotation list.
function noteAction(event) {
  const edit = event.target.closest("button[data-edit]");
  if (edit) {
    startEditing(view.notes.find((n) => n.annotation_id === edit.dataset.edit));
    return;
  }
  const withdraw = event.target.closest("button[data-withdraw]");
  if (!withdraw) return;
  const item = withdraw.closest("li");
  if (!item.querySelector("form.withdraw-form")) {
    item.append(withdrawForm(withdraw.dataset.withdraw));
    item.querySelector("input[name=reason]").focus();
  }
}

async function withdrawNote(event) {
  const form = event.target.closest("form.withdraw-form");
  if (!form) return;
  event.preventDefault();
  try {
    await api(`/annotations/${form.dataset.withdrawing}/withdraw`, {
      method: "POST", body: { reason: form.querySelector("input[name=reason]").value } });
  } catch (error) {
    ui.noteMessage.textContent = refusal(error, "Not withdrawn");
    return;
  }
  ui.noteMessage.textContent = "Annotation withdrawn.";
  await loadNotes();
}

// Fill the form with an annotation of one's own; submitting it then amends it.
function startEditing(note) {
  if (!note) return;
  view.editing = note.annotation_id;
  ui.noteText.value = note.text || "";
  const symbols = new Set((note.symbols || []).map((x) => x.name));
  for (const input of ui.noteSymbols.querySelectorAll("input")) input.checked = symbols.has(input.value);
  view.picked = [...(note.highlights || [])];
  view.arrows = (note.arrows || []).map((a) => [...a]);
  ui.noteVisibility.value = note.visibility;
  ui.noteFormTitle.textContent = "Amend your annotation";
  ui.noteAdd.textContent = "Save the amendment";
  ui.noteCancel.hidden = false;
  showPicked();
  ui.noteText.focus();
}

function stopEditing() {
  view.editing = null;
  view.arrows = [];
  ui.noteFormTitle.textContent = "Annotate this position";
  ui.noteAdd.textContent = "Add annotation";
  ui.noteCancel.hidden = true;
}

function clearForm() {
  ui.noteText.value = "";
  for (const input of ui.noteSymbols.querySelectorAll("input:checked")) input.checked = false;
  view.picked = [];
  stopEditing();
  showPicked();
}

// The highlights and arrows the form holds, each arrow with a button taking it away.
function showPicked() {
  ui.noteHighlights.textContent = view.picked.length ? view.picked.join(", ") : "none";
  ui.noteArrows.replaceChildren(...view.arrows.map(([from, to], i) => el("li", {}, `${from} → ${to} `,
    el("button", { type: "button", "data-unarrow": String(i), "aria-label": `Remove the arrow ${from} to ${to}` }, "×"))));
  ui.noteArrow.disabled = view.picked.length < 2;
  applyMarks();
}

// An arrow from the next-to-last picked highlight to the last one.
function addArrow() {
  if (view.picked.length < 2) return;
  const arrow = view.picked.slice(-2);
  if (!view.arrows.some(([a, b]) => a === arrow[0] && b === arrow[1])) view.arrows.push(arrow);
  showPicked();
}

function removeArrow(event) {
  const button = event.target.closest("button[data-unarrow]");
  if (!button) return;
  view.arrows.splice(Number(button.dataset.unarrow), 1);
  showPicked();
}

function renderNotes() {
  if (!ui.notes) return;
  const where = view.line ? `${view.line.id}@${view.line.at}` : view.position;
  if (view.pickedAt !== where) {
    view.picked = [];
    view.pickedAt = where;
    stopEditing();
  }
  const here = notesHere();
  ui.notes.replaceChildren(...(here.length ? here.map(noteItem)
    : [el("li", { class: "withdrawn" }, view.line ? "Annotations of a variation are not shown here."
      : "No annotation of this position for you.")]));
  ui.noteForm.hidden = !signedIn() || Boolean(view.line);
  showPicked();
}

// ---- marks: what a highlight names (a zone, a place in it, a card, a card in a place) ----
// As the server reads them (replay/annotations.py's Mark): ZONE, ZONE#SEAT, a place of a zone
// with places ZONE#SEAT:ADDRESS (a square field:B-2, a cell conspiracy#1:1.2, a hex
// field#2:A1:1L), a card's id, or a card in a place PLACE/CARD (field:M1-3/WGS-012: that copy).

function parseMark(mark) {
  const slash = mark.indexOf("/");
  const place = slash >= 0 ? mark.slice(0, slash) : mark;
  const colon = place.indexOf(":");
  const head = colon >= 0 ? place.slice(0, colon) : place;
  const [zone, seat] = head.split("#");
  const isZone = slash >= 0 || colon >= 0 || seat !== undefined ||
    Boolean(ui.body.querySelector(`[data-zone="${CSS.escape(zone)}"]`));
  if (!isZone) return { card: mark };
  return { zone, seat: seat === undefined ? null : seat, address: colon >= 0 ? place.slice(colon + 1) : "",
           card: slash >= 0 ? mark.slice(slash + 1) : null };
}

// The place a node of the board is in: its zone (and seat), and the address of the place of
// the zone it is in (a square, a hex, a cell), or null outside every zone.
function placeOf(node) {
  const zone = node.closest("[data-zone]");
  const at = node.closest("[data-address]");
  if (!zone) return null;
  return { zone: zone.dataset.zone, seat: zone.dataset.seat ?? null,
           address: at && zone.contains(at) ? at.dataset.address : "" };
}

function placeText(place) {
  return `${place.zone}${place.seat !== null ? `#${place.seat}` : ""}${place.address ? `:${place.address}` : ""}`;
}

// What choosing a chip picks: the card in its place (one copy of several), or its id alone
// where it is drawn outside every zone.
function chipMark(chip) {
  const place = placeOf(chip);
  return place ? `${placeText(place)}/${chip.dataset.card}` : chip.dataset.card;
}

function inPlace(parsed, place) {
  return Boolean(place) && parsed.zone === place.zone && (parsed.seat === null || parsed.seat === place.seat) &&
    (parsed.address === "" || parsed.address === place.address);
}

// The nodes a mark names: chips for a card (those in their zone first: a card drawn again in a
// panel, a combat's, is found where it lies), places for a zone or a place (a zone's own box, or,
// where the board draws only its places, every place of it).
function markNodes(mark) {
  const parsed = parseMark(mark);
  if (parsed.card) {
    const id = parsed.card;
    return [...ui.body.querySelectorAll(".chip[data-card]")]
      .filter((c) => (c.dataset.card === id || c.dataset.card.split("@")[0] === id) &&
        (parsed.zone === undefined || inPlace(parsed, placeOf(c))))
      .sort((a, b) => Number(!a.closest("[data-zone]")) - Number(!b.closest("[data-zone]")));
  }
  const places = [...ui.body.querySelectorAll("[data-zone], [data-address]")]
    .map((node) => ({ node, place: placeOf(node) }))
    .filter(({ node, place }) => inPlace(parsed, place) &&
      (!parsed.address || node.dataset.address === parsed.address));
  const whole = places.filter(({ place }) => place.address === "");
  return (parsed.address || !whole.length ? places : whole).map(({ node }) => node);
}

// Outline what the shown annotations highlight (both ends of their arrows too) and what the
// form has picked.
function applyMarks() {
  const marked = new Set();
  for (const note of notesHere()) {
    if (note.withdrawn) continue;
    for (const mark of note.highlights || []) marked.add(mark);
    for (const arrow of note.arrows || []) for (const end of arrow) marked.add(end);
  }
  const lit = new Set([...marked].flatMap(markNodes));
  for (const node of ui.body.querySelectorAll(".chip[data-card], [data-zone], [data-address]")) {
    const on = lit.has(node);
    node.classList.toggle("highlighted", on);
    if (on) node.setAttribute("data-highlighted", ""); else node.removeAttribute("data-highlighted");
  }
  const picked = new Set(view.picked);
  for (const chipNode of ui.body.querySelectorAll(".chip[data-card]")) {
    chipNode.classList.toggle("picked", picked.has(chipMark(chipNode)));
  }
  ui.board.classList.toggle("picking", signedIn());
  for (const node of ui.body.querySelectorAll(".chip[data-card], [data-zone] > .zone-title, [data-zone] > .box-title, [data-address]:not([data-zone])")) {
    if (signedIn()) node.setAttribute("tabindex", "0"); else node.removeAttribute("tabindex");
  }
  drawArrows();
}

// ---- arrows: each shown annotation's arrows (and the form's) drawn over the board ----

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// Where an arrow's end is on the board: the first node its mark names.
function markNode(mark) {
  return markNodes(mark)[0] || null;
}

function drawArrows() {
  for (const old of ui.body.querySelectorAll("svg.arrow-layer")) old.remove();
  const arrows = [];
  for (const note of notesHere()) {
    if (!note.withdrawn) for (const arrow of note.arrows || []) arrows.push({ arrow, kind: "note" });
  }
  if (signedIn()) for (const arrow of view.arrows) arrows.push({ arrow, kind: "draft" });
  if (!arrows.length) return;
  const frame = ui.body.getBoundingClientRect();
  const layer = svg("svg", { class: "arrow-layer", width: ui.body.scrollWidth, height: ui.body.scrollHeight,
                             "aria-hidden": "true" });
  const defs = svg("defs");
  for (const kind of ["note", "draft"]) {
    const head = svg("marker", { id: `arrowhead-${kind}`, viewBox: "0 0 10 10", refX: 9, refY: 5,
                                 markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
    head.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrowhead ${kind}` }));
    defs.append(head);
  }
  layer.append(defs);
  for (const { arrow: [from, to], kind } of arrows) {
    const a = markNode(from);
    const b = markNode(to);
    if (!a || !b) continue;
    const centre = (node) => {
      const r = node.getBoundingClientRect();
      return [r.left + r.width / 2 - frame.left + ui.body.scrollLeft, r.top + r.height / 2 - frame.top + ui.body.scrollTop];
    };
    const [x1, y1] = centre(a);
    const [x2, y2] = centre(b);
    layer.append(svg("line", { x1, y1, x2, y2, class: `arrow ${kind}`, "data-arrow": `${from}→${to}`,
                               "marker-end": `url(#arrowhead-${kind})` }));
  }
  ui.body.append(layer);
}

function markTimeline() {
  if (!ui.entries) return;
  const annotated = new Set(view.notes.filter(onMainLine).map((n) => n.position));
  const disputed = new Set((view.disputes || []).map((d) => d.position));
  for (const entry of ui.entries.querySelectorAll("li[data-position]")) {
    const position = Number(entry.dataset.position);
    mark(entry, "note-mark", "✎", "annotated", annotated.has(position));
    mark(entry, "dispute-mark", "⚖", "disputed", disputed.has(position));
  }
}

// A timeline entry's mark (✎, ⚖), with its attribute (data-annotated, data-disputed).
function mark(entry, kind, sign, what, on) {
  const found = entry.querySelector(`.${kind}`);
  if (on && !found) {
    entry.querySelector("button").append(el("span", { class: kind, title: what }, sign,
      el("span", { class: "visually-hidden" }, ` (${what})`)));
  } else if (!on && found) found.remove();
  if (on) entry.setAttribute(`data-${what}`, ""); else entry.removeAttribute(`data-${what}`);
}

function setUpNoteForm() {
  if (!ui.noteForm) return;
  if (!ui.noteSymbols.querySelector("input")) {
    ui.noteSymbols.append(...SYMBOLS.map(([name, mark]) => el("label", { class: "check" },
      el("input", { type: "checkbox", name: "symbol", value: name }), ` ${mark} ${label(name)}`)));
  }
  ui.noteForm.hidden = !signedIn();
  ui.noteMessage.textContent = "";
}

async function addNote(event) {
  event.preventDefault();
  const body = {
    text: ui.noteText.value,
    symbols: [...ui.noteSymbols.querySelectorAll("input:checked")].map((input) => input.value),
    highlights: [...view.picked], arrows: view.arrows.filter(([a, b]) => view.picked.includes(a) && view.picked.includes(b)),
    visibility: ui.noteVisibility.value,
  };
  const editing = view.editing;
  const what = editing ? "amended" : "added";
  ui.noteMessage.textContent = "";
  try {
    if (editing) await api(`/annotations/${editing}/amend`, { method: "POST", body });
    else await api(`/matches/${view.matchId}/annotations`, { method: "POST", body: { ...body, position: view.position } });
  } catch (error) {
    ui.noteMessage.textContent = error instanceof ApiError
      ? `Not ${what} (${error.status}): ${error.message}` : `Not ${what}: ${error.message}`;
    return;
  }
  clearForm();
  ui.noteMessage.textContent = `Annotation ${what}.`;
  await loadNotes();
}

// While signed in, choosing a card on the board adds it to (or takes it from) the highlights,
// in its place (a copy on a square, not the one in a hand). Choosing a zone's title picks the
// zone (ZONE#SEAT, or ZONE for a shared one); a place's title, or the place itself (a square, a
// hex, a cell, empty or not), picks the place. Enter or Space on a focused chip, title or place
// does the same.
function pick(event) {
  if (!signedIn()) return;
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
  let id = null;
  const found = event.target.closest(".chip[data-card]");
  const title = event.target.closest(".zone-title, .box-title");
  const titled = title && title.parentElement.matches("[data-zone], [data-address]") ? title.parentElement : null;
  const place = titled || event.target.closest("[data-address]");
  if (found) id = chipMark(found);
  else if (place && placeOf(place)) id = placeText(placeOf(place));
  if (!id) return;
  if (event.type === "keydown") event.preventDefault();
  view.picked = view.picked.includes(id) ? view.picked.filter((x) => x !== id) : [...view.picked, id];
  view.arrows = view.arrows.filter(([a, b]) => view.picked.includes(a) && view.picked.includes(b));
  showPicked();
}

// ---- disputes: the match's parties call a judge; judges and organisers take and rule ----

function remedyText(remedy) {
  if (!remedy || remedy.kind === "none") return "no remedy";
  if (remedy.kind === "penalty") {
    return `${remedy.penalty ? label(remedy.penalty) : "penalty"}${remedy.seat ? ` for seat ${remedy.seat}` : ""}`;
  }
  return label(remedy.kind);
}

function personText(person) {
  if (!person) return "?";
  return `${person.name || "?"}${person.seat ? ` (seat ${person.seat})` : ""}`;
}

// Whether the caller may rule on `dispute` now: a judge or an organiser on an open one it has
// taken (or any, for an organiser); the head judge of its tournament or an organiser on appeal.
function mayRule(dispute) {
  if (!isStaff()) return false;
  if (dispute.status === "appealed") {
    return view.me.role === "organiser" || (view.headJudge !== null && view.headJudge === view.me.credential_id);
  }
  return dispute.status === "open" && Boolean(dispute.judge) &&
    (view.me.role === "organiser" || (dispute.judge.id || null) === view.me.credential_id);
}

// The remedies a ruling may carry (replay/disputes.py applies them to the match).
const REMEDIES = [
  ["none", "none"], ["warning", "a warning for a seat"], ["game_loss", "a game loss for a seat"],
  ["backup", "back up to a position (undo the actions after it)"],
  ["reopen", "reopen the ended match at a position"],
  ["adjustment", "an adjustment (a judge's action)"], ["game_ruling", "the game's own ruling action"],
];

function ruleForm(dispute) {
  const id = dispute.dispute_id;
  const seats = view.summary ? view.summary.players.map((name, i) => el("option", { value: String(i + 1) }, `seat ${i + 1} (${name})`)) : [];
  return el("form", { class: "rule-form note-form", "data-rule": id, "aria-label": "Rule on this dispute" },
    dispute.status === "appealed" ? el("p", { class: "hint" }, "On appeal: this ruling replaces the first.") : null,
    el("label", { for: `decision-${id}` }, "Decision"),
    el("input", { id: `decision-${id}`, name: "decision", type: "text", maxlength: "200", required: true }),
    el("label", { for: `reasoning-${id}` }, "Reasoning"),
    el("textarea", { id: `reasoning-${id}`, name: "reasoning", rows: "2", maxlength: "2000", required: true }),
    el("label", { for: `remedy-${id}` }, "Remedy"),
    el("select", { id: `remedy-${id}`, name: "remedy", "data-remedy": id },
      REMEDIES.map(([value, text]) => el("option", { value }, text))),
    el("label", { for: `seat-${id}`, class: "for-seat", hidden: true }, "Seat"),
    el("select", { id: `seat-${id}`, name: "seat", class: "for-seat", hidden: true }, seats),
    el("label", { for: `to-${id}`, class: "for-position", hidden: true }, "To position"),
    el("input", { id: `to-${id}`, name: "to_position", type: "number", min: "0", class: "for-position", hidden: true,
                  value: String(dispute.position) }),
    el("label", { for: `action-${id}`, class: "for-action", hidden: true }, "Action (JSON, as the API takes it)"),
    el("textarea", { id: `action-${id}`, name: "action", rows: "2", class: "for-action", hidden: true }),
    el("button", { type: "submit", class: "rule" }, "Rule"));
}

// Show the remedy's own fields (a seat, a position, an action) and hide the others.
function remedyFields(event) {
  const select = event.target.closest("select[data-remedy]");
  if (!select) return;
  const form = select.form;
  const kind = select.value;
  const show = { "for-seat": ["warning", "game_loss"].includes(kind), "for-position": ["backup", "reopen"].includes(kind),
                 "for-action": ["adjustment", "game_ruling"].includes(kind) };
  for (const [cls, on] of Object.entries(show)) for (const node of form.querySelectorAll(`.${cls}`)) node.hidden = !on;
}

function appealForm(dispute) {
  const id = dispute.dispute_id;
  return el("form", { class: "appeal-form note-form", "data-appeal": id, "aria-label": "Appeal this ruling" },
    el("label", { for: `appeal-${id}` }, "Appeal the ruling: why?"),
    el("input", { id: `appeal-${id}`, name: "reason", type: "text", maxlength: "500", required: true }),
    el("button", { type: "submit" }, "Appeal"));
}

function disputeItem(dispute) {
  const item = el("li", { "data-dispute": dispute.dispute_id, "data-status": dispute.status },
    el("div", { class: "note-head" },
      `${dispute.status} · position ${dispute.position} · called by ${personText(dispute.opened_by)}`,
      dispute.judge ? ` · judge ${personText(dispute.judge)}` : "", dispute.pausing ? " · pausing the match" : "",
      (dispute.concerns || []).length ? ` · about event${dispute.concerns.length > 1 ? "s" : ""} v${dispute.concerns.join(", v")}` : ""),
    el("p", { class: "note-text" }, dispute.claim));
  if ((dispute.rulings || []).length) {
    item.append(el("ul", { class: "rulings", "aria-label": "Rulings" }, dispute.rulings.map((r) =>
      el("li", { class: "ruling" }, el("strong", {}, r.decision),
        ` (${remedyText(r.remedy)}${r.on_appeal ? ", on appeal" : ""}, by ${personText(r.by)}): `, r.reasoning))));
  }
  if (dispute.appeal) {
    item.append(el("p", { class: "note-head" }, `appealed by ${personText(dispute.appeal.by)}: ${dispute.appeal.reason || ""}`));
  }
  item.append(el("details", { class: "evidence", "data-evidence": dispute.dispute_id },
    el("summary", {}, "Evidence"), el("div", { class: "evidence-body" }, "…")));
  if (isStaff() && dispute.status === "open" && !dispute.judge) {
    item.append(el("div", { class: "take-row" },
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "pause", "data-pause": dispute.dispute_id }),
        " pause the match until the ruling"),
      el("button", { type: "button", class: "take", "data-take": dispute.dispute_id }, "Take")));
  } else if (mayRule(dispute)) {
    item.append(ruleForm(dispute));
  }
  if (dispute.status === "ruled") item.append(appealForm(dispute));
  return item;
}

// A dispute's evidence as the caller may read it (GET /disputes/{id}), when first opened.
async function showEvidence(event) {
  const details = event.target.closest("details[data-evidence]");
  if (!details || !details.open || details.dataset.loaded) return;
  const body = details.querySelector(".evidence-body");
  try {
    const found = await api(`/disputes/${details.dataset.evidence}`);
    const evidence = found.evidence;
    const audit = evidence.audit || {};
    body.replaceChildren(
      el("p", {}, `Audit of the record: ${audit.ok ? `verified (${audit.events} events)` : "FAILED"}`,
        !audit.ok && audit.failure ? ` · ${audit.failure.message || audit.failure.reason || ""}` : ""),
      el("h4", {}, "Events concerned"),
      (evidence.events || []).length ? el("ul", {}, evidence.events.map((e) => el("li", {},
        `v${e.version} ${e.event || ""}`, e.action && e.action.type ? ` ${label(e.action.type)}${e.seat ? ` by seat ${e.seat}` : ""}` : "",
        e.recorded_by ? ` · recorded by ${typeof e.recorded_by === "string" ? e.recorded_by : personText(e.recorded_by)}` : "",
        e.recorded_at ? ` · ${shortTime(e.recorded_at)}` : "")))
        : el("p", { class: "none" }, "none named"),
      el("h4", {}, "What each seat had seen that spectators had not"),
      el("ul", {}, Object.entries(evidence.knowledge || {}).map(([who, cards]) => el("li", {},
        `${who}: ${cards.length ? cards.map((c) => c.name ? `${c.name} [${c.card}]` : c.card).join(", ") : "nothing"}`))),
      el("p", { class: "hint" }, `Positions as each seat saw them at the call: ${Object.keys(evidence.positions || {}).join(", ") || "none"} (open the position ${found.position} with "View as" to see them).`));
    details.dataset.loaded = "true";
  } catch (error) {
    body.textContent = explain(error, "The evidence");
  }
}

function renderDisputes() {
  if (!ui.disputes) return;
  ui.disputes.hidden = view.disputes === null;
  if (view.disputes === null) return;
  ui.disputePause.hidden = !isStaff();
  const typed = typedInForms(ui.disputeList);
  ui.disputeList.replaceChildren(...(view.disputes.length ? view.disputes.map(disputeItem)
    : [el("li", { class: "withdrawn" }, "No dispute in this match.")]));
  restoreTyped(ui.disputeList, typed);
}

// The list is drawn again whenever the match or its disputes change (a seat's action, another
// judge's ruling): what someone was typing in a ruling, an appeal or a take stays.
const TYPED_IN = "form[data-rule], form[data-appeal], .take-row";

function typedInForms(list) {
  const typed = new Map();
  for (const form of list.querySelectorAll(TYPED_IN)) {
    const fields = [...form.querySelectorAll("input, select, textarea")];
    typed.set(formKey(form), fields.map((f) => (f.type === "checkbox" ? f.checked : f.value)));
  }
  return typed;
}

function restoreTyped(list, typed) {
  for (const form of list.querySelectorAll(TYPED_IN)) {
    const values = typed.get(formKey(form));
    if (!values) continue;
    const fields = [...form.querySelectorAll("input, select, textarea")];
    fields.forEach((f, i) => {
      if (i >= values.length) return;
      if (f.type === "checkbox") f.checked = values[i];
      else f.value = values[i];
    });
    const remedy = form.querySelector("select[data-remedy]");
    if (remedy) remedyFields({ target: remedy });
  }
}

function formKey(node) {
  const form = node.matches("form") ? node : null;
  if (form) return `${form.dataset.rule ? "rule" : "appeal"}:${form.dataset.rule || form.dataset.appeal}`;
  return `take:${node.querySelector("[data-take]")?.dataset.take}`;
}

// The match's disputes, for its seats, judges and organisers only (the panel stays hidden
// for anyone else, and for a credential the API refuses); the head judge of its tournament.
async function loadDisputes() {
  if (embedded || !view.matchId || !ui.disputes) return;
  if (!signedIn()) {
    view.disputes = null;
  } else {
    try {
      view.disputes = await api(`/matches/${view.matchId}/disputes`);
    } catch (error) {
      view.disputes = null;
      if (!(error instanceof ApiError && error.status === 403)) {
        say(explain(error, "The disputes"));
      }
    }
    view.headJudge = null;
    const where = view.summary && view.summary.tournament;
    if (view.disputes && where && isStaff()) {
      try {
        const event = await api(`/tournaments/${where.tournament_id}`);
        view.headJudge = event.head_judge ? event.head_judge.id : null;
      } catch {
        view.headJudge = null;
      }
    }
  }
  renderDisputes();
  markTimeline();
}

function disputeSays(text) {
  ui.disputeMessage.textContent = text;
}

function refusal(error, what) {
  return error instanceof ApiError ? `${what} (${error.status}): ${error.message}` : `${what}: ${error.message}`;
}

async function openDispute(event) {
  event.preventDefault();
  const position = view.line ? view.line.from : view.position;
  const entry = ui.entries.querySelector(`li[data-position='${position}'][data-version]`);
  const concerns = ui.disputeConcerns.checked && entry ? [Number(entry.dataset.version)] : [];
  disputeSays("");
  try {
    await api(`/matches/${view.matchId}/disputes`, {
      method: "POST", body: { claim: ui.disputeClaim.value, position, concerns,
                              pause: isStaff() && ui.disputePauseInput.checked } });
  } catch (error) {
    disputeSays(refusal(error, "No judge called"));
    return;
  }
  ui.disputeClaim.value = "";
  ui.disputeConcerns.checked = false;
  ui.disputePauseInput.checked = false;
  disputeSays(`A judge is called (position ${position}).`);
  await Promise.all([loadDisputes(), loadTimeline()]);  // a pause is an event of the match
}

async function takeDispute(event) {
  const button = event.target.closest("button[data-take]");
  if (!button) return;
  const id = button.dataset.take;
  const pause = Boolean(ui.disputeList.querySelector(`input[data-pause='${id}']:checked`));
  disputeSays("");
  try {
    await api(`/disputes/${id}/take`, { method: "POST", body: { pause } });
  } catch (error) {
    disputeSays(refusal(error, "Not taken"));
    return;
  }
  disputeSays(`Dispute taken${pause ? "; the match is paused for the seats" : ""}: rule on it below its claim.`);
  await Promise.all([loadDisputes(), loadTimeline()]);  // a pause is an event of the match
}

// The remedy the rule form describes, or an Error saying what is missing.
function remedyOf(form) {
  const kind = form.elements.remedy.value;
  if (kind === "none") return { kind };
  if (kind === "warning" || kind === "game_loss") return { kind: "penalty", penalty: kind, seat: Number(form.elements.seat.value) };
  if (kind === "backup" || kind === "reopen") {
    const to = form.elements.to_position.value;
    if (!/^\d+$/.test(to)) throw new Error("give the position to go back to");
    return { kind, to_position: Number(to) };
  }
  let action;
  try { action = JSON.parse(form.elements.action.value); } catch { throw new Error("the action must be JSON"); }
  if (!action || typeof action !== "object" || Array.isArray(action)) throw new Error("the action must be a JSON object");
  return { kind, action };
}

async function ruleDispute(event) {
  const form = event.target.closest("form[data-rule], form[data-appeal]");
  if (!form) return;
  event.preventDefault();
  disputeSays("");
  if (form.dataset.appeal) {
    try {
      await api(`/disputes/${form.dataset.appeal}/appeal`, { method: "POST", body: { reason: form.elements.reason.value } });
    } catch (error) {
      disputeSays(refusal(error, "Not appealed"));
      return;
    }
    disputeSays("Appealed: the head judge rules again.");
    await loadDisputes();
    return;
  }
  let remedy;
  try {
    remedy = remedyOf(form);
  } catch (error) {
    disputeSays(`Not ruled: ${error.message}.`);
    return;
  }
  try {
    await api(`/disputes/${form.dataset.rule}/rule`, { method: "POST", body: {
      decision: form.elements.decision.value, reasoning: form.elements.reasoning.value, remedy } });
  } catch (error) {
    disputeSays(refusal(error, "Not ruled"));
    return;
  }
  disputeSays("Ruled.");
  await reloadMatch();
}

// After a ruling: its dispute, and the match it may have changed (a backup, a game loss).
async function reloadMatch() {
  await Promise.all([loadDisputes(), loadTimeline()]);
  await poll();
}

// ---- the viewer (judges and organisers only) ----

function setUpViewer() {
  if (embedded) {
    view.viewer = null;
    return;
  }
  const staff = isStaff() && view.summary;
  ui.viewerLabel.hidden = !staff;
  if (!staff) {
    view.viewer = null;
    return;
  }
  const choices = [["", "as my credential sees (judge)"], ["judge", "judge"], ["spectator", "spectator"],
    ...view.summary.players.map((name, i) => [`seat:${i + 1}`, `seat ${i + 1} (${name})`])];
  ui.viewer.replaceChildren(...choices.map(([value, text]) => el("option", { value }, text)));
  const wanted = readHash().as;
  view.viewer = choices.some(([value]) => value === wanted) ? wanted : null;
  ui.viewer.value = view.viewer || "";
}

// ---- following a live match ----

async function poll() {
  if (!view.matchId) return;
  try {
    const summary = await api(`/matches/${view.matchId}`);
    if (summary.version === view.version) return;
    const wasAtLast = embedded || (!view.line && view.position === view.positions);
    view.summary = summary;
    showPause(summary);
    view.version = summary.version;
    const latest = await fetchState(null);
    await Promise.all([loadTimeline(), loadNotes(), loadDisputes()]);
    if (view.line) {  // a variation stays on the board; the main line's count grows
      view.positions = latest.positions;
    } else if (wasAtLast) {
      view.request += 1;
      view.position = latest.position;
      view.positions = latest.positions;
      renderBoard(latest);
      writeHash();
    } else {
      view.positions = latest.positions;
      if (view.answer) renderBoard({ ...view.answer, positions: latest.positions });
    }
    updateControls();
  } catch (error) {
    say(explain(error, "Following the match"));
  }
}

// Follow GET /matches/{id}/live (Server-Sent Events, read with fetch so that the credential
// goes in its Authorization header): each change of the match's version or of the positions
// the caller may see redraws what changed.
function follow(on) {
  if (view.source) {
    view.source.abort();
    view.source = null;
  }
  if (!on || !view.matchId) return;
  const source = new AbortController();
  view.source = source;
  listen(`/matches/${view.matchId}/live`, (name, data) => {
    if (name === "revoked") {
      say("Following the match: your credential was revoked; sign in again.");
      return false;
    }
    if (name === "position" && data && (data.version !== view.version || data.positions !== view.positions)) poll();
    return true;
  }, {
    signal: source.signal,
    onRefused: (error) => say(explain(error, "Following the match: the live stream was refused")),
  });
}

// ---- start ----

// A paused match says so above everything, on every page of the match.
function showPause(summary) {
  const banner = document.getElementById("paused-banner");
  if (banner) banner.hidden = !summary.paused;
}

async function reload() {
  const request = view.request;  // a position asked for meanwhile (by the URL) wins
  try {
    view.summary = await api(`/matches/${encodeURIComponent(matchRef)}`);
  } catch (error) {
    say(explain(error, `Match ${matchRef}`));
    return;
  }
  showPause(view.summary);
  const known = await games();
  const s = view.summary;
  view.matchId = s.match_id;
  view.version = s.version;
  view.title = known[s.game] ? known[s.game].title : s.game;
  view.turns = new Map();
  view.board = await loadBoard(s.game);
  if (ui.title) ui.title.textContent = `${s.players.join(" vs ")} · ${view.title} · ${shortTime(s.created_at)}`;
  document.title = `Kiroku: ${s.players.join(" vs ")} (${view.title})`;
  setUpViewer();
  setUpNoteForm();
  const wanted = embedded ? { at: null, line: null } : readHash();
  view.line = null;
  view.shown = null;
  const board = async () => {
    if (view.request !== request) return;
    if (wanted.line) {
      await show(null);  // the main line's count, then the variation
      await showLine(wanted.line, wanted.at);
    } else await show(wanted.at);
  };
  await Promise.all([loadTimeline(), loadNotes(), loadDisputes(), loadLines(), board()]);
  if (embedded || ui.follow.checked) follow(true);
}

function typing(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || target.tagName === "SELECT" || target.tagName === "TEXTAREA" ||
     (target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(target.type)));
}

if (!embedded) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    const keys = {
      ArrowLeft: () => step(-1), ArrowRight: () => step(1),
      Home: () => go(0), End: goLast,
      ArrowUp: () => jumpTurn(false), PageUp: () => jumpTurn(false),
      ArrowDown: () => jumpTurn(true), PageDown: () => jumpTurn(true),
    };
    if (!keys[event.key] || view.position === null) return;
    event.preventDefault();
    keys[event.key]();
  });

  ui.first.addEventListener("click", () => go(0));
  ui.prev.addEventListener("click", () => step(-1));
  ui.next.addEventListener("click", () => step(1));
  ui.last.addEventListener("click", goLast);
  ui.mainLine.addEventListener("click", leaveLine);
  ui.turnForm.addEventListener("submit", jumpToTurn);
  ui.entries.addEventListener("click", (event) => {
    if (event.target.closest("button[data-earlier]")) {
      readEarlier(TIMELINE_STEP);
      return;
    }
    const branch = event.target.closest("button[data-line]");
    if (branch) {
      showLine(branch.dataset.line, 0);
      return;
    }
    const button = event.target.closest("button[data-go]");
    if (!button) return;
    if (view.line) {
      view.line = null;
      show(Number(button.dataset.go));
    } else go(Number(button.dataset.go));
  });
  ui.follow.addEventListener("change", () => follow(ui.follow.checked));
  ui.viewer.addEventListener("change", async () => {
    view.viewer = ui.viewer.value || null;
    writeHash();
    await Promise.all([loadTimeline(), view.line ? showLine(view.line.id, view.line.at) : show(view.position)]);
  });
  window.addEventListener("hashchange", async () => {
    if (!view.matchId) return;  // the match is still being read: reload() reads the URL once it has it
    let wanted = readHash();
    const viewerChanged = isStaff() && (wanted.as || null) !== view.viewer;
    if (viewerChanged) {
      view.request += 1;  // a position still being fetched is for the old viewer: drop it
      setUpViewer();
      await loadTimeline();
      wanted = readHash();  // where the URL says now: it may have moved while the timeline loaded
    }
    if (wanted.line) {
      if (viewerChanged || !view.line || wanted.line !== view.line.id || wanted.at !== view.line.at) {
        showLine(wanted.line, wanted.at);
      }
    } else if (viewerChanged || view.line || (wanted.at !== null && wanted.at !== view.position)) {
      show(wanted.at);
    }
  });
  ui.body.addEventListener("click", pick);
  ui.body.addEventListener("keydown", pick);
  ui.noteForm.addEventListener("submit", addNote);
  ui.noteArrow.addEventListener("click", addArrow);
  ui.noteArrows.addEventListener("click", removeArrow);
  ui.noteCancel.addEventListener("click", () => { clearForm(); ui.noteMessage.textContent = ""; });
  ui.notes.addEventListener("click", noteAction);
  ui.notes.addEventListener("submit", withdrawNote);
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(drawArrows, 100);
  });
  ui.disputeForm.addEventListener("submit", openDispute);
  ui.disputeList.addEventListener("click", takeDispute);
  ui.disputeList.addEventListener("submit", ruleDispute);
  ui.disputeList.addEventListener("change", remedyFields);
  ui.lineTree.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-line]");
    if (button) showLine(button.dataset.line, 0);
  });
  ui.lineStart.addEventListener("submit", startLine);
  ui.playSeat.addEventListener("change", listPlay);
  ui.playList.addEventListener("click", playOption);
  ui.takeBack.addEventListener("click", takeBackOne);
  ui.disputeList.addEventListener("toggle", showEvidence, true);
}

if (embedded) {
  watchAnonymously();
  reload();
} else {
  signIn($("account"), async (me) => {
    view.me = me;
    await reload();
  });
}
