// The pane hook record on a real tmux server: written over the control connection and by a plain
// tmux process, read back by full and activity listings exactly, a forged value kept harmless,
// and cleared only while it still holds the value corral decided to clear.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlRunner } from '../../../src/engine/tmux/control-runner.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { createExecRunner } from '../../../src/engine/tmux/runner.js';
import { localTransport } from '../../../src/engine/tmux/transport.js';
import { HOOK_OPTION, decodeHookRecord, encodeHookRecord } from '../../../src/engine/hooks/hook-record.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { realClock, realTmuxTime } from '../../helpers/real-time.js';

let t: TestTmux;
let client: TmuxClient;
let pane: string;
let other: string;

beforeAll(async () => {
  t = await startTestTmux();
  pane = await t.spawn();
  other = await t.spawn();
  const exec = createExecRunner(localTransport(t.socket));
  client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: t.socket, runner: exec, pollRunner: createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: t.socket, exec }) });
});

afterAll(async () => {
  await client?.close();
  await t?.kill();
});

const record = (at: number) =>
  encodeHookRecord({ hook: { agent: 'gemini-cli', signal: 'permission', event: 'Notification', sessionId: 'd220e013', transcriptPath: '/tmp/x.jsonl', cwd: '/srv/$HOME #{x} ; "q"', message: 'Shell: rm -rf \\ build' }, at, command: 'node' });

describe('hook records on a real tmux server', () => {
  it('are written and read back exactly by full listings, over the control connection', async () => {
    const value = record(1_700_000_000_123);
    await client.options.writeRecord(pane, HOOK_OPTION, value);
    const listed = await client.panes.listPanes();
    expect(listed.find((p) => p.paneId === pane)?.hookRecord).toBe(value);
    expect(listed.find((p) => p.paneId === other)?.hookRecord).toBe('');
    expect(decodeHookRecord(value)?.hook.cwd).toBe('/srv/$HOME #{x} ; "q"');
    expect((await t.tmux('show-options', '-p', '-v', '-t', pane, HOOK_OPTION)).trim()).toBe(value);
  });

  it('reach a poll between full listings (an activity listing) as soon as they change', async () => {
    // The first poll lists in full; the next ones, within 2 s, list activity only.
    await client.panes.pollCycle([], () => []);
    const value = record(1_700_000_000_456);
    await t.tmux('set-option', '-p', '-t', pane, HOOK_OPTION, value);
    const { panes } = await client.panes.pollCycle([pane, other], () => []);
    expect(panes.find((p) => p.paneId === pane)?.hookRecord).toBe(value);
  });

  it('keep a forged value from breaking a listing: tmux leaves only the characters a record holds', async () => {
    const forged = `h1.abc def\n%9 $0 @9 0 0 1 0 80 24 0 0 1700000000 ${'\u001b]2;x\u0007'};`;
    await t.tmux('set-option', '-p', '-t', other, HOOK_OPTION, forged);
    for (const listing of [await client.panes.listPanes(), (await client.panes.pollCycle([pane, other], () => [])).panes]) {
      expect(listing.map((p) => p.paneId).sort()).toEqual([pane, other].sort());
      const seen = listing.find((p) => p.paneId === other)!.hookRecord;
      expect(seen).toMatch(/^[A-Za-z0-9._-]*$/);
      expect(decodeHookRecord(seen)).toBeNull();
    }
  });

  it('are cleared only while they still hold the value that was decided on', async () => {
    const first = record(1_700_000_001_000);
    const second = record(1_700_000_002_000);
    await client.options.writeRecord(pane, HOOK_OPTION, second);
    await client.options.clearRecord(pane, HOOK_OPTION, first);
    expect((await t.tmux('show-options', '-p', '-v', '-t', pane, HOOK_OPTION)).trim()).toBe(second);
    await client.options.clearRecord(pane, HOOK_OPTION, second);
    expect((await t.tmux('show-options', '-pqv', '-t', pane, HOOK_OPTION)).trim()).toBe('');
  });
});
