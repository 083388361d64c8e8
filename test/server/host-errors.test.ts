// How the servers answer when a pane's host is down or unknown, over real HTTP with fake pane
// ports: the chat bridge with a 503 and Retry-After (or a 404), the attach server by refusing
// the upgrade before any WebSocket byte. Also how routePorts sends each key to its host's port.

import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect } from 'node:net';
import { CorralServer } from '../../src/server/http-server.js';
import { createBridgeFeature } from '../../src/server/bridge/index.js';
import { createAttachFeature } from '../../src/server/attach/attach-feature.js';
import { HostDownError, UnknownHostError, routePorts, type PanePort } from '../../src/engine/port/pane-port.js';
import type { EngineSnapshot, EngineStore, HostHealth, PaneView } from '../../src/engine/types.js';
import { localHealth, paneView } from '../helpers/fake-engine.js';
import { DEFAULT_ATTACH_SETTINGS } from '../helpers/attach-harness.js';
import { realServerTime } from '../helpers/real-time.js';

const TOKEN = 'unit-token-0123456789';
const NOW = 1_000_000;
const clock = { now: () => NOW };

/** A port that records what reached it and answers every conversation with `answer`. */
function recordingPort(panes: readonly PaneView[], calls: string[], answer = 'fine'): PanePort {
  const snapshot: EngineSnapshot = { server: 'test', hosts: [localHealth('test')], status: 'ok', statusMessage: null, panes, updatedAt: 0, cycle: 1 };
  const refuse = async () => {
    throw new Error('not used here');
  };
  return {
    getSnapshot: () => snapshot,
    subscribe: () => () => undefined,
    acknowledge: (key) => calls.push(`acknowledge ${key}`),
    markSeen: (key) => calls.push(`seen ${key}`),
    markAnswered: (key) => calls.push(`answered ${key}`),
    focus: () => undefined,
    pollNow: async () => undefined,
    onEvent: () => () => undefined,
    find: (key) => panes.find((view) => view.key === key) ?? null,
    async converse(key, text, options) {
      calls.push(`converse ${key} ${text}`);
      options?.onTyped?.();
      options?.onText?.(answer);
      return { status: 'finished', finishReason: 'stop', answer };
    },
    hold: () => null,
    holds: () => [],
    identify: async (key) => `${key.split('/')[0]}/100:1700000000`,
    release: () => undefined,
    stream: refuse,
    repaint: refuse,
    async send(key) {
      calls.push(`send ${key}`);
    },
    input: refuse,
    start: refuse,
    end: refuse,
    read: refuse,
    async answer(key, option) {
      calls.push(`answer ${key} ${option}`);
      return { kind: 'keys', items: [{ kind: 'text', text: option }], label: option };
    },
    async reply(key, text) {
      calls.push(`reply ${key} ${text}`);
    },
    resize: refuse,
    close: async () => undefined,
  };
}

function combinedStore(panes: readonly PaneView[], hosts: readonly HostHealth[]): EngineStore {
  const snapshot: EngineSnapshot = { server: 'test', hosts, status: 'ok', statusMessage: null, panes, updatedAt: 0, cycle: 1 };
  return { getSnapshot: () => snapshot, subscribe: () => () => undefined };
}

const buildBox = (overrides: Partial<HostHealth>): HostHealth =>
  localHealth('build-box server', { name: 'build-box', ssh: 'build-box', ...overrides });

let server: CorralServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(feature: Parameters<CorralServer['enable']>[0]): Promise<number> {
  server = new CorralServer({ host: '127.0.0.1', port: 0 });
  await server.listen();
  server.enable(feature);
  return server.port;
}

function chat(port: number, model: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (part: Buffer) => (body += part.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'make' }] }));
  });
}

