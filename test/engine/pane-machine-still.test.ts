// stillUntil against the machine itself: for generated histories of screens and hooks, observing
// the same screen again at any moment before the time stillUntil gives must leave the track the
// same object and emit nothing (the engine skips those steps), and the first moment it gives must
// be one where stepping does something, so no transition is ever put off.

import { describe, expect, it } from 'vitest';
import { observe, register, stillUntil, type MachineConfig, type PaneTrack } from '../../src/engine/pane/pane-machine.js';
import type { HookEvent, PromptVerdict } from '../../src/engine/types.js';
import { paneInfo } from '../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';

const verdict = (over: Partial<PromptVerdict>): PromptVerdict => ({ prompt: false, reason: null, busy: false, tool: null, rule: null, line: '', answer: null, ...over });
const VERDICTS: readonly PromptVerdict[] = [
  verdict({ line: 'compiling' }),
  verdict({ prompt: true, reason: 'permission', tool: 'generic', rule: 'y-n', line: 'Deploy? [y/N]', answer: { kind: 'line', options: ['y', 'n', 'Enter'] } }),
  verdict({ prompt: true, reason: 'permission', tool: 'generic', rule: 'y-n', line: 'Deploy? [y/N]', busy: true }),
  verdict({ prompt: true, reason: 'stopped', tool: 'claude', rule: 'input-box', line: '>' }),
  verdict({ busy: true, tool: 'claude', line: 'Thinking' }),
];
const SIGNALS: readonly HookEvent['signal'][] = ['permission', 'prompt', 'tool', 'stop', 'end'];

function hookEvent(signal: HookEvent['signal']): HookEvent {
  return { agent: 'claude-code', signal, event: signal, sessionId: 's1', transcriptPath: '', cwd: '/srv', message: signal === 'permission' ? 'Bash: ls' : null };
}

/** A generated history: screens (some repeated, some animated frames) and hooks at growing times. */
function history(random: SeededRandom, config: MachineConfig): Array<{ track: PaneTrack; now: number }> {
  let track = register(paneInfo({ paneId: '%3' }), 0).track;
  let now = 0;
  const seen: Array<{ track: PaneTrack; now: number }> = [];
  for (let i = 0; i < 40; i++) {
    now += random.int(0, 3 * config.quietThresholdMs);
    if (random.chance(0.15)) track = observe(track, { kind: 'hook', hook: hookEvent(random.pick(SIGNALS)), at: now - random.int(0, 500) }, now, config).track;
    else {
      const hash = `h${random.int(0, 3)}`;
      const content = random.chance(0.3) ? `c${random.int(0, 2)}` : hash;
      track = observe(track, { hash, contentHash: content, verdict: random.pick(VERDICTS), changedAt: now - random.int(0, 2_000) }, now, config).track;
    }
    seen.push({ track, now });
  }
  return seen;
}

/** The same screen observed again, as a poll that captured nothing new does. */
function again(track: PaneTrack, now: number, config: MachineConfig) {
  return observe(track, { hash: track.hash!, contentHash: track.contentHash, verdict: track.verdict! }, now, config);
}

describe('stillUntil', () => {
  it('is never later than the first step that changes something, over generated histories', () => {
    for (const seed of testSeeds(20261205)) {
      const random = new SeededRandom(seed);
      let skipped = 0;
      for (let run = 0; run < 200; run++) {
        const config: MachineConfig = { quietThresholdMs: random.pick([800, 5_000, 30_000]), hookGraceMs: random.pick([2_000, 10_000]), hookPermissionTtlMs: random.pick([20_000, 600_000]) };
        for (const { track, now } of history(random, config)) {
          const until = stillUntil(track, now, config);
          // Due already (a wait of age that a hook had held back): the next step makes it stuck.
          if (until < now) expect(again(track, now, config).track.state, `seed ${seed}`).toBe('stuck');
          if (until <= now) continue;
          // Any moment before it: nothing happens.
          const horizon = Number.isFinite(until) ? until - now : 10 * config.quietThresholdMs;
          for (let k = 0; k < 5; k++) {
            const at = now + Math.floor(random.next() * horizon);
            const step = again(track, at, config);
            expect(step.track, `seed ${seed}: a step at ${at} before ${until} changed the track`).toBe(track);
            expect(step.events).toEqual([]);
            skipped += 1;
          }
          // At that moment the wait comes of age: stepping makes the pane stuck.
          if (Number.isFinite(until)) expect(again(track, until, config).track.state, `seed ${seed}`).toBe('stuck');
        }
      }
      // The generator reaches both kinds: panes to skip, and panes that must be stepped.
      expect(skipped).toBeGreaterThan(1_000);
    }
  });

  it('asks for a step at once while a hook claim is in force or before the first screen', () => {
    const config: MachineConfig = { quietThresholdMs: 1_000 };
    const fresh = register(paneInfo({ paneId: '%4' }), 0).track;
    expect(stillUntil(fresh, 5, config)).toBe(5);
    const claimed = observe(again(observe(fresh, { hash: 'a', verdict: VERDICTS[0]! }, 10, config).track, 20, config).track, { kind: 'hook', hook: hookEvent('prompt') }, 30, config).track;
    expect(claimed.hook?.claim).toBe('working');
    expect(stillUntil(claimed, 40, config)).toBe(40);
  });
});
