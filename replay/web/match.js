// A match's replay: the board at a position (GET /matches/{id}/state?at=N&viewer=V) drawn
// generically for any game, the timeline (events beside the transcript), stepping by buttons
// and keys, the position and viewer in the URL hash, the annotations of the position shown
// (read, drawn on the board, added), what a step forward changed, the match's variations as
// branches of the timeline, its disputes (called, listed, taken and ruled from the page), and
// following a live match (Server-Sent Events for a spectator, polling with the credential
// otherwise). The embeddable board (/embed/ID, a page
// whose body has data-embed) uses the same code: the board only, as a spectator, always live.
import {
  ApiError, api, el, games, resultText, shortTime, signIn, token, watchAnonymously,
} from "/static/common.js";

const embedded = document.body.hasAttribute("data-embed");

const matchRef = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
const ui = {
  title: $("match-title"), message: $("message"), board: $("board"), heading: $("board-heading"),
  body: $("board-body"), entries: $("entries"), where: $("where"), follow: $("follow"),
  viewer: $("viewer"), viewerLabel: $("viewer-label"),
  first: $("first"), prev: $("prev"), next: $("next"), last: $("last"),
  notes: $("note-list"), noteForm: $("note-form"), noteText: $("note-text"),
  noteSymbols: $("note-symbols"), noteVisibility: $("note-visibility"),
  noteHighlights: $("note-highlights"), noteMessage: $("note-message"), mainLine: $("main-line"),
  disputes: $("disputes"), disputeList: $("dispute-list"), disputeForm: $("dispute-form"),
  disputeClaim: $("dispute-claim"), disputeMessage: $("dispute-message"),
};

const view = {
  me: { role: "spectator" }, summary: null, title: "", matchId: null, version: null,
  position: null, positions: 0, viewer: null, answer: null, turns: new Map(), request: 0,
  timer: null, busy: false, target: null, source: null, notes: [], picked: [], pickedAt: null,
  // The variation shown ({id, name, from, length, at}; null: the main line), the main-line
  // variations the caller may read, the match's disputes (null: the panel is not for this
  // caller), and what the board shows (to tell a step forward from a jump).
  line: null, variations: [], disputes: null, shown: null,
};

// ---- the URL hash: #at=12&as=seat:1, or #line=VID&at=3 in a variation (never a credential) ----

function readHash() {
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
  if (window.location.hash !== text) history.replaceState(null, "", text);
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

const HEADER_KEYS = new Set(["game", "players", "turn", "active", "phase", "step", "result",
                             "scores", "viewer", "eliminated", "options", "to_act"]);

function label(key) {
  return String(key).replaceAll("_", " ");
}

function isCard(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
         typeof value.name === "string" &&
         (typeof value.id === "string" || typeof value.card === "string");
}

function isScalar(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value) ||
         isNumberList(value);
}

// A list of numbers (an order of seats, dice) reads as one line.
function isNumberList(value) {
  return Array.isArray(value) && value.length > 0 &&
         value.every((x) => typeof x === "number" || typeof x === "boolean");
}

