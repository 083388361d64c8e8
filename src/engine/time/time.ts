// The real clock and timers behind the injected `Clock` and `Timers` (types.ts): the only place
// the engine arms a real timer. Tests pass their own instead.

import type { Clock, Timers } from '../types.js';

export const systemClock: Clock = { now: () => Date.now() };

/** Real timers that never keep the process alive by themselves (shutdown clears them anyway). */
export const systemTimers: Timers = {
  // eslint-disable-next-line no-restricted-globals -- the engine's real timers are armed here and only here
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Real timers that keep the process alive while armed: a headless corral lives on its poll timer,
 * and the pause before the Enter that follows a typed line must finish (a one-shot command such as
 * `corral next --answer` would otherwise end in it, the line typed and the Enter never sent).
 */
export const heldTimers: Timers = {
  // eslint-disable-next-line no-restricted-globals -- the engine's real timers are armed here and only here
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
