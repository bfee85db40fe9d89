// A player's own page of an event (/events/ID/me), phone first, for a player signed in with
// their one sign-in for the event (the session their player link opened): their current match
// first (round, table, opponent, which game of the series, a big Play button to the game, and
// "Start game N+1" when the table may start it), then their standing, their earlier matches,
// their decklist (seen, and submitted while the lists are open) and signing out. Without such a
// session it says how to sign in. It follows the event every 5 s while visible, as the event
// page does; the decklist form is never redrawn under the player's fingers.

import { ApiError, api, el } from "/static/common.js";
import {
  bestOf, clock, currentMatchId, eventStatus, gameScore, gamesOf, guarded, measureName,
  measureText, measures, patch, poll, record, setText, tournamentRef, watchLinks,
} from "/static/event.js";

const $ = (id) => document.getElementById(id);
const ui = {
  message: $("message"), signedOut: $("signed-out"), mine: $("mine"), who: $("who"),
  status: $("event-status"), updated: $("updated"), current: $("current"),
  currentHeading: $("current-heading"), opponent: $("opponent"), series: $("series"),
  actions: $("current-actions"), nextRefusal: $("next-refusal"), standing: $("standing-line"),
  earlierSection: $("earlier-section"), earlier: $("earlier"), deckState: $("deck-state"),
  deckList: $("deck-list"), amendments: $("amendments"), deckForm: $("deck-form"),
  deckText: $("deck-text"), deckMessage: $("deck-message"),
};
const page = {
  ref: tournamentRef(), me: null, tournament: null, rounds: [], roundsRead: -1, asked: 0,
  lastGood: null, starting: false,
};

