// Builds the engine's parts from settings: the tmux client, the prompt rules, and whether corral
// runs inside the server it watches (then its own pane is left out).

import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import type { HostsSettings, PromptSettings, Settings } from '../engine/settings/config.js';
import { settingsSlices } from './settings-slices.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { buildRules, type PromptRules } from '../engine/prompt/matcher.js';
import { TmuxClient } from '../engine/tmux/client.js';
import { tmuxVersion } from '../engine/tmux/core.js';
import { TmuxMissingError } from '../engine/tmux/runner.js';
import { localHost, openTmux, type OpenedTmux } from '../engine/tmux/open.js';
import { removeStaleControlDirs } from '../engine/tmux/transport.js';
import { combineEngines, type HostsEngine } from '../engine/hosts/hosts-engine.js';
import { processAlive } from '../engine/tmux/process-alive.js';
import { startStatusWriter } from '../engine/records/status-writer.js';
import { localForegroundChild } from '../engine/prompt/process-work.js';
import { ttyUsedBy } from '../engine/poll/tty-output.js';
import { namedSocketPath, socketPathFromTmuxEnv } from '../engine/tmux/socket.js';
import { LOCAL_HOST, type HostSpec, type TmuxSocket } from '../engine/types.js';
import { TMUX_FORMATS } from '../engine/records/tmux-formats.js';
import { backgroundTimers, clock, controlTimers, pollTimers } from './time.js';

/**
 * The server corral talks to: -S, else -L, else, like tmux itself, the server of the pane it runs
 * in ($TMUX), else the default one. The server from $TMUX is named as a user would reach it: by
 * `-L NAME` when its socket is where tmux keeps named ones, else by `-S PATH`.
 */
export function socketFromSettings(settings: Pick<HostsSettings, 'socketName' | 'socketPath'>, env: NodeJS.ProcessEnv = {}): TmuxSocket {
  if (settings.socketPath) return { kind: 'path', path: settings.socketPath };
  if (settings.socketName) return { kind: 'name', name: settings.socketName };
  const inside = socketPathFromTmuxEnv(env.TMUX);
  return inside === null ? { kind: 'default' } : socketForPath(inside, env, process.getuid?.() ?? 0);
}

export function socketForPath(path: string, env: NodeJS.ProcessEnv, uid: number): TmuxSocket {
  const named = namedSocketPath('default', env, uid);
  if (dirname(path) !== dirname(named)) return { kind: 'path', path };
  const name = basename(path);
  return name === 'default' ? { kind: 'default' } : { kind: 'name', name };
}

/** The prompt rules for promptPack + promptPatterns; throws a ConfigError naming an invalid pattern. */
export function rulesFromSettings(settings: PromptSettings): PromptRules {
  return buildRules({ pack: settings.promptPack, patterns: settings.promptPatterns });
}

