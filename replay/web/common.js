// What the pages share: calling the API (signed in by the session cookie the server set, which
// no script can read: see docs/architecture.md), the sign-in form, the games' titles, and small
// DOM helpers.

export class ApiError extends Error {
  constructor(status, body) {
    const text = body && body.message ? body.message : `HTTP ${status}`;
    super(text);
    this.status = status;
    this.body = body || {};
  }
}

let anonymous = false;
let signedInAs = { role: "spectator" };

// From now on, send no credential (the embeddable board always watches as a spectator).
export function watchAnonymously() {
  anonymous = true;
}

// Who the page is signed in as (GET /me, as last read by the sign-in form).
export function me() {
  return anonymous ? { role: "spectator" } : signedInAs;
}

// The headers and cookie policy of every request: the session cookie goes with it, and the
// page's own header, which the server requires of a change signed in by a cookie (another
// site's page cannot send it).
function sent(headers) {
  if (anonymous) return { headers, credentials: "omit" };
  return { headers: { ...headers, "x-kiroku-page": "1" }, credentials: "same-origin" };
}

// GET (or another method) a JSON answer from this server's API.
export async function api(path, options = {}) {
  return (await answered(path, options)).data;
}

// GET a paged list: its items and how many the filters select on every page (X-Total-Count).
export async function apiPage(path, options = {}) {
  const { data, headers } = await answered(path, options);
  return { items: data, total: Number(headers.get("x-total-count")) };
}

async function answered(path, { method = "GET", body, params } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(key, value);
  }
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const answer = await fetch(url, {
    method, ...sent(headers), body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data = null;
  try { data = await answer.json(); } catch { data = null; }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return { data, headers: answer.headers };
}

// Build an element: el("p", {class: "x"}, "text", child, ...).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let gamesPromise = null;
// The registered games by id: {id, title, players, ...}.
export function games() {
  if (!gamesPromise) {
    gamesPromise = api("/games").then((list) => Object.fromEntries(list.map((g) => [g.id, g])));
  }
  return gamesPromise;
}

export function describeMe(me) {
  if (!me || me.role === "spectator") return "Not signed in: you watch as a spectator.";
  const seat = me.seat ? `, seat ${me.seat} of match ${String(me.match_id).slice(0, 8)}` : "";
  return `Signed in as ${me.name} (${me.role}${seat}).`;
}

// The sign-in form in `container`; `changed(me)` is called after every sign-in or sign-out,
// and once at the start. Answers the caller's identity (GET /me). A token typed here opens a
// session of this browser (POST /sessions): the page never keeps it.
export async function signIn(container, changed) {
  const status = el("p", { class: "who", role: "status" });
  const input = el("input", {
    type: "password", id: "token", name: "token", autocomplete: "off",
    placeholder: "credential token", "aria-label": "Credential token",
  });
  const out = el("button", { type: "button", id: "sign-out" }, "Sign out");
  const form = el("form", { class: "sign-in", "aria-label": "Sign in" },
    el("label", { for: "token", class: "visually-hidden" }, "Credential token"),
    input, el("button", { type: "submit", id: "sign-in" }, "Sign in"), out);
  container.replaceChildren(form, status);

  async function refresh(refused = null) {
    try {
      signedInAs = anonymous ? { role: "spectator" } : await api("/me");
    } catch (error) {
      signedInAs = { role: "spectator" };
    }
    status.textContent = refused ? `Sign-in refused: ${refused.message}` : describeMe(signedInAs);
    out.hidden = signedInAs.role === "spectator";
    await changed(signedInAs);
    return signedInAs;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    input.value = "";
    if (!value) return;
    try {
      await api("/sessions", { method: "POST", body: { token: value } });
    } catch (error) {
      await refresh(error);
      return;
    }
    await refresh();
  });
  out.addEventListener("click", async () => {
    try { await api("/sessions/current", { method: "DELETE" }); } catch { /* signed out */ }
    await refresh();
  });
  return refresh();
}

export function resultText(result, players) {
  if (!result) return "in progress";
  const reason = result.reason ? ` (${String(result.reason).replaceAll("_", " ")})` : "";
  if (result.drawn) return `drawn${reason}`;
  const names = (result.winners || []).map((s) => `seat ${s}${players && players[s - 1] ? ` ${players[s - 1]}` : ""}`);
  return names.length ? `won by ${names.join(" and ")}${reason}` : `ended${reason}`;
}

export function shortTime(iso) {
  return iso ? String(iso).slice(0, 16).replace("T", " ") : "";
}

// Listen to a Server-Sent Events stream of this server (GET `path`) as the signed-in session
// (read with fetch, whose answer's status tells a refusal apart): `onEvent(name, data)` for each
// event; reconnects 3 s after the stream ends until `signal` aborts; `onRefused(error)` when the
// server refuses it (then it stops).
export function listen(path, onEvent, { signal, onRefused = () => {} } = {}) {
  const connect = async () => {
    try {
      const answer = await fetch(new URL(path, window.location.origin), {
        ...sent({ accept: "text/event-stream" }), signal, cache: "no-store" });
      if (!answer.ok) {
        let body = null;
        try { body = await answer.json(); } catch { body = null; }
        onRefused(new ApiError(answer.status, body));
        return;
      }
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trim());
          }
          if (!data.length) continue;  // a keepalive comment
          let parsed = null;
          try { parsed = JSON.parse(data.join("\n")); } catch { parsed = null; }
          if (onEvent(name, parsed) === false) return;
        }
      }
    } catch (error) {
      if (signal && signal.aborted) return;
    }
    if (!(signal && signal.aborted)) setTimeout(connect, 3000);
  };
  connect();
}
