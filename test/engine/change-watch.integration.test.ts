// The engine on a real tmux server that tells of changes (a format subscription over the control
// connection): idle panes cost no listing at all, yet quiet time counts, and a pane that prints, a
// new pane in another session and a closed one are seen. While nothing changes the loop sleeps
// until the next listing or deadline; while things change, cycles are counted, never slept through.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, FULL_LISTING_MS, type Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { createControlRunner } from '../../src/engine/tmux/control-runner.js';
import { watchFormat } from '../../src/engine/tmux/change-watch.js';
import { createExecRunner } from '../../src/engine/tmux/runner.js';
import { localTransport } from '../../src/engine/tmux/transport.js';
import { type CorralEvent, type PaneView, type Timers } from '../../src/engine/types.js';
import { heldTimers } from '../../src/engine/time/time.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime, realTmuxTime } from '../helpers/real-time.js';

let server: TestTmux;
let engine: Engine | null = null;
let events: CorralEvent[] = [];
/** Every command the engine's poll sent over the control connection. */
let polled: string[][] = [];
/** How many commands each batch sent over the control connection held. */
let batches: number[] = [];
/** Timers the engine armed: one per cycle, plus hook follow-ups (none here). */
let armed = 0;
/** Timers that fired: a cycle each (a change told wakes the loop by replacing the armed timer). */
let fired = 0;
/** How long the newest of them sleeps. */
let lastArmedMs = 0;

const countingTimers: Timers = {
  setTimeout: (callback, ms) => {
    armed += 1;
    lastArmedMs = ms;
    return heldTimers.setTimeout(() => {
      fired += 1;
      callback();
    }, ms);
  },
  clearTimeout: (handle) => heldTimers.clearTimeout(handle),
};

function startEngine(pollIntervalMs: number): Engine {
  // Idle shells found at their prompts count as waiting here: this is about when the poll asks, not whom it tells.
  const settings = resolveSettings({ flags: { quietThresholdMs: 1500, pollIntervalMs, waiting: 'all' }, env: {}, file: null });
  const exec = createExecRunner(localTransport(server.socket));
  const control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec, retryMs: 0 });
  const pollRunner = Object.assign((args: readonly string[]) => (polled.push([...args]), control(args)), {
    close: () => control.close(),
    connected: () => control.connected(),
    replies: (commands: readonly (readonly string[])[]) => (batches.push(commands.length), commands.forEach((c) => polled.push([...c])), control.replies(commands)),
    watch: (listener: () => void) => control.watch(listener),
    changes: () => control.changes(),
    windowsSince: (mark: number) => control.windowsSince(mark),
  });
  engine = createEngine({ ...realEngineTime, settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, pollRunner }), timers: countingTimers });
  engine.onEvent((event) => events.push(event));
  engine.start();
  return engine;
}

async function waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; events: ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const listings = () => polled.filter((args) => args[0] === 'list-panes').length;
const paneView = (paneId: string): PaneView | undefined => engine?.getSnapshot().panes.find((p) => p.pane.paneId === paneId);

/** Waits until the engine has run `count` more cycles. */
async function cyclesPass(count: number): Promise<void> {
  const target = fired + count;
  await waitFor(() => fired >= target, Math.max(30_000, 2_000 * count));
}

/** Lets real time pass: an idle engine sleeps through it, so there are no cycles to count. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the loop has nothing left to do: its newest timer sleeps longer than a poll interval
 * (until the next listing or a wait coming of age), as it does once the panes are past their start.
 */
async function idle(pollIntervalMs = 1_000): Promise<void> {
  await waitFor(() => lastArmedMs > pollIntervalMs);
}

beforeEach(async () => {
  server = await startTestTmux();
  events = [];
  polled = [];
  batches = [];
  armed = 0;
  lastArmedMs = 0;
});

afterEach(async () => {
  await engine?.stop();
  engine = null;
  await server.kill();
});

