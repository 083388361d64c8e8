// Runs the Ink dashboard on top of an engine: implements DashboardActions with the pane port (the
// one answer path every surface types through) and this machine's tmux client (jumps, messages),
// rings the bell for new stuck panes, and shuts down in order on q, Ctrl-C or a signal (unmount,
// stop the engine, leave the alternate screen).

import { hostname, homedir } from 'node:os';
import { writeFileSync } from 'node:fs';
import type { ReadStream, WriteStream } from 'node:tty';
import { createElement } from 'react';
import { render } from 'ink';
import type { TmuxClient } from '../engine/tmux/client.js';
import { envValue } from '../engine/settings/env.js';
import { ScreenChangedError, type PanePort, type SendGuard } from '../engine/port/pane-port.js';
import { NoClientError } from '../engine/tmux/core.js';
import { terminalSafe } from '../engine/text/terminal-text.js';
import { socketArgs } from '../engine/tmux/socket.js';
import { LOCAL_HOST, type EngineHandle, type PaneView } from '../engine/types.js';
import type { DashboardActions, JumpResult } from '../ui/actions.js';
import { paneWhere } from '../ui/hosts.js';
import { App } from '../ui/App.js';
import { createServicesStore, type MutableServicesStore } from '../ui/service-state.js';
import { createUiStore } from '../ui/state.js';
import { finishesWithin, type Lifecycle } from './lifecycle.js';
import { killChildren } from '../engine/tmux/child-processes.js';
import { clock } from './time.js';

export type BellMode = 'off' | 'bell' | 'message' | 'both';

/** The engine as the dashboard's actions use it: the store, and this machine's tmux client. */
export type DashboardEngine = EngineHandle & {
  /** This machine's tmux client: switch-client and messages go there. */
  readonly tmux: TmuxClient;
};

/** What the dashboard types through: the pane port over every host (built on first use). */
export type DashboardPanes = () => Promise<Pick<PanePort, 'answer' | 'send' | 'reply' | 'start' | 'end'>>;

export interface DashboardOptions {
  readonly engine: DashboardEngine & { start(): void; stop(): Promise<void> };
  /** The poll interval: how long a pane counts as active after a change. */
  readonly pollMs: number;
  /** corral's own pane when it runs inside the watched server: Enter can switch the client. */
  readonly selfPaneId: string | null;
  /** corral runs inside the watched server, in a pane or a popup (default: when it has a pane there). */
  readonly insideServer?: boolean;
  readonly bell: BellMode;
  readonly label?: string | null;
  readonly env: NodeJS.ProcessEnv;
  /** Signals and crashes end the dashboard through it (it owns the process handlers). */
  readonly lifecycle: Lifecycle;
  readonly stdin?: ReadStream;
  readonly stdout?: WriteStream;
  /** Services the dashboard shows and toggles; unavailable until the CLI wires real ones. */
  readonly services?: MutableServicesStore;
  readonly toggleBridge?: () => Promise<void>;
  readonly toggleAttach?: () => Promise<void>;
  /** The pane port answers, keys and replies go through. */
  readonly panes: DashboardPanes;
}

/** A word as a shell reads it back: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command a user runs to reach a pane from outside tmux (or from another server). */
export function attachCommand(engine: Pick<DashboardEngine, 'tmux'>, target: string): string {
  return ['tmux', ...socketArgs(engine.tmux.socket), 'attach', '-t', target].map(shellWord).join(' ');
}

export function createDashboardActions(
  engine: DashboardEngine,
  panes: DashboardPanes,
  selfPaneId: string | null,
  quit: () => void,
  extra: Pick<DashboardOptions, 'toggleBridge' | 'toggleAttach' | 'insideServer'> = {},
): DashboardActions {
  const { tmux } = engine;
  const inside = extra.insideServer ?? selfPaneId !== null;
  const refresh = () => void engine.pollNow().catch(() => {});
  const guard = (pane: PaneView, shownHash: string): SendGuard => ({ shownHash, target: paneWhere(pane), surface: 'dashboard' });
  /** Types through the port, then looks again, so the pane's new screen is drawn at once. */
  const typed = async <T>(type: (port: Awaited<ReturnType<DashboardPanes>>) => Promise<T>): Promise<T> => {
    try {
      const result = await type(await panes());
      refresh();
      return result;
    } catch (error) {
      // Show the screen as it is now, so the person can look again.
      if (error instanceof ScreenChangedError) refresh();
      throw error;
    }
  };
  return {
    answer: (pane, option, shownHash) => typed((port) => port.answer(pane.key, option, guard(pane, shownHash))),
    send: (pane, items, shownHash) => typed((port) => port.send(pane.key, items, shownHash === null ? undefined : guard(pane, shownHash))),
    reply: (pane, text, shownHash) => typed((port) => port.reply(pane.key, text, guard(pane, shownHash))),
    start: (host, request) => typed((port) => port.start(host, request)),
    async end(pane, pid) {
      // Ending the dashboard's own pane would end the dashboard mid-question: q does that cleanly.
      if (pane.host === LOCAL_HOST && pane.pane.paneId === selfPaneId) throw new Error(`${pane.target} runs this dashboard: quit with q instead`);
      return typed((port) => port.end(pane.key, pid));
    },
    async jumpTo(pane: PaneView): Promise<JumpResult> {
      // Another host's pane is not in this tmux server: only an attach reaches it.
      if (pane.host !== LOCAL_HOST) return { switched: false, message: `${pane.key} is on ${pane.host}: attach with corral attach ${pane.key}` };
      const attach = attachCommand(engine, pane.target);
      if (!inside) {
        return { switched: false, message: `to go there run: ${attach}   (corral is not inside this tmux server)` };
      }
      try {
        await tmux.clients.switchClientTo(pane.pane, selfPaneId);
      } catch (error) {
        if (!(error instanceof NoClientError)) throw error;
        return { switched: false, message: `to go there run: ${attach}   (no tmux client is attached to switch)` };
      }
      return { switched: true, message: `switched to ${pane.target}` };
    },
    toggleBridge: extra.toggleBridge ?? (async () => {}),
    toggleAttach: extra.toggleAttach ?? (async () => {}),
    quit,
  };
}

