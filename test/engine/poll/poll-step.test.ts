// The poll step as a pure function: generated runs of listings (panes that come, go, leave the
// scope, print or hold still) stepped one after another, checked against what must hold for any
// run. Seeded; CORRAL_TEST_SEED replays a failure.

import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../../src/engine/prompt/matcher.js';
import { pollStep, type PaneEntry, type PollListing, type StepContext } from '../../../src/engine/poll/poll-step.js';
import type { CorralEvent, PaneInfo } from '../../../src/engine/types.js';
import { paneInfo } from '../../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

const context: StepContext = {
  host: 'local',
  scope: { optIn: false, prefix: '@tb-', selfPaneId: '%0' },
  machine: { quietThresholdMs: 10_000 },
  rules: DEFAULT_RULES,
  previewLines: 5,
  followMs: 4_000,
  skew: 0,
};

function pane(id: number, title = 'shell'): PaneInfo {
  return paneInfo({ paneId: `%${id}`, windowId: `@${id}`, windowIndex: id, pid: 100 + id, title });
}

const SCREENS = ['$ ', 'building...\n$ ', 'Deploy? [y/N] ', 'line 1\nline 2', ''];

describe('pollStep over generated runs of listings', () => {
  for (const seed of testSeeds(31)) {
    it(`keeps one entry per watched pane, ends each pane once, and never changes its input (seed ${seed})`, () => {
      const random = new SeededRandom(seed);
      let entries: ReadonlyMap<string, PaneEntry> = new Map();
      const listed = new Map<number, { info: PaneInfo; screen: string }>();
      const registered = new Set<string>();
      const ended = new Map<string, string>();
      let now = 1_000_000;
      for (let cycle = 1; cycle <= 300; cycle++) {
        now += random.int(100, 3_000);
        // Panes come (corral's own %0 among them), go, change title (in and out of an opt-in scope), print.
        if (random.chance(0.3)) listed.set(random.int(0, 12), { info: pane(random.int(0, 12)), screen: random.pick(SCREENS) });
        if (random.chance(0.15) && listed.size > 0) listed.delete(random.pick([...listed.keys()]));
        for (const [id, p] of listed) {
          if (p.info.paneId !== `%${id}`) listed.set(id, { ...p, info: pane(id) });
          if (random.chance(0.2)) listed.set(id, { ...listed.get(id)!, screen: random.pick(SCREENS) });
        }
        const panes = [...listed.values()].map((p) => p.info);
        const captureAll = random.chance(0.5);
        const chosen = captureAll ? null : new Set(panes.filter(() => random.chance(0.5)).map((p) => p.paneId));
        const screens = new Map([...listed.values()].filter((p) => chosen === null || chosen.has(p.info.paneId)).map((p) => [p.info.paneId, p.screen]));
        const listing: PollListing = { panes, screens, chosen, requestedAt: now, now, wallNow: now, cycle };
        const before = new Map(entries);
        const result = pollStep(entries, listing, context);
        // The input is left as it was.
        expect([...entries]).toEqual([...before]);
        const watched = panes.filter((p) => p.paneId !== '%0').map((p) => p.paneId);
        expect(new Set(result.entries.keys())).toEqual(new Set(watched));
        // Panes known before keep their place; new ones follow.
        const kept = [...entries.keys()].filter((id) => result.entries.has(id));
        expect([...result.entries.keys()].slice(0, kept.length)).toEqual(kept);
        for (const event of result.events) check(event, registered, ended);
        for (const id of entries.keys()) if (!result.entries.has(id)) expect(ended.has(id), `ended ${id}`).toBe(true);
        for (const [id, entry] of result.entries) {
          const old = entries.get(id);
          // The preview keeps its array while the screen hash stays.
          if (old && old.track.hash === entry.track.hash && old.linesHash !== null) expect(entry.lines).toBe(old.lines);
          if (screens.has(id)) expect(entry.screen?.text).toBe(screens.get(id));
        }
        entries = result.entries;
      }
    });
  }

  it('keeps an idle-looking pane unstuck while its foreground job runs a child command, captured or not, and stuck once it ends', () => {
    const idle = 'Tokens: 1.1k sent, 12 received.\n' + '-'.repeat(40) + '\n> /run sleep 20\n' + '-'.repeat(40) + '\n>';
    let running = true;
    const workOf = (p: PaneInfo) => (running && p.paneId === '%1' ? 'sleep 20' : null);
    const first: PollListing = {
      panes: [pane(1)],
      screens: new Map([['%1', idle]]),
      chosen: new Set(['%1']),
      requestedAt: 0,
      now: 0,
      wallNow: 0,
      cycle: 1,
      workOf,
    };
    let entries = pollStep(new Map(), first, context).entries;
    const stuck: number[] = [];
    for (let t = 1_000; t <= 40_000; t += 1_000) {
      if (t === 25_000) running = false;
      // Every third cycle captures the (same) screen again; the others leave it out.
      const captured = t % 3_000 === 0;
      const listing: PollListing = {
        ...first,
        screens: captured ? new Map([['%1', idle]]) : new Map(),
        chosen: captured ? new Set(['%1']) : new Set(),
        requestedAt: t,
        now: t,
        wallNow: t,
        cycle: 1 + t / 1000,
      };
      const result = pollStep(entries, listing, context);
      entries = result.entries;
      for (const event of result.events) if (event.type === 'stuck') stuck.push(t);
      if (t < 25_000)
        expect(entries.get('%1')!.track.verdict, `at ${t}`).toMatchObject({
          busy: true,
          rule: 'process/foreground-child',
        });
    }
    expect(stuck.length).toBe(1);
    expect(stuck[0]).toBeGreaterThanOrEqual(25_000);
  });

  it('marks a pane left out of the captures stuck once its quiet time passes, with no capture at all', () => {
    const first: PollListing = { panes: [pane(1)], screens: new Map([['%1', 'Deploy? [y/N] ']]), chosen: new Set(['%1']), requestedAt: 0, now: 0, wallNow: 0, cycle: 1 };
    let entries = pollStep(new Map(), first, context).entries;
    const events: CorralEvent[] = [];
    for (let t = 1_000; t <= 12_000; t += 1_000) {
      const result = pollStep(entries, { ...first, screens: new Map(), chosen: new Set(), requestedAt: t, now: t, wallNow: t, cycle: 1 + t / 1000 }, context);
      entries = result.entries;
      events.push(...result.events);
    }
    expect(events.map((e) => [e.type, e.timestamp])).toEqual([['stuck', 10_000]]);
  });

  it('asks for a new pane to be captured at once when it came without its screen', () => {
    const listing: PollListing = { panes: [pane(1)], screens: new Map(), chosen: null, requestedAt: 0, now: 0, wallNow: 0, cycle: 1 };
    const result = pollStep(new Map(), listing, context);
    expect(result.registeredNew).toBe(true);
    expect(result.events.map((e) => e.type)).toEqual(['registered']);
  });
});

/** A pane is registered once before anything else happens to it and ended at most once after, until it comes again. */
function check(event: CorralEvent, registered: Set<string>, ended: Map<string, string>): void {
  if (event.type === 'registered') {
    registered.add(event.paneId);
    ended.delete(event.paneId);
    return;
  }
  expect(registered.has(event.paneId), `${event.type} of ${event.paneId} before it was registered`).toBe(true);
  if (event.type === 'ended') {
    expect(ended.has(event.paneId), `${event.paneId} ended twice`).toBe(false);
    ended.set(event.paneId, event.why);
    registered.delete(event.paneId);
  }
}
