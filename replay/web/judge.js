// The judge's open calls (/judge): every dispute waiting for a judge in the live matches this
// judge hears, oldest first, asked again every few seconds; a call that was not there before is
// announced at once. Each call is taken (pausing the match, or not), ruled from here, or
// opened in the match's console (/play/MATCH).
//
// One event's calls (/judge?tournament=ID, issue 42): the tournament's open disputes (GET
// /tournaments/{id}/disputes?status=open, for its judges and the organisers) under their round,
// newest first, each with its table and players; its head judge (and an organiser) also sees
// the appealed ones, which they rule.

import { api, el, signIn } from "/static/common.js";

const POLL_MS = 3000;
const calls = document.getElementById("calls");
const byRound = document.getElementById("event-calls");
const message = document.getElementById("message");
const notice = document.getElementById("notice");
const heading = document.getElementById("heading");
const eventRef = new URLSearchParams(window.location.search).get("tournament");
const seen = new Set();
let first = true;
let timer = null;
let shown = "";
let me = { role: "spectator" };
let event = null;  // the tournament (GET /tournaments/{id}) of /judge?tournament=ID
const seated = new Map();  // "round/table" -> the table's players' names, from the round view

function table(call) {
  if (call.round) {
    const names = seated.get(`${call.round}/${call.table}`);
    return `Table ${call.table}${names ? `: ${names.join(" vs ")}` : ""}`;
  }
  const t = call.tournament;
  const where = t ? `${t.tournament}, round ${t.round}, table ${t.table}: ` : "";
  return `${where}${call.players.join(" vs ")}`;
}

function caller(call) {
  const by = call.opened_by || {};
  return by.seat ? `${by.name} (seat ${by.seat})` : (by.name || "?");
}

async function act(path, body, done) {
  try {
    await api(path, { method: "POST", body });
    message.textContent = done;
  } catch (error) {
    message.textContent = error.message;
  }
  await poll();
}

function ruleForm(call) {
  const decision = el("input", { type: "text", name: "decision", maxlength: "200", required: true,
    placeholder: "decision" });
  const reasoning = el("input", { type: "text", name: "reasoning", maxlength: "2000", required: true,
    placeholder: "reasoning" });
  // a warning names the seat it is for: either player may have committed the infraction
  const warnings = (call.players || []).map((name, i) =>
    el("option", { value: `warning:${i + 1}` }, `a warning to ${name} (seat ${i + 1})`));
  const remedy = el("select", { name: "remedy" },
    el("option", { value: "none" }, "no change to the match"), ...warnings,
    el("option", { value: "backup" }, "back up to the position called at"));
  const form = el("form", { class: "rule" }, el("label", {}, "Decision ", decision),
    el("label", {}, "Reasoning ", reasoning), el("label", {}, "Remedy ", remedy),
    el("button", { type: "submit" }, "Rule"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const [kind, seat] = remedy.value.split(":");
    const chosen = kind === "warning"
      ? { kind: "penalty", penalty: "warning", seat: Number(seat) }
      : kind === "backup" ? { kind: "backup", to_position: call.position } : { kind: "none" };
    act(`/disputes/${call.dispute_id}/rule`, { decision: decision.value, reasoning: reasoning.value,
      remedy: chosen }, "Ruled.");
  });
  return el("details", {}, el("summary", {}, "Rule…"), form);
}

function item(call, isNew) {
  const taken = call.judge ? `taken by ${call.judge.name}` : "not taken yet";
  const appealed = call.status === "appealed";
  const takes = call.status === "open" && !(event && call.judge);  // an event's taken call is ruled
  return el("li", { class: isNew ? "new" : "", "data-dispute": call.dispute_id, "data-status": call.status },
    el("p", {}, table(call)),
    el("p", { class: "claim" }, call.claim),
    el("p", {}, `Called by ${caller(call)} at position ${call.position}, ${call.recorded_at.slice(11, 16)} UTC; ${call.status}, ${taken}${call.pausing ? "; the match is paused" : ""}.`),
    appealed && call.appeal ? el("p", {}, `Appealed${call.appeal.by && call.appeal.by.name ? ` by ${call.appeal.by.name}` : ""}: ${call.appeal.reason || ""}`) : null,
    el("p", {},
      takes ? el("button", { type: "button", class: "take",
        onclick: () => act(`/disputes/${call.dispute_id}/take`, { pause: false }, "Taken.") }, "Take") : null, " ",
      takes ? el("button", { type: "button", class: "take-pause",
        onclick: () => act(`/disputes/${call.dispute_id}/take`, { pause: true }, "Taken; the match is paused.") },
        "Take and pause") : null, " ",
      el("a", { href: `/play/${call.match_id}` }, "Open the match's console")),
    ruleForm(call));
}

