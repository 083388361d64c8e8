// A host's health as its polls find it: connecting, connected, unreachable or refused, since when,
// with ssh's own words, and when the next attempt is due (1, 2, 4 ... 60 s after failures in a row).

import type { EngineStatus, HostHealth, HostSpec, HostState } from '../types.js';

/** A host that does not answer is tried again after 1 s, then twice as long each time, up to 60 s. */
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 60_000;

/** The wait before reconnect attempt `failures` (1, 2, 4 ... 60 s). */
export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.max(0, failures - 1));
}

/** The health of one host; its state changes only on a poll's outcome. */
export class HostHealthTracker {
  private state: HostState = 'connecting';
  private since: number;
  private error: string | null = null;
  private failures = 0;
  /** When the next attempt is due (ms, engine clock) while the host is down; null otherwise. */
  retryAt: number | null = null;

  constructor(
    private readonly spec: HostSpec,
    private readonly server: string,
    now: number,
  ) {
    this.since = now;
  }

  /** The host answered (a host without a tmux server answers too). */
  answered(now: number): void {
    this.enter('connected', null, now);
    this.failures = 0;
    this.retryAt = null;
  }

  /** ssh could not reach the host, or was refused: try again after the backoff. */
  failed(state: 'unreachable' | 'auth-failed', sshMessage: string, now: number): void {
    this.failures += 1;
    this.retryAt = now + reconnectDelay(this.failures);
    this.enter(state, sshMessage, now);
  }

  /** The health entry for a snapshot, with the host's tmux status. */
  health(status: EngineStatus, statusMessage: string | null, paneCount: number): HostHealth {
    return {
      name: this.spec.name,
      ssh: this.spec.ssh,
      server: this.server,
      state: this.state,
      since: this.since,
      status,
      // ssh's words when the host is down; else what went wrong with its tmux server, if anything.
      error: this.error ?? (status === 'ok' || status === 'starting' ? null : statusMessage),
      paneCount,
      retryAt: this.retryAt,
    };
  }

  /** Whether anything `health` tells of the host itself differs from `previous`. */
  differsFrom(previous: HostHealth | undefined): boolean {
    return previous?.state !== this.state || previous.error !== this.error || previous.retryAt !== this.retryAt;
  }

  private enter(state: HostState, error: string | null, now: number): void {
    if (state !== this.state) this.since = now;
    this.state = state;
    this.error = error;
  }
}
