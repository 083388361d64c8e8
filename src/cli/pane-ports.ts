// The pane ports: one per host (its capture ticker and pane streams), routed by pane key. Every
// surface that reaches panes goes through them: the servers, the MCP server, answer links and the
// dashboard. A holder builds them once, on first use, so a dashboard that never types loads none.

import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AttachSettings, BridgeSettings, PromptSettings } from '../engine/settings/config.js';
import { envValue } from '../engine/settings/env.js';
import { createPanePort, routePorts, type HostPanePort, type PanePort } from '../engine/port/pane-port.js';
import { classifyScreen } from '../engine/prompt/matcher.js';
import type { TmuxClient } from '../engine/tmux/client.js';
import { LOCAL_HOST, type EngineHandle } from '../engine/types.js';
import { rulesFromSettings } from './setup.js';
import { backgroundTimers, clock, controlTimers, typingTimers } from './time.js';

export interface PanePortsOptions {
  /** The engine of every host as one. */
  readonly engine: EngineHandle;
  /** This machine's tmux client. */
  readonly tmux: TmuxClient;
  /** The other hosts, by name: each one's engine and tmux client (over ssh). */
  readonly remotes?: ReadonlyMap<string, { readonly engine: EngineHandle; readonly tmux: TmuxClient }>;
  readonly settings: BridgeSettings & AttachSettings & PromptSettings;
}

export interface PanePorts {
  /** Every host's port behind one. */
  readonly port: PanePort;
  /** This machine's own port (its capture ticker and streams, for tests and benchmarks). */
  readonly local: HostPanePort;
}

/** Where answers past their cap keep every line: $XDG_STATE_HOME/corral/answers. */
export function answersDir(env: NodeJS.ProcessEnv): string {
  const base = envValue(env, 'XDG_STATE_HOME') ?? join(homedir(), '.local', 'state');
  return join(base, 'corral', 'answers');
}

export function buildPanePorts(options: PanePortsOptions): PanePorts {
  const { settings } = options;
  // The same prompt rules as the engine, so busy and prompt mean the same on the dashboard.
  const rules = rulesFromSettings(settings);
  const classify = (lines: readonly string[]) => classifyScreen(lines, rules);
  // Answers past their cap keep every line in a file of this machine, whichever host printed it.
  const spillDir = answersDir(process.env);
  const time = { clock, typingTimers, timers: backgroundTimers, controlTimers };
  const local = createPanePort({ engine: options.engine, tmux: options.tmux, host: LOCAL_HOST, settings, classify, spillDir, ...time });
  const ports = new Map<string, PanePort>([[LOCAL_HOST, local]]);
  for (const [name, remote] of options.remotes ?? []) {
    ports.set(name, createPanePort({ engine: remote.engine, tmux: remote.tmux, host: name, settings, classify, spillDir, ...time }));
  }
  return { port: routePorts(ports, options.engine, clock), local };
}

/** The pane ports, built on the first `get()`; `close()` ends them if they were. */
export interface PanePortsHolder {
  get(): PanePorts;
  /** The ports when built, else null. */
  readonly current: PanePorts | null;
  close(): Promise<void>;
}

export function panePortsHolder(options: PanePortsOptions): PanePortsHolder {
  let built: PanePorts | null = null;
  return {
    get: () => (built ??= buildPanePorts(options)),
    get current() {
      return built;
    },
    async close() {
      const closing = built;
      built = null;
      await closing?.port.close();
    },
  };
}
