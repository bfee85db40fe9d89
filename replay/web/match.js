// A match's replay: the board at a position (GET /matches/{id}/state?at=N&viewer=V) drawn
// generically for any game, the timeline (events beside the transcript), stepping by buttons
// and keys, the position and viewer in the URL hash, and following a live match.
import { ApiError, api, el, games, resultText, shortTime, signIn } from "/static/common.js";

const matchRef = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
const ui = {
  title: $("match-title"), message: $("message"), board: $("board"), heading: $("board-heading"),
  body: $("board-body"), entries: $("entries"), where: $("where"), follow: $("follow"),
  viewer: $("viewer"), viewerLabel: $("viewer-label"),
  first: $("first"), prev: $("prev"), next: $("next"), last: $("last"),
};

const view = {
  me: { role: "spectator" }, summary: null, title: "", matchId: null, version: null,
  position: null, positions: 0, viewer: null, answer: null, turns: new Map(), request: 0,
  timer: null, busy: false, target: null,
};

// ---- the URL hash: #at=12&as=seat:1 (never a credential) ----

function readHash() {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const at = hash.get("at");
  return { at: at !== null && /^\d+$/.test(at) ? Number(at) : null, as: hash.get("as") || null };
}

function writeHash() {
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

// A labelled box for a value that is not a scalar.
function box(title, value, depth) {
  const node = el("div", { class: `box depth-${Math.min(depth, 4)}`, role: "group", "aria-label": title });
  const head = el("div", { class: "box-title" }, title);
  node.append(head);
  node.append(...contents(value, depth));
  return node;
}

function contents(value, depth) {
  if (Array.isArray(value)) {
    if (value.length === 0) return [el("p", { class: "none" }, "none")];
    if (isChipList(value)) return [el("div", { class: "chips" }, value.map(chip))];
    return [el("div", { class: "boxes" }, value.map((item, i) =>
      isScalar(item) ? el("p", {}, scalarText(item)) : box(itemLabel(item, i, "item"), item, depth + 1)))];
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
      nested.push(el("div", { class: "box-list" }, el("div", { class: "box-title" }, `${label(key)} (${inner.length})`),
        el("div", { class: "boxes" }, inner.map((item, i) => isScalar(item)
          ? el("p", {}, scalarText(item)) : box(itemLabel(item, i, key), item, depth + 1)))));
    } else {
      const count = Array.isArray(inner) ? ` (${inner.length})` : "";
      nested.push(box(`${label(key)}${count}`, inner, depth + 1));
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
    } else boxes.push(box(`${label(key)}${Array.isArray(value) ? ` (${value.length})` : ""}`, value, 1));
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
}

// ---- positions ----

function updateControls() {
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
  updateControls();
}

// ---- the viewer (judges and organisers only) ----

function setUpViewer() {
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
    const wasAtLast = view.position === view.positions;
    view.summary = summary;
    view.version = summary.version;
    const latest = await fetchState(null);
    await loadTimeline();
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

function follow(on) {
  clearInterval(view.timer);
  view.timer = on ? setInterval(poll, 2000) : null;
  if (on) poll();
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
  ui.title.textContent = `${s.players.join(" vs ")} · ${view.title} · ${shortTime(s.created_at)}`;
  document.title = `Kiroku: ${s.players.join(" vs ")} (${view.title})`;
  setUpViewer();
  await Promise.all([loadTimeline(), show(readHash().at)]);
}

function typing(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || target.tagName === "SELECT" || target.tagName === "TEXTAREA" ||
     (target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(target.type)));
}

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

signIn($("account"), async (me) => {
  view.me = me;
  await reload();
});
