// The attach web page: a triage surface for a phone or a desktop. Panes come in the dashboard's
// order with the engine's state words and live quiet timers; a stuck pane is a card with its
// prompt's last lines, quick-answer buttons (only the answers its prompt takes) and a reply box;
// any pane opens in a terminal view (xterm.js from the installed package, loaded on demand).
// Plain HTML, CSS and one script; no build step, no CDN, no inline script.

/** A tiny corral: three fence posts and two rails. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#161b22"/><g fill="#f0883e"><rect x="6" y="8" width="3" height="17" rx="1"/><rect x="14.5" y="8" width="3" height="17" rx="1"/><rect x="23" y="8" width="3" height="17" rx="1"/><rect x="5" y="12" width="22" height="2.5" rx="1"/><rect x="5" y="19" width="22" height="2.5" rx="1"/></g></svg>`;

export const PAGE_STYLE = `
:root { color-scheme: dark; --bg: #0f1216; --panel: #171b21; --panel-2: #1d232b; --line: #2a313a;
  --text: #e1e6ec; --muted: #8d96a0; --stuck: #f85149; --accent: #f0883e; --ok: #3fb950; --blue: #388bfd; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; background: var(--bg); color: var(--text); }
body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; min-height: 100vh; }
body.viewing { overflow: hidden; }
button, input { font: inherit; color: inherit; }
button { min-height: 44px; min-width: 44px; padding: 0 12px; border-radius: 10px; border: 1px solid var(--line);
  background: var(--panel-2); cursor: pointer; touch-action: manipulation; }
button:hover { border-color: #3d4651; }
button:focus-visible, input:focus-visible { outline: 2px solid var(--blue); outline-offset: 1px; }
button:disabled { opacity: 0.5; cursor: default; }
header#top { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px;
  padding: 10px 14px; background: var(--bg); border-bottom: 1px solid var(--line); }
header#top h1 { margin: 0; font-size: 17px; display: flex; align-items: center; gap: 8px; }
header#top h1 img { width: 22px; height: 22px; }
#summary { color: var(--muted); font-size: 13px; }
#summary b { color: var(--stuck); }
#link-state { margin-left: auto; font-size: 12px; color: var(--muted); }
#sign-out { min-height: 36px; font-size: 13px; }
#link-state[data-state="live"]::before { content: "\\25CF "; color: var(--ok); }
#notice { margin: 10px 14px; padding: 10px 12px; border-radius: 10px; background: #2d2210; border: 1px solid #6b4a1a; }
main { display: block; padding: 10px; max-width: 1400px; margin: 0 auto; }
#list { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
#empty { color: var(--muted); padding: 20px 6px; }
.pane { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 12px; min-width: 0; }
.pane[data-status="stuck"] { border-color: #7d2a26; box-shadow: inset 4px 0 0 var(--stuck); }
.pane-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; min-width: 0; }
.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #30363d; white-space: nowrap; }
.badge[data-status="stuck"] { background: var(--stuck); color: #fff; }
.badge[data-status="snoozed"] { background: #3d2f12; color: #e3b341; }
.badge[data-status="active"] { background: #12361d; color: #56d364; }
.offline { opacity: 0.5; }
.target { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; }
.quiet { margin-left: auto; font-variant-numeric: tabular-nums; color: var(--muted); font-size: 13px; white-space: nowrap; }
.pane-name { color: var(--muted); font-size: 13px; margin-top: 4px; overflow-wrap: anywhere; }
.reason { margin: 6px 0 0; font-size: 13px; color: #ffa198; }
.prompt { margin: 8px 0 0; padding: 8px 10px; background: #0b0e12; border: 1px solid var(--line); border-radius: 8px;
  font: 12.5px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 20em; overflow-y: auto; }
.last-line { margin: 6px 0 0; font: 12.5px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted);
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 2.7em; overflow: hidden; }
.answers { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.answers button { min-width: 56px; min-height: 48px; font-weight: 700; font-size: 17px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  background: #1f2a38; border-color: #2f4a6b; }
.answers button:hover { background: #24344a; }
.reply { display: flex; gap: 8px; margin-top: 10px; min-width: 0; }
.reply input { flex: 1; min-width: 0; min-height: 44px; padding: 0 12px; border-radius: 10px; border: 1px solid var(--line); background: #0b0e12; }
.tools { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.tools .signal { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; padding: 0 8px; color: #ffa198; }
@media (max-width: 420px) { .pane { padding: 10px; } .tools { gap: 6px; } main { padding: 8px; } }
.result { margin: 8px 0 0; font-size: 13px; color: var(--muted); min-height: 0; }
.result:empty { display: none; }
.result[data-tone="error"] { color: var(--stuck); }
.result[data-tone="ok"] { color: var(--ok); }
.readonly-note { color: var(--muted); font-size: 13px; margin: 8px 0 0; }
#viewer { position: fixed; inset: 0; z-index: 10; background: var(--bg); display: flex; flex-direction: column; min-width: 0; }
.viewer-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; padding: 8px 10px; border-bottom: 1px solid var(--line); }
#viewer-title { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; min-width: 0; }
#viewer-state { color: var(--muted); font-size: 12px; }
#type-label { display: flex; align-items: center; gap: 6px; min-height: 44px; margin-left: auto; }
#type-label input { width: 22px; height: 22px; }
#terminal { flex: 1; min-height: 0; overflow: hidden; padding: 6px; }
#confirm { position: fixed; inset: 0; z-index: 20; display: flex; align-items: center; justify-content: center; background: rgba(0, 0, 0, 0.6); padding: 16px; }
#confirm .box { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 16px; max-width: 420px; width: 100%; }
#confirm .box p { margin: 0 0 14px; }
#confirm .row { display: flex; gap: 10px; justify-content: flex-end; }
#confirm-ok { background: #5a1d1b; border-color: var(--stuck); }
@media (min-width: 960px) {
  main { display: grid; grid-template-columns: minmax(360px, 520px) minmax(0, 1fr); gap: 14px; align-items: start; }
  #viewer { position: sticky; top: 62px; height: calc(100vh - 74px); border: 1px solid var(--line); border-radius: 14px; z-index: 1; }
  body.viewing { overflow: auto; }
}
`;

export function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="dark">
<title>corral</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/attach-page.css">
</head>
<body>
<header id="top">
  <h1><img src="/favicon.svg" alt="">corral</h1>
  <span id="summary"></span>
  <span id="link-state" data-state="connecting">connecting…</span>
  <button id="sign-out" type="button" hidden>Sign out</button>
</header>
<p id="notice" hidden></p>
<main>
  <section id="list" aria-label="panes"><p id="empty">Waiting for the pane list…</p></section>
  <section id="viewer" hidden aria-label="terminal">
    <div class="viewer-bar">
      <button id="viewer-close" type="button" aria-label="close the terminal">Close</button>
      <span id="viewer-title"></span>
      <span id="viewer-state" data-state="idle"></span>
      <label id="type-label" hidden><input type="checkbox" id="type-toggle"> type into the pane</label>
    </div>
    <div id="terminal"></div>
  </section>
</main>
<div id="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-text" hidden>
  <div class="box">
    <p id="confirm-text"></p>
    <div class="row"><button id="confirm-cancel" type="button">Cancel</button><button id="confirm-ok" type="button">Send</button></div>
  </div>
</div>
<script src="/assets/attach-page.js"></script>
</body>
</html>
`;
}

/** The page's script (served as /assets/attach-page.js). */
export const PAGE_SCRIPT = String.raw`// corral triage page: the pane list from /api/panes/events, answers and replies by POST, one
// pane mirrored over /attach/N on demand. The session lives in this origin's localStorage and
// goes out as a header (API) or a WebSocket subprotocol; corral sets no cookie.
(function () {
  'use strict';

  // --- the session ------------------------------------------------------------------------------

  var SESSION_KEY = 'corral.session';
  // A login code (or anything else) in the address goes at once, before any request: it must not
  // stay in the address bar, the history, or a Referer.
  var startParams = new URLSearchParams(location.search);
  var loginCode = startParams.get('code');
  if (location.search !== '' || location.hash !== '') history.replaceState(null, '', location.pathname);

  function storedSession() {
    try {
      var value = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
      return value && typeof value.credential === 'string' ? value : null;
    } catch (e) {
      return null;
    }
  }
  var session = storedSession();
  function authHeaders(extra) {
    var headers = extra || {};
    if (session) headers.authorization = 'Bearer ' + session.credential;
    return headers;
  }
  /** fetch() with the session; a 401 means the session ended: the page signs out. */
  function api(path, options) {
    var opts = options || {};
    opts.headers = authHeaders(opts.headers);
    opts.cache = 'no-store';
    return fetch(path, opts).then(function (res) {
      if (res.status === 401) signedOut('This browser is signed out of corral (the session ended or was revoked).');
      return res;
    });
  }

  var $ = function (id) { return document.getElementById(id); };
  var listBox = $('list');
  var emptyLine = $('empty');
  var summary = $('summary');
  var linkState = $('link-state');
  var notice = $('notice');
  var CONFIRM_KEYS = ['C-c', 'C-d', 'C-z'];

  // --- time -------------------------------------------------------------------------------------

  /** The engine's compact durations: 8s, 1m05s, 2h03m, 3d04h. */
  function formatDuration(ms) {
    var total = Math.max(0, Math.floor(ms / 1000));
    if (total < 60) return total + 's';
    var minutes = Math.floor(total / 60);
    if (minutes < 60) return minutes + 'm' + pad2(total % 60) + 's';
    var hours = Math.floor(minutes / 60);
    if (hours < 24) return hours + 'h' + pad2(minutes % 60) + 'm';
    return Math.floor(hours / 24) + 'd' + pad2(hours % 24) + 'h';
  }
  function pad2(n) { return n < 10 ? '0' + n : String(n); }
  window.corralPage = { formatDuration: formatDuration };

  // --- the list ---------------------------------------------------------------------------------

  var state = {
    list: null,
    receivedAt: 0,
    order: [],
    stuckKey: null,
    lastTouch: -1e9,
    cards: new Map(),
    resortTimer: null,
  };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function paneNumber(id) { return id.replace('%', ''); }

  // A pane on another host is named with its host: "work:1.0 on build-box".
  function where(pane) { return pane.host && pane.host !== 'local' ? pane.target + ' on ' + pane.host : pane.target; }

  function setNotice(text) {
    notice.hidden = !text;
    notice.textContent = text || '';
  }

  function touched() { state.lastTouch = performance.now(); }
  document.addEventListener('pointerdown', touched, true);
  document.addEventListener('keydown', touched, true);

  function typingInList() {
    var active = document.activeElement;
    return !!(active && active.tagName === 'INPUT' && listBox.contains(active) && active.value !== '');
  }

  /**
   * Like the dashboard, cards keep their places while you use them: the list is re-sorted when the
   * set of stuck panes changes (but not within 1.5 s of a touch), or after 4 s without one, and
   * never while you type a reply.
   */
  function chooseOrder(panes) {
    var ids = panes.map(function (p) { return p.id; });
    var stuckKey = panes.filter(function (p) { return p.status === 'stuck'; }).map(function (p) { return p.id; }).sort().join(' ');
    var idle = performance.now() - state.lastTouch;
    var resort = state.stuckKey === null || (!typingInList() && ((stuckKey !== state.stuckKey && idle > 1500) || idle > 4000));
    if (resort) {
      state.order = ids;
      state.stuckKey = stuckKey;
    } else {
      var present = new Set(ids);
      var kept = state.order.filter(function (id) { return present.has(id); });
      var known = new Set(kept);
      state.order = kept.concat(ids.filter(function (id) { return !known.has(id); }));
      clearTimeout(state.resortTimer);
      state.resortTimer = setTimeout(render, 1600);
    }
  }

  function render() {
    var list = state.list;
    if (!list) return;
    var counts = list.counts;
    summary.textContent = '';
    if (counts.stuck > 0) {
      var b = el('b', '', counts.stuck + ' stuck');
      summary.appendChild(b);
      summary.appendChild(document.createTextNode(' · '));
    }
    summary.appendChild(document.createTextNode(counts.total + (counts.total === 1 ? ' pane' : ' panes') + ' · tmux ' + list.server));
    if (list.status !== 'ok' && list.status_message) setNotice(list.status_message);
    else if (notice.dataset.kind !== 'session') setNotice('');
    emptyLine.hidden = list.panes.length > 0;
    if (list.panes.length === 0) emptyLine.textContent = list.status === 'ok' ? 'No panes are watched.' : 'No pane list yet.';

    var byId = new Map(list.panes.map(function (p) { return [p.id, p]; }));
    chooseOrder(list.panes);
    state.cards.forEach(function (card, id) {
      if (!byId.has(id)) { card.node.remove(); state.cards.delete(id); }
    });
    var previous = emptyLine;
    state.order.forEach(function (id) {
      var pane = byId.get(id);
      var card = state.cards.get(id) || makeCard(id);
      updateCard(card, pane, list.write);
      if (previous.nextSibling !== card.node) previous.after(card.node);
      previous = card.node;
    });
    tick();
  }

  function tick() {
    if (!state.list) return;
    var elapsed = performance.now() - state.receivedAt;
    state.list.panes.forEach(function (p) {
      var card = state.cards.get(p.id);
      if (card) card.quiet.textContent = formatDuration(p.quiet_ms + elapsed);
    });
  }
  setInterval(tick, 1000);

  function makeCard(id) {
    var node = el('article', 'pane');
    node.dataset.pane = id;
    var head = el('div', 'pane-head');
    var badge = el('span', 'badge');
    var target = el('span', 'target');
    var quiet = el('span', 'quiet');
    quiet.title = 'quiet for';
    head.append(badge, target, quiet);
    var name = el('div', 'pane-name');
    var reason = el('p', 'reason');
    var prompt = el('pre', 'prompt');
    var lastLine = el('p', 'last-line');
    var answers = el('div', 'answers');
    answers.setAttribute('role', 'group');
    answers.setAttribute('aria-label', 'quick answers');
    var reply = el('form', 'reply');
    reply.hidden = true;
    var input = el('input');
    input.name = 'reply';
    input.autocomplete = 'off';
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('autocorrect', 'off');
    input.spellcheck = false;
    input.enterKeyHint = 'send';
    var send = el('button', '', 'Send');
    send.type = 'submit';
    reply.append(input, send);
    var tools = el('div', 'tools');
    var replyToggle = el('button', 'reply-toggle', 'Reply');
    replyToggle.type = 'button';
    var terminalButton = el('button', 'open-terminal', 'Terminal');
    terminalButton.type = 'button';
    tools.append(replyToggle, terminalButton);
    var signals = CONFIRM_KEYS.map(function (key) {
      var button = el('button', 'signal', key);
      button.type = 'button';
      button.dataset.key = key;
      button.setAttribute('aria-label', 'send ' + key + ' (asks first)');
      tools.appendChild(button);
      return button;
    });
    var readonlyNote = el('p', 'readonly-note', 'This browser may only look: open a writing link to answer.');
    var result = el('p', 'result');
    result.setAttribute('role', 'status');
    node.append(head, name, reason, prompt, lastLine, answers, reply, tools, readonlyNote, result);

    var card = {
      id: id, node: node, badge: badge, target: target, quiet: quiet, name: name, reason: reason, prompt: prompt,
      lastLine: lastLine, answers: answers, answersKey: null, reply: reply, input: input, replyToggle: replyToggle,
      signals: signals, tools: tools, readonlyNote: readonlyNote, result: result, pane: null,
    };
    replyToggle.addEventListener('click', function () {
      reply.hidden = !reply.hidden;
      if (!reply.hidden) input.focus();
    });
    terminalButton.addEventListener('click', function () { openTerminal(card.pane); });
    reply.addEventListener('submit', function (event) {
      event.preventDefault();
      var body = { text: input.value };
      if (card.pane.status === 'stuck') body.screen = card.pane.screen;
      act(card, 'reply', body, input.value === '' ? 'Enter' : 'your reply').then(function (ok) { if (ok) input.value = ''; });
    });
    signals.forEach(function (button) {
      button.addEventListener('click', function () {
        var key = button.dataset.key;
        ask('Send ' + key + ' to ' + card.pane.target + '? It can stop or end the program in that pane.', 'Send ' + key, function () {
          act(card, 'keys', { keys: [key], confirmed: true }, key);
        });
      });
    });
    state.cards.set(id, card);
    return card;
  }

  function updateCard(card, pane, write) {
    card.pane = pane;
    var node = card.node;
    node.dataset.status = pane.status;
    card.badge.dataset.status = pane.status;
    card.badge.textContent = pane.badge;
    card.target.textContent = where(pane);
    node.classList.toggle('offline', pane.online === false);
    if (pane.online === false) card.badge.textContent = 'offline';
    var title = pane.title && pane.title !== pane.command ? pane.title : '';
    card.name.textContent = [pane.label, pane.command, title, pane.cwd].filter(Boolean).join(' · ');
    var stuck = pane.status === 'stuck';
    card.reason.hidden = !stuck || !pane.reason_text;
    card.reason.textContent = pane.reason_text || '';
    var prompt = pane.prompt;
    card.prompt.hidden = !(stuck && prompt);
    card.prompt.textContent = prompt ? prompt.lines.join('\n') : '';
    card.lastLine.hidden = stuck && !!prompt;
    card.lastLine.textContent = pane.last_line || '';
    // A pane whose host is down keeps its card, greyed, with nothing to press: it could not be sent.
    var canAct = write && pane.online !== false;
    var options = stuck && prompt && canAct ? prompt.options : [];
    var key = options.join(' ') + '|' + pane.screen;
    if (key !== card.answersKey) {
      card.answersKey = key;
      card.answers.textContent = '';
      options.forEach(function (option) {
        var button = el('button', 'answer', option);
        button.type = 'button';
        button.dataset.answer = option;
        button.addEventListener('click', function () {
          act(card, 'answer', { answer: option, screen: pane.screen }, option);
        });
        card.answers.appendChild(button);
      });
    }
    card.answers.hidden = options.length === 0;
    // A stuck pane has its reply box open; other panes open it with Reply.
    if (stuck && card.reply.dataset.stuck !== '1') card.reply.hidden = false;
    card.reply.dataset.stuck = stuck ? '1' : '';
    var secret = !!(prompt && prompt.kind === 'secret' && stuck);
    card.input.type = secret ? 'password' : 'text';
    card.input.placeholder = secret ? 'secret for ' + pane.target + ' (typed, never shown)' : 'reply to ' + pane.target + ', then Enter';
    card.input.setAttribute('aria-label', card.input.placeholder);
    card.reply.style.display = canAct ? '' : 'none';
    card.replyToggle.hidden = !canAct || stuck;
    card.signals.forEach(function (button) { button.hidden = !canAct; });
    card.readonlyNote.hidden = write || !stuck;
  }

  function act(card, action, body, label) {
    var buttons = card.node.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    card.result.dataset.tone = '';
    card.result.textContent = 'sending ' + label + '…';
    return api('/api/panes/' + paneNumber(card.id) + '/' + action, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
      .then(function (res) {
        return res.json().then(function (data) { return { ok: res.ok, status: res.status, data: data }; }, function () {
          return { ok: res.ok, status: res.status, data: {} };
        });
      })
      .then(function (r) {
        card.result.dataset.tone = r.ok ? 'ok' : 'error';
        card.result.textContent = r.ok ? 'sent ' + label + ' to ' + card.pane.target
          : (r.data && r.data.error && r.data.error.message) || 'not sent (HTTP ' + r.status + ')';
        return r.ok;
      }, function () {
        card.result.dataset.tone = 'error';
        card.result.textContent = 'not sent: corral is not reachable';
        return false;
      })
      .then(function (ok) {
        buttons.forEach(function (b) { b.disabled = false; });
        return ok;
      });
  }

  // --- asking first -----------------------------------------------------------------------------

  var confirmBox = $('confirm');
  var confirmAction = null;
  function ask(text, okLabel, action) {
    $('confirm-text').textContent = text;
    $('confirm-ok').textContent = okLabel;
    confirmAction = action;
    confirmBox.hidden = false;
    $('confirm-cancel').focus();
  }
  function closeAsk() { confirmBox.hidden = true; confirmAction = null; }
  $('confirm-cancel').addEventListener('click', closeAsk);
  $('confirm-ok').addEventListener('click', function () {
    var action = confirmAction;
    closeAsk();
    if (action) action();
  });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !confirmBox.hidden) closeAsk(); });

  // --- the live list ----------------------------------------------------------------------------

  var signOutButton = $('sign-out');
  var stream = null; // { controller, attempt }

  function signedOut(why) {
    var was = session;
    session = null;
    if (was) try { localStorage.removeItem(SESSION_KEY); } catch (e) {}
    if (stream) { stream.controller.abort(); stream = null; }
    closeTerminal();
    // Nothing of the panes stays on a signed-out page.
    state.list = null;
    state.cards.forEach(function (card) { card.node.remove(); });
    state.cards.clear();
    summary.textContent = '';
    emptyLine.hidden = true;
    notice.dataset.kind = 'session';
    setNotice(why + ' To sign in, open a new link: corral link prints one where corral runs.');
    linkState.dataset.state = 'signed-out';
    linkState.textContent = 'signed out';
    signOutButton.hidden = true;
  }

  signOutButton.addEventListener('click', function () {
    var ending = session;
    signOutButton.disabled = true;
    var done = function () { signOutButton.disabled = false; signedOut('Signed out.'); };
    if (!ending) return done();
    fetch('/api/session', { method: 'DELETE', headers: { authorization: 'Bearer ' + ending.credential }, cache: 'no-store' }).then(done, done);
  });

  // Another tab signed in or out: follow it.
  window.addEventListener('storage', function (e) {
    if (e.key !== SESSION_KEY && e.key !== null) return;
    var next = storedSession();
    if (!next && session) signedOut('This browser was signed out in another tab.');
    else if (next && (!session || next.credential !== session.credential)) location.reload();
  });

  /** One server-sent event block: its data lines are one pane list. */
  function onEventBlock(block) {
    var data = block.split('\n').filter(function (line) { return line.indexOf('data: ') === 0; })
      .map(function (line) { return line.slice(6); }).join('\n');
    if (data === '') return;
    state.list = JSON.parse(data);
    state.receivedAt = performance.now();
    linkState.dataset.state = 'live';
    linkState.textContent = 'live';
    render();
  }

  // The live list is an event stream read with fetch, so that it can carry the session header.
  function streamPanes(attempt) {
    if (!session) return;
    var mine = { controller: new AbortController(), attempt: attempt || 0 };
    stream = mine;
    api('/api/panes/events', { signal: mine.controller.signal }).then(function (res) {
      if (res.status === 401) return;
      if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      mine.attempt = 0;
      var pump = function () {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('the stream ended');
          buffer += decoder.decode(chunk.value, { stream: true });
          var blocks = buffer.split('\n\n');
          buffer = blocks.pop();
          blocks.forEach(onEventBlock);
          return pump();
        });
      };
      return pump();
    }).catch(function () {
      if (stream !== mine || !session) return;
      linkState.dataset.state = 'reconnecting';
      linkState.textContent = 'reconnecting…';
      setTimeout(function () { if (stream === mine) streamPanes(mine.attempt + 1); }, Math.min(10000, 500 * Math.pow(2, mine.attempt)));
    });
  }

  var signInProblem = null;

  function start() {
    if (!session) {
      signedOut(signInProblem || 'This browser is not signed in to corral.');
      return;
    }
    signOutButton.hidden = false;
    signOutButton.title = session.write ? 'signed in: may answer' : 'signed in: read-only';
    streamPanes(0);
  }

  /** Trades the link's code for a session kept in this origin's storage. */
  function signIn(code) {
    return fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      cache: 'no-store',
      body: JSON.stringify({ code: code }),
    }).then(function (res) {
      return res.json().then(function (body) {
        // A used link in a browser that is already signed in just opens the page.
        if (!res.ok || typeof body.session !== 'string') {
          var message = body && body.error && body.error.message;
          signInProblem = message ? message.charAt(0).toUpperCase() + message.slice(1) + '.' : 'The link was refused (HTTP ' + res.status + ').';
          return;
        }
        session = { credential: body.session, id: body.id, write: body.write };
        try { localStorage.setItem(SESSION_KEY, JSON.stringify(session)); } catch (e) {}
      });
    }).catch(function () { signInProblem = 'corral is not reachable: is it still running?'; });
  }

  // --- the terminal view ------------------------------------------------------------------------

  var viewer = $('viewer');
  var viewerTitle = $('viewer-title');
  var viewerState = $('viewer-state');
  var typeLabel = $('type-label');
  var typeToggle = $('type-toggle');
  var termBox = $('terminal');
  var term = null;
  var xtermLoading = null;
  var current = null; // { pane, ws, offset, fence, writing, closing, ended, cols }

  function loadXterm() {
    if (xtermLoading) return xtermLoading;
    xtermLoading = new Promise(function (resolve, reject) {
      var css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/assets/xterm.css';
      document.head.appendChild(css);
      var script = document.createElement('script');
      script.src = '/assets/xterm.js';
      script.onload = function () { resolve(); };
      script.onerror = function () { reject(new Error('could not load the terminal')); };
      document.head.appendChild(script);
    }).then(function () {
      term = new window.Terminal({ scrollback: 5000, fontSize: 13, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', convertEol: false });
      term.open(termBox);
      term.onData(function (data) {
        // Read-only views never send keystrokes (and the server would refuse them anyway).
        if (current && current.writing) send({ type: 'input', data: data });
      });
      termBox.addEventListener('click', function () { if (current && current.writing) term.focus(); });
    });
    return xtermLoading;
  }

  /** The terminal keeps the pane's size; its font shrinks until every column fits the box. */
  function fitFont() {
    if (!term || !current) return;
    var width = termBox.clientWidth - 12;
    var size = Math.max(5, Math.min(14, Math.floor(width / (current.cols * 0.62))));
    term.options.fontSize = size;
    var screen = termBox.querySelector('.xterm-screen');
    var guard = 0;
    while (screen && screen.getBoundingClientRect().width > width && size > 5 && guard++ < 10) {
      size -= 1;
      term.options.fontSize = size;
    }
  }
  window.addEventListener('resize', fitFont);

  function setViewerState(name, text) {
    viewerState.dataset.state = name;
    viewerState.textContent = text;
  }

  function send(message) {
    if (current && current.ws.readyState === WebSocket.OPEN) current.ws.send(JSON.stringify(message));
  }

  function openTerminal(pane) {
    viewer.hidden = false;
    document.body.classList.add('viewing');
    viewerTitle.textContent = where(pane);
    setViewerState('connecting', 'connecting…');
    typeLabel.hidden = !(state.list && state.list.write);
    loadXterm().then(function () { attach(pane, false); }, function (error) { setViewerState('error', error.message); });
  }

  function closeTerminal() {
    if (current) { current.closing = true; current.ws.close(1000); current = null; }
    viewer.hidden = true;
    document.body.classList.remove('viewing');
  }
  $('viewer-close').addEventListener('click', closeTerminal);

  function attach(pane, writing, resume, attempt) {
    if (current) { current.closing = true; current.ws.close(1000); }
    var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var url = proto + '//' + location.host + '/attach/' + paneNumber(pane.id) + (writing ? '?write=1' : '');
    // The session travels as a second subprotocol; the server answers with "corral" alone.
    var protocols = session ? ['corral', 'corral-session.' + session.credential] : ['corral'];
    var conn = { pane: pane, ws: new WebSocket(url, protocols), offset: resume ? resume.offset : null, fence: -1, writing: writing, closing: false, ended: false, cols: pane.cols };
    current = conn;
    typeToggle.checked = writing;
    conn.ws.onopen = function () {
      conn.ws.send(JSON.stringify(conn.offset === null ? { type: 'subscribe' } : { type: 'subscribe', from_offset: conn.offset }));
    };
    conn.ws.onmessage = function (e) {
      if (conn !== current) return;
      var m = JSON.parse(e.data);
      if (m.type === 'hello') {
        conn.cols = Math.max(2, m.pane.cols);
        term.resize(conn.cols, Math.max(2, m.pane.rows));
        viewerTitle.textContent = pane.target + ' · ' + m.pane.command;
        fitFont();
      } else if (m.type === 'replay') {
        if (m.replay_mode === 'recovery') term.reset();
        m.chunks.forEach(function (c) { term.write(c); });
        conn.fence = m.snapshot_offset;
        conn.offset = m.snapshot_offset;
        attempt = 0;
        setViewerState(conn.writing ? 'live-write' : 'live', conn.writing ? 'live, typing goes to the pane' : 'live, read-only');
        if (conn.writing) term.focus();
      } else if (m.type === 'output') {
        if (m.offset <= conn.fence) return;
        term.write(m.data);
        conn.offset = m.offset;
      } else if (m.type === 'status') {
        conn.ended = true;
        setViewerState('ended', 'the pane exited' + (m.exit_code !== undefined ? ' (exit ' + m.exit_code + ')' : ''));
      } else if (m.type === 'error') {
        setViewerState(viewerState.dataset.state, viewerState.textContent + ' | ' + m.message);
      }
    };
    conn.ws.onclose = function (e) {
      if (conn !== current || conn.closing || conn.ended) return;
      if (e.code === 4000 || e.code === 4404) { setViewerState('ended', 'the pane is gone'); return; }
      if (e.code === 4401) { signedOut('This browser is signed out of corral (' + (e.reason || 'the session ended') + ').'); return; }
      var wait = Math.min(10000, 1000 * Math.pow(2, attempt || 0));
      setViewerState('reconnecting', 'disconnected (' + e.code + '), reconnecting…');
      // Resume where we stopped: the server sends exactly the missed bytes, or a repaint.
      setTimeout(function () { if (conn === current) attach(pane, conn.writing, { offset: conn.offset }, (attempt || 0) + 1); }, wait);
    };
  }

  typeToggle.addEventListener('change', function () {
    if (current) attach(current.pane, typeToggle.checked && !!(state.list && state.list.write), { offset: current.offset });
  });

  (loginCode !== null ? signIn(loginCode) : Promise.resolve()).then(start);
})();
`;
