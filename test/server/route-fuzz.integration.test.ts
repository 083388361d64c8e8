// Every route of corral's HTTP server, fed generated malformed paths and queries over raw TCP (so
// the bytes arrive exactly as written: broken percent-encoding, overlong UTF-8, NUL, very long
// segments, `..`, doubled slashes). The answer is never a 5xx and never a crash: always a status
// with, for a 4xx, a JSON error body. The real `corral serve` with every feature on, on real tmux.

import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const TOKEN = 'route-fuzz-token-0123456789';

/** Route shapes; `{P}` is a pane part, `{H}` a host part, `{S}` a session id, `{A}` an answer link. */
const ROUTES = [
  '/',
  '/?code={X}',
  '/favicon.svg',
  '/assets/attach-page.js',
  '/assets/xterm.js',
  '/assets/{X}',
  '/api/panes',
  '/api/panes/events',
  '/api/panes/{P}/answer',
  '/api/panes/{H}/{P}/reply',
  '/api/panes/{P}/keys',
  '/api/login-codes',
  '/api/sessions',
  '/api/sessions/{S}',
  '/api/session',
  '/attach/{P}',
  '/attach/{H}/{P}',
  '/v1',
  '/v1/models',
  '/v1/models/{X}',
  '/v1/chat/completions',
  '/hooks',
  '/hooks/state',
  '/answer/{A}',
  '/answer/',
];

/** Pieces that break decoders: percent-encoding gone wrong, overlong and invalid UTF-8, NUL. */
const PIECES: readonly (string | Buffer)[] = [
  '%',
  '%%',
  '%G1',
  '%E0%A4%A',
  '%E0%A4',
  '%C0%AF',
  '%C0%80',
  '%C1%BF',
  '%E0%80%AF',
  '%F0%80%80%AF',
  '%ED%A0%80',
  '%F8%88%80%80%80',
  '%FF',
  '%FE%FF',
  '%00',
  '%0A',
  '%0D%0A',
  '%2F',
  '%2e%2e',
  '%2E',
  '%5C',
  '%25',
  '%253',
  '%3',
  '3',
  '0',
  '999999999999',
  '-1',
  '..',
  '.',
  '',
  '\\',
  ';',
  '@',
  ':',
  'a1.x.y',
  'a1..',
  'local',
  'build-box',
  'é',
  '😀',
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe0, 0xa4]),
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0x00]),
  Buffer.from([0x01]),
  Buffer.from([0x7f]),
];

const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];

function piece(random: SeededRandom): Buffer {
  const roll = random.next();
  if (roll < 0.06) return Buffer.from('a'.repeat(random.int(1_000, 20_000)));
  if (roll < 0.1) return Buffer.from('%41'.repeat(random.int(300, 6_000)));
  if (roll < 0.13) return Buffer.from('%E0%A4%A/'.repeat(random.int(10, 400)));
  const value = random.pick(PIECES);
  return typeof value === 'string' ? Buffer.from(value) : value;
}

