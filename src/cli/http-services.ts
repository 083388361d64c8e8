// The HTTP services (chat bridge, attach server) behind one switchboard, so `corral serve` and
// the dashboard start and stop them the same way. The server listens when the first service
// starts and keeps its port until close().

import type { AttachSettings, BridgeSettings, PromptSettings, ServerSettings } from '../engine/settings/config.js';
import type { EngineHandle, HookEvent } from '../engine/types.js';
import type { TmuxClient } from '../engine/tmux/client.js';
import type { CaptureTicker } from '../engine/conversation/capture-ticker.js';
import { CorralServer, type HttpFeature } from '../server/http-server.js';
import { createBridgeFeature, type BridgeFeature } from '../server/bridge/index.js';
import { createAttachFeature, type AttachFeature, type LoginLink } from '../server/attach/attach-feature.js';
import { HOOKS_FEATURE, createHookFeature } from '../server/hooks/hook-feature.js';
import { BrowserSessions } from '../server/attach/sessions.js';
import type { HostPanePort, PanePort } from '../engine/port/pane-port.js';
import { networkInterfaces } from 'node:os';
import { panePortsHolder, type PanePortsHolder } from './pane-ports.js';
import { writeServerRecord } from '../engine/records/server-record.js';
import { backgroundTimers, clock } from './time.js';

export interface ServicesStatus {
  /** Base URL once the server listens. */
  readonly url: string | null;
  readonly bridge: boolean;
  readonly attach: boolean;
  readonly hooks: boolean;
  /** Why the last start failed, as a sentence. */
  readonly error: string | null;
}

export interface Services {
  startBridge(): Promise<void>;
  stopBridge(): Promise<void>;
  startAttach(): Promise<void>;
  stopAttach(): Promise<void>;
  /** The agent hook receiver (POST /hooks). */
  startHooks(): Promise<void>;
  /** Plugs in another feature (answer links) on the same server; it listens first if needed. */
  enable(feature: HttpFeature): Promise<void>;
  readonly server: CorralServer;
  readonly bridge: BridgeFeature | null;
  /** The bridge's capture loop (for tests and benchmarks: the poll period really kept). */
  readonly bridgeTicker: CaptureTicker | null;
  readonly attach: AttachFeature | null;
  /** The pane port the services share, over every host (null before the first of them uses it). */
  readonly port: PanePort | null;
  /** The shared pane port, built now if no service has yet (typing an answer from a notification). */
  panes(): PanePort;
  /** This machine's own port (its capture ticker and streams, for tests and benchmarks). */
  readonly localPort: HostPanePort | null;
  /**
   * A browser link to the attach page with a new single-use login code (so the long-lived token
   * never appears in a URL, a log or shell history); null while the attach server is off.
   */
  attachLink(): LoginLink | null;
  status(): ServicesStatus;
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

export class ServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceError';
  }
}

export interface ServicesOptions {
  /** The engine of every host as one (hooks reach this machine's panes through it). */
  readonly engine: EngineHandle & { observeHook(paneId: string, hook: HookEvent): boolean };
  /** This machine's tmux client. */
  readonly tmux: TmuxClient;
  /** The other hosts, by name: each one's engine and tmux client (over ssh). */
  readonly remotes?: ReadonlyMap<string, { readonly engine: EngineHandle; readonly tmux: TmuxClient }>;
  readonly settings: ServerSettings & BridgeSettings & AttachSettings & PromptSettings;
  readonly token: string;
  /** Where the chat bridge says what it decided (side requests answered, nothing typed); nowhere by default. */
  readonly log?: (line: string) => void;
  /**
   * Pane ports shared with their owner (the dashboard types through the same ones); closing the
   * services leaves them open. By default the services build their own and close them.
   */
  readonly ports?: PanePortsHolder;
  /**
   * Records where the server listens (server-record.ts) once it does, for the commands that talk to
   * it; removed on close.
   */
  readonly record?: { readonly configDir: string; readonly tokenPath: string | null };
}

