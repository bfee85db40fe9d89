// A tournament's public page (/events/ID), phone first: the event's name, game, format and
// status, then the current round's tables (each one's players, status and score, and a link to
// watch each game; in a round of many tables, a box finds a player's), a selector for the
// earlier rounds, the standings with the tie-breakers the event uses, and the players. It
// reads only the public API (what anyone may see), and follows the event live: every 5 s while
// the page is visible it reads the round and the standings again and changes only what
// changed, so nothing flickers and the scroll position stays.
//
// The helpers below are shared with the player's page (/events/ID/me, player.js). Fields added
// with best-of-N matches (best_of, a table's games, game_wins, next_game, dropped...) may be
// missing from an older server's answers: a table is then one game.

import { api, el, games } from "/static/common.js";

export const POLL_MS = 5000;

const STATUS_TEXT = {
  not_started: "not started", in_progress: "in progress",
  awaiting_ruling: "awaiting ruling", result: "result",
};

// The standings' columns by field name: short header, what it means.
const MEASURES = {
  match_points: ["Pts", "match points"],
  match_win: ["MW%", "match-win percentage"],
  opponents_match_win: ["OMW%", "opponents' match-win percentage"],
  opponents_opponents_match_win: ["OOMW%", "opponents' opponents' match-win percentage"],
  game_win: ["GW%", "game-win percentage"],
  opponents_game_win: ["OGW%", "opponents' game-win percentage"],
  registration_order: ["reg.", "registration order"],
};

export function tournamentRef() {
  return decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
}

// ---- a table of a round, best-of-N or not ----