function base() {
  return `/tournaments/${page.tournament.tournament_id}`;
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// ---- where I sit ----

function myTable(view) {
  if (!view) return null;
  return view.tables.find((t) => t.players.some((p) => p.player_id === page.me.player_id)) || null;
}

function myBye(view) {
  return Boolean(view && view.byes.some((p) => p.player_id === page.me.player_id));
}

function opponents(table) {
  return table.players.filter((p) => p.player_id !== page.me.player_id);
}

function opponentText(table) {
  const others = opponents(table);
  if (!others.length) return "no opponent";
  return `vs ${others.map((p) => (p.external_id ? `${p.name} (${p.external_id})` : p.name)).join(", ")}`;
}

// The series' score as the player reads it: my game wins first.
function myScore(table) {
  const { wins, draws } = gameScore(table);
  const at = table.players.findIndex((p) => p.player_id === page.me.player_id);
  const mine = wins[at] || 0;
  const theirs = Math.max(0, ...wins.filter((_, i) => i !== at));
  return { mine, theirs, draws, text: `${mine}-${theirs}${draws ? `-${draws}` : ""}` };
}

// Won, lost or drawn, with the score, once the table has its result.
function outcome(table) {
  const result = table.result;
  if (!result) return null;
  const { mine, theirs, draws, text } = myScore(table);
  const scored = mine || theirs || draws ? ` ${text}` : "";
  const how = result.source === "ruling" ? " (judge's ruling)"
    : result.source === "judge" ? " (entered by a judge)" : "";
  if (result.drawn || !result.winners.length) return ["drawn", `Drawn${scored}${how}`];
  const won = result.winners.some((w) => w.player_id === page.me.player_id);
  return won ? ["won", `Won${scored}${how}`] : ["lost", `Lost${scored}${how}`];
}

// ---- my current match ----

function playButton(table, text) {
  return el("a", { id: "play", class: "play-button", href: `/play/${currentMatchId(table)}` }, text);
}

function drawCurrent(view, row) {
  const t = page.tournament;
  const round = t.rounds;
  ui.current.classList.remove("done");
  ui.current.dataset.match = "";
  if (!round) {
    setText(ui.currentHeading, "Round 1 is not paired yet");
    setText(ui.opponent, "");
    setText(ui.series, t.decklists_locked ? "The decklists are locked."
      : "Submit your decklist below before the lists lock.");
    patch(ui.actions, []);
    return;
  }
  const table = myTable(view);
  if (!table) {
    ui.current.classList.add("done");
    setText(ui.currentHeading, `Round ${round}`);
    setText(ui.opponent, myBye(view) ? "You have a bye this round"
      : row && row.dropped ? "You have dropped from the event" : "You are not paired this round");
    setText(ui.series, t.finished ? "The event is finished." : myBye(view) ? "A bye counts as a win."
      : row && row.dropped ? "You are not paired again; your results stay in the standings." : "");
    patch(ui.actions, []);
    return;
  }
  const best = bestOf(table.best_of !== undefined ? table : t);
  const played = gamesOf(table);
  const game = played.length;
  const score = myScore(table);
  ui.current.dataset.match = currentMatchId(table);
  ui.current.dataset.status = table.status;
  setText(ui.currentHeading, `Round ${round} · Table ${table.table}`);
  setText(ui.opponent, opponentText(table));
  const standing = score.mine > score.theirs ? `you lead ${score.text}`
    : score.mine < score.theirs ? `you trail ${score.text}` : score.mine || score.draws ? `level ${score.text}` : "";
  const ofSeries = best > 1 ? `Game ${game} of best of ${best}` : "One game (best of 1)";
  const actions = [];
  if (table.status === "result") {
    ui.current.classList.add("done");
    const [, text] = outcome(table);
    setText(ui.series, `${text}. ${t.finished ? "The event is finished." : `Round ${round + 1} is not paired yet.`}`);
    actions.push(el("p", { class: "table-watch" }, watchLinks(table, `your round ${round} match`)));
  } else if (table.next_game) {
    setText(ui.series, `Game ${game} is over${standing ? `: ${standing}` : ""}.`);
    actions.push(el("button", { type: "button", id: "next-game", class: "play-button",
      "data-game": game + 1 }, `Start game ${game + 1}`));
    actions.push(playButton(table, `Back to game ${game}`));
    actions[1].classList.add("secondary");
  } else if (table.status === "awaiting_ruling") {
    setText(ui.series, `${ofSeries}: a judge is called${standing ? ` · ${standing}` : ""}.`);
    actions.push(playButton(table, best > 1 ? `Play game ${game}` : "Play"));
  } else {
    setText(ui.series, `${ofSeries}${standing ? ` · ${standing}` : ""}`);
    actions.push(playButton(table, best > 1 ? `Play game ${game}` : "Play"));
  }
  patch(ui.actions, actions);
}

async function startNextGame(button) {
  if (page.starting) return;
  page.starting = true;
  button.disabled = true;
  ui.nextRefusal.hidden = true;
  const view = page.rounds[page.tournament.rounds - 1];
  const table = myTable(view);
  try {
    await api(`${base()}/rounds/${view.round}/tables/${table.table}/games`, { method: "POST" });
  } catch (error) {
    ui.nextRefusal.hidden = false;
    ui.nextRefusal.textContent = error.message || String(error);
  } finally {
    page.starting = false;
    button.disabled = false;
  }
  await tick();
}

// ---- my standing and earlier matches ----

function drawStanding(standings) {
  const row = standings.standings.find((r) => r.player_id === page.me.player_id);
  if (!row) {
    patch(ui.standing, [el("span", {}, "Not in the standings yet.")]);
    return;
  }
  if (!row.played && !row.byes) {
    patch(ui.standing, [el("span", {}, "No result yet: your standing shows after your first match.")]);
    return;
  }
  const tiebreakers = measures(standings).map((f) => `${measureName(f)} ${measureText(f, row)}`);
  const tied = standings.standings.some((r) => r.rank === row.rank && r.player_id !== row.player_id);
  patch(ui.standing, [
    el("strong", {}, `${ordinal(row.rank)} of ${standings.standings.length}`),
    tied ? el("span", {}, " (tied)") : "",
    el("span", {}, ` · ${plural(row.match_points, "point")} · ${record(row)}`),
    row.dropped ? el("span", { class: "badge dropped-badge" }, "dropped") : "",
    tiebreakers.length ? el("span", { class: "tiebreaks" }, tiebreakers.join(" · ")) : "",
  ]);
}

function earlierItem(view) {
  const table = myTable(view);
  if (!table) {
    if (!myBye(view)) return null;
    return el("li", { "data-round": view.round },
      `Round ${view.round} · bye: `, el("span", { class: "outcome won" }, "Won (bye)"));
  }
  const ended = outcome(table);
  return el("li", { "data-round": view.round, "data-table": table.table },
    `Round ${view.round} · Table ${table.table} · ${opponentText(table)}: `,
    ended ? el("span", { class: `outcome ${ended[0]}` }, ended[1])
      : el("span", { class: "outcome" }, table.status.replaceAll("_", " ")),
    " · ", watchLinks(table, `round ${view.round}`));
}

function drawEarlier() {
  const items = page.rounds.slice(0, -1).reverse().map(earlierItem).filter(Boolean);
  ui.earlierSection.hidden = !items.length;
  patch(ui.earlier, items);
}

// ---- my decklist ----

// The textarea's lines as {card id: copies}: "3 WGS-001", "3x WGS-001", "WGS-001 x3" or
// "WGS-001 3"; blank lines and lines starting with # are skipped. Throws a sentence naming
// the first line that is neither.
export function parseDeck(text) {
  const deck = {};
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const found = line.match(/^(\d+)\s*x?\s+(\S+)$/i) || line.match(/^(\S+)\s+x?\s*(\d+)$/i);
    if (!found) {
      throw new Error(`Line ${i + 1} ("${line.slice(0, 40)}") is not "3 card-id" or "card-id x3".`);
    }
    const [count, card] = /^\d+$/.test(found[1]) ? [found[1], found[2]] : [found[2], found[1]];
    deck[card] = (deck[card] || 0) + Number(count);
  });
  if (!Object.keys(deck).length) throw new Error("The list is empty: one card a line, as \"3 card-id\".");
  return deck;
}

