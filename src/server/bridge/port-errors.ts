// The pane port's errors as the HTTP errors a bridge client gets: a host that is down, a pane that
// is gone or busy, tmux that could not be reached.

import { HostDownError, NotAtPromptError, PaneBusyError, PaneGoneError, UnknownHostError } from '../../engine/port/pane-port-api.js';
import { HttpError } from '../http-body.js';

/** What the pane port throws, as the HTTP error a client gets. */
export function httpErrorOf(error: unknown, key: string): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof HostDownError) return new HttpError(503, error.message, 'server_error', 'host_unreachable', 'model', { 'retry-after': String(error.retryAfterS) });
  if (error instanceof UnknownHostError) return new HttpError(404, `The model \`${key}\` does not exist: ${error.message}`, 'invalid_request_error', 'model_not_found', 'model');
  if (error instanceof PaneGoneError) return new HttpError(404, `pane ${key} no longer exists`, 'invalid_request_error', 'model_not_found', 'model');
  if (error instanceof NotAtPromptError) return new HttpError(409, error.message, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
  if (error instanceof PaneBusyError) {
    // Say what ends it, and what the chat can do: wait, or interrupt a command the chat started.
    const how = error.hold.phase === 'running' ? 'wait for it to finish, or send C-c (the key name alone as the message) to interrupt it' : 'wait for it to finish';
    return new HttpError(409, `${error.message}; ${how}`, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
  }
  return new HttpError(502, `could not reach the pane through tmux: ${(error as Error).message}`, 'server_error', 'tmux_failed');
}

/** Runs a port call for a request; the port's errors become HTTP errors. */
export async function guarded<T>(key: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw httpErrorOf(error, key);
  }
}