function answerHost(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Where a browser reaches a server bound to `host`: the address itself, or for a wildcard bind
 * the machine's first network address (what a phone on the same network can open).
 */
export function browserBase(host: string, port: number): string {
  let name = host;
  if (host === '0.0.0.0' || host === '::') {
    const addresses = Object.values(networkInterfaces()).flat();
    const external = addresses.find((a) => a && !a.internal && a.family === 'IPv4');
    name = external?.address ?? '127.0.0.1';
  }
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Starts the server listening (once), with an error a person can act on when it cannot. */
async function listenOnce(server: CorralServer, settings: Pick<ServerSettings, 'listen' | 'port'>): Promise<void> {
  if (server.listening) return;
  try {
    await server.listen();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const where = `${settings.listen}:${settings.port}`;
    if (code === 'EADDRINUSE') throw new ServiceError(`port ${settings.port} on ${settings.listen} is already in use (another corral serve?); choose another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new ServiceError(`cannot listen on ${where}: this machine has no such address; check --listen`);
    if (code === 'EACCES') throw new ServiceError(`not allowed to listen on ${where}; use a port above 1023`);
    throw new ServiceError(`cannot listen on ${where}: ${(cause as Error).message}`);
  }
}

/**
 * One feature the services switch on and off: started on the shared server (which listens first),
 * stopped by name. A switched-off feature is not reusable: every start builds a fresh one.
 */
class FeatureSwitch<T extends HttpFeature> {
  private feature: T | null = null;

  constructor(
    private readonly server: CorralServer,
    private readonly listen: () => Promise<void>,
    private readonly publish: () => void,
    private readonly build: () => T,
  ) {}

  get current(): T | null {
    return this.feature;
  }

  async start(): Promise<void> {
    if (this.feature) return;
    await this.listen();
    if (this.feature) return; // started twice at once: the first start won
    this.feature = this.build();
    this.server.enable(this.feature);
    this.publish();
  }

  async stop(): Promise<void> {
    if (!this.feature) return;
    const name = this.feature.name;
    this.feature = null;
    await this.server.disable(name);
    this.publish();
  }

  /** Forgets the feature: the server closes it with everything else. */
  drop(): void {
    this.feature = null;
  }
}

/** What the services report: the status, each change told to the subscribers. */
class ServicesReport {
  private readonly listeners = new Set<() => void>();
  private current: ServicesStatus = { url: null, bridge: false, attach: false, hooks: false, error: null };
  /** Why the last start failed, as a sentence. */
  error: string | null = null;

  constructor(private readonly read: () => Omit<ServicesStatus, 'error'>) {}

  get status(): ServicesStatus {
    return this.current;
  }

  publish(): void {
    this.current = { ...this.read(), error: this.error };
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function createServices(options: ServicesOptions): Services {
  const { settings } = options;
  // Answer links reach corral through the address the phone uses (a reverse proxy, a tunnel).
  const extraHosts = settings.answerUrl ? [answerHost(settings.answerUrl)].filter((h): h is string => h !== null) : [];
  const server = new CorralServer({ host: settings.listen, port: settings.port, extraHosts });
  // One pane port for every service, one per host behind it: per host one capture ticker and
  // one set of pane streams.
  const ports = options.ports ?? panePortsHolder(options);
  const portOf = (): PanePort => ports.get().port;
  const report: ServicesReport = new ServicesReport(() => ({
    url: server.listening ? server.url : null,
    bridge: bridge.current !== null,
    attach: attach.current !== null,
    hooks: server.isEnabled(HOOKS_FEATURE),
  }));
  // Browser sessions belong to the process, not to one start of the attach server: switching it
  // off and on (w in the dashboard) keeps browsers signed in; stopping corral ends them all.
  const sessions = new BrowserSessions({ clock, idleMs: settings.attachSessionIdleMs, maxMs: settings.attachSessionMaxMs });
  const publish = () => report.publish();
  let removeRecord: (() => void) | null = null;
  const listen = async () => {
    await listenOrReport(server, settings, report);
    if (options.record && removeRecord === null) removeRecord = await recordServer(options, options.record, server.port);
  };
  const bridge = new FeatureSwitch(server, listen, publish, () => buildBridge(options, portOf()));
  const attach = new FeatureSwitch(server, listen, publish, () => buildAttach(options, portOf(), server, sessions));

  return {
    get bridge() {
      return bridge.current;
    },
    get bridgeTicker() {
      return bridge.current && ports.current ? ports.current.local.ticker : null;
    },
    startBridge: () => bridge.start(),
    stopBridge: () => bridge.stop(),
    get attach() {
      return attach.current;
    },
    get port() {
      return ports.current?.port ?? null;
    },
    get localPort() {
      return ports.current?.local ?? null;
    },
    panes: portOf,
    startAttach: () => attach.start(),
    stopAttach: () => attach.stop(),
    async startHooks() {
      if (server.isEnabled(HOOKS_FEATURE)) return;
      await listen();
      server.enable(createHookFeature({ engine: options.engine, token: options.token, serverSocket: () => options.tmux.panes.socketPath() }));
      publish();
    },
    async enable(feature) {
      await listen();
      server.enable(feature);
      publish();
    },
    server,
    attachLink: () => attach.current?.loginLink() ?? null,
    status: () => report.status,
    subscribe: (listener) => report.subscribe(listener),
    async close() {
      bridge.drop();
      attach.drop();
      await server.close();
      removeRecord?.();
      removeRecord = null;
      // Viewers heard that corral stops; now the streams' control clients detach (unless the
      // ports belong to someone else, who closes them).
      if (!options.ports) await ports.close();
      publish();
    },
  };
}

/** Writes the server record: where a client on this machine reaches the server, and the token file. */
async function recordServer(options: ServicesOptions, record: NonNullable<ServicesOptions['record']>, port: number): Promise<() => void> {
  const tmux = await options.tmux.panes.socketPath().catch(() => null);
  const host = options.settings.listen === '0.0.0.0' ? '127.0.0.1' : options.settings.listen === '::' ? '::1' : options.settings.listen;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    return writeServerRecord(record.configDir, { url, pid: process.pid, tokenPath: record.tokenPath, tmux, startedAt: clock.now() });
  } catch {
    // A config folder that cannot be written: clients fall back to the address in their settings.
    return () => {};
  }
}

/** Listens (once); a failure is reported in the status before it is thrown. */
async function listenOrReport(server: CorralServer, settings: Pick<ServerSettings, 'listen' | 'port'>, report: ServicesReport): Promise<void> {
  try {
    await listenOnce(server, settings);
    report.error = null;
  } catch (cause) {
    report.error = (cause as Error).message;
    report.publish();
    throw cause;
  }
}

function buildBridge(options: ServicesOptions, port: PanePort): BridgeFeature {
  const { settings } = options;
  return createBridgeFeature({
    port,
    token: options.token,
    clock,
    timers: backgroundTimers,
    settings: { corsOrigins: settings.corsOrigins, typeSideRequests: settings.bridgeTypeSideRequests },
    ...(options.log ? { log: options.log } : {}),
  });
}

function buildAttach(options: ServicesOptions, port: PanePort, server: CorralServer, sessions: BrowserSessions): AttachFeature {
  const { settings } = options;
  return createAttachFeature({
    port,
    token: options.token,
    clock,
    timers: backgroundTimers,
    settings,
    sessions,
    baseUrl: () => browserBase(settings.listen, server.port),
  });
}
