// The attach web page: the pane list with live state badges, and a terminal (@xterm/xterm,
// served from the installed package) mirroring one pane, read-only until the viewer turns
// writing on. Plain HTML and a small script; no build step, no CDN.

const STYLE = `
  :root { color-scheme: dark; --bg: #111417; --panel: #181c20; --text: #d8dee4; --muted: #7d8590; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text); display: flex; height: 100vh; }
  aside { width: 300px; background: var(--panel); overflow-y: auto; border-right: 1px solid #2a2f35; }
  aside h1 { font-size: 15px; margin: 12px; }
  #server { margin: 0 12px 8px; color: var(--muted); font-size: 12px; }
  ul { list-style: none; margin: 0; padding: 0; }
  li { padding: 8px 12px; cursor: pointer; border-top: 1px solid #23282d; }
  li:hover, li.selected { background: #222830; }
  .target { font-family: ui-monospace, monospace; }
  .meta { color: var(--muted); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; margin-left: 6px; background: #30363d; }
  .badge.stuck { background: #b62324; color: white; }
  .badge.monitoring { background: #1f6feb; color: white; }
  .badge.registered { background: #30363d; }
  .badge.ended { background: #484f58; }
  main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
  header { padding: 8px 12px; display: flex; gap: 12px; align-items: center; border-bottom: 1px solid #2a2f35; }
  #title { font-family: ui-monospace, monospace; }
  #state { color: var(--muted); font-size: 12px; }
  #terminal { flex: 1; padding: 6px; overflow: auto; }
  label[hidden] { display: none; }
`;

export function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>corral attach</title>
<link rel="stylesheet" href="/assets/xterm.css">
<style>${STYLE}</style>
</head>
<body>
<aside>
  <h1>corral panes</h1>
  <div id="server"></div>
  <ul id="panes"></ul>
</aside>
<main>
  <header>
    <span id="title">pick a pane</span>
    <span id="state" data-state="idle">not attached</span>
    <label id="write-label" hidden><input type="checkbox" id="write"> write to the pane</label>
  </header>
  <div id="terminal"></div>
</main>
<script src="/assets/xterm.js"></script>
<script src="/assets/attach-page.js"></script>
</body>
</html>
`;
}

export function unauthorizedHtml(hint: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>corral: token needed</title></head>
<body style="font: 15px system-ui, sans-serif; margin: 40px">
<h1>corral needs its token</h1>
<p>${hint.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c)}</p>
</body></html>
`;
}

/** The page's own script (served as /assets/attach-page.js). */
export const PAGE_SCRIPT = `// corral attach page: pane list from /api/panes/events, one pane mirrored over /attach/N.
(function () {
  'use strict';
  var list = document.getElementById('panes');
  var serverLine = document.getElementById('server');
  var title = document.getElementById('title');
  var stateLine = document.getElementById('state');
  var writeLabel = document.getElementById('write-label');
  var writeBox = document.getElementById('write');
  var term = new Terminal({ scrollback: 5000, fontSize: 13, fontFamily: 'ui-monospace, monospace' });
  term.open(document.getElementById('terminal'));
  // The terminal can be smaller than its box: a click anywhere in the box focuses it.
  document.getElementById('terminal').addEventListener('click', function () { term.focus(); });

  var panes = [];
  var writeAllowed = false;
  var current = null; // { id, ws, offset, fence, writing, ended }

  function setState(state, text) {
    stateLine.dataset.state = state;
    stateLine.textContent = text;
  }

  function render() {
    list.textContent = '';
    panes.forEach(function (p) {
      var li = document.createElement('li');
      li.dataset.pane = p.id;
      if (current && current.id === p.id) li.className = 'selected';
      var head = document.createElement('div');
      var target = document.createElement('span');
      target.className = 'target';
      target.textContent = p.id + ' ' + p.target;
      var badge = document.createElement('span');
      badge.className = 'badge ' + p.state;
      badge.dataset.state = p.state;
      badge.textContent = p.state === 'stuck' ? 'STUCK' + (p.reason ? ' (' + p.reason + ')' : '') : p.state;
      head.appendChild(target);
      head.appendChild(badge);
      var meta = document.createElement('div');
      meta.className = 'meta';
      meta.textContent = (p.label ? p.label + ' | ' : '') + p.command + (p.title ? ' | ' + p.title : '');
      li.appendChild(head);
      li.appendChild(meta);
      li.addEventListener('click', function () { attach(p.id, false); });
      list.appendChild(li);
    });
  }

  var events = new EventSource('/api/panes/events');
  events.onmessage = function (e) {
    var data = JSON.parse(e.data);
    panes = data.panes;
    writeAllowed = data.write;
    writeLabel.hidden = !writeAllowed;
    serverLine.textContent = 'tmux ' + data.server + ' (' + data.status + ')';
    render();
  };

  function send(message) {
    if (current && current.ws.readyState === WebSocket.OPEN) current.ws.send(JSON.stringify(message));
  }

  term.onData(function (data) {
    // Read-only views never send keystrokes (and the server would refuse them anyway).
    if (current && current.writing) send({ type: 'input', data: data });
  });

  function attach(id, writing, resume) {
    if (current) { current.closing = true; current.ws.close(1000); }
    var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var url = proto + '//' + location.host + '/attach/' + id.replace('%', '') + (writing ? '?write=1' : '');
    var conn = { id: id, ws: new WebSocket(url), offset: resume ? resume.offset : null, fence: -1, writing: writing, closing: false };
    current = conn;
    writeBox.checked = writing;
    title.textContent = id;
    setState('connecting', 'connecting...');
    render();
    conn.ws.onopen = function () {
      conn.ws.send(JSON.stringify(conn.offset === null ? { type: 'subscribe' } : { type: 'subscribe', from_offset: conn.offset }));
    };
    conn.ws.onmessage = function (e) {
      var m = JSON.parse(e.data);
      if (m.type === 'hello') {
        term.resize(Math.max(2, m.pane.cols), Math.max(2, m.pane.rows));
        title.textContent = m.pane.id + ' ' + m.pane.session + ':' + m.pane.window + '.' + m.pane.index + ' ' + m.pane.command;
      } else if (m.type === 'replay') {
        if (m.replay_mode === 'recovery') term.reset();
        m.chunks.forEach(function (c) { term.write(c); });
        conn.fence = m.snapshot_offset;
        conn.offset = m.snapshot_offset;
        setState(conn.writing ? 'live-write' : 'live', conn.writing ? 'live, writing' : 'live, read-only');
      } else if (m.type === 'output') {
        if (m.offset <= conn.fence) return;
        term.write(m.data);
        conn.offset = m.offset;
      } else if (m.type === 'status') {
        conn.ended = true;
        setState('ended', 'pane ' + m.status + (m.exit_code !== undefined ? ' (exit ' + m.exit_code + ')' : ''));
      } else if (m.type === 'error') {
        setState(stateLine.dataset.state, stateLine.textContent + ' | ' + m.message);
      }
    };
    conn.ws.onclose = function (e) {
      if (conn !== current || conn.closing || conn.ended) return;
      if (e.code === 4000 || e.code === 4404) { setState('ended', 'pane is gone'); return; }
      setState('reconnecting', 'disconnected (' + e.code + '), reconnecting...');
      // Resume where we stopped: the server sends exactly the missed bytes, or a repaint.
      setTimeout(function () { if (conn === current) attach(id, conn.writing, { offset: conn.offset }); }, 1000);
    };
  }

  writeBox.addEventListener('change', function () {
    if (current) attach(current.id, writeBox.checked && writeAllowed, { offset: current.offset });
    term.focus();
  });
})();
`;
