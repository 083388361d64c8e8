// How a host's health reads for people, and what it forbids: nothing is typed into a host that is down.

import type { EngineStore, HostHealth, HostState } from '../types.js';

/** One line on a host that could not be read: unreachable, refused, or without a tmux server. */
export function hostProblem(host: HostHealth): string {
  if (host.state === 'auth-failed') return `${host.name}: ssh authentication failed: ${host.error ?? ''}`.trimEnd();
  if (host.state === 'unreachable') return `${host.name} is unreachable: ${host.error ?? ''}`.trimEnd();
  return `${host.name}: ${host.error ?? host.status}`;
}

/** The key's host is watched but cannot be reached now: nothing was sent. */
export class HostDownError extends Error {
  constructor(
    readonly host: string,
    readonly state: HostState,
    /** When it is worth trying again (s), from the next reconnect attempt. */
    readonly retryAfterS: number,
  ) {
    super(`${host} is ${state === 'auth-failed' ? 'refusing corral (ssh authentication failed)' : 'unreachable'}: not sent`);
    this.name = 'HostDownError';
  }
}

/** Hosts whose panes cannot be reached now. */
const DOWN_STATES: ReadonlySet<HostState> = new Set<HostState>(['unreachable', 'auth-failed']);

/** Throws HostDownError when the store says `host` cannot be reached now: nothing may be typed there. */
export function refuseIfHostDown(store: EngineStore, host: string, now: number): void {
  const health = store.getSnapshot().hosts.find((h) => h.name === host);
  if (health && DOWN_STATES.has(health.state)) {
    const retryAfterS = health.retryAt === null ? 5 : Math.max(1, Math.ceil((health.retryAt - now) / 1000));
    throw new HostDownError(host, health.state, retryAfterS);
  }
}

