// matchlog signed-in pages: the token, authorised requests and the sign-in form shared
// by the scorer's pad and the organiser's desk (api/static/pad.js, desk.js), loaded
// after table.js. The token stays in this tab's sessionStorage, under one key, so a
// scorer signed in on the pad is signed in on the desk in the same tab, and back.
"use strict";

window.MatchSession = (() => {
  const { w, el, getJSON } = window.MatchTable;

  const TOKEN_KEY = "matchlog.scorer-token";

  const token = () => sessionStorage.getItem(TOKEN_KEY);
  const auth = () => ({ Authorization: "Bearer " + token() });

  // A random version-4 UUID from crypto.getRandomValues, which (unlike randomUUID) a
  // page served over plain HTTP on a LAN address may call.
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // Returns {status, body}; a failed network throws a TypeError (fetch's own).
  async function send(path, body, headers) {
    const response = await fetch(path, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json", ...auth(), ...(headers || {}) },
      body: JSON.stringify(body),
    });
    const written = response.headers.get("Matchlog-Position");
    if (written) localStorage.setItem("matchlog.position", written);
    const answer = await response.json().catch(() => null);
    return { status: response.status, body: answer };
  }

  function problemText(body, status) {
    return (body && (body.detail || body.title)) || w("error.answered", { status });
  }

  function message(id, text, kind) {
    return el("p", { id, class: "message" + (kind ? " " + kind : ""), role: kind === "error" ? "alert" : "status", text });
  }

  // Every item of a listing, a page of 100 at a time (at most 20 pages).
  async function allPages(path) {
    const items = [];
    let cursor = null;
    for (let page = 0; page < 20; page += 1) {
      const sep = path.includes("?") ? "&" : "?";
      const body = await getJSON(path + sep + "limit=100" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""), auth());
      items.push(...body.items);
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    return items;
  }

  // The sign-in form: the token is checked by ``check``, a read that needs one, before
  // it is kept. ``words``: {title, label, hint, refused(status), unreachable, button}.
  function signInForm(after, check, words) {
    const input = el("input", { id: "token", type: "password", autocomplete: "off", required: true, "aria-label": words.label });
    const problem = el("p", { class: "message error", role: "alert", hidden: true });
    return el(
      "form",
      {
        id: "sign-in",
        class: "card-box",
        onsubmit: async (event) => {
          event.preventDefault();
          const secret = input.value.trim();
          if (!secret) return;
          const response = await fetch(check, {
            headers: { Accept: "application/json", Authorization: "Bearer " + secret },
          }).catch(() => null);
          if (!response || !response.ok) {
            problem.hidden = false;
            problem.textContent = response ? words.refused(response.status) : words.unreachable;
            return;
          }
          sessionStorage.setItem(TOKEN_KEY, secret);
          input.value = "";
          after();
        },
      },
      el("h2", { text: words.title }),
      el("label", { for: "token", text: words.label }),
      input,
      el("p", { class: "hint", text: words.hint }),
      problem,
      el("button", { id: "sign-in-button", type: "submit", class: "primary", text: words.button }),
    );
  }

  function signOutButton(text) {
    return el("button", {
      id: "sign-out",
      type: "button",
      text,
      onclick: () => {
        sessionStorage.removeItem(TOKEN_KEY);
        location.reload();
      },
    });
  }

  return { token, auth, newKey, send, problemText, message, allPages, signInForm, signOutButton };
})();
