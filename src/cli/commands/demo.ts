// `corral demo`: a private tmux server (`-L corral-demo-<pid>`, one per run, so two demos never
// share one) with sample panes driven by the scripts in demo/, short thresholds so something
// becomes stuck within seconds, and the dashboard on it. The server is killed on every way out
// (q, Ctrl-C, signals, errors); servers of demos that died without cleaning up are removed at the
// next start.

import { processAlive } from '../../engine/tmux/process-alive.js';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Settings } from '../../engine/settings/config.js';
import { createEngine } from '../../engine/engine.js';
import { envValue } from '../../engine/settings/env.js';
import { TmuxClient } from '../../engine/tmux/client.js';
import { createExecRunner, runChecked, type TmuxRunner } from '../../engine/tmux/runner.js';
import { localTransport } from '../../engine/tmux/transport.js';
import { namedSocketPath } from '../../engine/tmux/socket.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { loadDashboard } from '../load-dashboard.js';
import { packageRoot } from '../package-root.js';
import { checkTmux, rulesFromSettings, selfPaneId } from '../setup.js';
import { createDashboardServices } from '../dashboard-services.js';
import type { Lifecycle } from '../lifecycle.js';
import { bellMode, dashboardServiceOptions, requireTerminal } from '../dashboard-options.js';
import { LISTED_RECORDS } from '../../engine/records/tmux-formats.js';
import { clock, pollTimers } from '../time.js';

/** Demo servers are `-L corral-demo-<pid of the corral that owns it>`. */
export const DEMO_SOCKET_PREFIX = 'corral-demo-';
const DEMO_QUIET_MS = 3_000;
const DEMO_POLL_MS = 500;

/** Where the sample scripts live: `demo/` at the package root (shipped in "files"). */
export const DEMO_DIR = join(packageRoot(), 'demo');

export interface DemoPane {
  readonly window: string;
  readonly title: string;
  /** argv run in the pane (no shell string: each argument stands alone). */
  readonly argv: readonly string[];
}

function hasPython(env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(`${dir}/python3`));
}

export function demoPanes(env: NodeJS.ProcessEnv): DemoPane[] {
  const node = process.execPath;
  const script = (name: string) => join(DEMO_DIR, name);
  return [
    { window: 'agent', title: 'agent: fix the flaky test', argv: [node, script('agent.mjs')] },
    { window: 'spinner', title: 'agent: refactor the parser', argv: [node, script('spinner.mjs')] },
    { window: 'build', title: 'make all', argv: [node, script('build.mjs')] },
    { window: 'shell', title: 'shell', argv: ['bash', '--norc', '--noprofile', '-i'] },
    hasPython(env)
      ? { window: 'python', title: 'python3', argv: ['python3', '-q'] }
      : { window: 'python', title: 'python3 (not installed)', argv: [node, script('no-python.mjs')] },
    { window: 'backup', title: 'nightly backup', argv: [node, script('quiet-job.mjs')] },
  ];
}

export class DemoBusyError extends Error {
  constructor(readonly server: string) {
    super(`a demo already runs on tmux -L ${server}; quit it first, or unset CORRAL_DEMO_SOCKET to start one of your own`);
    this.name = 'DemoBusyError';
  }
}


