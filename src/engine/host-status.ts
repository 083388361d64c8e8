// How a host's health reads for people, in one place for every command and view.

import type { HostHealth } from './types.js';

/** One line on a host that could not be read: unreachable, refused, or without a tmux server. */
export function hostProblem(host: HostHealth): string {
  if (host.state === 'auth-failed') return `${host.name}: ssh authentication failed: ${host.error ?? ''}`.trimEnd();
  if (host.state === 'unreachable') return `${host.name} is unreachable: ${host.error ?? ''}`.trimEnd();
  return `${host.name}: ${host.error ?? host.status}`;
}
