// Attach server security and robustness: token, Origin, read-only enforcement, malformed frames,
// slow clients.
import { connect } from 'node:net';
import { BrowserSessions } from '../../../src/server/attach/sessions.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TOKEN,
  TestClient,
  signInBrowser,
  startHarness,
  upgradeStatus,
  waitUntil,
  type Harness,
} from '../../helpers/attach-harness.js';

let h: Harness;
let pane: string;

beforeAll(async () => {
  h = await startHarness();
  pane = await h.tmux.spawn('bash --norc');
  await h.tmux.waitForScreen(pane, (s) => s.includes('#') || s.includes('$'));
});
afterAll(async () => {
  await h?.close();
});

const auth = { authorization: `Bearer ${TOKEN}` };

const signIn = (write: boolean) => signInBrowser(h, write);
const asSession = (credential: string) => ({ authorization: `Bearer ${credential}` });

describe('who may connect', () => {
  it('refuses an upgrade without the token, or with a wrong one, with 401', async () => {
    expect(await upgradeStatus(h.wsUrl(pane), {})).toBe(401);
    expect(await upgradeStatus(h.wsUrl(pane), { authorization: 'Bearer nope' })).toBe(401);
    expect(await upgradeStatus(h.wsUrl(pane, 'token=nope'), {})).toBe(401);
  });

  it('accepts the token as header or query parameter, and a browser session as subprotocol or header', async () => {
    expect(await upgradeStatus(h.wsUrl(pane), auth)).toBe(101);
    expect(await upgradeStatus(h.wsUrl(pane, `token=${TOKEN}`), {})).toBe(101);
    const session = await signIn(false);
    expect(await upgradeStatus(h.wsUrl(pane), {}, ['corral', `corral-session.${session}`])).toBe(101);
    expect(await upgradeStatus(h.wsUrl(pane), asSession(session))).toBe(101);
    expect(await upgradeStatus(h.wsUrl(pane), {}, ['corral', `corral-session.${session.slice(0, -2)}xx`])).toBe(401);
    // Nothing in a cookie counts, neither the token nor a session.
    expect(await upgradeStatus(h.wsUrl(pane), { cookie: `corral_token=${TOKEN}; corral_session=${session}` })).toBe(401);
  });

  it('echoes only the page subprotocol, never the one carrying the session', async () => {
    const session = await signIn(false);
    const client = new TestClient(h.wsUrl(pane), {}, ['corral', `corral-session.${session}`]);
    await client.opened;
    client.close();
    expect(client.ws.protocol).toBe('corral');
  });

  it('lets a read-only session look but not type; a writing one may ask to type', async () => {
    const looking = await signIn(false);
    expect(await upgradeStatus(h.wsUrl(pane, 'write=1'), {}, ['corral', `corral-session.${looking}`])).toBe(403);
    const writing = await signIn(true);
    expect(await upgradeStatus(h.wsUrl(pane, 'write=1'), {}, ['corral', `corral-session.${writing}`])).toBe(101);
  });

  it('refuses a foreign Origin, accepts its own', async () => {
    expect(await upgradeStatus(h.wsUrl(pane), { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus(h.wsUrl(pane), { ...auth, origin: `http://localhost:${h.server.port}` })).toBe(403);
    expect(await upgradeStatus(h.wsUrl(pane), { ...auth, origin: `http://127.0.0.1:${h.server.port}` })).toBe(101);
  });

  it('answers 404 for a pane that does not exist or a malformed id', async () => {
    expect(await upgradeStatus(`ws://127.0.0.1:${h.server.port}/attach/9999`, auth)).toBe(404);
    expect(await upgradeStatus(`ws://127.0.0.1:${h.server.port}/attach/abc`, auth)).toBe(404);
  });

  it('sends no pane byte before auth: the refusal is a 401 with a JSON error only', async () => {
    await h.tmux.tmux('send-keys', '-t', pane, 'echo SECRET-$((7*6))', 'Enter');
    await h.tmux.waitForScreen(pane, (s) => s.includes('SECRET-42'));
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(h.server.port, '127.0.0.1', () => {
        socket.write(
          `GET /attach/${pane.slice(1)}?mode=raw HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        );
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(response.startsWith('HTTP/1.1 401')).toBe(true);
    expect(response).not.toContain('SECRET-42');
    expect(response).toContain('"code":"unauthorized"');
  });
});

describe('read-only by default', () => {
  it('refuses input, keys and resize from a read-only client; nothing they send reaches the pane', async () => {
    const client = new TestClient(h.wsUrl(pane));
    await client.opened;
    expect((await client.message('hello')).write).toBe(false);
    client.send({ type: 'input', data: 'echo SHOULD-NOT-RUN\r' });
    client.send({ type: 'keys', keys: ['echo NOPE', 'Enter'] });
    client.send({ type: 'resize', cols: 40, rows: 10 });
    await client.waitFor(() => client.of('error').length === 3, 5000, 'three errors');
    expect(client.of('error').map((e) => e.code)).toEqual(['read_only', 'read_only', 'read_only']);
    // A raw read-only client's keystrokes are dropped too.
    const raw = new TestClient(h.wsUrl(pane, 'mode=raw'));
    await raw.opened;
    raw.ws.send('echo RAW-NOPE\r');
    // The server reads a connection's frames in order: the pong of a ping sent after the
    // keystrokes says it has read (and dropped) them.
    await new Promise<void>((resolve) => {
      raw.ws.once('pong', () => resolve());
      raw.ws.ping();
    });
    // Then a writer types a line through the same path: once it shows, anything typed before it would too.
    const writer = new TestClient(h.wsUrl(pane, 'write=1'));
    await writer.opened;
    writer.send({ type: 'input', data: 'echo after-$((40+2))\r' });
    const after = await h.tmux.waitForScreen(pane, (s) => s.includes('after-42'));
    expect(after).not.toMatch(/SHOULD-NOT-RUN|NOPE/);
    expect(await h.tmux.tmux('display', '-p', '-t', pane, '#{pane_width}x#{pane_height}')).toBe('100x30\n');
    client.close();
    raw.close();
    writer.close();
  });

  it('lets a client with the token and ?write=1 type, with keys all-or-nothing', async () => {
    const client = new TestClient(h.wsUrl(pane, 'write=1'));
    await client.opened;
    expect((await client.message('hello')).write).toBe(true);
    client.send({ type: 'subscribe' });
    await client.message('replay');
    client.send({ type: 'keys', keys: ['echo', 'Space', 'bad', 'C-Nope', 'Enter'] });
    await client.waitFor(() => client.of('error').length === 1, 5000, 'unknown key error');
    expect(client.of('error')[0]).toMatchObject({ code: 'unknown_key' });
    client.send({ type: 'input', data: 'echo typed-$((20+3)) \\\\ done\r' });
    await h.tmux.waitForScreen(pane, (s) => s.includes('typed-23 \\ done'));
    client.send({ type: 'keys', keys: ['echo keyed-$((30+4))', 'Enter'] });
    await h.tmux.waitForScreen(pane, (s) => s.includes('keyed-34'));
    // Resize is off by default: ignored, the layout stays.
    client.send({ type: 'resize', cols: 40, rows: 10 });
    client.send({ type: 'ping', id: 'x' });
    await client.message('pong');
    expect(await h.tmux.tmux('display', '-p', '-t', pane, '#{pane_width}x#{pane_height}')).toBe('100x30\n');
    expect(client.of('error')).toHaveLength(1);
    client.close();
  });

  it('types raw bytes (control characters included) from a writing raw client', async () => {
    const raw = new TestClient(h.wsUrl(pane, 'mode=raw&write=1'));
    await raw.opened;
    raw.ws.send(Buffer.from('echo raw-$((5*5))\r'));
    await h.tmux.waitForScreen(pane, (s) => s.includes('raw-25'));
    raw.close();
  });
});

describe('malformed frames', () => {
  it('answers with an error and keeps the connection', async () => {
    const client = new TestClient(h.wsUrl(pane));
    await client.opened;
    client.ws.send('not json');
    client.send({ type: 'launch' });
    client.send({ type: 'subscribe', from_offset: -4 });
    client.send({ type: 'keys', keys: [] });
    client.ws.send(Buffer.from([1, 2, 3]));
    client.send({ type: 'ping', id: 7 });
    expect(await client.message('pong')).toEqual({ type: 'pong', id: 7 });
    expect(client.of('error').map((e) => e.code)).toEqual([
      'bad_message',
      'bad_message',
      'bad_message',
      'bad_message',
      'bad_message',
    ]);
    expect(client.closeCode).toBeNull();
    client.close();
  });
});

describe('the page and the pane list', () => {
  const base = () => `http://127.0.0.1:${h.server.port}`;

  it('serves the page to anyone, but the panes only to a session a login code made, once, with no cookie', async () => {
    const page = await fetch(`${base()}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('set-cookie')).toBeNull();
    const html = await page.text();
    expect(html).toContain('/assets/attach-page.js');
    expect(html).not.toContain('%'); // no pane id, no pane data
    expect((await fetch(`${base()}/api/panes`)).status).toBe(401);
    // Opening the link is only the page: the code is traded by the page's script, not by a GET
    // (a link preview or a prefetch cannot use it up), and no cookie is set.
    const link = h.feature.loginLink({ base: base() });
    expect(link.url).toMatch(new RegExp(`^${base()}/\\?code=[\\w-]{24}$`));
    expect(link.url).not.toContain(TOKEN);
    const opened = await fetch(link.url, { redirect: 'manual' });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie')).toBeNull();
    const code = new URL(link.url).searchParams.get('code');
    const trade = (headers: Record<string, string> = {}) =>
      fetch(`${base()}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base(), ...headers },
        body: JSON.stringify({ code }),
      });
    // Another site cannot sign a visitor in with a code it got hold of.
    expect((await trade({ origin: 'http://127.0.0.1:1' })).status).toBe(403);
    const signed = await trade();
    expect(signed.status).toBe(201);
    expect(signed.headers.get('set-cookie')).toBeNull();
    const body = (await signed.json()) as { session: string; id: string; write: boolean; expires_at: number; idle_ms: number };
    expect(body).toMatchObject({ write: true, id: body.session.split('.')[0], idle_ms: 12 * 3_600_000 });
    expect(body.session).not.toContain(TOKEN);
    expect((await fetch(`${base()}/api/panes`, { headers: asSession(body.session) })).status).toBe(200);
    expect(await (await fetch(`${base()}/api/session`, { headers: asSession(body.session) })).json()).toMatchObject({ id: body.id, write: true });
    // Used once.
    const again = await trade();
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: 'bad_code', message: expect.stringContaining('works once') } });
    // Only a token holder makes new links or sees the sessions.
    for (const [method, path] of [['POST', '/api/login-codes'], ['GET', '/api/sessions'], ['DELETE', '/api/sessions'], ['DELETE', `/api/sessions/${body.id}`]] as const)
      expect((await fetch(`${base()}${path}`, { method, headers: asSession(body.session) })).status).toBe(401);
    const made = await fetch(`${base()}/api/login-codes`, { method: 'POST', headers: auth });
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ url: expect.stringMatching(/\/\?code=/), write: true });
    // Signing out ends it at once.
    expect((await fetch(`${base()}/api/session`, { method: 'DELETE', headers: asSession(body.session) })).status).toBe(200);
    expect((await fetch(`${base()}/api/panes`, { headers: asSession(body.session) })).status).toBe(401);
  });

  it('lists sessions for the token holder and revokes one or all, closing their connections at once', async () => {
    const looking = await signIn(false);
    const writing = await signIn(true);
    const listed = (await (await fetch(`${base()}/api/sessions`, { headers: auth })).json()) as {
      sessions: { id: string; write: boolean; connections: number; client: string }[];
    };
    const ids = [looking, writing].map((c) => c.split('.')[0]);
    expect(listed.sessions.filter((s) => ids.includes(s.id)).map((s) => [s.id, s.write])).toEqual([
      [ids[0], false],
      [ids[1], true],
    ]);
    expect(JSON.stringify(listed)).not.toContain(looking.split('.')[1]);
    const viewer = new TestClient(h.wsUrl(pane), {}, ['corral', `corral-session.${looking}`]);
    await viewer.opened;
    const revoked = await fetch(`${base()}/api/sessions/${ids[0]}`, { method: 'DELETE', headers: auth });
    expect(await revoked.json()).toEqual({ revoked: [ids[0]] });
    await waitUntil(() => viewer.closeCode !== null, 2000, 'the revoked viewer to close');
    expect([viewer.closeCode, viewer.closeReason]).toEqual([4401, 'session revoked']);
    expect((await fetch(`${base()}/api/panes`, { headers: asSession(looking) })).status).toBe(401);
    expect((await fetch(`${base()}/api/sessions/${ids[0]}`, { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await fetch(`${base()}/api/panes`, { headers: asSession(writing) })).status).toBe(200);
    const all = (await (await fetch(`${base()}/api/sessions`, { method: 'DELETE', headers: auth })).json()) as { revoked: string[] };
    expect(all.revoked).toContain(ids[1]);
    expect((await fetch(`${base()}/api/panes`, { headers: asSession(writing) })).status).toBe(401);
  });

  it('ends a session at its absolute limit, closing its open terminal and its pane-list stream', async () => {
    const time = new ManualTime(Date.now());
    const sessions = new BrowserSessions({ clock: time, idleMs: 60_000, maxMs: 3_600_000 });
    const timed = await startHarness({}, { tmux: h.tmux, sessions, heartbeatMs: 20 });
    try {
      const credential = await signInBrowser(timed);
      const viewer = new TestClient(timed.wsUrl(pane), {}, ['corral', `corral-session.${credential}`]);
      await viewer.opened;
      const stream = await fetch(`http://127.0.0.1:${timed.server.port}/api/panes/events`, { headers: asSession(credential) });
      expect(stream.status).toBe(200);
      const reading = stream.text();
      // Open connections keep it in use however long: idle never ends it.
      await time.advance(120_000);
      sessions.sweep();
      expect(sessions.list().map((s) => [s.id, s.connections])).toEqual([[credential.split('.')[0], 2]]);
      expect(viewer.closeCode).toBeNull();
      await time.advance(3_600_000);
      await waitUntil(() => viewer.closeCode !== null, 2_000, 'the expired viewer to close');
      expect([viewer.closeCode, viewer.closeReason]).toEqual([4401, 'session expired']);
      expect(await reading).toContain('data: '); // the stream ended, after what it had sent
      expect((await fetch(`http://127.0.0.1:${timed.server.port}/api/panes`, { headers: asSession(credential) })).status).toBe(401);
    } finally {
      await timed.server.close();
      await timed.port.close();
    }
  });

  it('serves a favicon to anyone', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await fetch(`${base()}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(await res.text()).toContain('<svg');
    }
  });

  it('serves xterm from the installed package with the right content types', async () => {
    const js = await fetch(`${base()}/assets/xterm.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${base()}/assets/xterm.css`)).headers.get('content-type')).toMatch(/text\/css/);
    expect((await fetch(`${base()}/assets/attach-page.js`)).headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${base()}/assets/attach-page.css`)).headers.get('content-type')).toMatch(/text\/css/);
    expect((await fetch(`${base()}/assets/nothing.js`)).status).toBe(404);
  });

  it('lists the engine panes with their states', async () => {
    const res = await fetch(`${base()}/api/panes`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { panes: { id: string }[]; write: boolean; counts: { total: number } };
    // The panes the store holds (the ones earlier tests attached to), in the store's words.
    const stored = h.port.getSnapshot().panes.map((view) => view.key);
    expect(stored.length).toBeGreaterThan(0);
    expect(body).toMatchObject({ write: true, counts: { total: stored.length } });
    expect(body.panes.map((pane) => pane.id).sort()).toEqual([...stored].sort());
  });
});

