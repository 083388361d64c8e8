import { describe, expect, it } from 'vitest';
import { decide, startQuiescence, type Observation, type QuiescenceState } from '../../../src/engine/diff/quiescence.js';

const config = { quietMs: 800, maxDurationMs: 60_000 };
const idle: Observation = { changed: false, busy: false, promptBack: false };
const output: Observation = { changed: true, busy: false, promptBack: false };

/** Polls every 100 ms with the given observations; returns the time of the first non-continue. */
function pollUntilDone(observations: (t: number) => Observation, limit = 100_000): { at: number; decision: string } {
  let state: QuiescenceState = startQuiescence(0);
  for (let t = 100; t <= limit; t += 100) {
    const result = decide(state, observations(t), t, config);
    state = result.state;
    if (result.decision !== 'continue') return { at: t, decision: result.decision };
  }
  return { at: -1, decision: 'continue' };
}

describe('quiescence', () => {
  it('ends 800 ms after the last change', () => {
    expect(pollUntilDone((t) => (t <= 1500 ? output : idle))).toEqual({ at: 2300, decision: 'stop' });
  });

  it('does not end while a busy signal is on screen, however long it is quiet', () => {
    expect(pollUntilDone((t) => (t <= 10_000 ? { ...idle, busy: true } : idle))).toEqual({ at: 10_800, decision: 'stop' });
  });

  it('ends at once when the prompt is back after output and the screen held still for a poll', () => {
    const at = pollUntilDone((t) => (t === 100 ? output : t === 200 ? { ...output, promptBack: true } : { ...idle, promptBack: true }));
    expect(at).toEqual({ at: 300, decision: 'stop' });
  });

  it('does not take the untouched prompt before any output for an answer', () => {
    expect(pollUntilDone(() => ({ ...idle, promptBack: true }))).toEqual({ at: 800, decision: 'stop' });
    const early = decide(startQuiescence(0), { ...idle, promptBack: true }, 100, config);
    expect(early.decision).toBe('continue');
  });

  it('ends with "length" at the maximum duration, busy or not', () => {
    expect(pollUntilDone(() => ({ ...output, busy: true }))).toEqual({ at: 60_000, decision: 'length' });
  });
});