// Whether the signed-in judge hears the event's appeals: its head judge, or an organiser.
function hearsAppeals() {
  return me.role === "organiser" || Boolean(event && event.head_judge && event.head_judge.id === me.credential_id);
}

// The event's calls: its open disputes, and its appealed ones for the head judge; newest first.
async function eventCalls() {
  const path = `/tournaments/${encodeURIComponent(event.tournament_id)}/disputes`;
  const asked = [api(path, { params: { status: "open" } })];
  if (hearsAppeals()) asked.push(api(path, { params: { status: "appealed" } }));
  const found = (await Promise.all(asked)).flat();
  for (const round of new Set(found.map((c) => c.round))) {
    if (![...seated.keys()].some((k) => k.startsWith(`${round}/`))) {
      try {
        const view = await api(`/tournaments/${encodeURIComponent(event.tournament_id)}/rounds/${round}`);
        for (const t of view.tables) seated.set(`${round}/${t.table}`, t.players.map((p) => p.name));
      } catch { /* the table's number is enough */ }
    }
  }
  return found.sort((a, b) => String(b.recorded_at).localeCompare(String(a.recorded_at)));
}

// The event's calls under their round, newest round first.
function grouped(open, fresh) {
  const rounds = [...new Set(open.map((c) => c.round))].sort((a, b) => b - a);
  return rounds.map((round) => el("section", { class: "round-calls", "data-round": round },
    el("h3", {}, `Round ${round}`),
    el("ul", { class: "calls" }, open.filter((c) => c.round === round).map((c) => item(c, fresh.includes(c))))));
}

async function poll() {
  let open;
  try {
    open = event ? await eventCalls() : await api("/disputes");
  } catch (error) {
    message.textContent = error.message;
    calls.replaceChildren();
    byRound.replaceChildren();
    shown = "";
    return;
  }
  const fresh = open.filter((c) => !seen.has(c.dispute_id));
  if (!first && fresh.length) {
    notice.hidden = false;
    notice.textContent = `New call: ${fresh.map((c) => `${table(c)}: “${c.claim}”`).join("; ")}`;
  }
  fresh.forEach((c) => seen.add(c.dispute_id));
  first = false;
  const signature = JSON.stringify(open);
  if (signature === shown) return;  // nothing changed: leave what the judge is typing alone
  shown = signature;
  const root = event ? byRound : calls;
  const keepOpen = new Set([...root.querySelectorAll("details[open]")].map((d) => d.closest("li").dataset.dispute));
  root.replaceChildren(...(event ? grouped(open, fresh) : open.map((c) => item(c, fresh.includes(c)))));
  for (const id of keepOpen) {
    const details = root.querySelector(`li[data-dispute="${id}"] details`);
    if (details) details.open = true;
  }
  if (!open.length) message.textContent = "No open calls.";
  else if (event) message.textContent = `${open.length} call${open.length > 1 ? "s" : ""} waiting, newest first.`;
}

async function loadEvent() {
  if (!eventRef || event) return;
  try {
    event = await api(`/tournaments/${encodeURIComponent(eventRef)}`);
  } catch (error) {
    message.textContent = error.message;
    return;
  }
  document.title = `Kiroku: calls of ${event.name}`;
  heading.textContent = `Calls of ${event.name}`;
  heading.hidden = false;
}

signIn(document.getElementById("account"), async (signedIn) => {
  me = signedIn;
  clearInterval(timer);
  if (me.role !== "judge" && me.role !== "organiser") {
    message.textContent = "Sign in as a judge to see the open calls.";
    calls.replaceChildren();
    byRound.replaceChildren();
    return;
  }
  await loadEvent();
  if (eventRef && !event) return;
  first = true;
  shown = "";
  await poll();
  timer = setInterval(poll, POLL_MS);
});
