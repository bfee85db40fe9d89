// The judge's open calls (/judge): every dispute waiting for a judge in the live matches this
// judge hears, oldest first, asked again every few seconds; a call that was not there before is
// announced at once. Each call is taken (pausing the match, or not), ruled from here, or
// opened in the match's console (/play/MATCH).

import { api, el, signIn } from "/static/common.js";

const POLL_MS = 3000;
const calls = document.getElementById("calls");
const message = document.getElementById("message");
const notice = document.getElementById("notice");
const seen = new Set();
let first = true;
let timer = null;
let shown = "";

function table(call) {
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
  const remedy = el("select", { name: "remedy" },
    el("option", { value: "none" }, "no change to the match"),
    el("option", { value: "warning" }, "a warning"),
    el("option", { value: "backup" }, "back up to the position called at"));
  const form = el("form", { class: "rule" }, el("label", {}, "Decision ", decision),
    el("label", {}, "Reasoning ", reasoning), el("label", {}, "Remedy ", remedy),
    el("button", { type: "submit" }, "Rule"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const kind = remedy.value;
    const chosen = kind === "warning"
      ? { kind: "penalty", penalty: "warning", seat: call.opened_by.seat || 1 }
      : kind === "backup" ? { kind: "backup", to_position: call.position } : { kind: "none" };
    act(`/disputes/${call.dispute_id}/rule`, { decision: decision.value, reasoning: reasoning.value,
      remedy: chosen }, "Ruled.");
  });
  return el("details", {}, el("summary", {}, "Rule…"), form);
}

function item(call, isNew) {
  const taken = call.judge ? `taken by ${call.judge.name}` : "not taken yet";
  return el("li", { class: isNew ? "new" : "", "data-dispute": call.dispute_id },
    el("p", {}, table(call)),
    el("p", { class: "claim" }, call.claim),
    el("p", {}, `Called by ${caller(call)} at position ${call.position}, ${call.recorded_at.slice(11, 16)} UTC; ${call.status}, ${taken}${call.pausing ? "; the match is paused" : ""}.`),
    el("p", {},
      el("button", { type: "button", class: "take",
        onclick: () => act(`/disputes/${call.dispute_id}/take`, { pause: false }, "Taken.") }, "Take"), " ",
      el("button", { type: "button", class: "take-pause",
        onclick: () => act(`/disputes/${call.dispute_id}/take`, { pause: true }, "Taken; the match is paused.") },
        "Take and pause"), " ",
      el("a", { href: `/play/${call.match_id}` }, "Open the match's console")),
    ruleForm(call));
}

async function poll() {
  let open;
  try {
    open = await api("/disputes");
  } catch (error) {
    message.textContent = error.message;
    calls.replaceChildren();
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
  const keepOpen = new Set([...calls.querySelectorAll("details[open]")].map((d) => d.closest("li").dataset.dispute));
  calls.replaceChildren(...open.map((c) => {
    const node = item(c, fresh.includes(c));
    if (keepOpen.has(c.dispute_id)) node.querySelector("details").open = true;
    return node;
  }));
  if (!open.length) message.textContent = "No open calls.";
}

signIn(document.getElementById("account"), async (me) => {
  clearInterval(timer);
  if (me.role !== "judge" && me.role !== "organiser") {
    message.textContent = "Sign in as a judge to see the open calls.";
    calls.replaceChildren();
    return;
  }
  first = true;
  shown = "";
  await poll();
  timer = setInterval(poll, POLL_MS);
});
