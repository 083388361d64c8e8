// The dashboard's b / w toggles: real servers on a free port, state published for the header.

import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDashboardServices, type DashboardServices } from '../../src/cli/dashboard-services.js';
import { resolveSettings, type Settings } from '../../src/engine/settings/config.js';
import type { Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { EngineSnapshot } from '../../src/engine/types.js';
import { scriptedTmux } from '../helpers/scripted-panes.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

const TOKEN = 'dashboard-services-token-0123';
const env = { CORRAL_TOKEN: TOKEN, XDG_CONFIG_HOME: '/nonexistent-config-dir' } as NodeJS.ProcessEnv;

function fakeEngine(port: number): Engine & { readonly settings: Settings; readonly tmux: TmuxClient } {
  const settings = resolveSettings({ flags: { port: String(port) }, env: {}, file: null });
  return {
    tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner: scriptedTmux({}).runner }),
    settings,
    getSnapshot: () => ({ panes: [] }) as unknown as EngineSnapshot,
    subscribe: () => () => undefined,
    acknowledge: () => undefined,
    markSeen: () => undefined,
    markAnswered: () => undefined,
    focus: () => undefined,
    observeHook: () => false,
    pollNow: async () => undefined,
    onEvent: () => () => undefined,
    start: () => undefined,
    stop: async () => undefined,
  };
}

let services: DashboardServices | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
});

describe('dashboard services', () => {
  it('switches the bridge and the attach server on and off, publishing where they listen', async () => {
    const engine = fakeEngine(0);
    services = createDashboardServices(engine, engine.settings, env);
    expect(services.store.getSnapshot()).toEqual({ bridge: { status: 'off' }, attach: { status: 'off' } });
    await services.toggleBridge();
    const bridge = services.store.getSnapshot().bridge;
    expect(bridge).toMatchObject({ status: 'on', detail: 'token from CORRAL_TOKEN' });
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = await fetch(`${bridge.url}/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(models.status).toBe(200);
    await services.toggleAttach();
    const attach = services.store.getSnapshot().attach;
    expect(attach.url).toBe(bridge.url!.replace('/v1', '/'));
    // w shows a browser link that signs in once, without the token.
    const link = /^(http:\S+\?code=[\w-]+) \(works once/.exec(attach.link ?? '')![1]!;
    expect(link.startsWith(attach.url!)).toBe(true);
    expect(link).not.toContain(TOKEN);
    const signIn = await fetch(`${attach.url}api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: new URL(link).searchParams.get('code') }),
    });
    expect(signIn.status).toBe(201);
    const { session } = (await signIn.json()) as { session: string };
    const panes = () => fetch(`${attach.url}api/panes`, { headers: { authorization: `Bearer ${session}` } });
    expect((await panes()).status).toBe(200);
    // Sessions belong to the process: w off and on again keeps the browser signed in.
    await services.toggleAttach();
    expect((await panes()).status).toBe(404);
    await services.toggleAttach();
    expect((await panes()).status).toBe(200);
    await services.toggleBridge();
    expect(services.store.getSnapshot().bridge).toEqual({ status: 'off' });
    expect(services.store.getSnapshot().attach.status).toBe('on');
  });

  it('shows a busy port as an error and keeps running', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const engine = fakeEngine(port);
      services = createDashboardServices(engine, engine.settings, env);
      await expect(services.toggleBridge()).rejects.toThrow(/already in use/);
      expect(services.store.getSnapshot().bridge).toMatchObject({ status: 'error' });
    } finally {
      blocker.close();
    }
  });
});
