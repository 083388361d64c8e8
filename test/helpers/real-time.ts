// The real clock and timers, as the CLI gives them to each part (src/cli/time.ts), for tests that
// run on real time rather than a ManualTime.

import { firstOffsetAt } from '../../src/engine/pane-stream/pane-streams.js';
import { backgroundTimers, clock, controlTimers, deliveryTimers, pollTimers, typingTimers } from '../../src/cli/time.js';

export const realClock = clock;
/** An engine's: the wall clock for both clocks, the poll loop's timers. */
export const realEngineTime = { clock, wallClock: clock, timers: pollTimers };
/** A tmux connection's (openTmux, a control runner or client). */
export const realTmuxTime = { clock, timers: controlTimers };
/** A pane port's: typing and control clients that hold the process, conversations and streams that do not. */
export const realPortTime = { clock, typingTimers, timers: backgroundTimers, controlTimers };
/** A server's, the status writer's and the pane streams': timers that never hold the process. */
export const realServerTime = { clock, timers: backgroundTimers };
export const realDeliveryTimers = deliveryTimers;
/** Pane streams' as a pane port gives them: its timers, offsets from the wall clock of now. */
export function realStreamsTime() {
  return { timers: backgroundTimers, controlTimers, firstOffset: firstOffsetAt(clock.now()) };
}
