// A repeating timer over injected Timers (which only arm one-shot timeouts), for heartbeats and
// keep-alives: the caller's timers decide whether it holds the process open.

import type { Timers } from '../types.js';

/** Calls `tick` every `ms` until the returned stop is called. */
export function repeatEvery(timers: Timers, ms: number, tick: () => void): () => void {
  let handle: unknown = null;
  let stopped = false;
  const arm = () => {
    handle = timers.setTimeout(() => {
      if (stopped) return;
      arm();
      tick();
    }, ms);
  };
  arm();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
