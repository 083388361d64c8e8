// Wires --daemon-url: every engine event is POSTed as JSON through a bounded retrying queue.
// One stderr line when the daemon goes down, one when it is back.

import { ConfigError, type Settings } from '../engine/settings/config.js';
import { EventQueue, httpDeliver } from '../engine/events/event-queue.js';
import type { EngineHandle } from '../engine/types.js';
import type { Lifecycle } from './lifecycle.js';
import { deliveryTimers } from './time.js';

/**
 * POSTs every event of the engine to --daemon-url, from any command that watches (the dashboard,
 * serve, watch); `log` says when the daemon goes down and comes back. On shutdown the queue gets a
 * second to deliver what it holds. Null without a URL.
 */
export function connectDaemon(engine: EngineHandle, settings: Pick<Settings, 'daemonUrl'>, log: (line: string) => void, lifecycle?: Lifecycle): EventQueue | null {
  const url = settings.daemonUrl;
  if (!url) return null;
  checkDaemonUrl(url);
  const queue = new EventQueue({
    deliver: httpDeliver(url),
    timers: deliveryTimers,
    onOutage: (error) => {
      const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? error.message;
      log(`corral: daemon at ${url} is unreachable (${cause}); queuing events and retrying`);
    },
    onRecovery: ({ delivered, dropped }) => {
      log(`corral: daemon at ${url} is back; delivered ${delivered} queued events${dropped ? `, dropped ${dropped} (queue full)` : ''}`);
    },
  });
  const stop = engine.onEvent((event) => queue.push(event));
  lifecycle?.onShutdown('the daemon queue', async () => {
    stop();
    await Promise.race([queue.whenIdle(), new Promise((r) => setTimeout(r, 1000))]);
    queue.close();
  });
  return queue;
}

/** validateDaemonUrl as a settings error (exit code 2), before anything starts. */
export function checkDaemonUrl(url: string | null): void {
  try {
    validateDaemonUrl(url);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

export function validateDaemonUrl(url: string | null): void {
  if (url === null) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--daemon-url: not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--daemon-url: must be http(s), got ${parsed.protocol}`);
}
