// The dashboard's `b` and `w` keys: the chat bridge and the attach server on corral's HTTP server,
// switched on and off through the services switchboard, with their state in the store the header
// reads. The token is resolved on the first switch-on, so a dashboard that never serves anything
// never creates a token file. The pane ports the dashboard types through are the services' too:
// built on first use, shared, and closed last.

import type { Settings } from '../engine/settings/config.js';
import type { TmuxClient } from '../engine/tmux/client.js';
import type { PanePort } from '../engine/port/pane-port.js';
import type { PanePortsHolder } from './pane-ports.js';
import type { ServicesOptions } from './http-services.js';
import { createServicesStore, type MutableServicesStore, type ServiceName } from '../ui/service-state.js';
import { configDir } from './config-file.js';
import { refreshHookLauncher } from './hook-launcher.js';
import type { Services } from './http-services.js';
import { findToken, resolveToken, type ResolvedToken } from './token.js';

export interface DashboardServices {
  readonly store: MutableServicesStore;
  toggleBridge(): Promise<void>;
  toggleAttach(): Promise<void>;
  /**
   * Starts the agent hook receiver when a token exists already (`corral hooks install` makes one):
   * a dashboard never creates a token file by itself. Resolves to why it did not start, or null.
   */
  startHooks(): Promise<string | null>;
  /** The services, once something started them. */
  readonly services: Services | null;
  /** The pane port every host's panes are typed through (the one the services use too). */
  panes(): Promise<PanePort>;
  close(): Promise<void>;
}

/** The engine as the services need it: every host's store, this machine's tmux client, the other hosts. */
export type DashboardServicesEngine = ServicesOptions['engine'] & {
  readonly tmux: TmuxClient;
  readonly remotes?: ServicesOptions['remotes'];
};

export function createDashboardServices(engine: DashboardServicesEngine, settings: Settings, env: NodeJS.ProcessEnv): DashboardServices {
  const store = createServicesStore({ bridge: { status: 'off' }, attach: { status: 'off' } });
  let services: Services | null = null;
  let token: ResolvedToken | null = null;
  const portOptions = { engine, tmux: engine.tmux, ...(engine.remotes ? { remotes: engine.remotes } : {}), settings };
  // The pane ports (and the terminal emulator under them) load on first use too.
  let holder: Promise<PanePortsHolder> | null = null;
  const ports = () => (holder ??= import('./pane-ports.js').then(({ panePortsHolder }) => panePortsHolder(portOptions)));

  // The servers load on the first switch-on, so the dashboard starts without them.
  const open = async (): Promise<Services> => {
    token ??= resolveToken({ env, configDir: configDir(env) });
    const [{ createServices }, shared] = await Promise.all([import('./http-services.js'), ports()]);
    services ??= createServices({ ...portOptions, token: token.token, ports: shared, record: { configDir: configDir(env), tokenPath: token.path } });
    return services;
  };

  const where = (name: ServiceName, url: string): string => (name === 'bridge' ? `${url}/v1` : `${url}/`);
  const tokenNote = (): string => (token?.path ? `token in ${token.path}` : `token from ${token?.source === 'flag' ? '--token' : 'CORRAL_TOKEN'}`);

  const toggle = async (name: ServiceName): Promise<void> => {
    const current = store.getSnapshot()[name].status;
    if (current === 'starting') return;
    try {
      const s = await open();
      if (current === 'on') {
        await (name === 'bridge' ? s.stopBridge() : s.stopAttach());
        store.update(name, { status: 'off' });
        return;
      }
      store.update(name, { status: 'starting' });
      await (name === 'bridge' ? s.startBridge() : s.startAttach());
      // The attach page opens with a single-use login code, never with the token itself.
      const link = name === 'attach' ? s.attachLink() : null;
      store.update(name, {
        status: 'on',
        url: where(name, s.status().url ?? ''),
        detail: tokenNote(),
        ...(link ? { link: `${link.url} (works once, for 10 minutes)` } : {}),
      });
    } catch (error) {
      store.update(name, { status: 'error', detail: (error as Error).message });
      throw error;
    }
  };

  return {
    store,
    toggleBridge: () => toggle('bridge'),
    toggleAttach: () => toggle('attach'),
    async startHooks() {
      if (!settings.hooks) return 'switched off (--no-hooks)';
      try {
        token ??= findToken({ env, configDir: configDir(env) });
        if (token === null) return 'no token yet (corral hooks install makes one)';
        await (await open()).startHooks();
        // Installed hooks reach this corral from now on, wherever the last one lived.
        refreshHookLauncher(env);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    },
    get services() {
      return services;
    },
    panes: async () => (await ports()).get().port,
    async close() {
      await services?.close();
      if (holder) await (await holder).close();
    },
  };
}
