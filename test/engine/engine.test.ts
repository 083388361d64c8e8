// The engine with a scripted tmux runner and a manual clock: no tmux, no sleeps.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/config.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import type { CorralEvent } from '../../src/engine/types.js';

const NONCE = 'fixed';

type FakePane = PolledPane;

const scriptedTmux = (panes: FakePane[]) => scriptedPoll(panes);

function setup(panes: FakePane[], flags: Record<string, unknown> = {}, persistent = false) {
  const fake = scriptedTmux(panes);
  let now = 1_000_000;
  const clock = { now: () => now };
  const settings = resolveSettings({ flags: { quietThresholdMs: 10_000, ...flags }, env: {}, file: null });
  // A poll runner of its own stands for a control-mode connection: the client may list first.
  const pollRunner: TmuxRunner = (args, options) => fake.runner(args, options);
  const client = new TmuxClient({ socket: { kind: 'name', name: 't' }, runner: fake.runner, nonce: NONCE, ...(persistent ? { pollRunner } : {}) });
  const engine = createEngine({ settings, tmux: client, clock });
  const events: CorralEvent[] = [];
  engine.onEvent((e) => events.push(e));
  return { engine, events, fake, advance: (ms: number) => (now += ms) };
}

describe('engine (scripted tmux, manual clock)', () => {
  it('spends exactly one tmux process per cycle, whatever the number of panes', async () => {
    const panes = Array.from({ length: 50 }, (_, i) => ({ id: `%${i}`, screen: `pane ${i}\n$ ` }));
    const { engine, fake } = setup(panes);
    for (let i = 0; i < 5; i++) await engine.pollNow();
    expect(fake.calls).toHaveLength(5);
    expect(fake.calls[4]!.filter((a) => a === 'capture-pane')).toHaveLength(50);
    expect(engine.getSnapshot().panes).toHaveLength(50);
  });

  it('goes registered -> monitoring -> stuck -> unstuck with the clock, publishing snapshots', async () => {
    const pane = { id: '%1', screen: 'Deploy? [y/N] ' };
    const { engine, events, advance } = setup([pane]);
    let notified = 0;
    engine.subscribe(() => notified++);
    await engine.pollNow();
    expect(engine.getSnapshot().panes[0]?.state).toBe('registered');
    await engine.pollNow();
    expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'monitoring', lines: ['Deploy? [y/N]'] });
    advance(10_000);
    await engine.pollNow();
    expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'stuck', reason: 'permission' });
    pane.screen = 'Deploy? [y/N] y\ndeploying';
    advance(1_000);
    await engine.pollNow();
    expect(events.map((e) => e.type)).toEqual(['registered', 'stuck', 'unstuck']);
    expect(notified).toBe(4);
  });

  it('publishes nothing when a cycle changes nothing', async () => {
    const { engine } = setup([{ id: '%1', screen: 'working' }]);
    await engine.pollNow();
    await engine.pollNow();
    const before = engine.getSnapshot();
    await engine.pollNow();
    expect(engine.getSnapshot()).toBe(before);
  });

  it('publishes nothing for an unchanged blank screen either', async () => {
    const { engine } = setup([{ id: '%1', screen: '' }]);
    await engine.pollNow();
    await engine.pollNow();
    const before = engine.getSnapshot();
    await engine.pollNow();
    expect(engine.getSnapshot()).toBe(before);
  });

  it('survives a pane that vanishes between list and capture: the others are still observed later', async () => {
    const panes: FakePane[] = [
      { id: '%1', screen: 'one' },
      { id: '%2', screen: 'two' },
      { id: '%3', screen: 'three' },
    ];
    const { engine, events } = setup(panes);
    await engine.pollNow();
    panes.splice(1, 1); // %2 closes before the next capture
    await engine.pollNow();
    expect(events.find((e) => e.type === 'ended')).toMatchObject({ paneId: '%2', why: 'closed' });
    await engine.pollNow();
    expect(engine.getSnapshot().panes.map((p) => [p.pane.paneId, p.lines])).toEqual([
      ['%1', ['one']],
      ['%3', ['three']],
    ]);
  });

  it('ends every pane when the server goes away, says so in the snapshot, and recovers', async () => {
    const { engine, events, fake } = setup([{ id: '%1', screen: 'x' }]);
    await engine.pollNow();
    fake.setServer(false);
    await engine.pollNow();
    expect(engine.getSnapshot()).toMatchObject({ status: 'no-server', panes: [] });
    expect(engine.getSnapshot().statusMessage).toMatch(/no tmux server is running on -L t/);
    expect(events.at(-1)).toMatchObject({ type: 'ended', why: 'server-gone' });
    fake.setServer(true);
    await engine.pollNow();
    expect(engine.getSnapshot()).toMatchObject({ status: 'ok' });
    expect(engine.getSnapshot().panes).toHaveLength(1);
  });

  it('leaves out its own pane, and in opt-in mode every pane without the prefix', async () => {
    const panes = [
      { id: '%1', screen: '', title: '@tb-alpha: build' },
      { id: '%2', screen: '', title: 'plain' },
      { id: '%3', screen: '', title: '@tb-self' },
    ];
    const fake = scriptedTmux(panes);
    const settings = resolveSettings({ flags: { optIn: true }, env: {}, file: null });
    const engine = createEngine({ settings, tmux: new TmuxClient({ socket: { kind: 'default' }, runner: fake.runner, nonce: NONCE }), selfPaneId: '%3' });
    await engine.pollNow();
    expect(engine.getSnapshot().panes.map((p) => [p.pane.paneId, p.label])).toEqual([['%1', 'alpha']]);
  });

  it('acknowledges a stuck pane until its screen changes', async () => {
    const pane = { id: '%1', screen: '$ ' };
    const { engine, advance } = setup([pane]);
    await engine.pollNow();
    await engine.pollNow();
    advance(10_000);
    await engine.pollNow();
    engine.acknowledge('%1');
    expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'stuck', acknowledged: true });
    pane.screen = '$ ls';
    await engine.pollNow();
    expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'monitoring', acknowledged: false });
  });

  describe('over a persistent connection', () => {
    const seconds = () => Math.floor(Date.now() / 1000);
    const captured = (calls: string[][], cycle: number) =>
      calls[cycle]!.flatMap((a, i, all) => (a === 'capture-pane' ? [all[all.indexOf('-t', i) + 1]] : []));

    it('lists first, then captures only the panes whose window printed since their last capture', async () => {
      const silent = { id: '%1', screen: 'idle', activity: seconds() - 600 };
      const busy = { id: '%2', screen: 'line 1', activity: seconds() };
      const { engine, fake } = setup([silent, busy], {}, true);
      await engine.pollNow(); // registers both: a list, no captures
      await engine.pollNow(); // first captures of both
      const before = fake.calls.length;
      // It prints: tmux stamps its window with the time of the output, now (a stamp kept from the
      // setup could be seconds older than the last capture on a loaded machine).
      busy.screen = 'line 1\nline 2';
      busy.activity = seconds();
      await engine.pollNow();
      const cycle = fake.calls.slice(before);
      expect(cycle[0]![0]).toBe('list-panes');
      expect(cycle.flatMap((call) => captured([call], 0))).toEqual(['%2']);
      expect(engine.getSnapshot().panes.find((p) => p.pane.paneId === '%2')?.lines).toEqual(['line 1', 'line 2']);
    });

    it('follows a pane that prints through every poll on every other poll, and catches its last screen', async () => {
      const busy: FakePane = { id: '%1', screen: 'line 0', activity: seconds() };
      const { engine, fake } = setup([busy], {}, true);
      await engine.pollNow(); // registers and captures it
      const capturesPerPoll: number[] = [];
      for (let i = 1; i <= 6; i++) {
        busy.screen = `line ${i}`;
        busy.activity = seconds();
        const before = fake.calls.length;
        await engine.pollNow();
        capturesPerPoll.push(fake.calls.slice(before).flatMap((call) => captured([call], 0)).length);
      }
      // Printing at every capture: captured, left for one poll, captured again.
      expect(capturesPerPoll).toEqual([1, 0, 1, 0, 1, 0]);
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['line 5']);
      // It stops: the next poll shows its last screen.
      busy.screen = 'done\n$';
      busy.activity = seconds();
      await engine.pollNow();
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['done', '$']);
    });

    it('captures a silent pane again after a resize', async () => {
      const silent: FakePane = { id: '%1', screen: 'idle', activity: seconds() - 600 };
      const { engine, fake } = setup([silent], {}, true);
      await engine.pollNow();
      await engine.pollNow();
      let before = fake.calls.length;
      await engine.pollNow();
      expect(fake.calls.slice(before).flatMap((call) => captured([call], 0))).toEqual([]);
      silent.width = 60;
      before = fake.calls.length;
      await engine.pollNow();
      expect(fake.calls.slice(before).flatMap((call) => captured([call], 0))).toEqual(['%1']);
    });

    it('still counts quiet time on a pane it does not capture, and marks it stuck', async () => {
      const pane = { id: '%1', screen: 'Deploy? [y/N] ', activity: seconds() - 600 };
      const { engine, events, fake, advance } = setup([pane], {}, true);
      await engine.pollNow();
      await engine.pollNow();
      advance(10_000);
      const before = fake.calls.length;
      await engine.pollNow();
      expect(fake.calls.slice(before).flatMap((call) => captured([call], 0))).toEqual([]);
      expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'stuck', reason: 'permission' });
      expect(events.filter((e) => e.type === 'stuck')).toHaveLength(1);
    });

    it('lists and captures in one process while the connection is missing', async () => {
      const panes = [{ id: '%1', screen: 'a', activity: seconds() - 600 }];
      const fake = scriptedTmux(panes);
      const down = Object.assign((args: readonly string[]) => fake.runner(args), { connected: () => false });
      const client = new TmuxClient({ socket: { kind: 'name', name: 't' }, runner: fake.runner, pollRunner: down, nonce: NONCE });
      const settings = resolveSettings({ flags: {}, env: {}, file: null });
      const engine = createEngine({ settings, tmux: client });
      for (let i = 0; i < 3; i++) await engine.pollNow();
      // The first cycle lists, then captures what it found (two processes, once); then one a cycle.
      expect(fake.calls).toHaveLength(4);
      expect(captured(fake.calls, 1)).toEqual(['%1']);
      expect(captured(fake.calls, 3)).toEqual(['%1']);
    });

    it('captures a pane with its first listing, so its state is known from the first cycle', async () => {
      const pane = { id: '%1', screen: 'Deploy? [y/N] ', activity: seconds() - 600 };
      const { engine, events } = setup([pane], {}, true);
      await engine.pollNow();
      expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'monitoring', lines: ['Deploy? [y/N]'] });
      expect(engine.getSnapshot().panes[0]?.verdict?.prompt).toBe(true);
      expect(events.map((e) => e.type)).toEqual(['registered']);
    });

    it('captures every watched pane in one process without a persistent connection', async () => {
      const panes = [{ id: '%1', screen: 'a', activity: seconds() - 600 }];
      const { engine, fake } = setup(panes);
      for (let i = 0; i < 3; i++) await engine.pollNow();
      expect(fake.calls).toHaveLength(3);
      expect(captured(fake.calls, 2)).toEqual(['%1']);
    });
  });
});