/** Fails with the install hint when tmux is missing; warns on versions older than 3.2. */
export async function checkTmux(tmux: TmuxClient, stderr: NodeJS.WritableStream): Promise<void> {
  const version = await tmuxVersion(tmux.runner).catch((error: unknown) => {
    if (error instanceof TmuxMissingError) throw error;
    return null;
  });
  if (version && (version[0] < 3 || (version[0] === 3 && version[1] < 2))) {
    stderr.write(`corral: warning: tmux ${version.join('.')} is older than 3.2; some features may not work\n`);
  }
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/**
 * Whether corral runs inside the very server it watches, and in which pane: a popup
 * (`display-popup`) is inside the server without a pane of its own (tmux sets $TMUX there, not
 * $TMUX_PANE). Pane ids repeat across servers, so the socket must match.
 */
export async function corralPlace(tmux: TmuxClient, env: NodeJS.ProcessEnv): Promise<{ readonly inside: boolean; readonly paneId: string | null }> {
  const ownSocket = socketPathFromTmuxEnv(env.TMUX);
  if (!ownSocket) return { inside: false, paneId: null };
  const watched = await tmux.panes.socketPath();
  const inside = watched !== null && samePath(watched, ownSocket);
  return { inside, paneId: inside ? (env.TMUX_PANE ?? null) || null : null };
}

/** corral's own pane id, when it runs in a pane of the server it watches. */
export async function selfPaneId(tmux: TmuxClient, env: NodeJS.ProcessEnv): Promise<string | null> {
  return (await corralPlace(tmux, env)).paneId;
}

/** One watched host: its engine and the tmux client under it. */
export interface HostHandle {
  readonly spec: HostSpec;
  readonly engine: Engine;
  readonly tmux: TmuxClient;
}

export interface EngineSetup {
  /** Every host's engine as one: this machine first, then the hosts named with --host. */
  readonly engine: HostsEngine;
  readonly hosts: ReadonlyMap<string, HostHandle>;
  /** This machine's tmux client. */
  readonly tmux: TmuxClient;
  readonly selfPaneId: string | null;
  /** corral runs inside the local server it watches (in a pane, or in a popup without one). */
  readonly insideServer: boolean;
}

/** The hosts other than this machine, by name. */
export function remoteHosts(hosts: ReadonlyMap<string, HostHandle>): ReadonlyMap<string, HostHandle> {
  return new Map([...hosts].filter(([name]) => name !== LOCAL_HOST));
}

/**
 * `persistent`: the engine will poll for a long time (dashboard, watch, serve), so its polls go
 * over one tmux control-mode connection instead of a new tmux process each cycle (over ssh: one
 * `ssh -T host tmux -C` session beside the host's master connection).
 *
 * Nothing waits for another host here: a host that is down or slow shows up in its health once
 * the engine runs, and never holds up this machine's panes.
 */
export async function setupEngine(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
  options: { persistent?: boolean } = {},
): Promise<EngineSetup> {
  const slices = settingsSlices(settings);
  const persistent = options.persistent ?? false;
  // What corral processes killed outright left behind (ssh master folders, idle masters) goes first.
  removeStaleControlDirs();
  const local = openTmux(localHost(socketFromSettings(slices.hosts, env)), { formats: TMUX_FORMATS, persistent, clock, timers: controlTimers });
  const tmux = local.client;
  await checkTmux(tmux, stderr);
  const place = await corralPlace(tmux, env);
  const self = place.paneId;
  const rules = rulesFromSettings(slices.prompt);
  const opened: OpenedTmux[] = [local];
  const hosts = new Map<string, HostHandle>();
  hosts.set(LOCAL_HOST, {
    spec: localHost(tmux.socket),
    tmux,
    engine: createEngine({ settings: slices.engine, tmux, clock, wallClock: clock, timers: pollTimers, selfPaneId: self, rules, terminalUse: ttyUsedBy, processWork: localForegroundChild }),
  });
  for (const spec of slices.hosts.hosts) {
    const remote = openTmux(spec, { formats: TMUX_FORMATS, persistent, clock, timers: controlTimers });
    opened.push(remote);
    hosts.set(spec.name, { spec, tmux: remote.client, engine: createEngine({ settings: slices.engine, tmux: remote.client, clock, wallClock: clock, timers: pollTimers, rules, host: spec }) });
  }
  const combined = combineEngines(new Map([...hosts].map(([name, handle]) => [name, handle.engine])));
  // A long-running corral keeps each server's status-line options (status-options.ts).
  const writers = persistent && settings.statusOptions ? [...hosts.values()].map((handle) => startStatusWriter({ engine: handle.engine, tmux: handle.tmux, machine: hostname(), pid: process.pid, alive: processAlive, clock, timers: backgroundTimers })) : [];
  const engine: HostsEngine = {
    ...combined,
    async stop() {
      // The options go while the connections are still open.
      await Promise.all(writers.map((writer) => writer.stop()));
      await combined.stop();
      // The engines closed their poll connections; what is left are the ssh masters.
      await Promise.all(opened.map((o) => o.close()));
    },
  };
  return { engine, hosts, tmux, selfPaneId: self, insideServer: place.inside };
}