describe('slow clients', () => {
  it('drops a client that does not read, while a fast one keeps up', async () => {
    const slowHarness = await startHarness({ attachSlowClientBytes: 64 * 1024 });
    try {
      const flood = await slowHarness.tmux.spawn('bash --norc');
      const fast = new TestClient(slowHarness.wsUrl(flood, 'mode=raw'));
      const slow = new TestClient(slowHarness.wsUrl(flood, 'mode=raw'));
      await Promise.all([fast.opened, slow.opened]);
      await fast.waitFor(() => fast.binary.length > 0);
      await slow.waitFor(() => slow.binary.length > 0);
      const socket = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      expect(slowHarness.feature.connectionCount).toBe(2);
      await slowHarness.tmux.tmux(
        'send-keys',
        '-t',
        flood,
        'for i in $(seq 1 60); do seq 1 20000; done; echo FLOOD-$((1+1))-END',
        'Enter',
      );
      await waitUntil(() => slowHarness.feature.connectionCount === 1, 30000, 'the slow client to be dropped');
      socket.resume();
      await slow.waitFor(() => slow.closeCode !== null, 10000, 'slow client close');
      expect(slow.closeCode).toBe(4008);
      await fast.waitFor(
        () => Buffer.concat(fast.binary.slice(-3)).includes('FLOOD-2-END'),
        60000,
        'the fast client to see the end',
      );
      expect(fast.closeCode).toBeNull();
      fast.close();
    } finally {
      await slowHarness.close();
    }
  });
});

describe('resize', () => {
  it('resizes a pane only for a writing client when resizing is allowed', async () => {
    const r = await startHarness({ attachAllowResize: true });
    try {
      const left = await r.tmux.spawn('bash --norc');
      const right = (
        await r.tmux.tmux('split-window', '-h', '-d', '-t', left, '-P', '-F', '#{pane_id}', 'bash --norc')
      ).trim();
      const width = async () => Number((await r.tmux.tmux('display', '-p', '-t', right, '#{pane_width}')).trim());
      const before = await width();
      const reader = new TestClient(r.wsUrl(right));
      await reader.opened;
      reader.send({ type: 'resize', cols: 30, rows: 10 });
      expect((await reader.message('error')).code).toBe('read_only');
      expect(await width()).toBe(before);
      const writer = new TestClient(r.wsUrl(right, 'write=1'));
      await writer.opened;
      expect((await writer.message('hello')).resize).toBe(true);
      writer.send({ type: 'resize', cols: 30, rows: 10 });
      await waitUntil(async () => (await width()) === 30, 5000, 'the pane to be 30 columns wide');
      reader.close();
      writer.close();
    } finally {
      await r.close();
    }
  });
});
