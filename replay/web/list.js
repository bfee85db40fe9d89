// The match list: GET /matches newest first, a page at a time, filtered by game, player,
// status, creation day, tournament (with its round and table) and simulated; each row links to
// its replay at /watch/{id} and to its tournament's page at /events/{id}. The filters and the
// page live in the URL, so a list is shareable.
import { api, apiPage, el, games, resultText, shortTime, signIn } from "/static/common.js";

const PAGE = 50;
const $ = (id) => document.getElementById(id);
const form = $("filters");
const body = document.querySelector("#matches tbody");
const message = $("message");
const fields = {
  game: $("game"), player: $("player"), status: $("status"), since: $("since"), until: $("until"),
  tournament: $("tournament"), round: $("round"), table: $("table"),
};
const simulated = $("simulated");
const pager = { newer: $("newer"), older: $("older"), where: $("page-where") };
let offset = 0;

function readQuery() {
  const query = new URLSearchParams(window.location.search);
  for (const [name, field] of Object.entries(fields)) field.value = query.get(name) || "";
  simulated.checked = query.get("simulated") === "true";
  const from = Number(query.get("offset"));
  offset = Number.isInteger(from) && from > 0 ? from : 0;
}

function filters() {
  const params = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = field.value.trim();
    if (value) params[name] = value;
  }
  if (!params.tournament) {
    delete params.round;
    delete params.table;
  }
  if (simulated.checked) params.simulated = "true";
  return params;
}

// The match's place in its event: the event's name links to its page (/events/ID).
function tournamentCell(where) {
  if (!where) return "";
  const game = where.game > 1 ? ` · game ${where.game}` : "";
  return [el("a", { href: `/events/${where.tournament_id}`, class: "event-link" }, where.tournament),
    ` · round ${where.round} · table ${where.table}${game}`];
}

function row(m, known) {
  const title = known[m.game] ? known[m.game].title : m.game;
  return el("tr", { "data-match": m.match_id, "data-status": m.status },
    el("td", {}, el("a", { href: `/watch/${m.match_id}` }, m.players.join(" vs "))),
    el("td", {}, title),
    el("td", {}, el("time", { datetime: m.created_at }, shortTime(m.created_at))),
    el("td", {}, m.status === "live" ? [el("span", { class: "live-badge" }, "live"), " "] : null,
      resultText(m.result, m.players)),
    el("td", {}, tournamentCell(m.tournament)));
}

async function load() {
  const params = filters();
  const shown = new URLSearchParams(Object.entries({ ...params, ...(offset ? { offset } : {}) }));
  history.replaceState(null, "", shown.toString() ? `/?${shown}` : "/");
  $("round-table").hidden = !params.tournament;
  message.textContent = "Loading…";
  try {
    const [{ items: page, total }, known] = await Promise.all([
      apiPage("/matches", { params: { ...params, order: "newest", offset, limit: PAGE } }), games()]);
    body.replaceChildren(...page.map((m) => row(m, known)));
    pager.newer.disabled = offset === 0;
    pager.older.disabled = offset + page.length >= total;
    pager.where.textContent = page.length ? `matches ${offset + 1} to ${offset + page.length} of ${total}` : "";
    message.textContent = page.length
      ? `${offset + 1}–${offset + page.length} of ${total}, newest first.`
      : offset ? `No more matches (${total} in all).` : "No match matches these filters.";
  } catch (error) {
    body.replaceChildren();
    message.textContent = `Could not list the matches: ${error.message}`;
  }
}

function refilter() {
  offset = 0;
  load();
}

async function start() {
  const known = await games();
  for (const game of Object.values(known)) {
    fields.game.append(el("option", { value: game.id }, game.title));
  }
  try {
    const events = await api("/tournaments");
    for (const t of events.slice().reverse()) {
      fields.tournament.append(el("option", { value: t.tournament_id }, t.name));
    }
  } catch {
    // the list works without its tournament filter
  }
  readQuery();
  form.addEventListener("submit", (event) => { event.preventDefault(); refilter(); });
  for (const field of [fields.game, fields.status, fields.tournament, simulated]) {
    field.addEventListener("change", refilter);
  }
  pager.newer.addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  pager.older.addEventListener("click", () => { offset += PAGE; load(); });
  await signIn($("account"), async () => {});
  await load();
}

start();