/** The raw HTTP answer to a WebSocket upgrade request (a refusal is plain HTTP). */
function upgrade(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
      );
    });
    let text = '';
    socket.on('data', (part: Buffer) => (text += part.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('routePorts', () => {
  const local = paneView({ pane: { paneId: '%1' } });
  const remote = paneView({ host: 'build-box', pane: { paneId: '%3' } });

  it('sends each key to the port of its host', async () => {
    const calls: string[] = [];
    const ports = new Map([
      ['local', recordingPort([local], calls)],
      ['build-box', recordingPort([remote], calls)],
    ]);
    const port = routePorts(ports, combinedStore([local, remote], [localHealth(), buildBox({})]), clock);
    expect(port.find('build-box/%3')).toBe(remote);
    expect(port.find('%1')).toBe(local);
    await port.converse('build-box/%3', 'hi');
    await port.send('%1', [{ kind: 'key', key: 'Enter' }]);
    expect(calls).toEqual(['converse build-box/%3 hi', 'send %1']);
  });

  it('refuses a key of a host that is down, saying when to try again, and of a host it does not know', async () => {
    const calls: string[] = [];
    const down = buildBox({ state: 'unreachable', retryAt: NOW + 12_500 });
    const port = routePorts(new Map([['build-box', recordingPort([remote], calls)]]), combinedStore([remote], [down]), clock);
    const refusal = await port.converse('build-box/%3', 'hi').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HostDownError);
    expect(refusal).toMatchObject({ host: 'build-box', state: 'unreachable', retryAfterS: 13, message: 'build-box is unreachable: not sent' });
    expect(() => port.find('elsewhere/%3')).toThrow(UnknownHostError);
    expect(calls).toEqual([]);
  });
});

describe('chat bridge and hosts', () => {
  it('answers 503 with Retry-After and host_unreachable when the pane\'s host is down; nothing is typed', async () => {
    const calls: string[] = [];
    const remote = paneView({ host: 'build-box', pane: { paneId: '%3' } });
    const down = buildBox({ state: 'unreachable', retryAt: NOW + 30_000 });
    const port = routePorts(new Map([['build-box', recordingPort([remote], calls)]]), combinedStore([remote], [localHealth(), down]), clock);
    const bridge = createBridgeFeature({ ...realServerTime, port, token: TOKEN, settings: { corsOrigins: [] } });
    const answer = await chat(await serve(bridge), 'build-box/%3');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('30');
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { message: 'build-box is unreachable: not sent', type: 'server_error', code: 'host_unreachable' },
    });
    expect(calls).toEqual([]);
  });

  it('answers 404 with a JSON error for a pane of a host corral does not watch', async () => {
    const calls: string[] = [];
    const stray = paneView({ host: 'old-box', pane: { paneId: '%4' } });
    const port = routePorts(new Map([['local', recordingPort([], calls)]]), combinedStore([stray], [localHealth()]), clock);
    const bridge = createBridgeFeature({ ...realServerTime, port, token: TOKEN, settings: { corsOrigins: [] } });
    const answer = await chat(await serve(bridge), 'old-box/%4');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'model_not_found', param: 'model' } });
    expect(JSON.parse(answer.body).error.message).toContain('old-box');
  });

  it('still types into a pane of a host that is up', async () => {
    const calls: string[] = [];
    const remote = paneView({ host: 'build-box', pane: { paneId: '%3' } });
    const port = routePorts(new Map([['build-box', recordingPort([remote], calls, 'built')]]), combinedStore([remote], [buildBox({})]), clock);
    const bridge = createBridgeFeature({ ...realServerTime, port, token: TOKEN, settings: { corsOrigins: [] } });
    const answer = await chat(await serve(bridge), 'build-box/%3');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"content":"built"');
    expect(calls).toEqual(['converse build-box/%3 make']);
  });
});

describe('attach server and hosts', () => {
  const attachOn = (port: PanePort) => createAttachFeature({ ...realServerTime, port, token: TOKEN, settings: DEFAULT_ATTACH_SETTINGS, heartbeatMs: 60_000 });

  it('refuses the upgrade with 503, Retry-After and a JSON body when the pane\'s host is down', async () => {
    const view = paneView({ pane: { paneId: '%5' } });
    const down = localHealth('test', { state: 'unreachable', retryAt: NOW + 4_000 });
    const port = routePorts(new Map([['local', recordingPort([view], [])]]), combinedStore([view], [down]), clock);
    const feature = attachOn(port);
    const reply = await upgrade(await serve(feature), '/attach/5');
    expect(reply).toMatch(/^HTTP\/1\.1 503 /);
    expect(reply).toMatch(/\r\nretry-after: 4\r\n/i);
    expect(reply).not.toMatch(/101 Switching/);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'host_unreachable', type: 'server_error', message: 'local is unreachable: not sent' });
    expect(feature.connectionCount).toBe(0);
  });

  it('refuses the upgrade with 404 for a pane whose host is not served', async () => {
    const port = routePorts(new Map(), combinedStore([], [localHealth()]), clock);
    const reply = await upgrade(await serve(attachOn(port)), '/attach/5');
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'no_such_pane' });
    expect(String(body.error.message)).toContain('local');
  });

  it('answers a page action for a pane of a down host with 503 and types nothing', async () => {
    const calls: string[] = [];
    const view = paneView({ pane: { paneId: '%6' } });
    const down = localHealth('test', { state: 'auth-failed', retryAt: null });
    const port = routePorts(new Map([['local', recordingPort([view], calls)]]), combinedStore([view], [down]), clock);
    const portNumber = await serve(attachOn(port));
    const res = await fetch(`http://127.0.0.1:${portNumber}/api/panes/6/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'yes' }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('host_unreachable');
    expect(calls).toEqual([]);
  });
});
