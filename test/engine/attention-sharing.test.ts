// One attention record per pane, shared by every corral process on a server through the pane's
// tmux option: a corral that starts later counts a wait from when it began, not from its own start;
// a snooze, a look or an answer made in one shows in the others after their next listing, and in a
// corral started after a restart. Scripted tmux, manual clocks.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { startStatusWriter } from '../../src/engine/records/status-writer.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { paneStatus } from '../../src/engine/pane/pane-status.js';
import { decodeAttention } from '../../src/engine/attention/record.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';

const noTimers = { setTimeout: () => 0, clearTimeout: () => {} };

/** Corral processes on one scripted server, with clocks that move together. */
function server(panes: PolledPane[]) {
  const fake = scriptedPoll(panes, () => Math.floor(wall / 1000));
  let wall = 1_700_000_000_000;
  const corral = (flags: Record<string, unknown> = {}) => {
    const settings = resolveSettings({ flags: { quietThresholdMs: 10_000, ...flags }, env: {}, file: null });
    const tmux = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, nonce: 'fixed', clock: { now: () => wall } });
    const clock = { now: () => wall };
    const engine = createEngine({ settings, tmux, clock, wallClock: clock, timers: noTimers });
    const writer = startStatusWriter({ engine, tmux, machine: 'box', pid: 1, alive: () => true, clock, timers: noTimers });
    const view = (id: string) => engine.getSnapshot().panes.find((v) => v.pane.paneId === id)!;
    /** One poll, then the writer's flush: what the process knows is in tmux. */
    const cycle = async () => {
      await engine.pollNow();
      await writer.flush();
    };
    return { engine, writer, view, cycle, status: (id: string) => paneStatus(view(id), wall) };
  };
  return { fake, corral, advance: (ms: number) => void (wall += ms), now: () => wall };
}

describe('the attention record shared by corral processes', () => {
  it('a corral that starts later counts a wait from when it began, never from its own start', async () => {
    const pane: PolledPane = { id: '%1', screen: '$ ./deploy', activity: 0 };
    const s = server([pane]);
    const first = s.corral();
    await first.cycle();
    await first.cycle();
    s.advance(1_000);
    pane.screen = '$ ./deploy\nDeploy to prod? [y/N] ';
    await first.cycle();
    const since = first.view('%1').waitSince;
    expect(since).not.toBeNull();
    s.advance(25 * 60_000);
    await first.cycle();
    expect(first.status('%1')).toBe('stuck');
    expect(decodeAttention(pane.attentionRecord ?? '')?.wait?.since).toBe(since);
    // The wait's own record is enough (a dialog that animates has no still screen for @corral_quiet).
    pane.quietRecord = '';
    const second = s.corral();
    await second.cycle();
    await second.cycle();
    expect(second.view('%1').waitSince).toBe(since);
    expect(second.status('%1')).toBe('stuck');
    // Its writes change nothing: both hold the same record.
    const record = pane.attentionRecord;
    await second.cycle();
    await first.cycle();
    expect(pane.attentionRecord).toBe(record);
  });

  it('a snooze, a look and an answer made in one corral show in another and after a restart', async () => {
    const question: PolledPane = { id: '%1', screen: 'working', activity: 0 };
    const shell: PolledPane = { id: '%2', screen: 'me@box:~$ make', activity: 0 };
    const other: PolledPane = { id: '%3', screen: 'building', activity: 0 };
    const s = server([question, shell, other]);
    const a = s.corral();
    const b = s.corral();
    for (const c of [a, b]) {
      await c.cycle();
      await c.cycle();
    }
    s.advance(1_000);
    question.screen = 'working\nRemove build dir A? [y/N] ';
    shell.screen = 'me@box:~$ make\nbuilt\nme@box:~$ ';
    other.screen = 'building\nDrop database B? [y/N] ';
    for (const c of [a, b]) await c.cycle();
    s.advance(11_000);
    for (const c of [a, b]) await c.cycle();
    expect(['%1', '%2', '%3'].map(a.status)).toEqual(['stuck', 'stuck', 'stuck']);
    expect(['%1', '%2', '%3'].map(b.status)).toEqual(['stuck', 'stuck', 'stuck']);

    a.engine.acknowledge('%1');
    a.engine.markSeen('%2');
    a.engine.markAnswered('%3', { surface: 'page', what: 'y' }, a.view('%3').contentHash);
    await a.writer.flush();
    s.advance(500);
    await b.cycle();
    expect(['%1', '%2', '%3'].map(b.status)).toEqual(['snoozed', 'idle', 'answered']);
    expect(b.view('%3').attention.answered).toMatchObject({ surface: 'page', what: 'y' });

    // Every corral stops; the next one finds the same.
    await a.writer.stop();
    await b.writer.stop();
    await a.engine.stop();
    await b.engine.stop();
    const c = s.corral();
    await c.cycle();
    await c.cycle();
    expect(['%1', '%2', '%3'].map(c.status)).toEqual(['snoozed', 'idle', 'answered']);
    // The snooze ends with the wait: a new question needs the person again, everywhere.
    question.screen = 'working\nRemove build dir A? [y/N] y\nremoved\nAlso remove cache? [y/N] ';
    s.advance(1_000);
    await c.cycle();
    s.advance(11_000);
    await c.cycle();
    expect(c.status('%1')).toBe('stuck');
  });
});
