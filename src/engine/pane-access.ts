// What the servers may do with panes besides reading the store: look one up, stream its output,
// type into it. The CLI builds it from the engine's tmux client, so a server never holds one;
// lookups and typing go over the engine's persistent control connection when it is there.

import { PaneStreams } from './pane-stream/pane-streams.js';
import { printedCapturesLeak } from './pane-stream/repaint.js';
import { tmuxVersion, type TmuxClient } from './tmux/client.js';
import type { SendItem } from './keys.js';
import { systemTimers, type PaneInfo, type Timers } from './types.js';

/** Full-screen agents can drop an Enter that arrives with the text; a short pause avoids it. */
export const ENTER_DELAY_MS = 100;

export interface PaneAccess {
  /** The pane as tmux describes it now; null when there is no such pane. */
  findPane(paneId: string): Promise<PaneInfo | null>;
  /** Live output for viewers (the attach server). */
  readonly streams: PaneStreams;
  /** Types keys and text, in order (validated beforehand with parseSendItems). */
  send(paneId: string, items: readonly SendItem[]): Promise<void>;
  /** Types a line of text, then Enter a moment later (an empty text sends Enter alone). */
  reply(paneId: string, text: string): Promise<void>;
  close(): Promise<void>;
}

/** Text, a short pause, then Enter: how corral answers a prompt that wants a line. */
export async function typeLine(
  send: (items: readonly SendItem[]) => Promise<void>,
  text: string,
  timers: Timers = systemTimers,
): Promise<void> {
  if (text !== '') {
    await send([{ kind: 'text', text }]);
    await new Promise<void>((resolve) => timers.setTimeout(resolve, ENTER_DELAY_MS));
  }
  await send([{ kind: 'key', key: 'Enter' }]);
}

export interface PaneAccessOptions {
  readonly ringBytes: number;
  readonly pauseAfterSeconds: number;
  /** How long a pane's output is kept after its last viewer leaves (ms). */
  readonly keepMs: number;
  readonly timers?: Timers;
}

export async function createPaneAccess(tmux: TmuxClient, options: PaneAccessOptions): Promise<PaneAccess> {
  const findPane = (paneId: string) => tmux.findPane(paneId);
  // tmux before 3.6 never frees a capture a control client prints: repaints then go through a
  // paste buffer that a separate tmux process reads and deletes.
  const leaks = printedCapturesLeak(await tmuxVersion(tmux.runner).catch(() => null));
  const streams = new PaneStreams({
    ...(leaks ? { screenBuffers: { take: (name: string) => tmux.takeBuffer(name) } } : {}),
    socket: tmux.socket,
    ringBytes: options.ringBytes,
    pauseAfterSeconds: options.pauseAfterSeconds,
    keepMs: options.keepMs,
    ...(options.timers ? { timers: options.timers } : {}),
    runner: tmux.commandRunner,
    sessionOf: async (paneId) => (await findPane(paneId))?.sessionId ?? null,
  });
  const send = (paneId: string, items: readonly SendItem[]) => streams.sendItems(paneId, items);
  return {
    findPane,
    streams,
    send,
    reply: (paneId, text) => typeLine((items) => send(paneId, items), text, options.timers),
    close: () => streams.close(),
  };
}