/** Rings the terminal bell and/or shows a tmux message when a pane becomes stuck. */
export function watchForStuck(engine: DashboardEngine, mode: BellMode, ring: () => void): () => void {
  if (mode === 'off') return () => {};
  return engine.onEvent((event) => {
    if (event.type !== 'stuck') return;
    if (mode === 'bell' || mode === 'both') ring();
    if (mode === 'message' || mode === 'both') {
      const view = engine.getSnapshot().panes.find((v) => v.key === event.key);
      const where = `${view?.target ?? event.paneId}${event.host === LOCAL_HOST ? '' : ` on ${event.host}`}`;
      // tmux draws the message in every client's status line: nothing in it may act on those terminals.
      engine.tmux.clients.displayMessage(terminalSafe(`corral: ${where} is stuck (${event.reason}): ${event.message}`)).catch(() => {});
    }
  });
}

const ENTER_ALT_SCREEN = '\u001b[?1049h';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';
const CLEAR_SCREEN = '\u001b[2J\u001b[H';

/**
 * How long quitting waits for the hosts' connections to close in order (control clients detach,
 * ssh masters exit); past it, every process corral started is killed, so a host that hangs, floods
 * or ignores signals cannot hold the person's terminal.
 */
export const QUIT_BUDGET_MS = 350;

/** Benchmarks count renders through this file (only when the variable is set). */
function renderCounter(statsFile: string | undefined) {
  let renders = 0;
  const write = () => {
    if (statsFile) writeFileSync(statsFile, JSON.stringify({ renders }));
  };
  const onRender = () => {
    renders += 1;
    write();
  };
  return { options: statsFile ? { onRender } : {}, write };
}

/** Raw mode without reading: keys pressed now are neither echoed nor acted on. */
function holdKeys(stdin: ReadStream, hold: boolean): void {
  if (!stdin.isTTY) return;
  try {
    stdin.setRawMode(hold);
    if (!hold) stdin.pause();
  } catch {
    // the terminal is gone
  }
}

/** Shows the dashboard until the user quits or a signal arrives; resolves with the exit code. */
export async function runDashboard(options: DashboardOptions): Promise<number> {
  const { engine, env } = options;
  const stdout = options.stdout ?? (process.stdout as WriteStream);
  const stdin = options.stdin ?? (process.stdin as ReadStream);
  const services = options.services ?? createServicesStore();
  const renders = renderCounter(envValue(env, 'CORRAL_RENDER_STATS'));

  let quit: () => void = () => {};
  const quitting = new Promise<void>((resolve) => {
    quit = resolve;
  });
  // A signal or a crash quits too: the terminal is restored and the demo server removed, then the
  // CLI reports a crash.
  void options.lifecycle.untilStopped().then(() => quit());

  const actions = createDashboardActions(engine, options.panes, options.selfPaneId, () => quit(), options);
  const stopBell = watchForStuck(engine, options.bell, () => stdout.write('\u0007'));
  const { pollMs } = options;

  stdout.write(ENTER_ALT_SCREEN);
  const uiStore = createUiStore();
  const renderOptions = {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: true,
    ...renders.options,
  };
  const mount = () =>
    render(
      createElement(App, {
        engine,
        actions,
        services,
        uiStore,
        clock,
        label: options.label ?? null,
        home: homedir(),
        hostName: hostname(),
        color: !('NO_COLOR' in env) || env.NO_COLOR === '',
        activeWindowMs: Math.max(3_000, 2 * pollMs + 1_000),
      }),
      renderOptions,
    );
  let instance = mount();
  // After a resize tmux has shifted or cropped the screen, and Ink, which erases its previous frame
  // relative to the cursor, can leave stale lines behind. Once the size settles: clear the screen
  // and draw afresh (the dashboard's state lives in uiStore, outside the mounted tree).
  let resizeTimer: NodeJS.Timeout | undefined;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      instance.unmount();
      instance.cleanup();
      stdout.write(CLEAR_SCREEN);
      instance = mount();
    }, 150);
  };
  stdout.on('resize', onResize);
  engine.start();
  try {
    await quitting;
  } finally {
    stdout.off('resize', onResize);
    clearTimeout(resizeTimer);
    stopBell();
    try {
      instance.unmount();
      instance.cleanup();
    } catch {
      // already torn down by the crash being handled
    }
    // Said at once, and keys typed while the connections close are not echoed over it.
    stdout.write(`${CLEAR_SCREEN}quitting…`);
    holdKeys(stdin, true);
    if (!(await finishesWithin(engine.stop(), QUIT_BUDGET_MS))) killChildren();
    holdKeys(stdin, false);
    stdout.write(LEAVE_ALT_SCREEN);
    renders.write();
  }
  return 0;
}
