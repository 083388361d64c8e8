// The page's writes over real HTTP into real tmux panes: only signed-in, writing, same-origin
// requests type; only answers the prompt offers; only into the screen the person saw; signalling
// keys only when confirmed. Anything refused types nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashScreen } from '../../../src/engine/pane/screen-hash.js';
import type { PaneInfo, PaneView, PromptAnswer } from '../../../src/engine/types.js';
import { TOKEN, signInBrowser, startHarness, type Harness } from '../../helpers/attach-harness.js';
import { paneView } from '../../helpers/fake-engine.js';

let h: Harness;
let keysPane: PaneInfo;
let shellPane: PaneInfo;
let writing: string;
let looking: string;
let base: string;

/** Shows every key it reads as [k], so the test sees exactly what was typed. */
const KEY_ECHO = `while IFS= read -r -s -n1 k; do printf '[%s]' "$k"; done`;

function stuck(pane: PaneInfo, answer: PromptAnswer | null, screenHash = `screen-${pane.paneId}`): PaneView {
  return paneView({
    pane,
    state: 'stuck',
    reason: 'permission',
    screenHash,
    verdict: answer
      ? { prompt: true, reason: 'permission', busy: false, tool: 'test', rule: 'test', line: 'Proceed?', answer }
      : null,
  });
}

const offered = new Map<string, PromptAnswer | null>();

/**
 * Shows the panes as the engine would now: each with its prompt and the hash of the screen it
 * really shows (the pane is read again before anything is typed). Returns that hash for `pane`.
 */
async function seen(pane: PaneInfo): Promise<string> {
  const views = await Promise.all(
    [keysPane, shellPane].map(async (p) => stuck(p, offered.get(p.paneId) ?? null, hashScreen(await h.client.io.screen(p.paneId)))),
  );
  h.engine.setPanes(views);
  return views.find((v) => v.pane.paneId === pane.paneId)!.screenHash;
}

/** The Authorization header value of a new browser session. */
async function signIn(write: boolean): Promise<string> {
  return `Bearer ${await signInBrowser(h, write)}`;
}

function post(pane: PaneInfo, action: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${base}/api/panes/${pane.paneId.slice(1)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  h = await startHarness();
  base = `http://127.0.0.1:${h.server.port}`;
  const keysId = await h.tmux.spawn(KEY_ECHO);
  const shellId = await h.tmux.spawn('bash --norc');
  const panes = await h.client.panes.listPanes();
  keysPane = panes.find((p) => p.paneId === keysId)!;
  shellPane = panes.find((p) => p.paneId === shellId)!;
  offered.set(keysPane.paneId, { kind: 'key', options: ['1', '2', 'Enter'] });
  offered.set(shellPane.paneId, { kind: 'line', options: ['y', 'n'] });
  await seen(keysPane);
  writing = await signIn(true);
  looking = await signIn(false);
});
afterAll(async () => {
  await h?.close();
});

const own = () => ({ origin: base, 'sec-fetch-site': 'same-origin' });

async function typed(pane: PaneInfo): Promise<string> {
  return (await h.tmux.capture(pane.paneId)).trim();
}

