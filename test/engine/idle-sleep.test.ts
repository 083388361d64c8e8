// The poll loop while tmux tells of no change: it sleeps until the next full listing, the next
// capture the plan wants or the moment a wait comes of age, and wakes at once when tmux tells of a
// change. Checked with a scripted tmux and a manual clock, and against the same engine driven at
// every poll interval as well (the cadence before it slept): generated screen changes, some told
// and some not, must bring the same events, none more than one interval later (a change told) or
// one recapture later (one not told), for fewer wakes and no more tmux calls.

import { describe, expect, it } from 'vitest';
import { RECAPTURE_MS } from '../../src/engine/poll/capture-gate.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, FULL_LISTING_MS, type Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { ControlReply } from '../../src/engine/tmux/control-protocol.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent, Timers } from '../../src/engine/types.js';
import { ManualTime } from '../helpers/manual-time.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

const INTERVAL = 2_000;
const THRESHOLD = 10_000;

interface Rig {
  readonly engine: Engine;
  readonly events: CorralEvent[];
  /** Every delay the loop armed, in order. */
  readonly armed: number[];
  /** How many tmux calls the engine made. */
  calls(): number;
  /** tmux tells of a change, as its subscription does. */
  tell(): void;
}

/** An engine over scripted panes whose tmux tells of changes (a count and a listener, as the control connection has). */
function rig(panes: PolledPane[], time: ManualTime, interval = INTERVAL): Rig {
  const fake = scriptedPoll(panes, () => Math.floor(time.now() / 1000));
  let told = 0;
  let listener: (() => void) | null = null;
  const pollRunner: TmuxRunner = Object.assign((args: readonly string[]) => fake.runner(args), {
    // One reply a command, as over a control connection.
    replies: async (commands: readonly (readonly string[])[]): Promise<ControlReply[]> =>
      Promise.all(commands.map(async (command, number) => {
        const result = await fake.runner(command);
        return { number, flags: 0, ok: result.exitCode === 0, text: result.stdout };
      })),
    watch: (l: () => void) => void (listener = l),
    // As over a control connection: tmux tells of changes only once someone watches (a subscription).
    changes: () => (listener === null ? null : told),
    // Which windows: none when nothing was told since, any when something was.
    windowsSince: (mark: number) => (listener !== null && mark === told ? new Set<string>() : null),
  });
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'idle' }, runner: fake.runner, nonce: 'fixed', pollRunner });
  const settings = resolveSettings({ flags: { quietThresholdMs: THRESHOLD, askThresholdMs: THRESHOLD, pollIntervalMs: interval }, env: {}, file: null });
  const armed: number[] = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => (armed.push(ms), time.setTimeout(callback, ms)),
    clearTimeout: (handle) => time.clearTimeout(handle),
  };
  const engine = createEngine({ settings, tmux, clock: time, wallClock: time, timers });
  const events: CorralEvent[] = [];
  engine.onEvent((event) => events.push(event));
  return { engine, events, armed, calls: () => fake.calls.length, tell: () => ((told += 1), listener?.()) };
}

const seconds = (time: ManualTime) => Math.floor(time.now() / 1000);

