// corral triage page: the pane list from /api/panes/events, answers and replies by POST, one
// pane mirrored over /attach/N on demand. The session lives in this origin's localStorage and
// goes out as a header (API) or a WebSocket subprotocol; corral sets no cookie.
// Built into one script (src/server/attach/page-script.generated.ts) by scripts/page-script.mjs.

import type { Terminal } from '@xterm/xterm';
import { formatDuration } from './duration.js';
import type { AttachMessage, AttachRequest, ErrorBody, ListedPane, PaneList, Session } from './wire.js';

// --- the session ------------------------------------------------------------------------------

const SESSION_KEY = 'corral.session';
// A login code (or anything else) in the address goes at once, before any request: it must not
// stay in the address bar, the history, or a Referer.
const startParams = new URLSearchParams(location.search);
const loginCode = startParams.get('code');
if (location.search !== '' || location.hash !== '') history.replaceState(null, '', location.pathname);

function storedSession(): Session | null {
  try {
    const value = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null') as Session | null;
    return value && typeof value.credential === 'string' ? value : null;
  } catch {
    return null;
  }
}
let session = storedSession();
function authHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers = extra || {};
  if (session) headers.authorization = 'Bearer ' + session.credential;
  return headers;
}
type ApiOptions = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };
/** fetch() with the session; a 401 means the session ended: the page signs out. */
function api(path: string, options?: ApiOptions): Promise<Response> {
  const opts = options || {};
  opts.headers = authHeaders(opts.headers);
  opts.cache = 'no-store';
  return fetch(path, opts).then(function (res) {
    if (res.status === 401) signedOut('This browser is signed out of corral (the session ended or was revoked).');
    return res;
  });
}

const $ = function <T extends HTMLElement = HTMLElement>(id: string): T { return document.getElementById(id) as T; };
const listBox = $('list');
const emptyLine = $('empty');
const summary = $('summary');
const linkState = $('link-state');
const notice = $('notice');
const CONFIRM_KEYS = ['C-c', 'C-d', 'C-z'];

// --- time -------------------------------------------------------------------------------------

window.corralPage = { formatDuration: formatDuration };

// --- the list ---------------------------------------------------------------------------------

/** One pane's card (or the answer dock under the terminal view) and the parts of it that change. */
interface Card {
  id: string;
  /** The dock under the terminal: only the quick answers, the reply box (always open) and the result. */
  docked: boolean;
  node: HTMLElement;
  badge: HTMLSpanElement;
  target: HTMLSpanElement;
  quiet: HTMLSpanElement;
  name: HTMLDivElement;
  reason: HTMLParagraphElement;
  prompt: HTMLPreElement;
  lastLine: HTMLParagraphElement;
  answers: HTMLDivElement;
  answersKey: string | null;
  reply: HTMLFormElement;
  input: HTMLInputElement;
  replyToggle: HTMLButtonElement;
  signals: HTMLButtonElement[];
  tools: HTMLDivElement;
  readonlyNote: HTMLParagraphElement;
  result: HTMLParagraphElement;
  /** Set by updateCard right after makeCard, before anything on the card can be pressed. */
  pane: ListedPane | null;
}

