// Keeps one host's tmux status options (status-options.ts) in step with its engine: after each
// snapshot, and when an active pane turns quiet by time alone, it writes the values that changed,
// in one round trip over the host's control connection; nothing while nothing changes.
//
// Several corral processes may watch one server: each one registers as a writer in a global
// option (`@corral_writer_<machine>_<pid>`), and the last one to stop removes the options, so a
// status line never shows what no corral keeps up to date. A writer that died (SIGKILL) is told
// by its pid when it ran on this machine.

import { ACTIVE_WINDOW_MS } from '../pane/pane-status.js';
import { ATTENTION_OPTION, ATTENTION_STAMP_OPTION, RECORD_CHARS } from '../attention/record.js';
import { desiredOptions, keptAfterStop, nextQuietAt, optionCommands, parseSlotKey, unsetOptionCommand, type OptionSlot, type StatusOptions } from './status-options.js';
import type { TmuxClient } from '../tmux/client.js';
import { type Clock, type EngineStore, type PaneView, type Timers } from '../types.js';

const WRITER_PREFIX = '@corral_writer_';

export interface StatusWriterOptions {
  /** One host's store (its views only). */
  readonly engine: EngineStore;
  readonly tmux: TmuxClient;
  /** This machine's name and this process's pid: who writes (see above). */
  readonly machine: string;
  readonly pid: number;
  /** Whether a pid of this machine still runs (process-alive.ts). */
  readonly alive: (pid: number) => boolean;
  readonly clock: Clock;
  /** For the flush after the panes went quiet. */
  readonly timers: Timers;
  /** Told once when writing fails (a server that refuses options, say), and again after it worked. */
  readonly log?: (line: string) => void;
}

export interface StatusWriter {
  /** Writes now if anything changed (tests and benchmarks; the writer also runs by itself). */
  flush(): Promise<void>;
  /** How many option writes it has sent (for benchmarks). */
  readonly writes: number;
  /** Stops writing; the last writer on the server removes the options. */
  stop(): Promise<void>;
}

/** The option name of one writer; only letters, digits, `_` and `-` (tmux option names). */
export function writerOption(machine: string, pid: number): string {
  return `${WRITER_PREFIX}${machine.replace(/[^A-Za-z0-9-]/g, '-')}_${pid}`;
}

/** Writers named in `show-options -g` output that still run (others' machines are taken at their word). */
export function liveWriters(shown: string, machine: string, alive: (pid: number) => boolean, self: string): string[] {
  const ownMachine = `${WRITER_PREFIX}${machine.replace(/[^A-Za-z0-9-]/g, '-')}_`;
  const live: string[] = [];
  for (const line of shown.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (!name.startsWith(WRITER_PREFIX) || name === self) continue;
    if (name.startsWith(ownMachine) && !alive(Number(name.slice(ownMachine.length)))) continue;
    live.push(name);
  }
  return live;
}

/** The last attention record a writer put on a pane, and the value the pane's listing showed then. */
export type AttentionAttempts = Map<string, { readonly record: string; readonly listed: string }>;

/**
 * Sets the pane's record to `record` only while it holds `over`, in one command: a format tmux
 * expands as it stores the value, keeping the value it holds otherwise. (Not `if-shell`: the command
 * it runs answers a control client in a reply block of its own, which no caller waits for.)
 */
export function compareAndSetCommand(paneId: string, over: string, record: string): string[] {
  const current = `#{s/[^${RECORD_CHARS}]//:${ATTENTION_OPTION}}`;
  return ['set-option', '-p', '-q', '-F', '-t', paneId, ATTENTION_OPTION, `#{?#{==:${current},${over}},${record},#{${ATTENTION_OPTION}}}`];
}

/**
 * The commands that put each pane's attention record (attention/record.ts) where tmux keeps it,
 * compare-and-set: tmux replaces the value only while it still holds the one this process last
 * listed, so a record another corral wrote meanwhile is never overwritten blind (the next listing
 * brings it, the engine joins it with its own, and the joined one is written then). Each write also
 * sets the global stamp every corral process subscribes to. Nothing while nothing changed.
 */