export function bestOf(thing) {
  const n = Number(thing && thing.best_of);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

// A table's games in order: [{game, match_id, status, result}] (one before best-of-N).
export function gamesOf(table) {
  if (Array.isArray(table.games) && table.games.length) return table.games;
  return [{ game: 1, match_id: table.match_id, status: table.status, result: table.result }];
}

// The match id of the game being played (or the last one played) at a table.
export function currentMatchId(table) {
  if (table.current_match_id) return table.current_match_id;
  const played = gamesOf(table);
  return played[played.length - 1].match_id;
}

function winnerIds(result) {
  return new Set(((result && result.winners) || []).map((w) => w.player_id));
}

// Game wins per player in seat order, and drawn games.
export function gameScore(table) {
  // the result's game score first: a judge's entry (1-1-1 when time is called) over the games recorded
  if (table.result && (table.result.game_wins || []).length === table.players.length) return { wins: table.result.game_wins.map(Number), draws: Number(table.result.game_draws) || 0 };
  if (Array.isArray(table.game_wins) && table.game_wins.length === table.players.length) {
    return { wins: table.game_wins.map(Number), draws: Number(table.game_draws) || 0 };
  }
  // before best-of-N the table is one game: its result is the score
  const won = winnerIds(table.result);
  return { wins: table.players.map((p) => (won.has(p.player_id) ? 1 : 0)),
    draws: table.result && table.result.drawn && !won.size && table.result.source !== "judge" ? 1 : 0 };
}

// "2-1", "1-1-1" (game wins in seat order, the winners' first once the table has its result,
// then drawn games); "" when no game has a result.
export function scoreText(table) {
  const { wins, draws } = gameScore(table);
  if (!draws && wins.every((w) => w === 0)) return "";
  const won = winnerIds(table.result);
  const order = table.players.map((p, i) => [won.has(p.player_id) ? 0 : 1, i])
    .sort((a, b) => a[0] - b[0]);  // stable: seat order among winners, and among the others
  return order.map(([, i]) => wins[i]).join("-") + (draws ? `-${draws}` : "");
}

export function names(players) {
  return players.map((p) => p.name).join(" and ");
}

// What a table's status line says: its status in words with the score.
export function tableLine(table, best) {
  const score = scoreText(table);
  const played = gamesOf(table);
  const game = played.length;
  const withScore = (text) => (score ? `${text} · ${score}` : text);
  if (table.status === "result" && table.result) {
    const source = table.result.source === "ruling" ? " (judge's ruling)"
      : table.result.source === "judge" ? " (entered by a judge)" : "";
    const text = table.result.drawn || !table.result.winners.length ? "Drawn"
      : `${names(table.result.winners)} won`;
    return `${score ? `${text} ${score}` : text}${source}`;
  }
  if (table.status === "awaiting_ruling") return withScore("Awaiting a judge's ruling");
  if (table.next_game) return withScore(`Game ${game} over, game ${game + 1} next`);
  if (table.status === "in_progress") {
    return best > 1 ? withScore(`Game ${game} of ${best} in progress`) : "In progress";
  }
  return best > 1 && game > 1 ? withScore(`Game ${game} of ${best} not started`) : "Not started";
}

export function statusBadge(status) {
  return el("span", { class: `badge status-${status}` }, STATUS_TEXT[status] || status);
}

// The links to watch a table's games ("Watch", or "game 1", "game 2"...).
export function watchLinks(table, label) {
  const played = gamesOf(table);
  if (played.length === 1) {
    return [el("a", { href: `/watch/${played[0].match_id}`, class: "watch",
      "aria-label": `Watch ${label}` }, "Watch")];
  }
  return ["Watch ", ...played.flatMap((g, i) => [i ? " · " : "",
    el("a", { href: `/watch/${g.match_id}`, class: "watch", "aria-label": `Watch ${label}, game ${g.game}` },
      `game ${g.game}`)])];
}

// Whether a table seats a player whose name or external id holds `wanted` (any case).
function seats(table, wanted) {
  const part = wanted.trim().toLowerCase();
  return !part || table.players.some((p) => p.name.toLowerCase().includes(part)
    || (p.external_id || "").toLowerCase().includes(part));
}

function tableItem(table, best, wanted = "") {
  const won = winnerIds(table.result);
  const { wins } = gameScore(table);
  const label = `table ${table.table}`;
  return el("li", { class: "table-card", "data-table": table.table, "data-status": table.status,
    "data-match": currentMatchId(table), hidden: !seats(table, wanted) },
  el("div", { class: "table-top" },
    el("span", { class: "table-no" }, `Table ${table.table}`), statusBadge(table.status)),
  el("p", { class: "table-players" }, table.players.flatMap((p, i) => [
    i ? el("span", { class: "vs" }, " vs ") : "",
    el("span", { class: won.has(p.player_id) ? "player won" : "player", "data-player": p.player_id },
      p.name, best > 1 ? el("span", { class: "wins" }, ` ${wins[i]}`) : ""),
  ])),
  el("div", { class: "table-foot" },
    el("p", { class: "table-line" }, tableLine(table, best)),
    el("p", { class: "table-watch" }, watchLinks(table, label))));
}

// ---- standings ----

export function percent(value) {
  return typeof value === "number" ? `${(value * 100).toFixed(2)}%` : "—";
}

export function measureText(field, row) {
  const value = row[field];
  if (value === undefined || value === null) return "—";
  if (field.endsWith("_win")) return percent(value);
  return String(value);
}

export function measureName(field) {
  return (MEASURES[field] || [field.replaceAll("_", " ")])[0];
}

// The tie-breakers after match points that have a value to show (not registration order).
export function measures(standings) {
  const order = standings.tiebreakers || ["match_points", "opponents_match_win",
    "opponents_opponents_match_win"];
  return order.filter((f) => f !== "match_points" && f !== "registration_order");
}

export function record(row) {
  const text = `${row.wins}-${row.losses}-${row.draws}`;
  return row.byes ? `${text} (${row.byes} bye${row.byes > 1 ? "s" : ""})` : text;
}

function standingsHead(columns) {
  return [el("th", { scope: "col", class: "rank" }, "#"), el("th", { scope: "col" }, "Player"),
    el("th", { scope: "col", class: "num" }, el("abbr", { title: "match points" }, "Pts")),
    ...columns.map((f) => el("th", { scope: "col", class: "num", "data-field": f },
      el("abbr", { title: (MEASURES[f] || [f, f.replaceAll("_", " ")])[1] }, measureName(f))))];
}

function standingsRow(row, columns) {
  return el("tr", { "data-player": row.player_id, class: row.dropped ? "dropped" : null },
    el("td", { class: "rank" }, String(row.rank)),
    el("th", { scope: "row", class: "who" },
      el("span", { class: "name" }, row.name),
      row.external_id ? el("span", { class: "ext" }, ` ${row.external_id}`) : "",
      row.dropped ? el("span", { class: "badge dropped-badge" }, "dropped") : "",
      el("span", { class: "record", title: "wins-losses-draws" }, record(row))),
    el("td", { class: "num points" }, String(row.match_points)),
    ...columns.map((f) => el("td", { class: "num", "data-field": f }, measureText(f, row))));
}

export function tiebreakText(standings) {
  const order = (standings.tiebreakers || []).map((f) => (MEASURES[f] || [f, f.replaceAll("_", " ")])[1]);
  return order.length ? `Ranked by ${order.join(", then ")}.` : "";
}

// ---- drawing without flicker ----

// Make `container`'s children equal `fresh`, replacing only those that differ: an unchanged
// node is left alone (no repaint, no lost focus or selection, the scroll position kept).
export function patch(container, nodes) {
  const fresh = nodes.filter(Boolean);
  const old = [...container.children];
  fresh.forEach((node, i) => {
    const there = old[i];
    if (there && there.isEqualNode(node)) return;
    if (there) there.replaceWith(node);
    else container.append(node);
  });
  for (const extra of old.slice(fresh.length)) extra.remove();
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function clock(date = new Date()) {
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((n) => String(n).padStart(2, "0")).join(":");
}

// `refresh`, whose failure leaves what the last good reading drew on screen and says since
// when (`page.lastGood`) in `updated`; `neverShown(error)` when no reading has succeeded yet.
export function guarded(refresh, page, updated, neverShown) {
  return async () => {
    try {
      await refresh();
    } catch (error) {
      if (page.lastGood) {
        setText(updated, `not updated since ${clock(page.lastGood)}: ${error.message}`);
      } else {
        neverShown(error);
      }
    }
  };
}

// Call `tick` now and then every POLL_MS while the page is visible (one at a time).
export function poll(tick) {
  let timer = null;
  let running = false;
  const run = async () => {
    clearTimeout(timer);
    if (running) return;
    running = true;
    try { await tick(); } finally { running = false; }
    if (document.visibilityState === "visible") timer = setTimeout(run, POLL_MS);
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") run();
    else clearTimeout(timer);
  });
  return run();
}

export function eventStatus(tournament, latest) {
  if (tournament.finished) return ["finished", `Finished after ${tournament.rounds} round${tournament.rounds === 1 ? "" : "s"}`];
  if (!tournament.rounds) return ["registration", `Registration: ${tournament.players} player${tournament.players === 1 ? "" : "s"}`];
  if (latest && latest.complete) return ["complete", `Round ${tournament.rounds} complete`];
  return ["playing", `Round ${tournament.rounds} in progress`];
}

export async function factsText(tournament) {
  let title = tournament.game;
  try { title = ((await games())[tournament.game] || {}).title || title; } catch { /* its id */ }
  const best = bestOf(tournament);
  return `${title} · best of ${best}`;
}

// ---- the event page ----

const ui = {
  name: document.getElementById("event-name"),
  facts: document.getElementById("facts"),
  status: document.getElementById("event-status"),
  updated: document.getElementById("updated"),
  message: document.getElementById("message"),
  round: document.getElementById("round"),
  roundHeading: document.getElementById("round-heading"),
  rounds: document.getElementById("rounds"),
  tables: document.getElementById("tables"),
  finder: document.getElementById("finder"),
  find: document.getElementById("find"),
  found: document.getElementById("found"),
  byes: document.getElementById("byes"),
  standingsSection: document.getElementById("standings-section"),
  standingsHead: document.getElementById("standings-head"),
  standingsBody: document.querySelector("#standings tbody"),
  standingsCaption: document.getElementById("standings-caption"),
  playersSection: document.getElementById("players-section"),
  playersHeading: document.getElementById("players-heading"),
  players: document.getElementById("players"),
};
const page = { ref: tournamentRef(), selected: null, latest: 0, updates: 0, lastGood: null,
  asked: 0, drawn: null };

function chosenRound() {
  const wanted = Number(new URLSearchParams(window.location.hash.slice(1)).get("round"));
  return Number.isInteger(wanted) && wanted >= 1 ? wanted : null;
}

function drawRounds(latest, shown) {
  const buttons = [];
  for (let n = 1; n <= latest; n += 1) {
    buttons.push(el("button", { type: "button", "data-round": n, "aria-pressed": String(n === shown),
      "aria-label": `Round ${n}${n === latest ? " (current)" : ""}` }, String(n)));
  }
  patch(ui.rounds, latest > 1 ? buttons : []);
}

const FIND_FROM = 4;  // tables in a round from which a player may be looked for

function drawRound(view, best, latest) {
  page.drawn = { view, best, latest };
  ui.round.hidden = false;
  ui.round.dataset.round = String(view.round);
  setText(ui.roundHeading, `Round ${view.round}${view.round === latest ? "" : ` of ${latest}`}`);
  drawRounds(latest, view.round);
  ui.finder.hidden = view.tables.length < FIND_FROM;
  const wanted = ui.finder.hidden ? "" : ui.find.value;
  patch(ui.tables, view.tables.map((t) => tableItem(t, best, wanted)));
  const found = view.tables.filter((t) => seats(t, wanted)).length;
  setText(ui.found, wanted.trim() && !found ? `No table of round ${view.round} seats "${wanted.trim()}".` : "");
  ui.byes.hidden = !view.byes.length;
  setText(ui.byes, view.byes.length ? `Bye: ${names(view.byes)}` : "");
}

function drawStandings(standings) {
  ui.standingsSection.hidden = false;
  const columns = measures(standings);
  patch(ui.standingsHead, standingsHead(columns));
  patch(ui.standingsBody, standings.standings.map((row) => standingsRow(row, columns)));
  const through = standings.through_round ? `After round ${standings.through_round}. ` : "";
  setText(ui.standingsCaption, `${through}${tiebreakText(standings)}`);
}

function drawPlayers(players, rounds) {
  ui.playersSection.hidden = false;
  setText(ui.playersHeading, `Players (${players.length})`);
  patch(ui.players, players.map((p) => el("li", { "data-player": p.player_id, class: p.dropped ? "dropped" : null },
    el("span", { class: "name" }, p.name),
    p.external_id ? el("span", { class: "ext" }, ` ${p.external_id}`) : "",
    p.dropped ? el("span", { class: "badge dropped-badge" }, "dropped") : "",
    !rounds && !p.has_decklist ? el("span", { class: "note" }, " no decklist yet") : "")));
}

// Refreshes overlap (a poll, a round chosen): only the one asked last is drawn.
async function refresh() {
  const mine = ++page.asked;
  const tournament = await api(`/tournaments/${encodeURIComponent(page.ref)}`);
  page.ref = tournament.tournament_id;
  const base = `/tournaments/${tournament.tournament_id}`;
  const latest = tournament.rounds;
  const wanted = page.selected && page.selected <= latest ? page.selected : latest;
  const [latestView, shownView, standings, players] = await Promise.all([
    latest ? api(`${base}/rounds/${latest}`) : null,
    wanted && wanted !== latest ? api(`${base}/rounds/${wanted}`) : null,
    api(`${base}/standings`), api(`${base}/players`)]);
  const facts = await factsText(tournament);
  if (mine !== page.asked) return;
  document.title = `Kiroku: ${tournament.name}`;
  setText(ui.name, tournament.name);
  setText(ui.facts, facts);
  const [state, text] = eventStatus(tournament, latestView);
  ui.status.dataset.state = state;
  setText(ui.status, text);
  document.getElementById("me-link").href = `/events/${tournament.tournament_id}/me`;
  const view = shownView || latestView;
  if (view) drawRound(view, bestOf(tournament), latest);
  drawStandings(standings);
  drawPlayers(players, latest);
  page.latest = latest;
  page.lastGood = new Date();
  setText(ui.updated, `updated ${clock(page.lastGood)}`);
  setText(ui.message, "");
  page.updates += 1;
  document.body.dataset.updates = String(page.updates);
}

const tick = guarded(refresh, page, ui.updated, (error) => {
  setText(ui.name, "Event not shown");
  setText(ui.message, `Could not show this event: ${error.message}`);
});

function start() {
  page.selected = chosenRound();
  ui.rounds.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-round]");
    if (!button) return;
    const n = Number(button.dataset.round);
    page.selected = n === page.latest ? null : n;  // the current round: follow the next ones
    history.replaceState(null, "", page.selected ? `#round=${n}` : window.location.pathname);
    tick();
  });
  window.addEventListener("hashchange", () => { page.selected = chosenRound(); tick(); });
  ui.finder.addEventListener("submit", (event) => event.preventDefault());
  ui.find.addEventListener("input", () => {
    if (page.drawn) drawRound(page.drawn.view, page.drawn.best, page.drawn.latest);
  });
  poll(tick);
}

if (document.body.classList.contains("event")) start();
