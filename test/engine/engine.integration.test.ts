// The engine against a real private tmux server: detection end to end.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { DETAILS_MS } from '../../src/engine/tmux/pane-list.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { createControlRunner } from '../../src/engine/tmux/control-runner.js';
import { createExecRunner } from '../../src/engine/tmux/runner.js';
import { localTransport } from '../../src/engine/tmux/transport.js';
import type { CorralEvent, PaneView } from '../../src/engine/types.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime, realTmuxTime } from '../helpers/real-time.js';

let server: TestTmux;
let engine: Engine | null = null;
let events: CorralEvent[] = [];

/** The argv of every command the engine's poll sent (over the control connection, or a process each). */
let polled: string[][] = [];
/** When each of them was sent (Date.now()), in the same order. */
let polledAt: number[] = [];
const sent = (args: readonly string[]) => (polled.push([...args]), polledAt.push(Date.now()));

/** How many times the engine has listed the panes: "nothing happened" is judged over cycles, not over a sleep. */
const listingCount = () => polled.filter((args) => args[0] === 'list-panes').length;

// Every held prompt counts as waiting here (--waiting all): these tests are about what the screen shows,
// not whom it concerns (test/engine/attention-*.test.ts).
function startEngine(flags: Record<string, unknown> = {}, persistent = false): Engine {
  const settings = resolveSettings({ flags: { quietThresholdMs: 1500, pollIntervalMs: 200, waiting: 'all', ...flags }, env: {}, file: null });
  const exec = createExecRunner(localTransport(server.socket));
  const control = persistent ? createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec, retryMs: 0 }) : undefined;
  const pollRunner = control
    ? Object.assign((args: readonly string[]) => (sent(args), control(args)), { close: () => control.close() })
    : undefined;
  const runner = control ? exec : Object.assign((args: readonly string[], options?: Parameters<typeof exec>[1]) => (sent(args), exec(args, options)), exec);
  engine = createEngine({ ...realEngineTime, settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner, ...(pollRunner ? { pollRunner } : {}) }) });
  engine.onEvent((event) => events.push(event));
  engine.start();
  return engine;
}

async function waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; events: ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until the engine has listed the panes `count` more times. */
async function cyclesPass(count: number): Promise<void> {
  const target = listingCount() + count;
  await waitFor(() => listingCount() >= target, 30_000);
}

const paneView = (paneId: string): PaneView | undefined => engine?.getSnapshot().panes.find((p) => p.pane.paneId === paneId);

beforeEach(async () => {
  server = await startTestTmux();
  events = [];
  polled = [];
  polledAt = [];
});

afterEach(async () => {
  await engine?.stop();
  engine = null;
  await server.kill();
});

