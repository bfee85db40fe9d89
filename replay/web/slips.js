// Printable sign-in slips (/slips?match=ID, or ?tournament=ID&round=N for a whole round): a
// judge issues a new link for each seat, and each slip prints the event, round, table, player
// and seat with the link's QR code. Issuing replaces each seat's older link.

import { ApiError, api, el, signIn } from "/static/common.js";

const query = new URLSearchParams(window.location.search);
const match = query.get("match");
const tournament = query.get("tournament");
const round = query.get("round");
const message = document.getElementById("message");
const issue = document.getElementById("issue");
const print = document.getElementById("print");
const slips = document.getElementById("slips");

function endpoint() {
  if (match) return `/matches/${encodeURIComponent(match)}/links`;
  if (tournament && round) {
    return `/tournaments/${encodeURIComponent(tournament)}/rounds/${encodeURIComponent(round)}/links`;
  }
  return null;
}

function slip(link) {
  const event = link.tournament
    ? el("h3", {}, `${link.tournament} · round ${link.round} · table ${link.table}`)
    : el("h3", {}, `Match ${link.match_id.slice(0, 8)}`);
  return el("article", { class: "slip", "data-seat": link.seat, "data-table": link.table ?? "" },
    event,
    el("p", { class: "player" }, link.name),
    el("p", {}, `Seat ${link.seat} · scan to sign in and record your match`),
    el("img", { src: link.qr, alt: `QR code: sign-in link for ${link.name}, seat ${link.seat}` }),
    el("p", { class: "link" }, el("a", { href: link.link }, link.link)),
    el("p", { class: "expires" }, `One phone, once; valid until ${link.expires_at.slice(0, 16).replace("T", " ")} UTC`));
}

async function issueSlips() {
  const path = endpoint();
  issue.disabled = true;
  try {
    const links = await api(path, { method: "POST",
      body: { valid_hours: Number(document.getElementById("hours").value) } });
    slips.replaceChildren(...links.map(slip));
    message.textContent = `${links.length} slips issued: every older link of these seats no longer signs in.`;
    print.hidden = false;
  } catch (error) {
    message.textContent = error instanceof ApiError ? error.message : String(error);
  } finally {
    issue.disabled = false;
  }
}

if (!endpoint()) {
  message.textContent = "Open this page as /slips?match=ID, or /slips?tournament=ID&round=N.";
  issue.disabled = true;
}
document.getElementById("heading").textContent = match
  ? `Sign-in slips of match ${match.slice(0, 8)}` : `Sign-in slips of round ${round}`;
issue.addEventListener("click", issueSlips);
print.addEventListener("click", () => window.print());
signIn(document.getElementById("account"), async (me) => {
  issue.hidden = !(me.role === "judge" || me.role === "organiser");
  if (issue.hidden && endpoint()) message.textContent = "Sign in as a judge to issue slips.";
});
