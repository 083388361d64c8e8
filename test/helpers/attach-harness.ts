// A real CorralServer on port 0 with the attach feature on a private tmux server, plus a
// WebSocket client that records what it receives.

import WebSocket from 'ws';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { createPanePort, type HostPanePort } from '../../src/engine/port/pane-port.js';
import { LOCAL_HOST, type EngineHandle, type EngineSnapshot } from '../../src/engine/types.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { createControlRunner } from '../../src/engine/tmux/control-runner.js';
import { createExecRunner } from '../../src/engine/tmux/runner.js';
import { localTransport } from '../../src/engine/tmux/transport.js';
import { CorralServer } from '../../src/server/http-server.js';
import {
  createAttachFeature,
  type AttachFeature,
  type AttachSettings,
} from '../../src/server/attach/attach-feature.js';
import type { BrowserSessions } from '../../src/server/attach/sessions.js';
import { fakeEngine, type FakeEngine } from './fake-engine.js';
import { startTestTmux, type TestTmux } from './tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime, realPortTime, realServerTime, realTmuxTime } from './real-time.js';

export const TOKEN = 'test-token-0123456789';

export const DEFAULT_ATTACH_SETTINGS: AttachSettings = {
  attachRingBytes: 1 << 20,
  attachSlowClientBytes: 4 << 20,
  attachAllowedOrigins: [],
  attachAllowResize: false,
  attachPauseAfter: 10,
  attachGraceMs: 300_000,
  attachSessionIdleMs: 43_200_000,
  attachSessionMaxMs: 604_800_000,
};

export interface Harness {
  readonly tmux: TestTmux;
  readonly server: CorralServer;
  readonly feature: AttachFeature;
  /** The pane port the feature streams through (its streams, once a viewer came). */
  readonly port: HostPanePort;
  readonly engine: FakeEngine;
  /** The real engine on the private server, when the harness was asked for one. */
  readonly realEngine: Engine | null;
  readonly client: TmuxClient;
  wsUrl(pane: string, query?: string): string;
  close(): Promise<void>;
}

/**
 * `persistent`: pane lookups go over a control-mode connection, as under `corral serve` (the
 * engine's poll connection); otherwise each lookup is one tmux process.
 */