describe('polling a tmux server that tells of changes', () => {
  it('watches every window of every session: the value is what list-windows -a shows', async () => {
    await server.spawn('sleep 60', { title: 'one, with a comma' });
    await server.spawn('sleep 60', { title: 'two' });
    await server.spawn('sleep 60', { session: 'other', title: 'three' });
    await server.tmux('split-window', '-d', '-t', 'other:', 'sleep 60');
    const listed = (await server.tmux('list-windows', '-a', '-F', '#{window_id} #{window_activity} ')).split('\n').join('');
    expect(listed.trim().split(' ')).toHaveLength(6);
    expect((await server.tmux('display-message', '-p', watchFormat())).replace(/\n$/, '')).toBe(listed);
  });

  it('sees a pane that enters copy mode, which prints nothing, at the next cycle', async () => {
    const pane = await server.spawn();
    startEngine(1_000);
    await waitFor(() => events.some((e) => e.type === 'stuck'));
    await idle();
    await server.tmux('copy-mode', '-t', pane);
    const modeAt = Date.now();
    await waitFor(() => paneView(pane)?.pane.inMode);
    expect(Date.now() - modeAt).toBeLessThan(FULL_LISTING_MS / 2);
  });

  it('lists nothing while nothing changes, still marks idle panes stuck, and sees output, a new session and a closed pane', async () => {
    const panes = [await server.spawn(), await server.spawn(), await server.spawn()];
    startEngine(1_000);
    // Idle shells turn stuck by quiet time alone: the cycles that asked tmux nothing counted it.
    await waitFor(() => events.filter((e) => e.type === 'stuck').length === 3);
    // Nothing left to come of age: the loop sleeps until the next listing, in one timer.
    await idle();
    const quietFrom = listings();
    const armedFrom = armed;
    // A time, not an event: that nothing is listed or armed while nothing changes is what is checked.
    await pause(4_000);
    expect(listings()).toBe(quietFrom);
    expect(armed - armedFrom).toBeLessThanOrEqual(1);

    // Told within a second, then asked at once: long before the next listing that comes anyway.
    const typedAt = Date.now();
    await server.tmux('send-keys', '-t', panes[1]!, 'echo printed-now', 'Enter');
    await waitFor(() => paneView(panes[1]!)?.lines.some((line) => line.includes('printed-now')));
    expect(Date.now() - typedAt).toBeLessThan(FULL_LISTING_MS / 2);
    expect(listings()).toBeGreaterThan(quietFrom);

    const other = await server.spawn('sleep 60', { session: 'elsewhere' });
    await waitFor(() => events.find((e) => e.type === 'registered' && e.paneId === other));
    await server.tmux('kill-pane', '-t', panes[0]!);
    await waitFor(() => events.find((e) => e.type === 'ended' && e.paneId === panes[0]));
  });

  it(`still lists every ${FULL_LISTING_MS / 1000} s while nothing changes, and every cycle at a poll faster than tmux tells`, { timeout: FULL_LISTING_MS * 3 }, async () => {
    await server.spawn();
    startEngine(1_000);
    await waitFor(() => events.some((e) => e.type === 'stuck'));
    const quietFrom = listings();
    // A time, not an event: the listing that comes anyway, every FULL_LISTING_MS, is what is counted.
    await pause(FULL_LISTING_MS + 2_000);
    expect(listings() - quietFrom).toBeGreaterThanOrEqual(1);
    expect(listings() - quietFrom).toBeLessThanOrEqual(2);
    await engine!.stop();

    polled = [];
    startEngine(300);
    await cyclesPass(5);
    expect(listings()).toBeGreaterThanOrEqual(5);
  });

  it('lists only the windows that printed, and what it shows then is what plain tmux lists', async () => {
    // Eight windows: listing one or two of them costs tmux less than listing all (worthListingSome).
    const panes: string[] = [];
    for (let i = 0; i < 8; i++) panes.push(await server.spawn());
    const windowOf = async (pane: string) => (await server.tmux('display-message', '-p', '-t', pane, '#{window_id}')).trim();
    const printing = await windowOf(panes[2]!);
    startEngine(1_000);
    await waitFor(() => events.filter((e) => e.type === 'stuck').length === 8);
    // The subscription's first value has nothing to compare with: the change it brings lists every pane.
    await server.tmux('send-keys', '-t', panes[0]!, 'echo first-change', 'Enter');
    await waitFor(() => paneView(panes[0]!)?.lines.some((line) => line.includes('first-change')));
    await idle();
    polled = [];
    // A title set by the program, with output: only its window is listed again, and the view has it.
    await server.tmux('send-keys', '-t', panes[2]!, "printf '\\033]2;%s\\033\\\\' 'retitled by its program'; cd /tmp", 'Enter');
    await waitFor(() => paneView(panes[2]!)?.pane.title === 'retitled by its program' && paneView(panes[2]!)?.pane.cwd === '/tmp');
    const byWindow = polled.filter((args) => args[0] === 'list-panes' && args[1] === '-t');
    expect(byWindow.length).toBeGreaterThan(0);
    expect(new Set(byWindow.map((args) => args[2]))).toEqual(new Set([printing]));
    // The oracle: every pane as corral shows it is what `tmux list-panes -a` shows. tmux may rename
    // a window on its own timer meanwhile (automatic-rename, told as window-renamed): corral must
    // agree with plain tmux within a few cycles, well before the listing every
    // FULL_LISTING_MS would mend it.
    const fields = ['pane_id', 'window_id', 'pane_title', 'pane_current_path', 'pane_current_command', 'window_name', 'pane_pid'];
    const plain = async () => (await server.tmux('list-panes', '-a', '-F', fields.map((f) => `#{${f}}`).join('\t'))).trim().split('\n').sort();
    const shown = () =>
      engine!
        .getSnapshot()
        .panes.map(({ pane: p }) => [p.paneId, p.windowId, p.title, p.cwd, p.command, p.windowName, p.pid].join('\t'))
        .sort();
    const deadline = Date.now() + FULL_LISTING_MS / 2;
    let expected = await plain();
    while (JSON.stringify(shown()) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      expected = await plain();
    }
    expect(shown()).toEqual(expected);
  });

  it('lists a new pane again while it starts: a program that execs another without output shows the one that runs, not the first', async () => {
    // Eight windows, so that a change is listed window by window (worthListingSome).
    for (let i = 0; i < 8; i++) await server.spawn();
    startEngine(1_000);
    await waitFor(() => events.filter((e) => e.type === 'stuck').length === 8);
    await idle();
    // Nothing printed, so tmux tells of nothing: only the new pane's own listings can see `cat`.
    // The shell waits for a file the test makes once corral has listed the pane, then execs cat:
    // the exec comes while the pane starts, whatever the machine's load.
    const go = join(mkdtempSync(join(tmpdir(), 'corral-exec-')), 'go');
    const pane = await server.spawn(`while [ ! -e ${go} ]; do sleep 0.05; done; exec cat`);
    const first = await waitFor(() => paneView(pane)?.pane.command);
    expect(['bash', 'sleep']).toContain(first);
    writeFileSync(go, '');
    const plain = async () => (await server.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim();
    while ((await plain()) !== 'cat') await pause(50);
    await waitFor(() => paneView(pane)?.pane.command === 'cat', 3_000);
  });

  it('keeps its control connection through cycles that only capture (after a hook): tmux detaches a client at an empty line', async () => {
    const panes: string[] = [];
    for (let i = 0; i < 8; i++) panes.push(await server.spawn());
    startEngine(1_000);
    await waitFor(() => events.filter((e) => e.type === 'stuck').length === 8);
    await idle();
    const controlClients = async () => (await server.tmux('list-clients', '-F', '#{client_pid} #{client_control_mode}')).trim().split('\n').filter((l) => l.endsWith(' 1'));
    const before = await controlClients();
    expect(before).toHaveLength(1);
    batches = [];
    // A hook brings follow-up cycles that capture the pane while tmux told of no change: the
    // windows to list are none, and nothing at all may be written for them.
    const hook = { agent: 'claude-code', signal: 'stop', event: 'Stop', sessionId: 's', transcriptPath: '', cwd: '/', message: null } as const;
    expect(engine!.observeHook(panes[3]!, hook)).toBe(true);
    // Its follow-ups, each a cycle, and one more.
    await cyclesPass(4);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches).not.toContain(0);
    expect(await controlClients()).toEqual(before);
  });
});
