// Time to notice at the default thresholds, over generated long runs: a pane that prints with
// pauses, works under a spinner that stalls, flashes a question by, and holds prompts. Played to the
// engine's own poll loop on a manual clock (a scripted tmux that stamps activity as tmux does and
// tells of nothing). The oracle is what a person reads on the screen over time: a stuck event only
// while a prompt has been on screen for its threshold, and while a prompt is held long enough the
// pane is stuck from its threshold, the end of tmux's second and one poll on.

import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { ManualTime } from '../helpers/manual-time.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';

const settings = resolveSettings({ flags: {}, env: {}, file: null });
const POLL = settings.pollIntervalMs;
const THRESHOLD = { permission: settings.askThresholdMs, stopped: settings.quietThresholdMs } as const;
/** tmux stamps activity by the second: a wait counts from the end of the second it was drawn in. */
const STAMP_MS = 1_000;

type Kind = 'permission' | 'stopped' | null;

/** One stretch of the run: what the screen shows from `at` on, and whether a person reads a wait in it. */
interface Segment {
  readonly at: number;
  readonly screen: string;
  /** Printed (tmux stamps activity) or drawn without output. */
  readonly output: boolean;
  readonly wait: Kind;
  /** A question back after a redraw is the same one: a person reads it as held since then. */
  readonly heldSince?: number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A run of about two minutes of segments, each kind of stretch by turns at random. */
function generateRun(random: SeededRandom): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  let log: string[] = ['$ ./build.sh'];
  const screen = (...tail: string[]) => [...log.slice(-20), ...tail].join('\n');
  const print = (line: string) => (log = [...log, line].slice(-200));
  // Work first: a pane corral first finds at its prompt is idle, not new to the person.
  segments.push({ at, screen: screen(), output: true, wait: null });
  at += random.int(500, 3_000);
  while (at < 120_000) {
    const what = random.pick(['output', 'spinner', 'flash', 'ask', 'redraw', 'stop'] as const);
    if (what === 'output') {
      // Lines with pauses of up to 8 s between them: no prompt, however long the pause.
      for (let i = random.int(1, 6); i > 0; i--) {
        print(`compiling module ${random.int(1, 999)} of 999`);
        segments.push({ at, screen: screen(), output: true, wait: null });
        at += random.int(50, 8_000);
      }
    } else if (what === 'spinner') {
      // Work under a spinner with its interrupt hint; it may stall for up to 15 s (the same frame).
      const frames = random.int(1, 30);
      const seconds = random.int(1, 300);
      for (let i = 0; i < frames; i++) {
        segments.push({ at, screen: screen(`${SPINNER[i % SPINNER.length]} Working (${seconds + i}s · esc to interrupt)`), output: true, wait: null });
        at += random.chance(0.2) ? random.int(2_000, 15_000) : random.int(80, 250);
      }
    } else if (what === 'flash') {
      // A question that flashes by: answered (by a script, a default) within a moment.
      const question = `Overwrite config.toml? (y/n) `;
      segments.push({ at, screen: screen(question), output: true, wait: null });
      at += random.int(20, 600);
      print(`${question}y`);
      segments.push({ at, screen: screen(), output: true, wait: null });
      at += random.int(50, 2_000);
    } else if (what === 'ask') {
      // A question held until a person answers it.
      const question = `Deploy build ${random.int(1, 99)} to production? [y/N] `;
      segments.push({ at, screen: screen(question), output: true, wait: 'permission' });
      at += random.int(200, 20_000);
      print(`${question}n`);
      segments.push({ at, screen: screen(), output: true, wait: null });
      at += random.int(50, 1_000);
    } else if (what === 'redraw') {
      // A question the program hides now and then while it draws its whole screen again from the
      // top, then shows as before: one question, held since it was first drawn.
      const question = `Apply patch ${random.int(1, 99)}? [y/N] `;
      const first = at;
      segments.push({ at, screen: screen(question), output: true, wait: 'permission' });
      for (let i = random.int(1, 3); i > 0; i--) {
        at += random.int(200, 6_000);
        segments.push({ at, screen: [...log.slice(0, 20), '(redrawing)'].join('\n'), output: true, wait: null });
        at += random.int(30, 1_500);
        segments.push({ at, screen: screen(question), output: true, wait: 'permission', heldSince: first });
      }
      at += random.int(200, 6_000);
      print(`${question}y`);
      segments.push({ at, screen: screen(), output: true, wait: null });
      at += random.int(50, 1_000);
    } else {
      // Work ends at the shell's prompt, held until the next command.
      print('done.');
      segments.push({ at, screen: screen('$ '), output: true, wait: 'stopped' });
      at += random.int(200, 20_000);
      print('$ ./build.sh');
      segments.push({ at, screen: screen(), output: true, wait: null });
      at += random.int(50, 1_000);
    }
  }
  return segments;
}