const state = {
  list: null as PaneList | null,
  receivedAt: 0,
  order: [] as string[],
  stuckKey: null as string | null,
  lastTouch: -1e9,
  cards: new Map<string, Card>(),
  resortTimer: undefined as number | undefined,
  /** The pane the terminal view shows (the selected pane), and its answer dock. */
  viewed: null as string | null,
  dock: null as Card | null,
  /** The person closed the terminal view: a wide window no longer opens one by itself. */
  viewerClosed: false,
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function paneNumber(id: string): string { return id.replace('%', ''); }

// A pane on another host is named with its host: "work:1.0 on build-box".
function where(pane: ListedPane): string { return pane.host && pane.host !== 'local' ? pane.target + ' on ' + pane.host : pane.target; }

function setNotice(text: string | null): void {
  notice.hidden = !text;
  notice.textContent = text || '';
}

function touched(): void { state.lastTouch = performance.now(); }
document.addEventListener('pointerdown', touched, true);
document.addEventListener('keydown', touched, true);

function typingInList(): boolean {
  const active = document.activeElement;
  return !!(active && active instanceof HTMLInputElement && listBox.contains(active) && active.value !== '');
}

/**
 * Like the dashboard, cards keep their places while you use them: the list is re-sorted when the
 * set of stuck panes changes (but not within 1.5 s of a touch), or after 4 s without one, and
 * never while you type a reply.
 */
function chooseOrder(panes: ListedPane[]): void {
  const ids = panes.map(function (p) { return p.id; });
  const stuckKey = panes.filter(function (p) { return p.status === 'stuck'; }).map(function (p) { return p.id; }).sort().join(' ');
  const idle = performance.now() - state.lastTouch;
  const resort = state.stuckKey === null || (!typingInList() && ((stuckKey !== state.stuckKey && idle > 1500) || idle > 4000));
  if (resort) {
    state.order = ids;
    state.stuckKey = stuckKey;
  } else {
    const present = new Set(ids);
    const kept = state.order.filter(function (id) { return present.has(id); });
    const known = new Set(kept);
    state.order = kept.concat(ids.filter(function (id) { return !known.has(id); }));
    clearTimeout(state.resortTimer);
    state.resortTimer = setTimeout(render, 1600);
  }
}

function render(): void {
  const list = state.list;
  if (!list) return;
  const counts = list.counts;
  summary.textContent = '';
  if (counts.stuck > 0) {
    const b = el('b', '', counts.stuck + ' stuck');
    summary.appendChild(b);
    summary.appendChild(document.createTextNode(' · '));
  }
  summary.appendChild(document.createTextNode(counts.total + (counts.total === 1 ? ' pane' : ' panes') + ' · tmux ' + list.server));
  if (list.status !== 'ok' && list.status_message) setNotice(list.status_message);
  else if (notice.dataset.kind !== 'session') setNotice('');
  emptyLine.hidden = list.panes.length > 0;
  if (list.panes.length === 0) emptyLine.textContent = list.status === 'ok' ? 'No panes are watched.' : 'No pane list yet.';

  const byId = new Map(list.panes.map(function (p) { return [p.id, p]; }));
  chooseOrder(list.panes);
  state.cards.forEach(function (card, id) {
    if (!byId.has(id)) { card.node.remove(); state.cards.delete(id); }
  });
  let previous: HTMLElement = emptyLine;
  state.order.forEach(function (id) {
    // The order holds only the ids of this list (chooseOrder).
    const pane = byId.get(id)!;
    const card = state.cards.get(id) || listCard(id);
    updateCard(card, pane, list.write);
    if (previous.nextSibling !== card.node) previous.after(card.node);
    previous = card.node;
  });
  markSelected();
  const dock = state.dock;
  if (dock) {
    const pane = byId.get(dock.id);
    if (pane) updateCard(dock, pane, list.write);
    else dock.node.hidden = true;
  }
  tick();
  // A wide window has room for the terminal beside the cards: it shows the first pane of the list
  // until the person picks another one or closes it.
  const first = byId.get(state.order[0] || '');
  if (first && wideWindow.matches && state.viewed === null && !state.viewerClosed) openTerminal(first);
}

function tick(): void {
  if (!state.list) return;
  const elapsed = performance.now() - state.receivedAt;
  state.list.panes.forEach(function (p) {
    const card = state.cards.get(p.id);
    if (card) card.quiet.textContent = formatDuration(p.quiet_ms + elapsed);
  });
}
setInterval(tick, 1000);

function listCard(id: string): Card {
  const card = makeCard(id, false);
  state.cards.set(id, card);
  return card;
}

function makeCard(id: string, docked: boolean): Card {
  const node = docked ? el('div', 'dock-card') : el('article', 'pane');
  node.dataset.pane = id;
  const head = el('div', 'pane-head');
  const badge = el('span', 'badge');
  const target = el('span', 'target');
  const quiet = el('span', 'quiet');
  quiet.title = 'quiet for';
  head.append(badge, target, quiet);
  const name = el('div', 'pane-name');
  const reason = el('p', 'reason');
  const prompt = el('pre', 'prompt');
  const lastLine = el('p', 'last-line');
  const answers = el('div', 'answers');
  answers.setAttribute('role', 'group');
  answers.setAttribute('aria-label', 'quick answers');
  const reply = el('form', 'reply');
  reply.hidden = true;
  const input = el('input');
  input.name = 'reply';
  input.autocomplete = 'off';
  input.setAttribute('autocapitalize', 'off');
  input.setAttribute('autocorrect', 'off');
  input.spellcheck = false;
  input.enterKeyHint = 'send';
  const send = el('button', '', 'Send');
  send.type = 'submit';
  reply.append(input, send);
  const tools = el('div', 'tools');
  const replyToggle = el('button', 'reply-toggle', 'Reply');
  replyToggle.type = 'button';
  const terminalButton = el('button', 'open-terminal', 'Terminal');
  terminalButton.type = 'button';
  tools.append(replyToggle, terminalButton);
  const signals = CONFIRM_KEYS.map(function (key) {
    const button = el('button', 'signal', key);
    button.type = 'button';
    button.dataset.key = key;
    button.setAttribute('aria-label', 'send ' + key + ' (asks first)');
    tools.appendChild(button);
    return button;
  });
  const readonlyNote = el('p', 'readonly-note', 'This browser may only look: open a writing link to answer.');
  const result = el('p', 'result');
  result.setAttribute('role', 'status');
  node.append(head, name, reason, prompt, lastLine, answers, reply, tools, readonlyNote, result);

  const card: Card = {
    id: id, docked: docked, node: node, badge: badge, target: target, quiet: quiet, name: name, reason: reason, prompt: prompt,
    lastLine: lastLine, answers: answers, answersKey: null, reply: reply, input: input, replyToggle: replyToggle,
    signals: signals, tools: tools, readonlyNote: readonlyNote, result: result, pane: null,
  };
  replyToggle.addEventListener('click', function () {
    reply.hidden = !reply.hidden;
    if (!reply.hidden) input.focus();
  });
  terminalButton.addEventListener('click', function () { openTerminal(card.pane!); });
  reply.addEventListener('submit', function (event) {
    event.preventDefault();
    const body: { text: string; screen?: string } = { text: input.value };
    if (card.pane!.status === 'stuck') body.screen = card.pane!.screen;
    act(card, 'reply', body, input.value === '' ? 'Enter' : 'your reply').then(function (ok) { if (ok) input.value = ''; });
  });
  signals.forEach(function (button) {
    button.addEventListener('click', function () {
      const key = button.dataset.key!;
      ask('Send ' + key + ' to ' + card.pane!.target + '? It can stop or end the program in that pane.', 'Send ' + key, function () {
        act(card, 'keys', { keys: [key], confirmed: true }, key);
      });
    });
  });
  return card;
}

function updateCard(card: Card, pane: ListedPane, write: boolean): void {
  card.pane = pane;
  const node = card.node;
  node.dataset.status = pane.status;
  card.badge.dataset.status = pane.status;
  card.badge.textContent = pane.badge;
  card.target.textContent = where(pane);
  node.classList.toggle('offline', pane.online === false);
  if (pane.online === false) card.badge.textContent = 'offline';
  card.name.textContent = pane.name || pane.command;
  const stuck = pane.status === 'stuck';
  // What the wait asks (the command, the file, the question) says more than the reason's words.
  const why = pane.ask || pane.reason_text || '';
  card.reason.hidden = !stuck || !why;
  card.reason.textContent = why;
  const prompt = pane.prompt;
  card.prompt.hidden = !(stuck && prompt);
  card.prompt.textContent = prompt ? prompt.lines.join('\n') : '';
  card.lastLine.hidden = stuck && !!prompt;
  card.lastLine.textContent = pane.last_line || '';
  // A pane whose host is down keeps its card, greyed, with nothing to press: it could not be sent.
  const canAct = write && pane.online !== false;
  const options = stuck && prompt && canAct ? prompt.options : [];
  const key = options.join(' ') + '|' + pane.screen;
  if (key !== card.answersKey) {
    card.answersKey = key;
    card.answers.textContent = '';
    options.forEach(function (option) {
      const button = el('button', 'answer', option);
      button.type = 'button';
      button.dataset.answer = option;
      button.addEventListener('click', function () {
        act(card, 'answer', { answer: option, screen: pane.screen }, option);
      });
      card.answers.appendChild(button);
    });
  }
  card.answers.hidden = options.length === 0;
  // A stuck pane has its reply box open; other panes open it with Reply. The dock's is always open.
  if ((stuck && card.reply.dataset.stuck !== '1') || card.docked) card.reply.hidden = false;
  card.reply.dataset.stuck = stuck ? '1' : '';
  const secret = !!(prompt && prompt.kind === 'secret' && stuck);
  card.input.type = secret ? 'password' : 'text';
  card.input.placeholder = secret ? 'secret for ' + pane.target + ' (typed, never shown)' : 'reply to ' + pane.target + ', then Enter';
  card.input.setAttribute('aria-label', card.input.placeholder);
  card.reply.style.display = canAct ? '' : 'none';
  if (card.docked) card.node.hidden = !canAct;
  card.replyToggle.hidden = !canAct || stuck;
  card.signals.forEach(function (button) { button.hidden = !canAct; });
  card.readonlyNote.hidden = write || !stuck;
}

function act(card: Card, action: string, body: object, label: string): Promise<boolean> {
  const buttons = card.node.querySelectorAll('button');
  buttons.forEach(function (b) { b.disabled = true; });
  card.result.dataset.tone = '';
  card.result.textContent = 'sending ' + label + '…';
  return api('/api/panes/' + paneNumber(card.id) + '/' + action, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
    .then(function (res) {
      return res.json().then(function (data: ErrorBody) { return { ok: res.ok, status: res.status, data: data }; }, function () {
        return { ok: res.ok, status: res.status, data: {} as ErrorBody };
      });
    })
    .then(function (r) {
      // A reply into a pane that is not at a prompt: the server names what runs there; ask, then send again.
      if (r.status === 428 && action === 'reply') {
        const message = (r.data && r.data.error && r.data.error.message) || 'the pane is not at a prompt';
        card.result.dataset.tone = '';
        card.result.textContent = '';
        ask(message, 'Reply anyway', function () {
          act(card, action, Object.assign({}, body, { confirmed: true }), label);
        });
        return false;
      }
      card.result.dataset.tone = r.ok ? 'ok' : 'error';
      card.result.textContent = r.ok ? 'sent ' + label + ' to ' + card.pane!.target
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

const confirmBox = $('confirm');
let confirmAction: (() => void) | null = null;
function ask(text: string, okLabel: string, action: () => void): void {
  $('confirm-text').textContent = text;
  $('confirm-ok').textContent = okLabel;
  confirmAction = action;
  confirmBox.hidden = false;
  $('confirm-cancel').focus();
}
function closeAsk(): void { confirmBox.hidden = true; confirmAction = null; }
$('confirm-cancel').addEventListener('click', closeAsk);
$('confirm-ok').addEventListener('click', function () {
  const action = confirmAction;
  closeAsk();
  if (action) action();
});
document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !confirmBox.hidden) closeAsk(); });

// --- the live list ----------------------------------------------------------------------------

const signOutButton = $<HTMLButtonElement>('sign-out');
let stream: { controller: AbortController; attempt: number } | null = null;

function signedOut(why: string): void {
  const was = session;
  session = null;
  if (was) try { localStorage.removeItem(SESSION_KEY); } catch { /* storage refused: the session is gone from this page anyway */ }
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
  const ending = session;
  signOutButton.disabled = true;
  const done = function (): void { signOutButton.disabled = false; signedOut('Signed out.'); };
  if (!ending) return done();
  fetch('/api/session', { method: 'DELETE', headers: { authorization: 'Bearer ' + ending.credential }, cache: 'no-store' }).then(done, done);
});

// Another tab signed in or out: follow it.
window.addEventListener('storage', function (e) {
  if (e.key !== SESSION_KEY && e.key !== null) return;
  const next = storedSession();
  if (!next && session) signedOut('This browser was signed out in another tab.');
  else if (next && (!session || next.credential !== session.credential)) location.reload();
});

/** One server-sent event block: its data lines are one pane list. */
function onEventBlock(block: string): void {
  const data = block.split('\n').filter(function (line) { return line.indexOf('data: ') === 0; })
    .map(function (line) { return line.slice(6); }).join('\n');
  if (data === '') return;
  state.list = JSON.parse(data) as PaneList;
  state.receivedAt = performance.now();
  linkState.dataset.state = 'live';
  linkState.textContent = 'live';
  render();
}

// The live list is an event stream read with fetch, so that it can carry the session header.
function streamPanes(attempt?: number): void {
  if (!session) return;
  const mine = { controller: new AbortController(), attempt: attempt || 0 };
  stream = mine;
  api('/api/panes/events', { signal: mine.controller.signal }).then(function (res) {
    if (res.status === 401) return;
    if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    mine.attempt = 0;
    const pump = function (): Promise<void> {
      return reader.read().then(function (chunk) {
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
        const blocks = buffer.split('\n\n');
        // split() returns at least one part: the unfinished block.
        buffer = blocks.pop()!;
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

let signInProblem: string | null = null;

function start(): void {
  if (!session) {
    signedOut(signInProblem || 'This browser is not signed in to corral.');
    return;
  }
  signOutButton.hidden = false;
  signOutButton.title = session.write ? 'signed in: may answer' : 'signed in: read-only';
  streamPanes(0);
}

/** What POST /api/sessions answers: a session for the code, or an error. */
interface SignInAnswer extends ErrorBody {
  session?: unknown;
  id?: string;
  write?: boolean;
}

/** Trades the link's code for a session kept in this origin's storage. */
function signIn(code: string): Promise<void> {
  return fetch('/api/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    cache: 'no-store',
    body: JSON.stringify({ code: code }),
  }).then(function (res) {
    return res.json().then(function (body: SignInAnswer) {
      // A used link in a browser that is already signed in just opens the page.
      if (!res.ok || typeof body.session !== 'string') {
        const message = body && body.error && body.error.message;
        signInProblem = message ? message.charAt(0).toUpperCase() + message.slice(1) + '.' : 'The link was refused (HTTP ' + res.status + ').';
        return;
      }
      session = { credential: body.session, id: body.id, write: body.write };
      try { localStorage.setItem(SESSION_KEY, JSON.stringify(session)); } catch { /* storage refused: signed in for this page only */ }
    });
  }).catch(function () { signInProblem = 'corral is not reachable: is it still running?'; });
}

// --- the terminal view ------------------------------------------------------------------------

/** The pane the terminal shows and its WebSocket. */
interface Connection {
  pane: ListedPane;
  ws: WebSocket;
  offset: number | null;
  fence: number;
  writing: boolean;
  closing: boolean;
  ended: boolean;
  cols: number;
}

const viewer = $('viewer');
const viewerTitle = $('viewer-title');
const viewerState = $('viewer-state');
const typeLabel = $('type-label');
const typeToggle = $<HTMLInputElement>('type-toggle');
const termBox = $('terminal');
const dockBox = $('dock');
/** As wide as the style's two-column layout: the terminal view sits beside the cards. */
const wideWindow = window.matchMedia('(min-width: 960px)');
let term: Terminal | null = null;
let xtermLoading: Promise<void> | null = null;
let current: Connection | null = null;

function loadXterm(): Promise<void> {
  if (xtermLoading) return xtermLoading;
  xtermLoading = new Promise<void>(function (resolve, reject) {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/assets/xterm.css';
    document.head.appendChild(css);
    const script = document.createElement('script');
    script.src = '/assets/xterm.js';
    script.onload = function () { resolve(); };
    script.onerror = function () { reject(new Error('could not load the terminal')); };
    document.head.appendChild(script);
  }).then(function () {
    term = new window.Terminal({ scrollback: 5000, fontSize: 13, fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', convertEol: false });
    // The terminal is as wide as its columns: a box narrower than that pans over it.
    const canvas = el('div', 'term-canvas');
    termBox.appendChild(canvas);
    term.open(canvas);
    term.onWriteParsed(function () { followCursor(false); });
    term.onData(function (data) {
      // Read-only views never send keystrokes (and the server would refuse them anyway).
      if (current && current.writing) send({ type: 'input', data: data });
    });
    termBox.addEventListener('click', function () { if (current && current.writing) term!.focus(); });
  });
  return xtermLoading;
}

/** The smallest text the view shrinks to; a pane too wide for it at this size pans instead. */
const READABLE_FONT_PX = 10;
const LARGEST_FONT_PX = 14;

/**
 * The terminal keeps the pane's size. Its font shrinks until every column fits the box, but not
 * below a readable size: a wider pane (120 columns on a phone) scrolls sideways, following the cursor.
 */
function fitFont(): void {
  if (!term || !current) return;
  const width = termBox.clientWidth - 12;
  let size = Math.max(READABLE_FONT_PX, Math.min(LARGEST_FONT_PX, Math.floor(width / (current.cols * 0.62))));
  term.options.fontSize = size;
  const screen = termBox.querySelector('.xterm-screen');
  let guard = 0;
  while (screen && screen.getBoundingClientRect().width > width && size > READABLE_FONT_PX && guard++ < 10) {
    size -= 1;
    term.options.fontSize = size;
  }
  followCursor(true);
}
// The box changes size with the window, the layout (beside the cards or the whole screen) and
// the dock under it; scroll bars coming and going (its client size) are no reason to refit.
let fittedWidth = -1;
new ResizeObserver(function () {
  if (termBox.offsetWidth === fittedWidth) return;
  fittedWidth = termBox.offsetWidth;
  fitFont();
}).observe(termBox);

let cursorShown = '';
/**
 * Pans the view so the cursor's cell is in it, with a few cells to spare, when the cursor has
 * moved (or `always`): a person who pans away to read stays there until the pane moves on.
 */
function followCursor(always: boolean): void {
  const screen = termBox.querySelector('.xterm-screen');
  if (!term || !screen) return;
  const cursor = term.buffer.active;
  const where = cursor.cursorX + ',' + cursor.cursorY;
  if (!always && where === cursorShown) return;
  cursorShown = where;
  const box = termBox.getBoundingClientRect();
  const drawn = screen.getBoundingClientRect();
  const cellWidth = drawn.width / term.cols;
  const cellHeight = drawn.height / term.rows;
  termBox.scrollLeft = scrollToShow(termBox.scrollLeft, termBox.clientWidth, drawn.left - box.left + termBox.scrollLeft + cursor.cursorX * cellWidth, cellWidth);
  termBox.scrollTop = scrollToShow(termBox.scrollTop, termBox.clientHeight, drawn.top - box.top + termBox.scrollTop + cursor.cursorY * cellHeight, cellHeight);
}

/** Where to scroll so a cell at `at` (of `cell` size) shows with four cells to spare, the text before it in view. */
function scrollToShow(scroll: number, visible: number, at: number, cell: number): number {
  const spare = cell * 4;
  if (at - spare >= scroll && at + cell + spare <= scroll + visible) return scroll;
  return Math.max(0, at + cell + spare - visible);
}

function setViewerState(name: string, text: string): void {
  viewerState.dataset.state = name;
  viewerState.textContent = text;
}

function send(message: AttachRequest): void {
  if (current && current.ws.readyState === WebSocket.OPEN) current.ws.send(JSON.stringify(message));
}

/** Selects `pane`: its live terminal, with its answers docked under it. */
function openTerminal(pane: ListedPane): void {
  state.viewed = pane.id;
  markSelected();
  if (state.dock) state.dock.node.remove();
  state.dock = makeCard(pane.id, true);
  dockBox.appendChild(state.dock.node);
  updateCard(state.dock, pane, !!(state.list && state.list.write));
  viewer.hidden = false;
  document.body.classList.add('viewing');
  viewerTitle.textContent = where(pane);
  setViewerState('connecting', 'connecting…');
  typeLabel.hidden = !(state.list && state.list.write);
  loadXterm().then(function () { attach(pane, false); }, function (error: Error) { setViewerState('error', error.message); });
}

function closeTerminal(): void {
  if (current) { current.closing = true; current.ws.close(1000); current = null; }
  state.viewed = null;
  markSelected();
  if (state.dock) { state.dock.node.remove(); state.dock = null; }
  viewer.hidden = true;
  document.body.classList.remove('viewing');
}
$('viewer-close').addEventListener('click', function () {
  state.viewerClosed = true;
  closeTerminal();
});
wideWindow.addEventListener('change', render);

function markSelected(): void {
  state.cards.forEach(function (card, id) { card.node.setAttribute('aria-current', id === state.viewed ? 'true' : 'false'); });
}

function attach(pane: ListedPane, writing: boolean, resume?: { offset: number | null }, attempt?: number): void {
  if (current) { current.closing = true; current.ws.close(1000); }
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = proto + '//' + location.host + '/attach/' + paneNumber(pane.id) + (writing ? '?write=1' : '');
  // The session travels as a second subprotocol; the server answers with "corral" alone.
  const protocols = session ? ['corral', 'corral-session.' + session.credential] : ['corral'];
  const conn: Connection = { pane: pane, ws: new WebSocket(url, protocols), offset: resume ? resume.offset : null, fence: -1, writing: writing, closing: false, ended: false, cols: pane.cols };
  current = conn;
  typeToggle.checked = writing;
  conn.ws.onopen = function () {
    conn.ws.send(JSON.stringify(conn.offset === null ? { type: 'subscribe' } : { type: 'subscribe', from_offset: conn.offset }));
  };
  conn.ws.onmessage = function (e) {
    if (conn !== current) return;
    // term is set: attach() runs once xterm.js has loaded.
    const m = JSON.parse(e.data as string) as AttachMessage;
    if (m.type === 'hello') {
      conn.cols = Math.max(2, m.pane.cols);
      term!.resize(conn.cols, Math.max(2, m.pane.rows));
      viewerTitle.textContent = pane.target + ' · ' + m.pane.command;
      fitFont();
    } else if (m.type === 'replay') {
      if (m.replay_mode === 'recovery') term!.reset();
      m.chunks.forEach(function (c) { term!.write(c); });
      conn.fence = m.snapshot_offset;
      conn.offset = m.snapshot_offset;
      attempt = 0;
      setViewerState(conn.writing ? 'live-write' : 'live', conn.writing ? 'live, typing goes to the pane' : 'live, read-only');
      if (conn.writing) term!.focus();
    } else if (m.type === 'output') {
      if (m.offset <= conn.fence) return;
      term!.write(m.data);
      conn.offset = m.offset;
    } else if (m.type === 'status') {
      conn.ended = true;
      setViewerState('ended', 'the pane exited' + (m.exit_code !== undefined ? ' (exit ' + m.exit_code + ')' : ''));
    } else if (m.type === 'error') {
      setViewerState(viewerState.dataset.state!, viewerState.textContent + ' | ' + m.message);
    }
  };
  conn.ws.onclose = function (e) {
    if (conn !== current || conn.closing || conn.ended) return;
    if (e.code === 4000 || e.code === 4404) { setViewerState('ended', 'the pane is gone'); return; }
    if (e.code === 4401) { signedOut('This browser is signed out of corral (' + (e.reason || 'the session ended') + ').'); return; }
    const wait = Math.min(10000, 1000 * Math.pow(2, attempt || 0));
    setViewerState('reconnecting', 'disconnected (' + e.code + '), reconnecting…');
    // Resume where we stopped: the server sends exactly the missed bytes, or a repaint.
    setTimeout(function () { if (conn === current) attach(pane, conn.writing, { offset: conn.offset }, (attempt || 0) + 1); }, wait);
  };
}

typeToggle.addEventListener('change', function () {
  if (current) attach(current.pane, typeToggle.checked && !!(state.list && state.list.write), { offset: current.offset });
});

(loginCode !== null ? signIn(loginCode) : Promise.resolve()).then(start);
