// Replays the recorder's films (real agents filmed while they wait and while they work, frames
// with their times and tmux's activity stamps) through the real engine: its capture gate, the
// prompt matcher and the pane machine, with a scripted tmux that shows each frame at its time and
// injected clocks. A wait must turn stuck within the threshold and one poll of being drawn, with
// the reason its label names, and stay stuck while it animates; a tool run must never turn stuck.

import { describe, expect, it } from 'vitest';
import { expandFrames, readFilms, type Film } from '../../scripts/agents/films.mjs';
import { RECORDED_DIR } from '../../scripts/agents/recorded-fixtures.mjs';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { contentHash } from '../../src/engine/pane/screen-content.js';
import { readLines } from '../../src/engine/pane/screen-hash.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { ManualTime } from '../helpers/manual-time.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';

const films = readFilms(RECORDED_DIR);

interface Timed {
  readonly at: number;
  readonly event: CorralEvent;
}

/**
 * Plays a film to the engine's own poll loop on a manual clock: tmux shows each frame from its time
 * on, the loop polls at its interval and wakes when a wait comes of age, as it does live (this
 * scripted tmux tells of no change). The events with their film times.
 */
async function replay(film: Film, { pollIntervalMs, quietThresholdMs, askThresholdMs }: Pace): Promise<Timed[]> {
  const frames = expandFrames(film.frames);
  const [cols = 80, rows = 24] = film.size.split('x').map(Number);
  // The film's start on the wall clock, as far into its second as it was when filmed: its
  // activity stamps (the starts of tmux's seconds) then fall on whole seconds again.
  const wall0 = 1_700_000_000_000 + ((((-frames[0]!.activity) % 1000) + 1000) % 1000);
  const engine0 = 50_000;
  const time = new ManualTime(engine0);
  const t = () => time.now() - engine0;
  const pane: PolledPane = { id: '%1', screen: frames[0]!.screen, width: cols, height: rows };
  // What tmux shows at the moment it is asked.
  const show = () => {
    let frame = frames[0]!;
    for (const f of frames) if (f.at <= t()) frame = f;
    pane.screen = frame.screen;
    pane.alternateOn = frame.alternateOn;
    pane.activity = Math.floor((wall0 + frame.activity) / 1000);
  };
  const fake = scriptedPoll([pane], () => Math.floor((wall0 + t()) / 1000));
  const runner: TmuxRunner = (args, options) => (show(), fake.runner(args, options));
  const wallClock = { now: () => wall0 + t() };
  const client = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: 'replay' }, runner, pollRunner: runner, nonce: 'n', clock: wallClock });
  const settings = resolveSettings({ flags: { quietThresholdMs, askThresholdMs, pollIntervalMs }, env: {}, file: null });
  const engine = createEngine({ settings, tmux: client, clock: time, wallClock, timers: time });
  const events: Timed[] = [];
  engine.onEvent((event) => events.push({ at: t(), event }));
  engine.start();
  await time.advance(film.durationMs);
  await engine.stop();
  return events;
}

const stuckOf = (events: readonly Timed[]) => events.filter((e) => e.event.type === 'stuck');

/**
 * When a filmed wait was drawn for good: the last frame, from the walk's mark on, that shows content
 * not shown since the mark (animation masked; a cycle of frames shows nothing new after its first round).
 */
function settledAt(film: Film): number {
  const drawn = film.marks.drawn!;
  const frames = expandFrames(film.frames);
  const seen = new Set<string>();
  let settled = drawn;
  for (const frame of frames) {
    if (frame.at < drawn && frames.some((f) => f.at > frame.at && f.at <= drawn)) continue;
    const { lines, hash } = readLines(frame.screen);
    const content = contentHash(lines, hash);
    if (!seen.has(content)) settled = Math.max(drawn, frame.at);
    seen.add(content);
  }
  return settled;
}

interface Pace {
  readonly pollIntervalMs: number;
  readonly quietThresholdMs: number;
  readonly askThresholdMs: number;
}

/**
 * The poll intervals and thresholds the films are replayed at: a brisk poll, the default poll with
 * one threshold for every wait, and the defaults (a prompt that asks counts after 1 s).
 */
const PACES: readonly Pace[] = [
  { pollIntervalMs: 1_000, quietThresholdMs: 4_000, askThresholdMs: 4_000 },
  { pollIntervalMs: 2_000, quietThresholdMs: 6_000, askThresholdMs: 6_000 },
  { pollIntervalMs: 2_000, quietThresholdMs: 3_000, askThresholdMs: 1_000 },
];

describe('recorded films replayed through the engine', () => {
  it('has films of every agent that runs offline: a permission wait, an idle wait and a tool run', () => {
    const kinds = new Map<string, Set<string>>();
    for (const film of films) kinds.set(film.tool, (kinds.get(film.tool) ?? new Set()).add(film.name));
    for (const tool of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'qwen-code', 'kilo']) {
      expect([...(kinds.get(tool) ?? [])].sort(), tool).toEqual(expect.arrayContaining(['idle', 'permission', 'working']));
    }
    expect([...(kinds.get('pi') ?? [])].sort()).toEqual(expect.arrayContaining(['idle', 'working']));
  });

  for (const film of films) {
    for (const pace of PACES) {
      const at = `every ${pace.pollIntervalMs / 1000} s, thresholds ${pace.askThresholdMs / 1000} s / ${pace.quietThresholdMs / 1000} s`;
      if (film.label === 'busy') {
        it(`${film.file} (${at}): never stuck while the tool runs`, async () => {
          expect(film.marks.running, 'the film saw the tool start').toBeDefined();
          expect(film.marks.done, 'the film saw the tool end').toBeDefined();
          // 60 s of work, with a threshold of seconds: nothing in it may read as a wait.
          expect(film.marks.done! - film.marks.running!).toBeGreaterThan(50_000);
          const events = await replay(film, pace);
          expect(stuckOf(events).map((e) => `${e.at} ms: ${JSON.stringify(e.event)}`)).toEqual([]);
        });
      } else {
        it(`${film.file} (${at}): stuck (${film.label}) within the threshold and one poll of being drawn, and stays so`, async () => {
          const drawn = film.marks.drawn!;
          expect(drawn).toBeDefined();
          // Some dialogs finish drawing a moment after their question shows (a scroll bar goes away).
          const settled = settledAt(film);
          expect(settled - drawn, 'the wait settles within 3 s of being drawn').toBeLessThanOrEqual(3_000);
          const events = await replay(film, pace);
          const stuck = stuckOf(events);
          expect(stuck.length, JSON.stringify(events.map((e) => [e.at, e.event.type]))).toBe(1);
          const [first] = stuck;
          expect(first!.event).toMatchObject({ reason: film.label });
          expect(first!.at).toBeGreaterThanOrEqual(drawn - film.sampleMs);
          // The walk saw the state within one sample of the film's frame.
          const threshold = film.label === 'permission' ? pace.askThresholdMs : pace.quietThresholdMs;
          expect(first!.at).toBeLessThanOrEqual(settled + film.sampleMs + threshold + pace.pollIntervalMs);
          // Animated or not, it is not let go while the wait is on screen.
          expect(events.filter((e) => e.event.type === 'unstuck' && e.at > first!.at)).toEqual([]);
        });
      }
    }
  }
});
