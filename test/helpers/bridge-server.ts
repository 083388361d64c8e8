// A running chat bridge for integration tests: a private tmux server, the engine watching it,
// and corral's HTTP server with the bridge on port 0.

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { createServices, type Services } from '../../src/cli/http-services.js';
import type { BridgeFeature } from '../../src/server/bridge/index.js';
import { startTestTmux, type TestTmux } from './tmux-server.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from './real-time.js';

export const TOKEN = 'test-token-0123456789abcdef';

export interface BridgeHarness {
  readonly tmux: TestTmux;
  readonly engine: Engine;
  readonly services: Services;
  readonly bridge: BridgeFeature;
  readonly port: number;
  readonly baseURL: string;
  /** A new shell pane at its prompt, known to the engine. */
  shell(options?: { title?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startBridge(extraFlags: Record<string, unknown> = {}, options: { log?: (line: string) => void } = {}): Promise<BridgeHarness> {
  const tmux = await startTestTmux();
  try {
    await tmux.spawn(undefined, { title: 'first' });
    const settings = resolveSettings({
      flags: { socketName: tmux.socketName, port: '0', pollIntervalMs: '200', ...extraFlags },
      env: {},
      file: null,
    });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: tmux.socket });
    const engine = createEngine({ ...realEngineTime, settings, tmux: client });
    engine.start();
    const services = createServices({ engine, tmux: client, settings, token: TOKEN, ...(options.log ? { log: options.log } : {}) });
    await services.startBridge();
    const url = new URL(services.status().url!);
    const port = Number(url.port);
    return {
      tmux,
      engine,
      services,
      bridge: services.bridge!,
      port,
      baseURL: `http://127.0.0.1:${port}/v1`,
      async shell(options = {}) {
        const id = await tmux.spawn(undefined, options);
        await tmux.waitForScreen(id, (screen) => /\$\s*$/.test(screen.trimEnd()));
        await engine.pollNow();
        return id;
      },
      async close() {
        await services.close();
        await engine.stop();
        await tmux.kill();
      },
    };
  } catch (error) {
    await tmux.kill();
    throw error;
  }
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A plain HTTP request with full control over headers (Host included). */
export function raw(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/v1/models', headers: options.headers ?? {} },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const auth = { authorization: `Bearer ${TOKEN}` };
