// When is the answer complete? A pane never says; corral decides from what it sees at each
// poll. Pure: (state, observation, now, config) -> decision.
//
// The answer ends when the program is back at its prompt (the prompt matcher sees one at the
// bottom of the screen, no busy signal) and the screen held still for the short quiet. A pause
// alone is not an end: a screen corral cannot read ends only after the long quiet, and every
// answer ends at the maximum duration.

export interface QuiescenceConfig {
  /** The screen must hold still this long with the prompt back. */
  readonly quietMs: number;
  /** Without a recognised prompt, the answer ends after this long without a change. */
  readonly longQuietMs: number;
  /** End with finish_reason "length" after this long, whatever the screen does. */
  readonly maxDurationMs: number;
  /** A question from the command ends the answer once the screen held still this long (default: the quiet, at most 500 ms). */
  readonly questionQuietMs?: number;
}

export interface QuiescenceState {
  readonly startedAt: number;
  readonly lastChangeAt: number;
  /** Whether the screen changed at all since typing (an untouched prompt is not an answer). */
  readonly sawChange: boolean;
}

export interface Observation {
  /** The screen differs from the previous poll's. */
  readonly changed: boolean;
  /** The prompt matcher sees a busy signal (spinner, "esc to interrupt" ...). */
  readonly busy: boolean;
  /** The program waits at its prompt again (see Conversation for what counts). */
  readonly promptBack: boolean;
  /** A settled screen counts as an answer even without a prompt (a full-screen program that was started). */
  readonly settledEnds?: boolean;
  /** The command itself asks for input (a `read -p`, a `[y/N]`, a password, a permission dialog). */
  readonly question?: boolean;
}

/** continue; stop because the prompt is back, or the command asks a question; stop after the long quiet; length at the maximum. */
export type Decision = 'continue' | 'prompt' | 'question' | 'settled' | 'long-quiet' | 'length';

/** How long a question must hold still: short, so the answer ends within a second of it. */
export function questionQuiet(config: QuiescenceConfig): number {
  return config.questionQuietMs ?? Math.min(500, config.quietMs);
}

export function startQuiescence(now: number): QuiescenceState {
  return { startedAt: now, lastChangeAt: now, sawChange: false };
}

export function decide(
  state: QuiescenceState,
  observation: Observation,
  now: number,
  config: QuiescenceConfig,
  /** Ignore the maximum duration (the answer has ended; the pane is watched until it is free). */
  unbounded = false,
): { state: QuiescenceState; decision: Decision } {
  const next: QuiescenceState = observation.changed ? { ...state, lastChangeAt: now, sawChange: true } : state;
  if (!unbounded && now - next.startedAt >= config.maxDurationMs) return { state: next, decision: 'length' };
  // Busy counts as activity: the quiet time starts when the busy signal goes away.
  if (observation.busy) return { state: { ...next, lastChangeAt: now }, decision: 'continue' };
  const still = now - next.lastChangeAt;
  if (observation.promptBack && next.sawChange && still >= config.quietMs) return { state: next, decision: 'prompt' };
  if (observation.question && next.sawChange && still >= questionQuiet(config)) return { state: next, decision: 'question' };
  if (observation.settledEnds && next.sawChange && still >= config.quietMs) return { state: next, decision: 'settled' };
  if (still >= config.longQuietMs) return { state: next, decision: 'long-quiet' };
  return { state: next, decision: 'continue' };
}
