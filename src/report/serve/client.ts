// The live page's only script, inline and allowed by its hash in the Content-Security-Policy (no other script
// can run: no inline handler, no injected <script>, no eval). It keeps the page current from the server's
// event stream and counts "updated N s ago". Without it the page is complete and reloads itself.
// It only ever inserts HTML the server rendered and escaped (the same renderer as the static page), and it
// asks nothing of any origin but its own (connect-src 'self').
import { createHash } from 'node:crypto';

export const CLIENT_JS =
  `(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-events");
  var conn = document.getElementById("conn");
  var offset = 0;
  // the units in the page's language, as the server wrote them (data-units="s|min|h")
  var units = (body.getAttribute("data-units") || "s|min|h").split("|");
  function fmt(s) {
    if (s < 120) return s + " " + units[0];
    var m = Math.floor(s / 60);
    if (m < 120) return m + " " + units[1];
    return Math.floor(m / 60) + " " + units[2] + " " + (m % 60) + " " + units[1];
  }
  function ages(root) {
    var now = Date.now() + offset;
    var els = (root || document).querySelectorAll("[data-ago]");
    for (var i = 0; i < els.length; i++) {
      var t = Number(els[i].getAttribute("data-ago"));
      if (isFinite(t)) els[i].textContent = fmt(Math.max(0, Math.round((now - t) / 1000)));
    }
  }
  function say(text, kind) {
    if (!conn) return;
    conn.textContent = text;
    conn.className = "conn " + kind;
    conn.hidden = text === "";
  }
  // Replaces only the parts that changed (each part of the page has an id), so an update does not redraw
  // what the reader is looking at.
  function patch(id, html) {
    var el = document.getElementById(id);
    if (!el || typeof html !== "string") return;
    var t = document.createElement("template");
    t.innerHTML = html;
    ages(t.content); // counted as on the page, so only real changes differ
    var next = t.content.children;
    var cur = el.children;
    var same = next.length === cur.length;
    for (var i = 0; same && i < next.length; i++) if (!next[i].id || next[i].id !== cur[i].id) same = false;
    if (!same) {
      el.replaceChildren(t.content);
      return;
    }
    for (var j = next.length - 1; j >= 0; j--) if (next[j].outerHTML !== cur[j].outerHTML) el.replaceChild(next[j], ` +
  `cur[j]);
  }
  // While the reader selects text on the page (to copy a command), updates wait.
  var pending = null;
  function selecting() {
    var s = window.getSelection ? window.getSelection() : null;
    return !!s && !s.isCollapsed && document.body.contains(s.anchorNode);
  }
  function apply(d) {
    if (typeof d.now === "number") offset = d.now - Date.now();
    patch("status", d.status);
    patch("main", d.main);
    if (typeof d.title === "string") document.title = d.title;
    body.setAttribute("data-updates", String(Number(body.getAttribute("data-updates") || "0") + 1));
    ages();
  }
  document.addEventListener("selectionchange", function () {
    if (pending && !selecting()) {
      var d = pending;
      pending = null;
      apply(d);
    }
  });
  if (!url || typeof EventSource === "undefined") return;
  var es = new EventSource(url);
  es.addEventListener("state", function (e) {
    var d;
    try { d = JSON.parse(e.data); } catch (err) { return; }
    say("", "ok");
    if (selecting()) pending = d;
    else apply(d);
  });
  es.onerror = function () {
    if (es.readyState === 2) say("Live updates stopped: the server refused the stream (too many open pages, or it ` +
  `restarted with another token). Reload the page to try again.", "fail");
    else say("Live updates interrupted: the server does not answer; trying again.", "warn");
  };
  setInterval(function () { ages(); }, 1000);
  ages();
})();`;

export const CLIENT_JS_HASH = `sha256-${createHash('sha256').update(CLIENT_JS, 'utf8').digest('base64')}`;

export function cspHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
