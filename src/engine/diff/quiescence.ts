// When is the answer complete? A pane never says; corral decides from what it sees at each
// poll. Pure: (state, observation, now, config) -> decision.

export interface QuiescenceConfig {
  /** End after this long without a change on screen. */
  readonly quietMs: number;
  /** End with finish_reason "length" after this long, whatever the screen does. */
  readonly maxDurationMs: number;
}

export interface QuiescenceState {
  readonly startedAt: number;
  readonly lastChangeAt: number;
  /** Whether the screen changed at all since typing (an untouched prompt is not an answer). */
  readonly sawChange: boolean;
}

export interface Observation {
  /** The region of new output differs from the previous poll's. */
  readonly changed: boolean;
  /** The prompt matcher sees a busy signal (spinner, "esc to interrupt" ...). */
  readonly busy: boolean;
  /** A prompt is back on the cursor line: the program waits for input again. */
  readonly promptBack: boolean;
}

export type Decision = 'continue' | 'stop' | 'length';

export function startQuiescence(now: number): QuiescenceState {
  return { startedAt: now, lastChangeAt: now, sawChange: false };
}

export function decide(
  state: QuiescenceState,
  observation: Observation,
  now: number,
  config: QuiescenceConfig,
): { state: QuiescenceState; decision: Decision } {
  const next: QuiescenceState = observation.changed ? { ...state, lastChangeAt: now, sawChange: true } : state;
  if (now - next.startedAt >= config.maxDurationMs) return { state: next, decision: 'length' };
  // Busy counts as activity: the quiet time starts when the busy signal goes away.
  if (observation.busy) return { state: { ...next, lastChangeAt: now }, decision: 'continue' };
  // Back at a prompt after output, and nothing moved since the last poll: done, no need to wait.
  if (observation.promptBack && next.sawChange && !observation.changed) return { state: next, decision: 'stop' };
  if (now - next.lastChangeAt >= config.quietMs) return { state: next, decision: 'stop' };
  return { state: next, decision: 'continue' };
}