describe('engine on a real tmux server', () => {
  it('marks a [y/N] prompt stuck with reason permission, and unsticks when it is answered', async () => {
    const pane = await server.spawn(`read -p "Deploy to production? [y/N] " answer; echo "answered $answer"; sleep 30`);
    startEngine();
    const stuck = await waitFor(() => events.find((e) => e.type === 'stuck' && e.paneId === pane));
    expect(stuck).toMatchObject({ type: 'stuck', reason: 'permission', message: 'Deploy to production? [y/N]', transcriptPath: '' });
    expect(paneView(pane)?.state).toBe('stuck');
    await server.tmux('send-keys', '-t', pane, 'y', 'Enter');
    await waitFor(() => events.find((e) => e.type === 'unstuck' && e.paneId === pane));
    expect(paneView(pane)?.state).toBe('monitoring');
  });

  it('marks an idle shell stuck with reason stopped', async () => {
    const pane = await server.spawn();
    startEngine();
    const stuck = await waitFor(() => events.find((e) => e.type === 'stuck' && e.paneId === pane));
    expect(stuck).toMatchObject({ reason: 'stopped' });
  });

  it('never marks a spinner stuck, nor a pane whose middle line alone keeps changing', async () => {
    const spinner = await server.spawn(`printf 'building\\n$ '; while :; do for c in '|' / - '\\\\'; do printf '\\r%s working... (esc to interrupt) $ ' "$c"; sleep 0.1; done; done`);
    const middle = await server.spawn(
      `i=0; while :; do i=$((i+1)); printf '\\033[H\\033[2Jtop line\\ncounter %d\\nready $ ' $i; sleep 0.3; done`,
    );
    startEngine();
    await waitFor(() => paneView(middle)?.state === 'monitoring' && paneView(spinner)?.state === 'monitoring');
    // Thirteen cycles 200 ms apart: well past the 1.5 s quiet threshold.
    await cyclesPass(13);
    expect(events.filter((e) => e.type === 'stuck')).toEqual([]);
    expect(paneView(middle)?.lines.join('\n')).toMatch(/top line\ncounter \d+\nready \$/);
  });

  it('ends a killed pane, and in opt-in mode a pane that loses its prefix', async () => {
    const keep = await server.spawn('sleep 60', { title: '@tb-alpha: working' });
    const other = await server.spawn('sleep 60', { title: '@tb-beta' });
    const outside = await server.spawn('sleep 60', { title: 'not watched' });
    startEngine({ optIn: true });
    await waitFor(() => events.filter((e) => e.type === 'registered').length === 2);
    expect(events.some((e) => e.paneId === outside)).toBe(false);
    expect(paneView(keep)?.label).toBe('alpha');
    await server.tmux('kill-pane', '-t', other);
    await waitFor(() => events.find((e) => e.type === 'ended' && e.paneId === other));
    expect(events.find((e) => e.type === 'ended' && e.paneId === other)).toMatchObject({ why: 'closed' });
    await server.tmux('select-pane', '-t', keep, '-T', 'plain title now');
    await waitFor(() => events.find((e) => e.type === 'ended' && e.paneId === keep));
    expect(events.find((e) => e.type === 'ended' && e.paneId === keep)).toMatchObject({ why: 'out-of-scope' });
  });

  it('captures every pane of a busy server, whatever its id (%0 to %11 here)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await server.spawn(`echo "screen of pane ${i}"; sleep 60`));
    startEngine();
    await waitFor(() => ids.every((id) => (paneView(id)?.lines.length ?? 0) > 0));
    ids.forEach((id, i) => expect(paneView(id)?.lines).toContain(`screen of pane ${i}`));
  });

  it('reads hostile titles and window names exactly as tmux stores them', async () => {
    const title = 'x;y "q" \'s\' <~a~> #{pane_id} | ü 🚀';
    // select-pane -T expands formats, so '##' stands for a literal '#'.
    const pane = await server.spawn('sleep 60', { title: title.replace('#', '##') });
    await server.tmux('rename-window', '-t', pane, 'win;dow "q"');
    startEngine();
    const view = await waitFor(() => paneView(pane));
    expect(view.pane.title).toBe(title);
    expect(view.pane.windowName).toBe('win;dow "q"');
  });

  it('keeps running when the server dies, ending every pane, and picks panes up when a server appears', async () => {
    const pane = await server.spawn('sleep 60');
    startEngine();
    await waitFor(() => paneView(pane));
    // The server dies at once (SIGKILL). `kill-server` would first close every pane while the server
    // still answers, and a poll landing in between would rightly see the pane closed, not the server gone.
    const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
    expect(serverPid).toBeGreaterThan(1);
    process.kill(serverPid, 'SIGKILL');
    await waitFor(() => engine?.getSnapshot().status === 'no-server');
    expect(events.find((e) => e.type === 'ended' && e.paneId === pane)).toMatchObject({ why: 'server-gone' });
    await server.kill(); // forgets the dead server's session and removes its socket file
    const fresh = await server.spawn('sleep 60');
    await waitFor(() => engine?.getSnapshot().status === 'ok' && paneView(fresh));
  });

  it('polls over a control-mode connection: stuck and unstuck, a closed pane, the server dying and coming back', async () => {
    const pane = await server.spawn(`read -p "Ship it? [y/N] " a; echo "got $a"; sleep 60`);
    const other = await server.spawn('sleep 60');
    startEngine({}, true);
    await waitFor(() => events.find((e) => e.type === 'stuck' && e.paneId === pane));
    expect((await server.tmux('list-clients', '-F', '#{client_control_mode}')).trim()).toBe('1');
    await server.tmux('send-keys', '-t', pane, 'y', 'Enter');
    await waitFor(() => events.find((e) => e.type === 'unstuck' && e.paneId === pane));
    await server.tmux('kill-pane', '-t', other);
    await waitFor(() => events.find((e) => e.type === 'ended' && e.paneId === other));
    await server.kill();
    await waitFor(() => engine?.getSnapshot().status === 'no-server');
    const fresh = await server.spawn('sleep 60');
    await waitFor(() => engine?.getSnapshot().status === 'ok' && paneView(fresh));
    await engine?.stop();
    expect((await server.tmux('list-clients', '-F', '#{client_control_mode}')).trim()).toBe('');
  });

  it('over control mode, captures a silent pane again only after a resize, and follows a printing one', async () => {
    const silent = await server.spawn('sleep 60');
    const printing = await server.spawn('for i in $(seq 1 200); do echo "tick $i"; sleep 0.2; done; sleep 60');
    startEngine({}, true);
    const captureTimes = (paneId: string) =>
      polled.flatMap((args, n) => (args.some((a, i) => a === 'capture-pane' && args[args.indexOf('-t', i) + 1] === paneId) ? [polledAt[n]!] : []));
    const captures = (paneId: string) => captureTimes(paneId).length;
    await waitFor(() => paneView(printing)?.lines.some((l) => /tick/.test(l)));
    // Until a capture falls in a later second than the silent window's last stamp (its creation),
    // tmux cannot tell corral that nothing happened since: wait for that capture, and one cycle after it.
    const silentStamp = Number((await server.tmux('display-message', '-p', '-t', silent, '#{window_activity}')).trim());
    await waitFor(() => captureTimes(silent).some((at) => Math.floor(at / 1000) > silentStamp));
    await cyclesPass(1);
    const [silent0, printing0] = [captures(silent), captures(printing)];
    const lastTick = () => Number(/tick (\d+)\s*$/.exec(paneView(printing)?.lines.join('\n') ?? '')?.[1]);
    const tick0 = lastTick();
    const watchedFrom = Date.now();
    await cyclesPass(20);
    const watchedMs = Date.now() - watchedFrom;
    expect(captures(silent)).toBe(silent0);
    // A pane that keeps printing is followed every FOLLOW_MS (2 s), not at every 200 ms poll.
    expect(captures(printing) - printing0).toBeGreaterThanOrEqual(1);
    expect(captures(printing) - printing0).toBeLessThanOrEqual(Math.ceil(watchedMs / 2000) + 1);
    expect(lastTick() - tick0).toBeGreaterThanOrEqual(5);
    // The pane a person looks at is captured whenever it printed: every poll.
    engine!.focus([printing]);
    const focused0 = captures(printing);
    await cyclesPass(10);
    expect(captures(printing) - focused0).toBeGreaterThanOrEqual(5);
    engine!.focus([]);
    const beforeResize = captures(silent);
    await server.tmux('resize-window', '-t', silent, '-x', '50', '-y', '12');
    // The capture command goes out before its cycle publishes: wait for both.
    await waitFor(() => captures(silent) > beforeResize && paneView(silent)?.pane.width === 50);
    expect(captures(silent)).toBeGreaterThan(beforeResize);
    expect(paneView(silent)?.pane.width).toBe(50);
  });

  it('over control mode, lists names only every DETAILS_MS, yet reads a new hostile title and a moved pane right', async () => {
    const pane = await server.spawn('sleep 60', { title: 'first' });
    startEngine({}, true);
    await waitFor(() => paneView(pane)?.pane.title === 'first');
    const listings = () => polled.filter((args) => args[0] === 'list-panes').map((args) => args[3] ?? '');
    const named = () => listings().filter((format) => format.includes('#{pane_title}')).length;
    await cyclesPass((2 * DETAILS_MS) / 200);
    // At a 200 ms poll, most listings are activity listings: about one in ten carries the names.
    expect(listings().length).toBeGreaterThanOrEqual(12);
    expect(named()).toBeLessThanOrEqual(Math.ceil(listings().length / 4));
    const title = 'two  spaces <~n~> ; "q" ü';
    const changedAt = Date.now();
    await server.tmux('select-pane', '-t', pane, '-T', title);
    await waitFor(() => paneView(pane)?.pane.title === title);
    expect(Date.now() - changedAt).toBeLessThan(DETAILS_MS + 1500);
    // A pane moved into a window of its own (break-pane) is listed in full at once: its window id changed.
    await server.tmux('split-window', '-d', '-t', pane, 'sleep 60');
    const before = paneView(pane)!.pane.windowId;
    await server.tmux('break-pane', '-d', '-s', pane, '-n', 'moved out');
    const movedAt = Date.now();
    await waitFor(() => paneView(pane)?.pane.windowName === 'moved out');
    expect(paneView(pane)!.pane.windowId).not.toBe(before);
    expect(Date.now() - movedAt).toBeLessThan(1500);
  });

  it('tells less on its first page (a file name as last line) from a log that ends in a file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-pager-'));
    try {
      const file = join(dir, 'server.log');
      writeFileSync(file, Array.from({ length: 200 }, (_, i) => `INFO request ${i} served`).join('\n') + '\n');
      const pager = await server.spawn(`exec less ${file}`);
      const log = await server.spawn(`for i in $(seq 40); do echo "INFO request $i served"; done; echo ${file}; exec sleep 60`);
      startEngine();
      const stuck = await waitFor(() => events.find((e) => e.type === 'stuck' && e.paneId === pager));
      expect(stuck).toMatchObject({ reason: 'stopped', message: file });
      expect(paneView(pager)?.verdict).toMatchObject({ rule: 'generic/pager-file-name', answer: { kind: 'key', options: ['q'] } });
      expect(paneView(pager)?.pane.alternateOn).toBe(true);
      expect(paneView(log)?.verdict).toMatchObject({ prompt: false, line: file });
      expect(events.some((e) => e.type === 'stuck' && e.paneId === log)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