export async function startHarness(
  settings: Partial<AttachSettings> = {},
  options: {
    allowWrite?: boolean;
    tmux?: TestTmux;
    persistent?: boolean;
    /** Run the real engine (with these settings flags) instead of the hand-driven one. */
    realEngine?: Record<string, unknown>;
    /** The browser sessions (with a test's clock and limits), and how often their limits are checked. */
    sessions?: BrowserSessions;
    heartbeatMs?: number;
  } = {},
): Promise<Harness> {
  const tmux = options.tmux ?? (await startTestTmux());
  const server = new CorralServer({ host: '127.0.0.1', port: 0 });
  await server.listen();
  const engine = fakeEngine([], 'test');
  const all = { ...DEFAULT_ATTACH_SETTINGS, ...settings };
  const exec = createExecRunner(localTransport(tmux.socket));
  const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS,
    socket: tmux.socket,
    runner: exec,
    ...(options.persistent ? { pollRunner: createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: tmux.socket, exec, retryMs: 0 }) } : {}),
  });
  const realEngine = options.realEngine
    ? createEngine({ ...realEngineTime, settings: resolveSettings({ flags: options.realEngine, env: {}, file: null }), tmux: client })
    : null;
  realEngine?.start();
  // Without the real engine running, the hand-driven views come first and the panes of the
  // private server are listed by an engine polled only when a pane is looked up.
  const lister = realEngine ? null : createEngine({ ...realEngineTime, settings: resolveSettings({ flags: {}, env: {}, file: null }), tmux: client });
  const port = createPanePort({ ...realPortTime,
    engine: realEngine ?? (lister ? overlay(engine, lister) : engine),
    tmux: client,
    host: LOCAL_HOST,
    settings: {
      ...all,
      bridgePollMs: 100,
      bridgeQuietMs: 800,
      bridgeLongQuietMs: 60_000,
      bridgeMaxDurationMs: 600_000,
      bridgeHistoryLines: 100,
    },
  });
  const feature = createAttachFeature({ ...realServerTime,
    port,
    token: TOKEN,
    settings: all,
    ...(options.allowWrite === undefined ? {} : { allowWrite: options.allowWrite }),
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  server.enable(feature);
  return {
    tmux,
    server,
    feature,
    port,
    engine,
    realEngine,
    client,
    wsUrl: (pane, query = '') =>
      `ws://127.0.0.1:${server.port}/attach/${pane.replace('%', '')}${query ? `?${query}` : ''}`,
    async close() {
      await server.close();
      await port.close();
      await realEngine?.stop();
      await client.close();
      await tmux.kill();
    },
  };
}

export interface JsonMessage {
  type: string;
  [key: string]: unknown;
}

/** A WebSocket client that keeps every message and can wait for conditions. */
export class TestClient {
  readonly messages: JsonMessage[] = [];
  readonly binary: Buffer[] = [];
  closeCode: number | null = null;
  closeReason = '';
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, protocols: string[] = []) {
    this.ws = new WebSocket(url, protocols, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) this.binary.push(Buffer.from(data as Buffer));
      else this.messages.push(JSON.parse(data.toString()) as JsonMessage);
    });
    this.ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
    });
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  of(type: string): JsonMessage[] {
    return this.messages.filter((m) => m.type === type);
  }

  /** Text of the replays' chunks and the outputs, in arrival order. */
  outputText(): string {
    return this.of('output')
      .map((m) => m.data as string)
      .join('');
  }

  async waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; last messages: ${JSON.stringify(this.messages.slice(-3)).slice(0, 500)}`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async message(type: string, timeoutMs = 5000): Promise<JsonMessage> {
    await this.waitFor(() => this.of(type).length > 0, timeoutMs, `a ${type} message`);
    return this.of(type)[0] as JsonMessage;
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Signs a browser in as the page does: a login link's code traded for a session credential
 * (POST /api/sessions); returns the credential the page would keep in its origin's storage.
 */
export async function signInBrowser(h: Pick<Harness, 'server' | 'feature'>, write = true): Promise<string> {
  const base = `http://127.0.0.1:${h.server.port}`;
  const code = new URL(h.feature.loginLink({ write, base }).url).searchParams.get('code');
  const res = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ code }),
  });
  if (res.status !== 201) throw new Error(`sign-in refused: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session: string }).session;
}

export { waitUntil } from './wait-until.js';

/** Status code of a refused upgrade (or 101 when it was accepted). */
export function upgradeStatus(url: string, headers: Record<string, string>, protocols: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', (error) => reject(error));
  });
}

/** The hand-driven store with the panes another engine lists added after its own. */
function overlay(front: FakeEngine, back: EngineHandle): EngineHandle {
  let cache: { a: EngineSnapshot; b: EngineSnapshot; merged: EngineSnapshot } | null = null;
  const merged = (): EngineSnapshot => {
    const a = front.getSnapshot();
    const b = back.getSnapshot();
    if (cache?.a !== a || cache.b !== b) {
      const keys = new Set(a.panes.map((view) => view.key));
      cache = { a, b, merged: { ...a, panes: [...a.panes, ...b.panes.filter((view) => !keys.has(view.key))] } };
    }
    return cache.merged;
  };
  return {
    getSnapshot: merged,
    subscribe(listener) {
      const stops = [front.subscribe(listener), back.subscribe(listener)];
      return () => stops.forEach((stop) => stop());
    },
    acknowledge: (key) => front.acknowledge(key),
    markSeen: (key) => front.markSeen(key),
    markAnswered: (key, answer, hash) => front.markAnswered(key, answer, hash),
    focus: (keys) => front.focus(keys),
    pollNow: () => back.pollNow(),
    onEvent: (listener) => front.onEvent(listener),
  };
}
