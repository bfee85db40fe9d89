// The sign-in page a slip's QR code opens (/sign-in#code=...): the code is taken out of the
// address at once (it is spent by signing in, and must not stay in the history), exchanged for
// a session of this browser (POST /sessions), and the player is sent on: a seat (or a
// scorekeeper) to its match (the newest game of its table's series), a tournament's player
// always to their page of the event (/events/ID/me), which shows their current match and its
// Play button first, and what comes between matches (the next game, the next round, their
// standing and decklist). Opened without a code, it says who this browser is signed in as and
// lists their matches.

import { ApiError, api, el } from "/static/common.js";

const heading = document.getElementById("heading");
const message = document.getElementById("message");
const plays = document.getElementById("plays");

function where(play) {
  const event = play.tournament
    ? `${play.tournament}, round ${play.round}, table ${play.table}: ` : "";
  return `${event}${play.seat ? `seat ${play.seat}` : "every seat (scorekeeper)"}`;
}

function show(me) {
  plays.replaceChildren();
  document.getElementById("out").hidden = me.role === "spectator";
  document.getElementById("next").hidden = me.role !== "player";
  if (me.role === "spectator") {
    heading.textContent = "Not signed in";
    message.textContent = "Scan the QR code on your table's slip, or open its link, to "
      + "sign in as your seat.";
    return;
  }
  heading.textContent = `Signed in as ${me.name}`;
  if (!me.plays.length) {
    message.textContent = me.role === "player"
      ? "You have no paired match yet: look again when the round is paired."
      : `You are signed in as ${/^[aeiou]/.test(me.role) ? "an" : "a"} ${me.role}: no match of yours to record here.`;
    return;
  }
  message.textContent = me.plays.length === 1 ? "Your match:" : "Your matches, newest first:";
  if (me.role === "player" && me.tournament_id) {
    plays.append(el("li", {}, el("a", { href: `/events/${me.tournament_id}/me` }, "My page of the event")));
  }
  for (const play of me.plays) {
    plays.append(el("li", {}, el("a", { href: `/play/${play.match_id}` }, where(play))));
  }
}

// Where a fresh session goes: a tournament player to their event page; a seat or scorekeeper
// to its match, the newest game when its table plays a series (all its plays one table's).
function landing(me) {
  if (me.role === "player" && me.tournament_id) return `/events/${me.tournament_id}/me`;
  if ((me.role === "seat" || me.role === "scorekeeper") && me.plays.length) {
    const [newest] = me.plays;
    const oneTable = me.plays.every((p) => p.tournament_id === newest.tournament_id
      && p.round === newest.round && p.table === newest.table);
    if (me.plays.length === 1 || (newest.tournament_id && oneTable)) return `/play/${newest.match_id}`;
  }
  return null;
}

async function start() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const code = fragment.get("code");
  if (code) {
    history.replaceState(null, "", window.location.pathname);
    try {
      const me = await api("/sessions", { method: "POST", body: { code } });
      const next = landing(me);
      if (next) {
        window.location.replace(next);
        return;
      }
      show(me);
    } catch (error) {
      heading.textContent = "This link did not sign you in";
      message.textContent = error instanceof ApiError ? error.message : String(error);
    }
    return;
  }
  show(await api("/me"));
}

document.getElementById("refresh").addEventListener("click", async () => show(await api("/me")));
document.getElementById("sign-out").addEventListener("click", async () => {
  try { await api("/sessions/current", { method: "DELETE" }); } catch { /* signed out */ }
  show(await api("/me"));
});
start();