interface Timed {
  readonly at: number;
  readonly event: CorralEvent;
}

/** Plays a run to the engine's loop at the default settings; the events with their run times. */
async function play(segments: readonly Segment[], end: number): Promise<Timed[]> {
  const engine0 = 50_000;
  const wall0 = 1_800_000_000_000;
  const time = new ManualTime(engine0);
  const t = () => time.now() - engine0;
  const pane: PolledPane = { id: '%1', screen: '', width: 100, height: 30, activity: wall0 / 1000 };
  const show = () => {
    let shown: Segment | null = null;
    for (const s of segments) if (s.at <= t()) shown = s;
    if (shown === null) return;
    pane.screen = shown.screen;
    // tmux stamps the second of the last output.
    if (shown.output) pane.activity = Math.floor((wall0 + shown.at) / 1000);
  };
  const fake = scriptedPoll([pane], () => Math.floor((wall0 + t()) / 1000));
  const runner: TmuxRunner = (args, options) => (show(), fake.runner(args, options));
  const wallClock = { now: () => wall0 + t() };
  const tmux = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: 'runs' }, runner, pollRunner: runner, nonce: 'n', clock: wallClock });
  const engine = createEngine({ settings, tmux, clock: time, wallClock, timers: time });
  const events: Timed[] = [];
  engine.onEvent((event) => events.push({ at: t(), event }));
  engine.start();
  await time.advance(end);
  await engine.stop();
  return events;
}

describe('time to notice at the default thresholds', () => {
  describe.each(testSeeds(20261206))('generated long runs, seed %i', (seed) => {
    it('a stuck event only while a prompt has been held for its threshold, and every prompt held long enough is stuck in time', async () => {
      const random = new SeededRandom(seed);
      for (let run = 0; run < 12; run++) {
        const segments = generateRun(random);
        const end = segments.at(-1)!.at + 10_000;
        const events = await play(segments, end);
        const context = `seed ${seed}, run ${run}`;
        const stuck = events.filter((e) => e.event.type === 'stuck');
        // No false stuck: each stuck event falls in a segment a person reads as that wait, held for its threshold.
        for (const { at, event } of stuck) {
          const k = segments.findLastIndex((s) => s.at <= at);
          const segment = segments[k]!;
          const reason = event.type === 'stuck' ? event.reason : null;
          expect(segment.wait, `${context}: stuck (${reason}) at ${at} on ${JSON.stringify(segment.screen.split('\n').at(-1))}`).toBe(reason);
          expect(at - (segment.heldSince ?? segment.at), `${context}: stuck at ${at}`).toBeGreaterThanOrEqual(THRESHOLD[segment.wait!]);
        }
        // Noticed in time: a held prompt has the pane stuck within its threshold, the end of tmux's
        // second and one poll (by a stuck event then, or by one still in force: a question answered
        // and the next asked between two polls is one wait for the person, told once).
        const transitions = events.filter((e) => e.event.type === 'stuck' || e.event.type === 'unstuck');
        segments.forEach((segment, k) => {
          if (segment.wait === null) return;
          const until = segments[k + 1]?.at ?? end;
          const due = Math.max((segment.heldSince ?? segment.at) + THRESHOLD[segment.wait], segment.at) + STAMP_MS + POLL;
          if (until <= due) return;
          const last = transitions.findLast((e) => e.at <= due);
          expect(last?.event.type, `${context}: the ${segment.wait} drawn at ${segment.at}, held until ${until}`).toBe('stuck');
        });
      }
    });
  });
});
