// When a loop that sleeps while the listing stays the same must wake for captures: checked against
// chooseCaptures itself, at every millisecond that matters, over generated panes and last captures.

import { describe, expect, it } from 'vitest';
import { RECAPTURE_MS } from '../../../src/engine/poll/capture-gate.js';
import { captureDueAt, chooseCaptures, nextCaptureAt, type CapturePlan } from '../../../src/engine/poll/capture-plan.js';
import type { PaneEntry } from '../../../src/engine/poll/poll-step.js';
import type { PaneInfo } from '../../../src/engine/types.js';
import { paneInfo } from '../../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

const START = 1_700_000_000_000;

function generated(random: SeededRandom, id: string) {
  const at = START + random.int(0, 60_000);
  const previous = paneInfo({ paneId: id, windowId: `@${id.slice(1)}`, windowActivity: random.chance(0.1) ? 0 : Math.floor((at - random.int(-1_500, 40_000)) / 1000) * 1000 });
  // Listed now as it was, or printed since, or resized, respawned or switched screens without output.
  const change = random.pick<Partial<PaneInfo>>([{}, {}, {}, { windowActivity: Math.floor((at + random.int(0, 20_000)) / 1000) * 1000 }, { width: 100 }, { pid: 4242 }, { alternateOn: true }]);
  const pane: PaneInfo = { ...previous, ...change };
  const captured = random.chance(0.1) ? null : { pane: previous, at, changed: random.chance(0.5), printing: random.chance(0.5), mayWait: random.chance(0.5), cycle: 1 };
  return { pane, entry: { pane, captured } as unknown as PaneEntry };
}

describe.each(testSeeds(20261205))('capture due times, seed %i', (seed) => {
  const random = new SeededRandom(seed);

  it('captureDueAt is the first moment from the last capture on at which chooseCaptures takes the pane', () => {
    for (let trial = 0; trial < 2_000; trial++) {
      const { pane, entry } = generated(random, '%1');
      const focused = random.chance(0.2);
      const plan: CapturePlan = { scope: { optIn: false, prefix: 'corral', selfPaneId: null }, focused: new Set(focused ? ['%1'] : []), followMs: random.pick([2_000, 4_000, 60_000]) };
      const due = captureDueAt(entry.captured, pane, plan);
      const from = entry.captured?.at ?? START;
      const taken = (at: number) => chooseCaptures([pane], new Map([['%1', entry]]), plan, at).length === 1;
      const context = JSON.stringify({ trial, pane: { activity: pane.windowActivity }, captured: entry.captured, focused, followMs: plan.followMs, due });
      // Every moment where the answer could turn: around the due time, the follow pace, the recapture.
      const moments = [from, from + 1, due - 1, due, due + 1, from + plan.followMs - 1, from + plan.followMs, from + RECAPTURE_MS - 1, from + RECAPTURE_MS, from + 2 * RECAPTURE_MS];
      for (const at of moments.filter((m) => Number.isFinite(m) && m >= from)) expect(taken(at), `${context} at +${at - from}`).toBe(at >= due);
    }
  });

  it('nextCaptureAt takes captures due within the slack of the first together, none later than that', () => {
    for (let trial = 0; trial < 500; trial++) {
      const items = Array.from({ length: random.int(1, 8) }, (_, i) => generated(random, `%${i + 1}`));
      const plan: CapturePlan = { scope: { optIn: false, prefix: 'corral', selfPaneId: null }, focused: new Set(), followMs: 4_000 };
      const entries = new Map(items.map(({ pane, entry }) => [pane.paneId, entry]));
      const dues = items.map(({ pane, entry }) => captureDueAt(entry.captured, pane, plan));
      const wake = nextCaptureAt(items.map(({ pane }) => pane), entries, plan, 2_000);
      const first = Math.min(...dues);
      if (!Number.isFinite(first)) {
        expect(wake).toBe(first);
        continue;
      }
      expect(wake).toBeGreaterThanOrEqual(first);
      expect(wake).toBeLessThanOrEqual(first + 2_000);
      for (const due of dues) expect(due <= first + 2_000 ? due <= wake : due > wake).toBe(true);
    }
  });

  it('a pane not tracked yet is wanted at once', () => {
    const pane = paneInfo({ paneId: '%9' });
    const plan: CapturePlan = { scope: { optIn: false, prefix: 'corral', selfPaneId: null }, focused: new Set(), followMs: 4_000 };
    expect(nextCaptureAt([pane], new Map(), plan, 2_000)).toBe(-Infinity);
    expect(nextCaptureAt([], new Map(), plan, 2_000)).toBe(Infinity);
  });
});