function deckLines(deck) {
  return Object.entries(deck).sort(([a], [b]) => a.localeCompare(b)).map(([card, n]) => `${n} ${card}`);
}

function deckMessage(text, refused = false) {
  ui.deckMessage.hidden = !text;
  ui.deckMessage.className = refused ? "refusal" : "message";
  ui.deckMessage.textContent = text;
}

function drawDeck(list) {
  const cards = Object.values(list.deck).reduce((a, b) => a + b, 0);
  const locked = list.locked;
  const deadline = page.tournament.deadline
    ? ` They lock at ${new Date(page.tournament.deadline).toLocaleString()} or when round 1 is paired.`
    : " They lock when round 1 is paired.";
  setText(ui.deckState, cards
    ? `${plural(cards, "card")}${locked ? ", locked: only a judge may amend it now, with a reason." : "."}`
    : locked ? "You have no decklist, and the lists are locked: see a judge." : `No decklist yet.${deadline}`);
  patch(ui.deckList, deckLines(list.deck).map((line) => el("li", {}, line)));
  patch(ui.amendments, (list.amendments || []).map((a) => el("li", {},
    `Amended by ${(a.by && a.by.name) || "a judge"}: ${a.reason}`)));
  ui.deckForm.hidden = locked;
  if (!locked && !ui.deckText.value) ui.deckText.value = deckLines(list.deck).join("\n");
}

async function readDeck() {
  try {
    drawDeck(await api(`${base()}/players/${page.me.player_id}/decklist`));
  } catch (error) {
    setText(ui.deckState, `Could not read your decklist: ${error.message}`);
  }
}

async function submitDeck(event) {
  event.preventDefault();
  let deck;
  try {
    deck = parseDeck(ui.deckText.value);
  } catch (error) {
    deckMessage(error.message, true);
    return;
  }
  const button = $("deck-submit");
  button.disabled = true;
  try {
    const list = await api(`${base()}/players/${page.me.player_id}/decklist`, {
      method: "PUT", body: { deck } });
    ui.deckText.value = deckLines(list.deck).join("\n");
    drawDeck(list);
    deckMessage(`Your decklist is submitted: ${plural(Object.values(list.deck).reduce((a, b) => a + b, 0), "card")}.`);
  } catch (error) {
    deckMessage(error instanceof ApiError ? error.message : String(error), true);
  } finally {
    button.disabled = false;
  }
}

// ---- signed in or not ----