/** One request target: a route with its holes filled, more pieces spliced in, maybe a query. */
export function fuzzTarget(random: SeededRandom): Buffer {
  const route = random.pick(ROUTES);
  const parts: Buffer[] = [];
  for (const token of route.split(/(\{[A-Z]\})/)) {
    if (/^\{[A-Z]\}$/.test(token)) {
      const count = random.int(1, 3);
      for (let i = 0; i < count; i++) parts.push(piece(random));
    } else {
      let text = token;
      if (random.chance(0.15)) text = text.replace(/\//g, () => (random.chance(0.5) ? '//' : '/'));
      if (random.chance(0.1)) text = text.replace(/\/([^/]*)$/, '/../$1');
      parts.push(Buffer.from(text));
    }
  }
  if (random.chance(0.2)) parts.splice(random.int(0, parts.length), 0, piece(random));
  if (random.chance(0.45)) {
    const query: Buffer[] = [];
    const count = random.int(1, 4);
    for (let i = 0; i < count; i++) {
      const key = random.pick(['code', 'token', 'mode', 'write', 'from_offset', 'session', 'x', '%E0%A4%A', '']);
      query.push(Buffer.concat([Buffer.from(`${i === 0 ? '?' : '&'}${key}=`), piece(random)]));
    }
    parts.push(...query);
  }
  const target = Buffer.concat(parts);
  return target.length > 0 && target[0] === 0x2f ? target : Buffer.concat([Buffer.from('/'), target]);
}

interface RawResponse {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: string;
}

/** Sends one request with the exact target bytes; reads the answer until close (or, for a stream, the head). */
function rawRequest(port: number, method: string, target: Buffer, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.split('\r\n\r\n')[0] ?? '';
      const [statusLine, ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
      const map = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) map.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const rest = Buffer.concat(chunks).subarray(Buffer.byteLength(head, 'latin1') + 4).toString('utf8');
      resolve({ status, headers: map, body: rest });
    };
    const timer = setTimeout(() => {
      if (chunks.length > 0) finish();
      else {
        socket.destroy();
        reject(new Error(`no answer within 10 s to ${method} ${target.toString('latin1').slice(0, 200)}`));
      }
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Event streams stay open: their head is the answer.
      if (/content-type: text\/event-stream/i.test(Buffer.concat(chunks).toString('latin1'))) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    const lines = [`Host: 127.0.0.1:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body !== '') lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    socket.write(Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(` HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`)]));
  });
}

function authHeaders(random: SeededRandom): Record<string, string> {
  switch (random.int(0, 4)) {
    case 0:
      return {};
    case 1:
    case 2:
      return { Authorization: `Bearer ${TOKEN}` };
    case 3:
      return { Authorization: 'Bearer not-the-token', Origin: 'http://127.0.0.1:1' };
    default:
      return { 'X-Corral-Session': 'c1.not-a-session', 'Sec-WebSocket-Protocol': 'corral.v1, corral-session.x' };
  }
}

let tmux: TestTmux;
let ntfy: Server;
let cli: LiveCli;
let port = 0;

beforeAll(async () => {
  tmux = await startTestTmux();
  await tmux.spawn('sleep 600');
  ntfy = createServer((req, res) => {
    req.resume();
    res.end('{}');
  });
  await new Promise<void>((resolve) => ntfy.listen(0, '127.0.0.1', resolve));
  const ntfyPort = (ntfy.address() as { port: number }).port;
  cli = startCli(
    ['serve', '--bridge', '--attach', '-L', tmux.socketName, '--port', '0', '--ntfy', `http://127.0.0.1:${ntfyPort}/corral`],
    cliEnv({ CORRAL_TOKEN: TOKEN }),
  );
  const line = await cli.waitForLine((l) => l.includes('attach server on'), 20_000);
  port = Number(/127\.0\.0\.1:(\d+)\//.exec(line)?.[1]);
});

afterAll(async () => {
  await cli?.stop('SIGTERM');
  await tmux?.kill();
  await new Promise<void>((resolve) => ntfy?.close(() => resolve()));
});

describe('malformed paths and queries on every route', () => {
  it.each(testSeeds(2604))('never get a 5xx, always a 4xx with a JSON body, and never stop the server (seed %i)', async (seed) => {
    const random = new SeededRandom(seed);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 700; i++) {
      const method = random.pick(METHODS);
      const target = fuzzTarget(random);
      const body = method === 'POST' || method === 'PUT' ? random.pick(['{}', '{"answer":"1","screen":"x"}', '{"text":"x"}', 'not json', '']) : '';
      const response = await rawRequest(port, method, target, authHeaders(random), body);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const shown = `${method} ${target.toString('latin1').slice(0, 120)}${target.length > 120 ? `… (${target.length} bytes)` : ''}`;
      if (response.status < 100 || response.status >= 500) {
        failures.push(`${shown} -> ${response.status} ${response.body.slice(0, 200)}`);
        continue;
      }
      if (response.status >= 400 && method !== 'HEAD') {
        const type = response.headers.get('content-type') ?? '';
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(response.body);
        } catch {
          // reported below
        }
        const message = (parsed as { error?: { message?: unknown } } | null)?.error?.message;
        if (!type.startsWith('application/json') || typeof message !== 'string')
          failures.push(`${shown} -> ${response.status} ${type} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures.slice(0, 20), `seed ${seed}: ${failures.length} bad answers`).toEqual([]);
    // Malformed requests got refusals, not pages.
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    // Still up, and still serving the real thing.
    expect(cli.child.exitCode).toBeNull();
    const panes = await fetch(`http://127.0.0.1:${port}/api/panes`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(panes.status).toBe(200);
    expect(cli.stderr()).not.toMatch(/internal error|uncaught|TypeError|URIError/i);
  });

  it('answers the malformed answer link that once gave a 500 with a 4xx', async () => {
    const response = await rawRequest(port, 'POST', Buffer.from('/answer/%E0%A4%A'), {}, '');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: expect.any(String) } });
  });
});