describe('who may type', () => {
  it('refuses without a session, with a read-only one, from another site, or without an Origin', async () => {
    const answer = { answer: '1', screen: `screen-${keysPane.paneId}` };
    const expectations: [Record<string, string>, number, string][] = [
      [{ ...own() }, 401, 'unauthorized'],
      [{ ...own(), authorization: looking }, 403, 'read_only'],
      [{ authorization: writing, origin: 'http://evil.example' }, 403, 'bad_origin'],
      [{ authorization: writing, origin: base, 'sec-fetch-site': 'cross-site' }, 403, 'bad_origin'],
      [{ authorization: writing }, 403, 'bad_origin'],
    ];
    for (const [headers, status, code] of expectations) {
      const res = await post(keysPane, 'answer', answer, headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    expect(await typed(keysPane)).toBe('');
  });

  it('needs a JSON body', async () => {
    const res = await post(keysPane, 'answer', 'answer=1', { ...own(), authorization: writing, 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect((await post(keysPane, 'answer', '{nope', { ...own(), authorization: writing })).status).toBe(400);
    expect((await fetch(`${base}/api/panes/1/answer`, { headers: { authorization: writing } })).status).toBe(405);
    expect(await typed(keysPane)).toBe('');
  });
});

describe('what may be typed', () => {
  it('types a quick answer the prompt offers, for the screen the person saw', async () => {
    const first = await seen(keysPane);
    const res = await post(keysPane, 'answer', { answer: '1', screen: first }, { ...own(), authorization: writing });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, pane: keysPane.paneId, sent: '1' });
    await h.tmux.waitForScreen(keysPane.paneId, (s) => s.includes('[1]'));
    // The pane shows [1] now: an answer for the screen before it is refused, even while the views
    // still show that screen; one for the screen as it is now goes in.
    const stale = await post(keysPane, 'answer', { answer: 'Enter', screen: first }, { ...own(), authorization: writing });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('screen_changed');
    const enter = await post(keysPane, 'answer', { answer: 'Enter', screen: await seen(keysPane) }, { ...own(), authorization: writing });
    expect(enter.status).toBe(200);
    await h.tmux.waitForScreen(keysPane.paneId, (s) => s.includes('[1][]'));
  });

  it('types nothing for an answer the prompt does not offer, a changed screen, or no prompt', async () => {
    const before = await typed(keysPane);
    const now = await seen(keysPane);
    const cases: [unknown, number, string][] = [
      [{ answer: '3', screen: now }, 400, 'not_an_option'],
      [{ answer: 'y; rm -rf /', screen: now }, 400, 'not_an_option'],
      [{ answer: '1', screen: 'an-older-screen' }, 409, 'screen_changed'],
      [{ answer: '1' }, 400, 'bad_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(keysPane, 'answer', body, { ...own(), authorization: writing });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    offered.set(keysPane.paneId, null);
    const none = await post(keysPane, 'answer', { answer: '1', screen: await seen(keysPane) }, { ...own(), authorization: writing });
    expect(none.status).toBe(409);
    const unwatched = await post({ ...keysPane, paneId: '%999' }, 'answer', { answer: '1', screen: 'x' }, { ...own(), authorization: writing });
    expect(unwatched.status).toBe(404);
    // Each refusal is answered once the request was weighed and dropped: nothing is typed after it.
    expect(await typed(keysPane)).toBe(before);
    offered.set(keysPane.paneId, { kind: 'key', options: ['1', '2', 'Enter'] });
  });

  it('a line answer is the text, then Enter', async () => {
    const res = await post(shellPane, 'answer', { answer: 'y', screen: await seen(shellPane) }, { ...own(), authorization: writing });
    expect(res.status).toBe(200);
    await h.tmux.waitForScreen(shellPane.paneId, (s) => /y: command not found/.test(s));
  });

  it('replies with one line of text, then Enter; control characters are refused', async () => {
    const bad = await post(shellPane, 'reply', { text: 'echo a\necho b' }, { ...own(), authorization: writing });
    expect(bad.status).toBe(400);
    const res = await post(shellPane, 'reply', { text: 'echo reply-$((6*7))' }, { ...own(), authorization: writing });
    expect(res.status).toBe(200);
    await h.tmux.waitForScreen(shellPane.paneId, (s) => s.includes('reply-42'));
  });

  it('sends C-c only when confirmed; a token holder needs no Origin', async () => {
    await h.tmux.tmux('send-keys', '-t', shellPane.paneId, 'sleep 30', 'Enter');
    const unconfirmed = await post(shellPane, 'keys', { keys: ['C-c'] }, { ...own(), authorization: writing });
    expect(unconfirmed.status).toBe(428);
    expect(((await unconfirmed.json()) as { error: { code: string } }).error.code).toBe('confirmation_needed');
    expect((await post(shellPane, 'keys', { keys: ['C-Nope'] }, { ...own(), authorization: writing })).status).toBe(400);
    expect((await post(shellPane, 'keys', { keys: ['echo', 'hi'] }, { ...own(), authorization: writing })).status).toBe(400);
    // Each refusal is answered once the request was weighed and dropped: nothing is typed after it.
    expect(await h.tmux.capture(shellPane.paneId)).not.toContain('^C');
    const confirmed = await post(shellPane, 'keys', { keys: ['C-c'], confirmed: true }, { authorization: `Bearer ${TOKEN}` });
    expect(confirmed.status).toBe(200);
    await h.tmux.waitForScreen(shellPane.paneId, (s) => s.includes('^C'));
  });
});

describe('a reply into a pane that is not at a prompt', () => {
  it('is asked for first, naming what runs there, and typed once confirmed', async () => {
    const catId = await h.tmux.spawn('exec cat');
    const catPane = (await h.client.panes.listPanes()).find((p) => p.paneId === catId)!;
    await h.tmux.waitForScreen(catId, () => true);
    h.engine.setPanes([paneView({ pane: catPane, screenHash: hashScreen(await h.client.io.screen(catId)), verdict: null })]);
    const asked = await post(catPane, 'reply', { text: 'typed-after-asking' }, { ...own(), authorization: writing });
    expect(asked.status).toBe(428);
    const body = (await asked.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'confirmation_needed' });
    expect(body.error.message).toContain('runs cat, which is not at a prompt corral recognises: reply anyway?');
    expect(await typed(catPane)).toBe('');
    const confirmed = await post(catPane, 'reply', { text: 'typed-after-asking', confirmed: true }, { ...own(), authorization: writing });
    expect(confirmed.status).toBe(200);
    await h.tmux.waitForScreen(catId, (s) => s.includes('typed-after-asking'));
  });
});
