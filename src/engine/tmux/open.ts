// Builds everything that talks to one host's tmux: its transport, the exec runner, the control-mode
// poll runner when the engine polls for long, and the TmuxClient on top. close() ends all of it,
// and the last host to close removes this process's folder of ssh master sockets.

import { LOCAL_HOST, type Clock, type HostSpec, type Timers } from '../types.js';
import { TmuxClient } from './client.js';
import { createControlRunner } from './control-runner.js';
import type { ListedRecords } from './pane-list.js';
import { createExecRunner } from './runner.js';
import { localTransport, processControlDir, removeProcessControlDir, sshTransport, type TmuxTransport } from './transport.js';

/** What the engine above tells a host's tmux parts: the records listings carry, and the global option whose every change is told. */
export interface TmuxFormats {
  readonly records: ListedRecords;
  readonly recordsStamp: string;
}

export interface OpenTmuxOptions {
  readonly formats: TmuxFormats;
  /** The engine polls for a long time (dashboard, watch, serve): poll over one control-mode connection. */
  readonly persistent: boolean;
  /** Where ssh master sockets live (another host only); this process's own folder under `corral-ssh-<uid>` in the temporary folder by default. */
  readonly controlDir?: string;
  /** More ssh arguments (another host only), e.g. `-F CONFIG`. */
  readonly sshOptions?: readonly string[];
  /** Seconds ssh may take to connect (another host only; default 5). */
  readonly connectTimeoutS?: number;
  /** Wait this long after a lost control connection before trying again (ms). */
  readonly retryMs?: number;
  /** Wall-clock time, for the client and the control connection. */
  readonly clock: Clock;
  /** For the control connections' attach timeout and detach wait. */
  readonly timers: Timers;
}

export interface OpenedTmux {
  readonly client: TmuxClient;
  readonly transport: TmuxTransport;
  /** Closes the poll connection, then the transport (the ssh master). */
  close(): Promise<void>;
}

/** The local host on the given socket, as a HostSpec. */
export function localHost(socket: HostSpec['socket']): HostSpec {
  return { name: LOCAL_HOST, ssh: null, socket };
}

/** Open hosts that keep their masters in this process's own folder. */
let inOwnFolder = 0;

export function openTmux(host: HostSpec, options: OpenTmuxOptions): OpenedTmux {
  const ownFolder = host.ssh !== null && options.controlDir === undefined;
  if (ownFolder) inOwnFolder += 1;
  const transport =
    host.ssh === null
      ? localTransport(host.socket)
      : sshTransport({
          host,
          controlDir: options.controlDir ?? processControlDir(),
          ...(options.sshOptions ? { extraOptions: options.sshOptions } : {}),
          ...(options.connectTimeoutS === undefined ? {} : { connectTimeoutS: options.connectTimeoutS }),
        });
  const exec = createExecRunner(transport);
  const pollRunner = options.persistent
    ? createControlRunner({
        socket: host.socket,
        exec,
        transport,
        recordsStamp: options.formats.recordsStamp,
        clock: options.clock,
        timers: options.timers,
        ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
        // ssh's first connection (key exchange, a session) can take seconds on a busy host.
        ...(transport.remote ? { attachTimeoutMs: 5_000 + 2_000 * (options.connectTimeoutS ?? 5) } : {}),
      })
    : undefined;
  const client = new TmuxClient({ socket: host.socket, records: options.formats.records, runner: exec, transport, clock: options.clock, ...(pollRunner ? { pollRunner } : {}) });
  let closing: Promise<void> | null = null;
  return {
    client,
    transport,
    close() {
      closing ??= (async () => {
        try {
          await client.close();
        } finally {
          await transport.close();
          if (ownFolder && --inOwnFolder === 0) removeProcessControlDir();
        }
      })();
      return closing;
    },
  };
}
