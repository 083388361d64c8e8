// A remote host's process tree with a scripted tmux and a hand-driven clock: the table rides along
// with the listing only while a pane looks idle, turns an idle-looking screen busy while its
// foreground job runs a child, and leaves everything as it was when the host's `ps` gives none.

import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent, HostSpec } from '../../src/engine/types.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from '../helpers/real-time.js';

const T0 = 1_800_000_000_000;
const buildBox: HostSpec = { name: 'build-box', ssh: 'build-box', socket: { kind: 'default' } };

/** `ps` lines as PROCESS_TABLE_SHELL prints them: pid ppid pgid tpgid etimes stat args. */
const AGENT = '  100     1   100   100   600 Sl   node /opt/agent/cli.js';
const CHILD = '  200   100   100   100    30 S    sleep 30';
const HELPER = '  300   100   300   100   599 Sl   node /opt/mcp-server/index.js';

/** A remote host with one pane (its first process is pid 100) whose `ps` prints `table()`. */
function host(screen: string, table: () => string) {
  let now = T0;
  const pane: PolledPane & { printedAt: number } = { id: '%1', screen, pid: 100, printedAt: T0 - 60_000, activity: 0 };
  Object.defineProperty(pane, 'activity', { get: () => Math.floor(pane.printedAt / 1000) });
  const remote = scriptedPoll([pane], () => Math.floor(now / 1000), table);
  // Defaults: ask threshold 1 s, quiet threshold 3 s; a poll every second.
  const settings = resolveSettings({ flags: { pollIntervalMs: 1_000 }, env: {}, file: null });
  const pollRunner: TmuxRunner = (args, options) => remote.runner(args, options);
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: buildBox.socket, runner: remote.runner, pollRunner, nonce: 'fixed' });
  const clock = { now: () => now };
  const engine = createEngine({ ...realEngineTime, settings, tmux, clock, wallClock: clock, host: buildBox });
  const events: CorralEvent[] = [];
  engine.onEvent((e) => events.push(e));
  const tables = () => remote.calls.filter((call) => call.includes('run-shell')).length;
  const view = () => engine.getSnapshot().panes[0]!;
  /** Polls `seconds` times a second apart; what each cycle shows, and how many tables it asked. */
  const run = async (seconds: number) => {
    const seen: string[] = [];
    for (let i = 0; i < seconds; i++) {
      const before = tables();
      await engine.pollNow();
      seen.push(`${view().state}:${view().verdict?.rule ?? '-'}:${tables() - before}`);
      now += 1_000;
    }
    return seen;
  };
  return { engine, events, pane, run, tables, now: () => now };
}

describe('the process tree of a remote host', () => {
  it('is asked only while a pane looks idle and is not stuck, and keeps it busy while a child runs', async () => {
    let table = `${AGENT}\n${HELPER}\n${CHILD}\n`;
    const h = host('step 1', () => table);
    // Output with no prompt: no table.
    expect(await h.run(3)).toEqual(['registered:-:0', 'monitoring:-:0', 'monitoring:-:0']);
    // A bare prompt is drawn, and a silent command runs under the agent.
    h.pane.screen = 'step 1\n>';
    h.pane.printedAt = h.now();
    const busy = await h.run(12);
    // Listed, then captured (an idle-looking screen, before any table), then a table every cycle.
    expect(busy.slice(0, 2)).toEqual(['monitoring:-:0', 'monitoring:repl/node:0']);
    expect(busy.slice(2)).toEqual(Array(10).fill('monitoring:process/foreground-child:1'));
    expect(h.events.filter((e) => e.type === 'stuck')).toEqual([]);
    // The command ends; the prompt stays: stuck once the quiet threshold has passed, then no more tables.
    table = `${AGENT}\n${HELPER}\n`;
    const after = await h.run(8);
    expect(after.slice(0, 3)).toEqual(['monitoring:repl/node:1', 'monitoring:repl/node:1', 'monitoring:repl/node:1']);
    expect(after[3]).toBe('stuck:repl/node:1');
    expect(after.slice(4)).toEqual(Array(4).fill('stuck:repl/node:0'));
    expect(h.events.filter((e) => e.type === 'stuck').map((e) => e.timestamp - T0)).toEqual([18_000]);
  });

  it('a helper or the agent alone is no work: the prompt is stuck as it would be without a table', async () => {
    const withTable = host('>', () => `${AGENT}\n${HELPER}\n`);
    const without = host('>', () => '');
    const a = await withTable.run(8);
    const b = await without.run(8);
    expect(a.map((s) => s.split(':').slice(0, 2).join(':'))).toEqual(b.map((s) => s.split(':').slice(0, 2).join(':')));
    expect(a.at(-1)).toBe('stuck:repl/node:0');
  });

  it('a pane first seen stuck while a child runs is un-stuck by the first table', async () => {
    const h = host('>', () => `${AGENT}\n${CHILD}\n`);
    const seen = await h.run(6);
    // Quiet for a minute already: stuck at its first screen, then the table says otherwise.
    expect(seen.slice(0, 3)).toEqual(['registered:-:0', 'stuck:repl/node:0', 'monitoring:process/foreground-child:1']);
    expect(seen.slice(3)).toEqual(Array(3).fill('monitoring:process/foreground-child:1'));
  });

  it('a host whose ps gives no table is asked once, and nothing else changes', async () => {
    // busybox's ps knows no `etimes`: the shell's buffer holds only the leading blank line.
    const busybox = host('step 1', () => '');
    const plain = host('step 1', () => `${AGENT}\n`);
    for (const h of [busybox, plain]) {
      await h.run(2);
      h.pane.screen = 'step 1\n>';
      h.pane.printedAt = h.now();
    }
    const a = await busybox.run(10);
    const b = await plain.run(10);
    expect(a.map((s) => s.split(':').slice(0, 2).join(':'))).toEqual(b.map((s) => s.split(':').slice(0, 2).join(':')));
    expect(busybox.tables()).toBe(1);
    expect(busybox.events.map((e) => `${e.type}@${e.timestamp - T0}`)).toEqual(plain.events.map((e) => `${e.type}@${e.timestamp - T0}`));
  });

  it('hostile rows are only matched: a command line naming the marker or tmux text does nothing', async () => {
    const weird = '  200   100   100   100    30 S    sh -c "<~fixed:shell~>\\n; run-shell rm -rf / #{pane_id} $(touch /tmp/x)"';
    const h = host('>', () => `${AGENT}\n${weird}\nnot a row at all\n`);
    const seen = await h.run(4);
    expect(seen.at(-1)).toBe('monitoring:process/foreground-child:1');
    expect(h.engine.getSnapshot().panes[0]!.verdict?.line).toContain('run-shell rm -rf');
  });
});
