// The match list: GET /matches filtered by game, player and simulated; each row links to
// its replay at /watch/{id}.
import { api, el, games, resultText, shortTime, signIn } from "/static/common.js";

const form = document.getElementById("filters");
const body = document.querySelector("#matches tbody");
const message = document.getElementById("message");
const gameSelect = document.getElementById("game");
const player = document.getElementById("player");
const simulated = document.getElementById("simulated");

function readQuery() {
  const query = new URLSearchParams(window.location.search);
  gameSelect.value = query.get("game") || "";
  player.value = query.get("player") || "";
  simulated.checked = query.get("simulated") === "true";
}

async function load() {
  const params = { game: gameSelect.value, player: player.value.trim(),
                   simulated: simulated.checked ? "true" : "" };
  const shown = new URLSearchParams(Object.entries(params).filter(([, v]) => v));
  history.replaceState(null, "", shown.toString() ? `/?${shown}` : "/");
  message.textContent = "Loading…";
  try {
    const [list, known] = await Promise.all([api("/matches", { params }), games()]);
    body.replaceChildren(...list.slice().reverse().map((m) => {
      const title = known[m.game] ? known[m.game].title : m.game;
      const players = m.players.join(" vs ");
      return el("tr", { "data-match": m.match_id },
        el("td", {}, el("a", { href: `/watch/${m.match_id}` }, players)),
        el("td", {}, title),
        el("td", {}, el("time", { datetime: m.created_at }, shortTime(m.created_at))),
        el("td", {}, resultText(m.result, m.players)));
    }));
    message.textContent = list.length ? `${list.length} match${list.length === 1 ? "" : "es"}, newest first.`
                                      : "No match matches these filters.";
  } catch (error) {
    body.replaceChildren();
    message.textContent = `Could not list the matches: ${error.message}`;
  }
}

async function start() {
  const known = await games();
  for (const game of Object.values(known)) {
    gameSelect.append(el("option", { value: game.id }, game.title));
  }
  readQuery();
  form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
  gameSelect.addEventListener("change", load);
  simulated.addEventListener("change", load);
  await signIn(document.getElementById("account"), async () => {});
  await load();
}

start();
