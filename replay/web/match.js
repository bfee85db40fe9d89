// A match's replay: the board at a position (GET /matches/{id}/state?at=N&viewer=V) drawn
// generically for any game, the timeline (events beside the transcript), stepping by buttons
// and keys, the position and viewer in the URL hash, the annotations of the position shown
// (read, drawn on the board, added), and following a live match (Server-Sent Events for a
// spectator, polling with the credential otherwise). The embeddable board (/embed/ID, a page
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
  noteHighlights: $("note-highlights"), noteMessage: $("note-message"),
};

const view = {
  me: { role: "spectator" }, summary: null, title: "", matchId: null, version: null,
  position: null, positions: 0, viewer: null, answer: null, turns: new Map(), request: 0,
  timer: null, busy: false, target: null, source: null, notes: [], picked: [], pickedAt: null,
};

// ---- the URL hash: #at=12&as=seat:1 (never a credential) ----

function readHash() {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const at = hash.get("at");
  return { at: at !== null && /^\d+$/.test(at) ? Number(at) : null, as: hash.get("as") || null };
}

function writeHash() {
  if (embedded) return;
  const hash = new URLSearchParams();
  if (view.position !== null) hash.set("at", String(view.position));
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

function toActText(state, answer) {
  if (state.result) return `Result: ${resultText(state.result, view.summary && view.summary.players)}`;
  let seats = null;
  if (view.summary && answer.position === view.summary.positions && Array.isArray(view.summary.to_act)) {
    seats = view.summary.to_act;
  } else if (Array.isArray(state.to_act)) {
    seats = state.to_act;
  }
  const names = (list) => list.map((s) => `seat ${s}${seatName(s) ? ` (${seatName(s)})` : ""}`).join(", ");
  if (seats && seats.length) return `To act: ${names(seats)}`;
  if (Number.isInteger(state.active)) return `Active: ${names([state.active])}`;
  return "";
}

function renderBoard(answer) {
  const state = answer.state;
  view.answer = answer;
  ui.heading.textContent = `${view.title} · board`;
  const facts = [
    `Position ${answer.position} of ${answer.positions}`,
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
  const parts = [header];
  if (general.length) parts.push(el("dl", { class: "facts" }, general));
  parts.push(el("div", { class: "boxes top-boxes" }, boxes));
  if (state.options) {
    parts.push(el("details", { class: "options" }, el("summary", {}, "Options"), contents(state.options, 1)));
  }
  ui.body.replaceChildren(...parts);
  ui.board.dataset.position = String(answer.position);
  ui.board.dataset.positions = String(answer.positions);
  renderNotes();
}

// ---- positions ----

function updateControls() {
  if (embedded) return;
  const known = view.position !== null;
  ui.where.textContent = known ? `${view.position} / ${view.positions}` : "–";
  ui.first.disabled = ui.prev.disabled = !known || view.position <= 0;
  ui.next.disabled = ui.last.disabled = !known || view.position >= view.positions;
  for (const entry of ui.entries.querySelectorAll("[data-position]")) {
    const here = Number(entry.dataset.position) === view.position;
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

// Show the position `at` (null: the last one the credential may see).
async function show(at) {
  const request = ++view.request;
  view.target = at;
  try {
    const answer = await fetchState(at);
    if (request !== view.request) return;
    view.position = answer.position;
    view.positions = answer.positions;
    if (answer.state && answer.state.turn !== undefined) view.turns.set(answer.position, answer.state.turn);
    renderBoard(answer);
    say("");
  } catch (error) {
    if (request !== view.request) return;
    say(explain(error, at === null ? "The position" : `Position ${at}`));
  }
  view.target = null;
  writeHash();
  updateControls();
}

function go(target) {
  if (view.position === null) return;
  const from = view.target ?? view.position;
  if (target === from) return;
  const clamped = Math.max(0, Math.min(view.positions, target));
  if (clamped !== from) show(clamped);
}

// One step from the position shown, or from the one being fetched (keys pressed quickly).
function step(delta) {
  if (view.position === null) return;
  go((view.target ?? view.position) + delta);
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
  try {
    [events, transcript] = await Promise.all([
      api(`/matches/${view.matchId}/events`, { params }),
      api(`/matches/${view.matchId}/transcript`, { params }),
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
  let live = 0;
  const items = [];
  for (const event of events) {
    const text = lines.get(event.version) || label(event.event);
    if (event.event === "MatchCreated") {
      items.push(el("li", { "data-position": "0" },
        el("button", { type: "button", class: "entry", "data-go": "0" },
          el("span", { class: "pos" }, "0"), " ", text)));
    } else if (event.event === "ActionRecorded" && !voided.has(event.seq)) {
      live += 1;
      items.push(el("li", { "data-position": String(live), "data-seq": String(event.seq) },
        el("button", { type: "button", class: "entry", "data-go": String(live),
                       title: `Go to position ${live}, after action #${event.seq}` },
          el("span", { class: "pos" }, String(live)), " ", text)));
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
  if (view.pickedAt !== view.position) {
    view.picked = [];
    view.pickedAt = view.position;
  }
  const here = notesHere();
  ui.notes.replaceChildren(...(here.length ? here.map(noteItem)
    : [el("li", { class: "withdrawn" }, "No annotation of this position for you.")]));
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
  for (const entry of ui.entries.querySelectorAll("li[data-position]")) {
    const on = annotated.has(Number(entry.dataset.position));
    const mark = entry.querySelector(".note-mark");
    if (on && !mark) {
      entry.querySelector("button").append(el("span", { class: "note-mark", title: "annotated" }, "✎",
        el("span", { class: "visually-hidden" }, " (annotated)")));
    } else if (!on && mark) mark.remove();
    if (on) entry.setAttribute("data-annotated", ""); else entry.removeAttribute("data-annotated");
  }
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
    const wasAtLast = embedded || view.position === view.positions;
    view.summary = summary;
    view.version = summary.version;
    const latest = await fetchState(null);
    await Promise.all([loadTimeline(), loadNotes()]);
    if (wasAtLast) {
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
  await Promise.all([loadTimeline(), loadNotes(), show(embedded ? null : readHash().at)]);
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
      Home: () => go(0), End: () => go(view.positions),
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
  ui.last.addEventListener("click", () => go(view.positions));
  ui.entries.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-go]");
    if (button) go(Number(button.dataset.go));
  });
  ui.follow.addEventListener("change", () => follow(ui.follow.checked));
  ui.viewer.addEventListener("change", async () => {
    view.viewer = ui.viewer.value || null;
    writeHash();
    await Promise.all([loadTimeline(), show(view.position)]);
  });
  window.addEventListener("hashchange", async () => {
    const wanted = readHash();
    if (isStaff() && (wanted.as || null) !== view.viewer) {
      setUpViewer();
      await Promise.all([loadTimeline(), show(wanted.at)]);
    } else if (wanted.at !== null && wanted.at !== view.position) {
      show(wanted.at);
    }
  });
  ui.body.addEventListener("click", pick);
  ui.noteForm.addEventListener("submit", addNote);
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