export function attentionCommands(views: readonly PaneView[], attempts: AttentionAttempts, stamp: number): string[][] {
  const commands: string[][] = [];
  for (const view of views) {
    const { record } = view.attention;
    const listed = view.pane.attentionRecord;
    const paneId = view.pane.paneId;
    const last = attempts.get(paneId);
    // Until a listing shows it, the pane holds what this writer wrote last (or, if another corral
    // wrote first, something else: then this write changes nothing, and the next listing tells).
    const over = last !== undefined && last.listed === listed ? last.record : listed;
    if (!view.online || record === '' || record === over) continue;
    if (!/^%\d+$/.test(paneId) || !new RegExp(`^[${RECORD_CHARS}]*$`).test(record + over)) continue;
    attempts.set(paneId, { record, listed });
    commands.push(compareAndSetCommand(paneId, over, record));
  }
  if (commands.length > 0) commands.push(['set-option', '-q', '-g', ATTENTION_STAMP_OPTION, String(Math.floor(stamp))]);
  for (const paneId of attempts.keys()) if (!views.some((v) => v.pane.paneId === paneId)) attempts.delete(paneId);
  return commands;
}

/** Whether an option's pane, window or session is gone (it took its options with it). */
function closedWith(views: readonly PaneView[]): (slot: OptionSlot) => boolean {
  const live = new Set(views.map((v) => v.pane.paneId));
  const windows = new Set(views.map((v) => v.pane.windowId));
  const sessions = new Set(views.map((v) => v.pane.sessionId));
  return (slot) =>
    slot.scope === 'pane' ? !live.has(slot.target) : slot.scope === 'window' ? !windows.has(slot.target) : slot.scope === 'session' ? !sessions.has(slot.target) : false;
}

/** A stopping writer's exit: its mark unset, and its options too unless another corral still keeps them. */
async function withdraw(options: StatusWriterOptions, self: string, written: StatusOptions): Promise<void> {
  const { tmux } = options;
  try {
    const shown = await tmux.options.runEach([['set-option', '-q', '-u', '-g', self]]).then(() => tmux.options.globalOptions());
    // Another corral still keeps them up to date: leave them.
    if (liveWriters(shown, options.machine, options.alive, self).length > 0) return;
    const unset = [...written.keys()].map(parseSlotKey).filter((slot) => !keptAfterStop(slot));
    await tmux.options.runEach(unset.map(unsetOptionCommand));
  } catch {
    // The server went away, taking its options with it.
  }
}

export function startStatusWriter(options: StatusWriterOptions): StatusWriter {
  const { engine, tmux } = options;
  const { clock, timers } = options;
  const self = writerOption(options.machine, options.pid);
  let written: StatusOptions = new Map();
  const attempts: AttentionAttempts = new Map();
  let writes = 0;
  let registered = false;
  let stopped = false;
  let failing = false;
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let again = false;

  const write = async (): Promise<void> => {
    const views = engine.getSnapshot().panes;
    const now = clock.now();
    const wanted = desiredOptions(views, now);
    const commands = [...optionCommands(written, wanted, closedWith(views)), ...attentionCommands(views, attempts, now)];
    if (!registered) commands.unshift(['set-option', '-q', '-g', self, '1']);
    if (commands.length > 0) {
      try {
        await tmux.options.runEach(commands);
        registered = true;
        written = wanted;
        writes += commands.length;
        if (failing) options.log?.(`status options on ${tmux.serverLabel} are written again`);
        failing = false;
      } catch (error) {
        if (!failing) options.log?.(`cannot write status options on ${tmux.serverLabel}: ${(error as Error).message}`);
        attempts.clear();
        failing = true;
      }
    }
    // An active pane turns quiet by time alone: look again then.
    const quietAt = nextQuietAt(views, now, ACTIVE_WINDOW_MS);
    if (timer !== null) timers.clearTimeout(timer);
    timer = quietAt === null || stopped ? null : timers.setTimeout(() => void flush(), Math.max(0, quietAt - now) + 5);
  };

  const flush = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await write();
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const unsubscribe = engine.subscribe(() => void flush());
  void flush();

  return {
    flush,
    get writes() {
      return writes;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      if (timer !== null) timers.clearTimeout(timer);
      await running;
      if (!registered) return;
      await withdraw(options, self, written);
    },
  };
}
