// The clock and timers every part of corral runs on, chosen here once: the engine, the servers and
// the notifier take theirs from their caller and never choose. What is chosen is whether an armed
// timer holds the process open (Node ends a process that has nothing left to wait for). The CLI's
// own waits around shutdown (lifecycle.ts, main.ts, daemon-sink.ts) are about ending the process
// and arm Node's timers where they stand.

import { heldTimers, systemClock, systemTimers } from '../engine/time/time.js';
import type { Clock, Timers } from '../engine/types.js';

/** The wall clock, for every part and every command (nothing in the CLI reads Date.now()). */
export const clock: Clock = systemClock;

/**
 * The engine's poll loop holds the process: a headless `corral watch` has nothing else to live on.
 * The dashboard and `serve` stop the loop when they end (the dashboard still ends on q).
 */
export const pollTimers: Timers = heldTimers;

/**
 * Typing holds the process: the pause before the Enter that follows a typed line must finish, or a
 * one-shot command (`corral next --answer`, `corral send`) would end in it, the line typed and the
 * Enter never sent.
 */
export const typingTimers: Timers = heldTimers;

/**
 * tmux control connections (the poll's and the pane streams') hold, for their attach timeout and
 * the wait after a detach; while either is armed the connection's own tmux or ssh process holds
 * this one anyway.
 */
export const controlTimers: Timers = heldTimers;

/**
 * The `--daemon-url` queue's retries hold: events queued while the daemon is down are retried while
 * nothing else runs; shutdown gives the queue a second, then closes it.
 */
export const deliveryTimers: Timers = heldTimers;

/**
 * The notifier's timers hold: a notification that waits (a coalescing window, the rate limit) is
 * still sent, and an --on-stuck command that hangs is still killed; shutdown closes the notifier.
 */
export const notifyTimers: Timers = heldTimers;

/**
 * Timers that only keep work going for someone else never hold the process: the attach server's
 * WebSocket heartbeats, the page lists and their keep-alives, a chat answer's keepalives, a
 * conversation's capture ticker, the pane streams' liveness checks and kept rings, the status
 * writer's flush, the MCP tools' waits. A server lives on its listening socket, and a process that
 * is ending must not wait for them.
 */
export const backgroundTimers: Timers = systemTimers;
