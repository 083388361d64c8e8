// The engine with a scripted tmux runner and a manual clock: no tmux, no sleeps.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { ManualTime } from '../helpers/manual-time.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from '../helpers/real-time.js';

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
  const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, nonce: NONCE, ...(persistent ? { pollRunner } : {}) });
  const engine = createEngine({ ...realEngineTime, settings, tmux: client, clock });
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
    const engine = createEngine({ ...realEngineTime, settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'default' }, runner: fake.runner, nonce: NONCE }), selfPaneId: '%3' });
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

  it('polls on its injected timers: every interval, after a hook at 250, 800 and 1600 ms, nothing once stopped', async () => {
    const fake = scriptedTmux([{ id: '%1', screen: '$ ', command: 'claude' }]);
    const time = new ManualTime();
    const settings = resolveSettings({ flags: { pollIntervalMs: 2_000 }, env: {}, file: null });
    const engine = createEngine({ settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, nonce: NONCE }), clock: time, wallClock: time, timers: time });
    const listings = () => fake.calls.filter((call) => call[0] === 'list-panes').length;
    engine.start();
    await time.advance(0);
    // The first cycle registers the pane without its screen, so the second follows at once.
    expect(listings()).toBe(2);
    await time.advance(6_000);
    expect(listings()).toBe(5);
    const hook = { agent: 'claude-code', signal: 'permission', event: 'PermissionRequest', sessionId: 's', transcriptPath: '', cwd: '/', message: 'Bash: ls' } as const;
    expect(engine.observeHook('%1', hook)).toBe(true);
    await time.advance(1_600);
    // Three follow-ups; the regular poll comes at 8 s.
    expect(listings()).toBe(8);
    await engine.stop();
    expect(time.timerCount).toBe(0);
    await time.advance(60_000);
    expect(listings()).toBe(8);
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

    /** An engine whose wall clock (tmux's stamps) and engine clock advance together, by hand. */
    function walled(panes: FakePane[], pollIntervalMs: number) {
      let wall = 1_700_000_000_000;
      let now = 5_000;
      const fake = scriptedTmux(panes);
      const settings = resolveSettings({ flags: { quietThresholdMs: 10_000, pollIntervalMs }, env: {}, file: null });
      const pollRunner: TmuxRunner = (args, options) => fake.runner(args, options);
      const client = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, pollRunner, nonce: NONCE, clock: { now: () => wall } });
      const engine = createEngine({ ...realEngineTime, settings, tmux: client, clock: { now: () => now }, wallClock: { now: () => wall } });
      const poll = async () => {
        const before = fake.calls.length;
        await engine.pollNow();
        return fake.calls.slice(before).flatMap((call) => captured([call], 0)).length;
      };
      const advance = (ms: number) => {
        wall += ms;
        now += ms;
      };
      return { engine, poll, advance, wallSeconds: () => Math.floor(wall / 1000), now: () => now, wall: () => wall };
    }

    it('follows a pane that keeps printing every FOLLOW_MS, every poll while focused, and catches its last screen', async () => {
      const busy: FakePane = { id: '%1', screen: 'line 0' };
      const { engine, poll, advance, wallSeconds } = walled([busy], 500);
      busy.activity = wallSeconds();
      await poll(); // registers and captures it
      const print = async (text: string) => {
        advance(500);
        busy.screen = text;
        busy.activity = wallSeconds();
        return poll();
      };
      const counts: number[] = [];
      for (let i = 1; i <= 7; i++) counts.push(await print(`line ${i}`));
      // The first two prints are captured (one change after a quiet spell may be a command typed,
      // whose prompt comes back next); from then on it prints at every capture: captured once in
      // 2 s (FOLLOW_MS), not at every 500 ms poll. Its pace ends on a multiple of 2 s on the wall
      // clock (the clock starts on one): the first a second after it began printing, at +2 s, the
      // next at +4 s.
      expect(counts).toEqual([1, 1, 0, 1, 0, 0, 0]);
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['line 4']);
      // Looked at, it is captured whenever it printed: every poll (unfocused: 0, 1, 0).
      engine.focus(['%1']);
      const focusedCounts: number[] = [];
      for (let i = 8; i <= 10; i++) focusedCounts.push(await print(`line ${i}`));
      expect(focusedCounts).toEqual([1, 1, 1]);
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['line 10']);
      // Another host's key focuses nothing here.
      engine.focus(['build-box/%1']);
      expect(await print('line 11')).toBe(0);
      // It stops: its last screen comes at the next capture, within FOLLOW_MS.
      advance(1500);
      expect(await poll()).toBe(1);
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['line 11']);
    });

    it('at a 2 s poll, a pane that keeps printing is captured every other poll', async () => {
      const busy: FakePane = { id: '%1', screen: 'line 0' };
      const { poll, advance, wallSeconds } = walled([busy], 2000);
      busy.activity = wallSeconds();
      await poll();
      const counts: number[] = [];
      for (let i = 1; i <= 6; i++) {
        advance(2000);
        busy.screen = `line ${i}`;
        busy.activity = wallSeconds();
        counts.push(await poll());
      }
      expect(counts).toEqual([1, 1, 0, 1, 0, 1]);
    });

    it('starts the quiet time of a pane captured late at the end of its last output, never before the capture before', async () => {
      const busy: FakePane = { id: '%1', screen: 'line 0' };
      const { engine, poll, advance, wallSeconds, now, wall } = walled([busy], 500);
      busy.activity = wallSeconds();
      await poll();
      advance(500);
      busy.screen = 'line 1';
      busy.activity = wallSeconds();
      expect(await poll()).toBe(1); // a change after a quiet spell: captured again at the next poll
      advance(500);
      busy.screen = 'line 2';
      busy.activity = wallSeconds();
      expect(await poll()).toBe(1); // a second change: it keeps printing, followed every 2 s from now on
      advance(500);
      busy.screen = 'line 3';
      busy.activity = wallSeconds();
      const lastOutputSecond = wallSeconds();
      expect(await poll()).toBe(0); // left for later
      // Silence: the capture that finds its last screen comes 1.5 s after it.
      advance(1500);
      expect(await poll()).toBe(1);
      const view = engine.getSnapshot().panes[0]!;
      expect(view.lines).toEqual(['line 3']);
      // The end of the second the window last printed in, in the engine's clock: not the capture's time.
      const endOfOutput = now() - (wall() - (lastOutputSecond * 1000 + 999));
      expect(view.quietSince).toBe(Math.min(now(), endOfOutput));
      expect(view.quietSince).toBeLessThan(now());
      // A change with no output (a resize reflowed the screen; the window printed nothing since the
      // last capture) is no activity: the quiet time goes on.
      const quietSince = view.quietSince;
      advance(3000);
      busy.width = 60;
      busy.screen = 'reflowed';
      expect(await poll()).toBe(1);
      expect(engine.getSnapshot().panes[0]?.lines).toEqual(['reflowed']);
      expect(engine.getSnapshot().panes[0]?.quietSince).toBe(quietSince);
      // A resize the program answers by drawing again printed: the quiet time starts at the capture that sees it.
      advance(3000);
      busy.width = 70;
      busy.screen = 'drawn again';
      busy.activity = wallSeconds();
      expect(await poll()).toBe(1);
      expect(engine.getSnapshot().panes[0]?.quietSince).toBe(now());
    });

    it('captures a wait that animates at every poll, turns it stuck within the threshold and one poll, and keeps it stuck through the blinking', async () => {
      const rule = '─'.repeat(60);
      const working = ['❯ RUNCMD touch /tmp/a.txt', '', '● I will run that command.', '', '✻ Running… (3s · esc to interrupt)', '', rule, '❯ ', rule].join('\n');
      const dialog = (bullet: boolean) =>
        ['❯ RUNCMD touch /tmp/a.txt', '', '● I will run that command.', `${bullet ? '●' : ' '} Running the command the user asked for`, '  ⎿  $ touch /tmp/a.txt', rule, ' Bash command', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel · Tab to amend'].join('\n');
      const pane: FakePane = { id: '%1', screen: working };
      const { engine, poll, advance, wallSeconds, now } = walled([pane], 2000);
      const events: CorralEvent[] = [];
      engine.onEvent((e) => events.push(e));
      pane.activity = wallSeconds();
      await poll();
      // It works (its spinner prints every poll), then draws its dialog, whose bullet blinks once a second.
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) {
        advance(2000);
        pane.screen = working.replace('3s', `${4 + i}s`);
        pane.activity = wallSeconds();
        counts.push(await poll());
      }
      advance(700);
      pane.screen = dialog(true);
      const drawnAt = now();
      let stuckAt: number | null = null;
      const hashes = new Set<string>();
      const contents = new Set<string>();
      // Polls every 2 s; each finds the bullet in the other phase (it blinks and prints between them).
      for (let i = 0; i < 15; i++) {
        advance(i === 0 ? 1300 : 2000);
        pane.screen = dialog(i % 2 === 1);
        pane.activity = wallSeconds();
        counts.push(await poll());
        const view = engine.getSnapshot().panes[0]!;
        hashes.add(view.screenHash);
        contents.add(view.contentHash);
        if (stuckAt === null && view.state === 'stuck') stuckAt = now();
      }
      // Busy or waiting, a pane that prints is captured at every poll.
      expect(counts.every((n) => n === 1)).toBe(true);
      expect(stuckAt).not.toBeNull();
      expect(stuckAt! - drawnAt).toBeLessThanOrEqual(10_000 + 2000);
      expect(events.map((e) => e.type)).toEqual(['registered', 'stuck']);
      expect(events[1]).toMatchObject({ reason: 'permission', message: 'Do you want to proceed?' });
      // The screen hash follows the blinking; the content a person saw does not.
      expect(hashes.size).toBe(2);
      expect(contents.size).toBe(1);
      // A snooze holds through the blinking.
      engine.acknowledge('%1');
      for (let i = 0; i < 4; i++) {
        advance(2000);
        pane.screen = dialog(i % 2 === 0);
        pane.activity = wallSeconds();
        await poll();
      }
      expect(engine.getSnapshot().panes[0]).toMatchObject({ state: 'stuck', acknowledged: true });
      expect(engine.getSnapshot().panes[0]!.quietSince).toBeGreaterThan(stuckAt!);
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
      const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, pollRunner: down, nonce: NONCE });
      const settings = resolveSettings({ flags: {}, env: {}, file: null });
      const engine = createEngine({ ...realEngineTime, settings, tmux: client });
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
