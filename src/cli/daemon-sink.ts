// Wires --daemon-url: every engine event is POSTed as JSON through a bounded retrying queue.
// One stderr line when the daemon goes down, one when it is back.

import type { Settings } from '../engine/config.js';
import { EventQueue, httpDeliver } from '../engine/events/event-queue.js';
import type { EngineHandle } from '../engine/types.js';

export function connectDaemon(engine: EngineHandle, settings: Pick<Settings, 'daemonUrl'>, stderr: NodeJS.WritableStream): EventQueue | null {
  const url = settings.daemonUrl;
  if (!url) return null;
  const queue = new EventQueue({
    deliver: httpDeliver(url),
    onOutage: (error) => {
      const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? error.message;
      stderr.write(`corral: daemon at ${url} is unreachable (${cause}); queuing events and retrying\n`);
    },
    onRecovery: ({ delivered, dropped }) => {
      stderr.write(`corral: daemon at ${url} is back; delivered ${delivered} queued events${dropped ? `, dropped ${dropped} (queue full)` : ''}\n`);
    },
  });
  engine.onEvent((event) => queue.push(event));
  return queue;
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
