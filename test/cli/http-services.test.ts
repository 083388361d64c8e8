// The services switchboard: the bridge turns on and off on one server that keeps its port.

import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { EngineHandle, EngineSnapshot } from '../../src/engine/types.js';
import { ServiceError, createServices, type Services } from '../../src/cli/http-services.js';
import { scriptedTmux } from '../helpers/scripted-panes.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

const TOKEN = 'services-token-0123456789';
const engine: EngineHandle & { observeHook(): boolean } = {
  getSnapshot: () => ({ panes: [] }) as unknown as EngineSnapshot,
  subscribe: () => () => undefined,
  acknowledge: () => undefined,
  markSeen: () => undefined,
  markAnswered: () => undefined,
  focus: () => undefined,
  pollNow: async () => undefined,
  onEvent: () => () => undefined,
  observeHook: () => false,
};
const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner: scriptedTmux({}).runner });

let services: Services | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
});

function make(port: number): Services {
  const settings = resolveSettings({ flags: { port: String(port) }, env: {}, file: null });
  return createServices({ engine, tmux, settings, token: TOKEN });
}

describe('createServices', () => {
  it('starts, stops and restarts the bridge on the same port, publishing its status', async () => {
    services = make(0);
    const seen: boolean[] = [];
    services.subscribe(() => seen.push(services!.status().bridge));
    expect(services.status()).toEqual({ url: null, bridge: false, attach: false, hooks: false, error: null });

    await services.startBridge();
    const url = services.status().url!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const models = () => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await models()).status).toBe(200);

    await services.stopBridge();
    expect(services.status()).toMatchObject({ url, bridge: false });
    expect((await models()).status).toBe(404);

    await services.startBridge();
    expect(services.status().url).toBe(url);
    expect((await models()).status).toBe(200);
    expect(seen).toEqual([true, false, true]);
  });

  it('reports a busy port as a sentence and keeps it in the status', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      services = make(port);
      await expect(services.startBridge()).rejects.toBeInstanceOf(ServiceError);
      expect(services.status()).toEqual({
        url: null,
        bridge: false,
        attach: false,
        hooks: false,
        error: `port ${port} on 127.0.0.1 is already in use (another corral serve?); choose another with --port`,
      });
    } finally {
      blocker.close();
    }
  });

  it('runs the attach server beside the bridge and switches each off alone', async () => {
    services = make(0);
    await services.startAttach();
    const url = services.status().url!;
    const page = () => fetch(`${url}/api/panes`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await page()).status).toBe(200);
    await services.startBridge();
    expect(services.status()).toMatchObject({ bridge: true, attach: true });
    await services.stopAttach();
    expect(services.status()).toMatchObject({ url, bridge: true, attach: false });
    expect((await page()).status).toBe(404);
    await services.startAttach();
    expect((await page()).status).toBe(200);
  });
});