/** Removes the servers of demos whose corral is gone (killed without cleaning up); never a live one. */
export async function removeOrphanDemos(env: NodeJS.ProcessEnv, uid: number): Promise<string[]> {
  const dir = dirname(namedSocketPath('x', env, uid));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = new RegExp(`^${DEMO_SOCKET_PREFIX}(\\d+)$`).exec(name)?.[1];
    if (pid === undefined || processAlive(Number(pid))) continue;
    await createExecRunner(localTransport({ kind: 'name', name }))(['kill-server']).catch(() => undefined);
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Starts the demo server with one window per sample pane; refuses a server that already runs. */
export async function startDemoServer(
  runner: TmuxRunner,
  env: NodeJS.ProcessEnv,
  size = { width: 100, height: 30 },
  name = 'demo',
): Promise<void> {
  // Never take over a running server: it may be another demo's.
  if ((await runner(['list-sessions'])).exitCode === 0) throw new DemoBusyError(name);
  const panes = demoPanes(env);
  const shellEnv = ['-e', 'PS1=demo$ ', '-e', 'PROMPT_COMMAND=', '-e', 'HISTFILE=/dev/null'];
  const [first, ...rest] = panes;
  if (!first) return;
  await runChecked(runner, [
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    'demo',
    '-x',
    String(size.width),
    '-y',
    String(size.height),
    '-n',
    first.window,
    ...shellEnv,
    ...first.argv,
  ]);
  await runChecked(runner, ['set-option', '-g', 'remain-on-exit', 'off']);
  await runChecked(runner, ['select-pane', '-t', 'demo:0.0', '-T', first.title]);
  for (const [i, pane] of rest.entries()) {
    await runChecked(runner, ['new-window', '-d', '-t', `demo:${i + 1}`, '-n', pane.window, ...shellEnv, ...pane.argv]);
    await runChecked(runner, ['select-pane', '-t', `demo:${i + 1}.0`, '-T', pane.title]);
  }
}

export interface DemoOptions {
  readonly settings: Settings;
  readonly env: NodeJS.ProcessEnv;
  readonly stderr: NodeJS.WritableStream;
  readonly lifecycle: Lifecycle;
  readonly label?: string;
}

export async function runDemo({ settings, env, stderr, lifecycle, label }: DemoOptions): Promise<number> {
  // Tests and recordings name their socket, so they never meet a user's demo.
  const fixed = envValue(env, 'CORRAL_DEMO_SOCKET') ?? null;
  const name = fixed ?? `${DEMO_SOCKET_PREFIX}${process.pid}`;
  const socket = { kind: 'name', name } as const;
  const runner = createExecRunner(localTransport(socket));
  const tmux = new TmuxClient({ records: LISTED_RECORDS, socket, runner, clock });
  await checkTmux(tmux, stderr);
  const uid = process.getuid?.() ?? 0;
  await removeOrphanDemos(env, uid);
  try {
    await startDemoServer(runner, env, undefined, name);
  } catch (error) {
    if (!(error instanceof DemoBusyError)) await runner(['kill-server']).catch(() => {});
    if (error instanceof DemoBusyError) {
      stderr.write(`corral: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const demoSettings: Settings = {
    ...settings,
    socketName: name,
    socketPath: null,
    optIn: false,
    quietThresholdMs: DEMO_QUIET_MS,
    pollIntervalMs: DEMO_POLL_MS,
  };
  // Ink and React load only for the dashboard; start loading them while the demo server starts.
  const session = loadDashboard();
  try {
    const self = await selfPaneId(tmux, env);
    const engine = {
      ...createEngine({ settings: demoSettings, tmux, clock, wallClock: clock, timers: pollTimers, selfPaneId: self, rules: rulesFromSettings(demoSettings) }),
      tmux,
    };
    const { runDashboard } = await session;
    const services = createDashboardServices(engine, demoSettings, env);
    try {
      return await runDashboard({
        engine,
        pollMs: demoSettings.pollIntervalMs,
        selfPaneId: self,
        bell: bellMode(settings),
        env,
        lifecycle,
        label: `${label ?? 'DEMO'} · -L ${name} · sample panes, removed on quit`,
        ...dashboardServiceOptions(services),
      });
    } finally {
      await services.close();
    }
  } finally {
    await runner(['kill-server']).catch(() => {});
    // The server was corral's, so is the socket file tmux leaves behind.
    rmSync(namedSocketPath(name, env, uid), { force: true });
  }
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'try the dashboard on a private tmux server with sample panes',
  usage: 'demo',
  details: [
    'Starts a private tmux server (tmux -L corral-demo-<pid>, one per run) with sample programs (an',
    'agent at a permission menu, a spinner, a build, a shell, a Python REPL, a quiet job), quiet',
    'threshold 3 s and poll 0.5 s, and opens the dashboard on it. The demo server is removed when you',
    'quit; two demos at once each have their own.',
  ].join('\n'),
  settings: [...settingsOf('prompt', 'bell', 'bridge', 'attach', 'address'), 'prefix', 'previewLines', 'hookGraceMs', 'hookPermissionTtlMs'],
  flags: [],
  async run({ settings, env, stdout, stderr, lifecycle }) {
    requireTerminal(stdout);
    return runDemo({ settings, env, stderr, lifecycle });
  },
};