function scalarText(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(scalarText).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function chip(card) {
  if (card === null || card === undefined) {
    return el("span", { class: "chip blank", title: "empty or hidden" }, "—");
  }
  if (typeof card !== "object") {
    return el("span", { class: "chip", "data-card": String(card) }, el("span", { class: "cid" }, String(card)));
  }
  const id = card.id ?? card.card;
  const facts = Object.entries(card)
    .filter(([k, v]) => !["id", "card", "name"].includes(k) && isScalar(v) && v !== null)
    .map(([k, v]) => `${label(k)}: ${scalarText(v)}`);
  return el("span", { class: "chip", "data-card": id, title: facts.join(", ") || null },
    el("span", { class: "cname" }, card.name), " ", el("span", { class: "cid" }, id));
}

function isChipList(list) {
  return list.every((item) => item === null || isCard(item) || typeof item === "string");
}

function seatName(seat) {
  const players = (view.answer && view.answer.state.players) || [];
  const found = players.find((p) => p && p.seat === seat);
  return found ? found.name : (view.summary ? view.summary.players[seat - 1] : null);
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
function box(title, value, depth, key = null, seat = null) {
  const own = seatOf(value, seat);
  const node = el("div", { class: `box depth-${Math.min(depth, 4)}`, role: "group", "aria-label": title,
                           "data-zone": key, "data-seat": own === null ? null : String(own) });
  const head = el("div", { class: "box-title" }, title);
  node.append(head);
  node.append(...contents(value, depth, own));
  return node;
}

function contents(value, depth, seat = null) {
  if (Array.isArray(value)) {
    if (value.length === 0) return [el("p", { class: "none" }, "none")];
    if (isChipList(value)) return [el("div", { class: "chips" }, value.map(chip))];
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
function placeOf(node) {
  const titles = [];
  for (let box = node.closest(".box, .box-list"); box; box = box.parentElement.closest(".box, .box-list")) {
    const title = box.querySelector(":scope > .box-title");
    titles.unshift(title ? title.textContent.replace(/ \(\d+\)$/, "") : "?");
  }
  return titles.join(" / ");
}

// How many chips of each card are in each box.
function chipPlaces() {
  const places = new Map();
  for (const node of ui.body.querySelectorAll(".chip[data-card]")) {
    if (node.closest("details.options")) continue;
    const key = `${node.dataset.card}\u0000${placeOf(node)}`;
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
    const place = placeOf(node);
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
  const general = [];
  const boxes = [];
  for (const [key, value] of Object.entries(state)) {
    if (HEADER_KEYS.has(key)) continue;
    if (isScalar(value)) general.push(el("dt", {}, label(key)), el("dd", {}, scalarText(value)));
    else if (Array.isArray(value) && value.length && !isChipList(value)) {
      boxes.push(...value.map((item, i) => isScalar(item) ? el("p", {}, scalarText(item))
        : box(itemLabel(item, i, key), item, 1)));
    } else boxes.push(box(`${label(key)}${Array.isArray(value) ? ` (${value.length})` : ""}`, value, 1, key));
  }
  const changes = previous ? scalarChanges(previous.state, state) : [];
  const parts = [header];
  if (changes.length) {
    const shown = changes.slice(0, 12).join(", ");
    parts.push(el("p", { id: "changes", class: "changes" },
      el("span", { class: "changes-label" }, "Changes: "),
      changes.length > 12 ? `${shown}, and ${changes.length - 12} more` : shown));
  }
  if (general.length) parts.push(el("dl", { class: "facts" }, general));
  parts.push(el("div", { class: "boxes top-boxes" }, boxes));
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
    const line = { id: found.variation_id, name: found.name, from: found.from_position };
    const answer = {
      position: found.position, positions: found.line.length, state: found.state,
      viewer: found.state.viewer ?? "you", toAct: found.to_act, line,
    };
    const previous = oneStepOn(answer, line.id) ? view.answer : null;
    view.line = { ...line, length: found.line.length, at: found.position };
    renderBoard(answer, previous);
    say("");
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
  const from = view.line.from;
  view.line = null;
  show(from);
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

// ---- the timeline: events beside the transcript ----

async function loadTimeline() {
  if (embedded) return;
  const params = { viewer: view.viewer };
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
  let live = 0;
  const items = [];
  for (const event of events) {
    const text = lines.get(event.version) || label(event.event);
    if (event.event === "MatchCreated") {
      items.push(el("li", { "data-position": "0" },
        el("button", { type: "button", class: "entry", "data-go": "0" },
          el("span", { class: "pos" }, "0"), " ", text)), ...branches(0));
    } else if (event.event === "ActionRecorded" && !voided.has(event.seq)) {
      live += 1;
      items.push(el("li", { "data-position": String(live), "data-seq": String(event.seq) },
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
}

// ---- annotations: the caller's readable ones of the position shown, and adding one ----

const SYMBOLS = [["good", "!"], ["excellent", "!!"], ["mistake", "?"], ["blunder", "??"],
  ["interesting", "!?"], ["dubious", "?!"], ["key_moment", "□"], ["rules_question", "?R"]];

function signedIn() {
  return !embedded && view.me.role !== "spectator" && Boolean(token());
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
  return item;
}

function renderNotes() {
  if (!ui.notes) return;
  const where = view.line ? `${view.line.id}@${view.line.at}` : view.position;
  if (view.pickedAt !== where) {
    view.picked = [];
    view.pickedAt = where;
  }
  const here = notesHere();
  ui.notes.replaceChildren(...(here.length ? here.map(noteItem)
    : [el("li", { class: "withdrawn" }, view.line ? "Annotations of a variation are not shown here."
      : "No annotation of this position for you.")]));
  ui.noteForm.hidden = !signedIn() || Boolean(view.line);
  ui.noteHighlights.textContent = view.picked.length ? view.picked.join(", ") : "none";
  applyMarks();
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
  const picked = new Set(view.picked);
  const toggle = (node, on) => {
    node.classList.toggle("highlighted", on);
    if (on) node.setAttribute("data-highlighted", ""); else node.removeAttribute("data-highlighted");
  };
  for (const chipNode of ui.body.querySelectorAll(".chip[data-card]")) {
    const id = chipNode.dataset.card;
    toggle(chipNode, marked.has(id) || marked.has(id.split("@")[0]));
    chipNode.classList.toggle("picked", picked.has(id));
  }
  for (const zone of ui.body.querySelectorAll("[data-zone]")) {
    const seat = zone.dataset.seat;
    toggle(zone, marked.has(zone.dataset.zone) || (seat !== undefined && marked.has(`${zone.dataset.zone}#${seat}`)));
  }
  ui.board.classList.toggle("picking", signedIn());
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
    highlights: [...view.picked], arrows: [], visibility: ui.noteVisibility.value,
    position: view.position,
  };
  ui.noteMessage.textContent = "";
  try {
    await api(`/matches/${view.matchId}/annotations`, { method: "POST", body });
  } catch (error) {
    ui.noteMessage.textContent = error instanceof ApiError
      ? `Not added (${error.status}): ${error.message}` : `Not added: ${error.message}`;
    return;
  }
  ui.noteText.value = "";
  for (const input of ui.noteSymbols.querySelectorAll("input:checked")) input.checked = false;
  view.picked = [];
  ui.noteMessage.textContent = "Annotation added.";
  await loadNotes();
}

// While signed in, choosing a card on the board adds it to (or takes it from) the highlights.
function pick(event) {
  if (!signedIn()) return;
  const found = event.target.closest(".chip[data-card]");
  if (!found) return;
  const id = found.dataset.card;
  view.picked = view.picked.includes(id) ? view.picked.filter((x) => x !== id) : [...view.picked, id];
  ui.noteHighlights.textContent = view.picked.length ? view.picked.join(", ") : "none";
  applyMarks();
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

function ruleForm(dispute) {
  const id = dispute.dispute_id;
  const seats = view.summary ? view.summary.players.map((name, i) => [`${i + 1}`, `warning for seat ${i + 1} (${name})`]) : [];
  return el("form", { class: "rule-form note-form", "data-rule": id, "aria-label": "Rule on this dispute" },
    el("label", { for: `decision-${id}` }, "Decision"),
    el("input", { id: `decision-${id}`, name: "decision", type: "text", maxlength: "200", required: true }),
    el("label", { for: `reasoning-${id}` }, "Reasoning"),
    el("textarea", { id: `reasoning-${id}`, name: "reasoning", rows: "2", maxlength: "2000", required: true }),
    el("label", { for: `remedy-${id}` }, "Remedy"),
    el("select", { id: `remedy-${id}`, name: "remedy" },
      el("option", { value: "none" }, "none"),
      seats.map(([seat, text]) => el("option", { value: seat }, text))),
    el("button", { type: "submit", class: "rule" }, "Rule"));
}

function disputeItem(dispute) {
  const item = el("li", { "data-dispute": dispute.dispute_id, "data-status": dispute.status },
    el("div", { class: "note-head" },
      `${dispute.status} · position ${dispute.position} · called by ${personText(dispute.opened_by)}`,
      dispute.judge ? ` · judge ${personText(dispute.judge)}` : "", dispute.pausing ? " · pausing the match" : ""),
    el("p", { class: "note-text" }, dispute.claim));
  if ((dispute.rulings || []).length) {
    item.append(el("ul", { class: "rulings", "aria-label": "Rulings" }, dispute.rulings.map((r) =>
      el("li", { class: "ruling" }, el("strong", {}, r.decision),
        ` (${remedyText(r.remedy)}${r.on_appeal ? ", on appeal" : ""}, by ${personText(r.by)}): `, r.reasoning))));
  }
  if (isStaff() && dispute.status === "open") {
    if (!dispute.judge) {
      item.append(el("button", { type: "button", class: "take", "data-take": dispute.dispute_id }, "Take"));
    } else {
      item.append(ruleForm(dispute));
    }
  }
  return item;
}

function renderDisputes() {
  if (!ui.disputes) return;
  ui.disputes.hidden = view.disputes === null;
  if (view.disputes === null) return;
  ui.disputeList.replaceChildren(...(view.disputes.length ? view.disputes.map(disputeItem)
    : [el("li", { class: "withdrawn" }, "No dispute in this match.")]));
}

// The match's disputes, for its seats, judges and organisers only (the panel stays hidden
// for anyone else, and for a credential the API refuses).
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
  disputeSays("");
  try {
    await api(`/matches/${view.matchId}/disputes`, {
      method: "POST", body: { claim: ui.disputeClaim.value, position } });
  } catch (error) {
    disputeSays(refusal(error, "No judge called"));
    return;
  }
  ui.disputeClaim.value = "";
  disputeSays(`A judge is called (position ${position}).`);
  await loadDisputes();
}

async function takeDispute(event) {
  const button = event.target.closest("button[data-take]");
  if (!button) return;
  disputeSays("");
  try {
    await api(`/disputes/${button.dataset.take}/take`, { method: "POST", body: { pause: false } });
  } catch (error) {
    disputeSays(refusal(error, "Not taken"));
    return;
  }
  disputeSays("Dispute taken: rule on it below its claim.");
  await loadDisputes();
}

async function ruleDispute(event) {
  const form = event.target.closest("form[data-rule]");
  if (!form) return;
  event.preventDefault();
  const seat = form.elements.remedy.value;
  const remedy = seat === "none" ? { kind: "none" } : { kind: "penalty", penalty: "warning", seat: Number(seat) };
  disputeSays("");
  try {
    await api(`/disputes/${form.dataset.rule}/rule`, { method: "POST", body: {
      decision: form.elements.decision.value, reasoning: form.elements.reasoning.value, remedy } });
  } catch (error) {
    disputeSays(refusal(error, "Not ruled"));
    return;
  }
  disputeSays("Ruled.");
  await Promise.all([loadDisputes(), loadTimeline()]);
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

// A spectator listens to GET /matches/{id}/live (Server-Sent Events: EventSource sends no
// Authorization header); a signed-in caller polls the summary with its credential.
function follow(on) {
  clearInterval(view.timer);
  view.timer = null;
  if (view.source) {
    view.source.close();
    view.source = null;
  }
  if (!on || !view.matchId) return;
  if (token()) {
    view.timer = setInterval(poll, 2000);
    poll();
    return;
  }
  const source = new EventSource(`/matches/${view.matchId}/live`);
  view.source = source;
  source.addEventListener("position", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (data.version !== view.version || data.positions !== view.positions) poll();
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) say("Following the match: the live stream was refused.");
  });
}

// ---- start ----

async function reload() {
  try {
    view.summary = await api(`/matches/${encodeURIComponent(matchRef)}`);
  } catch (error) {
    say(explain(error, `Match ${matchRef}`));
    return;
  }
  const known = await games();
  const s = view.summary;
  view.matchId = s.match_id;
  view.version = s.version;
  view.title = known[s.game] ? known[s.game].title : s.game;
  view.turns = new Map();
  if (ui.title) ui.title.textContent = `${s.players.join(" vs ")} · ${view.title} · ${shortTime(s.created_at)}`;
  document.title = `Kiroku: ${s.players.join(" vs ")} (${view.title})`;
  setUpViewer();
  setUpNoteForm();
  const wanted = embedded ? { at: null, line: null } : readHash();
  view.line = null;
  view.shown = null;
  const board = async () => {
    if (wanted.line) {
      await show(null);  // the main line's count, then the variation
      await showLine(wanted.line, wanted.at);
    } else await show(wanted.at);
  };
  await Promise.all([loadTimeline(), loadNotes(), loadDisputes(), board()]);
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
  ui.entries.addEventListener("click", (event) => {
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
    const wanted = readHash();
    const viewerChanged = isStaff() && (wanted.as || null) !== view.viewer;
    if (viewerChanged) {
      setUpViewer();
      await loadTimeline();
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
  ui.noteForm.addEventListener("submit", addNote);
  ui.disputeForm.addEventListener("submit", openDispute);
  ui.disputeList.addEventListener("click", takeDispute);
  ui.disputeList.addEventListener("submit", ruleDispute);
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