function showSignedOut(me) {
  ui.mine.hidden = true;
  ui.signedOut.hidden = false;
  const other = $("other-who");
  const links = $("other-links");
  other.hidden = me.role === "spectator";
  links.hidden = true;
  if (me.role !== "spectator") {
    other.textContent = `This phone is signed in as ${me.name} (${me.role}), not as a player of this event.`;
    const elsewhere = me.role === "player" && me.tournament_id
      ? [el("a", { href: `/events/${me.tournament_id}/me` }, "My own event's page")]
      : (me.plays || []).slice(0, 1).map((p) => el("a", { href: `/play/${p.match_id}` }, "My match"));
    if (elsewhere.length) {
      links.hidden = false;
      links.replaceChildren(...elsewhere, " · ", el("button", { type: "button", id: "sign-out-other",
        onclick: signOut }, "Sign out"));
    } else {
      links.hidden = false;
      links.replaceChildren(el("button", { type: "button", id: "sign-out-other", onclick: signOut }, "Sign out"));
    }
  }
  setText(ui.message, "");
  document.body.dataset.signedIn = "no";
}

async function signOut() {
  try { await api("/sessions/current", { method: "DELETE" }); } catch { /* signed out */ }
  page.me = { role: "spectator" };
  ui.deckText.value = "";
  showSignedOut(page.me);
}

function mine(me) {
  return me && me.role === "player" && page.tournament
    && me.tournament_id === page.tournament.tournament_id;
}

// ---- reading and drawing ----

async function refresh() {
  const asked = ++page.asked;
  const tournament = await api(`/tournaments/${encodeURIComponent(page.ref)}`);
  page.tournament = tournament;
  page.ref = tournament.tournament_id;
  $("event-link").href = `/events/${tournament.tournament_id}`;
  if (!page.me) page.me = await api("/me");
  if (!mine(page.me)) {
    showSignedOut(page.me);
    return;
  }
  const first = page.roundsRead < 0;
  // every round again when a round is paired; else the current one only
  const again = tournament.rounds !== page.roundsRead
    ? Array.from({ length: tournament.rounds }, (_, i) => i + 1)
    : tournament.rounds ? [tournament.rounds] : [];
  const [views, standings] = await Promise.all([
    Promise.all(again.map((n) => api(`${base()}/rounds/${n}`))),
    api(`${base()}/standings`)]);
  if (asked !== page.asked) return;
  for (const view of views) page.rounds[view.round - 1] = view;
  page.rounds.length = tournament.rounds;
  page.roundsRead = tournament.rounds;
  document.title = `Kiroku: ${page.me.name} at ${tournament.name}`;
  ui.signedOut.hidden = true;
  ui.mine.hidden = false;
  setText(ui.who, `${page.me.name} · ${tournament.name}`);
  const latest = page.rounds[tournament.rounds - 1] || null;
  const [state, text] = eventStatus(tournament, latest);
  ui.status.dataset.state = state;
  setText(ui.status, text);
  drawCurrent(latest, standings.standings.find((r) => r.player_id === page.me.player_id));
  drawStanding(standings);
  drawEarlier();
  if (first) await readDeck();
  page.lastGood = new Date();
  setText(ui.updated, `updated ${clock(page.lastGood)}`);
  setText(ui.message, "");
  document.body.dataset.signedIn = "yes";
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
}

const tick = guarded(refresh, page, ui.updated, (error) => {
  setText(ui.message, `Could not show this event: ${error.message}`);
});

ui.actions.addEventListener("click", (event) => {
  const button = event.target.closest("#next-game");
  if (button) startNextGame(button);
});
ui.deckForm.addEventListener("submit", submitDeck);
$("sign-out").addEventListener("click", signOut);
$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("token");
  const token = input.value.trim();
  input.value = "";
  if (!token) return;
  const refusal = $("token-refusal");
  try {
    page.me = await api("/sessions", { method: "POST", body: { token } });
    refusal.hidden = true;
  } catch (error) {
    refusal.hidden = false;
    refusal.textContent = `Sign-in refused: ${error.message}`;
    return;
  }
  page.roundsRead = -1;
  await tick();
});
poll(tick);
