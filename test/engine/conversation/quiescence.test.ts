import { describe, expect, it } from 'vitest';
import { decide, startQuiescence, type Observation, type QuiescenceState } from '../../../src/engine/conversation/quiescence.js';

const config = { quietMs: 800, longQuietMs: 60_000, maxDurationMs: 600_000 };
const idle: Observation = { changed: false, busy: false, promptBack: false };
const output: Observation = { changed: true, busy: false, promptBack: false };
const prompt: Observation = { changed: false, busy: false, promptBack: true };

/** Polls every 100 ms with the given observations; returns the time of the first non-continue. */
function pollUntilDone(observations: (t: number) => Observation, limit = 700_000, unbounded = false): { at: number; decision: string } {
  let state: QuiescenceState = startQuiescence(0);
  for (let t = 100; t <= limit; t += 100) {
    const result = decide(state, observations(t), t, config, unbounded);
    state = result.state;
    if (result.decision !== 'continue') return { at: t, decision: result.decision };
  }
  return { at: -1, decision: 'continue' };
}

describe('quiescence', () => {
  it('ends once the prompt is back and the screen held still for the short quiet', () => {
    expect(pollUntilDone((t) => (t <= 1500 ? output : prompt))).toEqual({ at: 2300, decision: 'prompt' });
  });

  it('does not end on a pause: without a prompt only the long quiet ends it', () => {
    // Output, 3 s of nothing (a sleep), more output, then nothing and no prompt.
    const at = pollUntilDone((t) => (t === 100 || t === 3100 ? output : idle));
    expect(at).toEqual({ at: 63_100, decision: 'long-quiet' });
  });

  it('does not end while a busy signal is on screen, even under a prompt', () => {
    expect(pollUntilDone((t) => (t === 100 ? output : t <= 10_000 ? { ...prompt, busy: true } : prompt))).toEqual({ at: 10_800, decision: 'prompt' });
  });

  it('does not take the untouched prompt before anything changed for an answer', () => {
    expect(pollUntilDone(() => prompt, 5000)).toEqual({ at: -1, decision: 'continue' });
  });

  it('ends a started full-screen program once its screen settled, without a prompt', () => {
    expect(pollUntilDone((t) => (t <= 500 ? { ...output, settledEnds: true } : { ...idle, settledEnds: true }))).toEqual({ at: 1300, decision: 'settled' });
  });

  it('ends with "length" at the maximum duration, busy or not, unless unbounded', () => {
    expect(pollUntilDone(() => ({ ...output, busy: true }))).toEqual({ at: 600_000, decision: 'length' });
    expect(pollUntilDone((t) => (t < 700_000 ? output : prompt), 800_000, true)).toEqual({ at: 700_700, decision: 'prompt' });
  });
});