describe('the poll loop while nothing changes', () => {
  it('sleeps until a wait comes of age, then until the next listing, and wakes at once when tmux tells of a change', async () => {
    const time = new ManualTime();
    const panes: PolledPane[] = [
      { id: '%1', screen: 'Deploy to production? [y/N] ', activity: seconds(time) - 1 },
      { id: '%2', screen: 'compiling 3 of 7', activity: seconds(time) - 1 },
    ];
    const { engine, events, armed, calls, tell } = rig(panes, time);
    engine.start();
    await time.advance(3 * INTERVAL);
    const asked = calls();
    const stuckAt = events.find((e) => e.type === 'stuck');
    expect(stuckAt).toBeUndefined();
    // The wait comes of age at the threshold: no tick before it, and it is stuck at that moment.
    await time.advance(THRESHOLD);
    const stuck = events.find((e) => e.type === 'stuck');
    expect(stuck).toBeDefined();
    expect(calls()).toBe(asked);
    // Then nothing is due before the next full listing: one timer, and no tmux call, until then.
    const from = armed.length;
    const quietFor = FULL_LISTING_MS - 3 * INTERVAL - THRESHOLD - 1_000;
    await time.advance(quietFor);
    expect(calls()).toBe(asked);
    expect(armed.slice(from).length).toBeLessThanOrEqual(1);
    expect(Math.max(...armed.slice(from - 1))).toBeGreaterThan(5 * INTERVAL);
    // The listing comes anyway.
    await time.advance(2_000 + INTERVAL);
    expect(calls()).toBeGreaterThan(asked);

    // A change told during a sleep is asked for at once, not at the end of it.
    await time.advance(2 * INTERVAL);
    const before = calls();
    panes[0]!.screen = 'Deploy to production? [y/N] y\ndeploying';
    panes[0]!.activity = seconds(time);
    tell();
    await time.advance(1);
    expect(calls()).toBeGreaterThan(before);
    expect(events.at(-1)).toMatchObject({ type: 'unstuck', paneId: '%1' });
    await engine.stop();
  });

  it('brings the recaptures of silent panes along with the periodic listing: a quiet server is asked once a period', async () => {
    const time = new ManualTime();
    // Eight panes: enough that listing one window costs tmux less than listing all (worthListingSome).
    const panes: PolledPane[] = Array.from({ length: 8 }, (_, i) => ({ id: `%${i + 1}`, screen: `compiling ${i} of 7`, activity: seconds(time) - 5 }));
    const { engine, calls, tell } = rig(panes, time);
    const asking: number[] = [];
    engine.start();
    await time.advance(5_000);
    // One pane prints once: its capture, and so its own recapture, falls out of step with the listing.
    panes[1]!.screen = 'compiling 2 of 7';
    panes[1]!.activity = seconds(time);
    tell();
    const origin = time.now();
    for (let at = 0; at < 4 * FULL_LISTING_MS; at += 500) {
      const before = calls();
      await time.advance(500);
      if (calls() > before) asking.push(time.now() - origin);
    }
    await engine.stop();
    // Out of step once (the recapture of the pane captured first, then the listing), in step after.
    const late = asking.filter((at) => at > 2 * FULL_LISTING_MS);
    expect(late, JSON.stringify(asking)).toHaveLength(2);
  });

  it('lists the window of a pane it captures before tmux tells of its output: a prompt just drawn is not taken for one held since the last listing', async () => {
    const time = new ManualTime();
    const panes: PolledPane[] = Array.from({ length: 8 }, (_, i) => ({ id: `%${i + 1}`, screen: `compiling ${i} of 7`, activity: seconds(time) - 5 }));
    const { engine, events, tell } = rig(panes, time);
    engine.start();
    await time.advance(3_000);
    // %3 prints: captured at once, then followed (plain output) until its follow pace ends.
    panes[2]!.screen = 'compiling 1 of 7';
    panes[2]!.activity = seconds(time);
    tell();
    await time.advance(3_500);
    // A prompt, drawn in the last second before the follow pace ends, and told only after it.
    const drawnAt = time.now();
    panes[2]!.screen = 'Deploy to production? [y/N] ';
    panes[2]!.activity = seconds(time);
    await time.advance(900);
    tell();
    await time.advance(2 * THRESHOLD);
    await engine.stop();
    const stuck = events.find((e) => e.type === 'stuck' && e.paneId === '%3');
    expect(stuck).toBeDefined();
    expect(stuck!.timestamp - drawnAt).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it('lists every pane again at once when the wall clock is set back past the last listing, and sleeps no longer than the period', async () => {
    const time = new ManualTime();
    let wallOffset = 0;
    const wall = { now: () => time.now() + wallOffset };
    // No pane to capture (a pane would be captured at once: its capture time lies ahead of the clock).
    const fake = scriptedPoll([], () => Math.floor(wall.now() / 1000));
    const pollRunner: TmuxRunner = Object.assign((args: readonly string[]) => fake.runner(args), { watch: () => undefined, changes: () => 0, windowsSince: () => null });
    const settings = resolveSettings({ flags: { quietThresholdMs: THRESHOLD, askThresholdMs: THRESHOLD, pollIntervalMs: INTERVAL }, env: {}, file: null });
    const armed: number[] = [];
    const timers: Timers = { setTimeout: (callback, ms) => (armed.push(ms), time.setTimeout(callback, ms)), clearTimeout: (handle) => time.clearTimeout(handle) };
    const engine = createEngine({ settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'back' }, runner: fake.runner, nonce: 'fixed', pollRunner }), clock: time, wallClock: wall, timers });
    engine.start();
    await time.advance(3 * INTERVAL);
    // An hour back: the last listing now lies an hour ahead of the wall clock.
    wallOffset = -3_600_000;
    await time.advance(FULL_LISTING_MS + 2 * INTERVAL);
    expect(Math.max(...armed)).toBeLessThanOrEqual(FULL_LISTING_MS);
    expect(fake.calls.length).toBeGreaterThan(1);
    await engine.stop();
  });

  it('keeps the poll interval at a poll faster than tmux tells (no watch then)', async () => {
    const time = new ManualTime();
    const fake = scriptedPoll([{ id: '%1', screen: '$ ', activity: seconds(time) - 5 }], () => seconds(time));
    const settings = resolveSettings({ flags: { quietThresholdMs: THRESHOLD, askThresholdMs: THRESHOLD, pollIntervalMs: 500 }, env: {}, file: null });
    const engine = createEngine({ settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'fast' }, runner: fake.runner, nonce: 'fixed' }), clock: time, wallClock: time, timers: time });
    engine.start();
    await time.advance(20_000);
    // One tmux process a cycle, every 500 ms.
    expect(fake.calls.length).toBeGreaterThanOrEqual(39);
    await engine.stop();
  });

  it('at a poll faster than tmux tells, sleeps while nothing changes, and asks at every interval while a pane prints', async () => {
    const time = new ManualTime();
    const panes: PolledPane[] = Array.from({ length: 5 }, (_, i) => ({ id: `%${i + 1}`, screen: '$ ', activity: seconds(time) - 60 }));
    const { engine, calls, tell } = rig(panes, time, 500);
    engine.start();
    await time.advance(5_000);
    // Idle: the full listing every FULL_LISTING_MS, nothing in between (at every interval it was 40 in 20 s).
    const idleFrom = calls();
    await time.advance(20_000);
    expect(calls() - idleFrom).toBeLessThanOrEqual(3);
    // A pane prints a line every 200 ms, told once a second: its window is listed and captured at every interval.
    const busyFrom = calls();
    for (let at = 0; at < 10_000; at += 200) {
      panes[1]!.screen = `$ make\nline ${at}\n`;
      panes[1]!.activity = seconds(time);
      if (at % 1_000 === 0) tell();
      await time.advance(200);
    }
    expect(calls() - busyFrom).toBeGreaterThanOrEqual(18);
    await engine.stop();
  });

  describe.each(testSeeds(20261205))('generated screen changes, seed %i', (seed) => {
    it('bring the same events as at every interval, none more than an interval later, for fewer wakes and no more tmux calls', async () => {
      const random = new SeededRandom(seed);
      const screens = ['Deploy to production? [y/N] ', 'Overwrite config.toml? (y/n) ', 'compiling 3 of 7', 'done.', 'Password: ', 'Press ENTER to continue'];
      // Over all histories (a single one may take a call more, by the phase of its cycles): tmux
      // calls and timers armed, sleeping and at every interval.
      const totals = { calls: { sleeping: 0, ticking: 0 }, wakes: { sleeping: 0, ticking: 0 } };
      for (let history = 0; history < 30; history++) {
        const time = new ManualTime();
        const count = random.int(1, 5);
        const start = (i: number): PolledPane => ({ id: `%${i + 1}`, screen: screens[(history + i) % screens.length]!, activity: seconds(time) - 2 });
        const sleeping: PolledPane[] = Array.from({ length: count }, (_, i) => start(i));
        const ticking: PolledPane[] = Array.from({ length: count }, (_, i) => start(i));
        const a = rig(sleeping, time);
        const b = rig(ticking, time);
        // b is also polled at every interval, whatever its loop asks for.
        let ticks = true;
        const tick = () => {
          if (!ticks) return;
          void b.engine.pollNow();
          time.setTimeout(tick, INTERVAL);
        };
        a.engine.start();
        b.engine.start();
        time.setTimeout(tick, INTERVAL);
        // Each pane changes at most once every 20 s (a wait comes of age well before the next
        // change); tmux tells of a change within a second. A pane's last change may come with no
        // word and no activity stamp (a screen changed without output), which only the recapture
        // of a silent pane finds: up to RECAPTURE_MS later, in either engine, by its own phase.
        const script: { at: number; apply: () => void }[] = [];
        const silentFrom = new Map<string, number>();
        for (let i = 0; i < count; i++) {
          for (let slot = 1; slot <= 6; slot++) {
            if (!random.chance(0.6)) continue;
            const at = slot * 20_000 + random.int(0, 4_000);
            const screen = random.pick(screens);
            const silent = slot === 6 && random.chance(0.3);
            if (silent) silentFrom.set(`%${i + 1}`, at);
            const tellAfter = random.int(0, 999);
            script.push({
              at,
              apply: () => {
                for (const panes of [sleeping, ticking]) {
                  panes[i]!.screen = screen;
                  if (!silent) panes[i]!.activity = seconds(time);
                }
              },
            });
            if (!silent) script.push({ at: at + tellAfter, apply: () => (a.tell(), b.tell()) });
          }
        }
        script.sort((x, y) => x.at - y.at);
        const origin = time.now();
        for (const step of script) {
          await time.advance(origin + step.at - time.now());
          step.apply();
        }
        await time.advance(origin + 6 * 20_000 + 4_000 + RECAPTURE_MS + THRESHOLD + 3 * INTERVAL - time.now());
        ticks = false;
        await a.engine.stop();
        await b.engine.stop();

        const context = `seed ${seed}, history ${history}: ${JSON.stringify(script.map((s) => s.at))}`;
        for (const { id } of sleeping) {
          // Each pane's own events, in order (panes that change at the same second may be told in either order).
          const own = (events: CorralEvent[]) => events.filter((e) => 'paneId' in e && e.paneId === id);
          const [mine, reference] = [own(a.events), own(b.events)];
          expect(mine.map((e) => e.type), `${context}, ${id}`).toEqual(reference.map((e) => e.type));
          mine.forEach((event, k) => {
            const told = event.timestamp - origin < (silentFrom.get(id) ?? Infinity);
            const late = event.timestamp - reference[k]!.timestamp;
            expect(late, `${context}, ${id} ${event.type}`).toBeLessThanOrEqual(told ? INTERVAL : RECAPTURE_MS + INTERVAL);
          });
        }
        totals.calls.sleeping += a.calls();
        totals.calls.ticking += b.calls();
        totals.wakes.sleeping += a.armed.length;
        totals.wakes.ticking += b.armed.length;
      }
      expect(totals.calls.sleeping).toBeLessThanOrEqual(totals.calls.ticking);
      expect(totals.wakes.sleeping).toBeLessThan(totals.wakes.ticking * 0.6);
    });
  });
});
