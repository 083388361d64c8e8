// Reading and typing into one pane (`client.io`): captures, the screen read the way a poll reads
// it, keys and text, bracketed paste, and paste buffers. Builders of those command lines are here too.

import { randomBytes } from 'node:crypto';
import { chain, type TmuxCommand } from './command-line.js';
import { bufferedScreensCommands, captureBufferName, screenRows, screensFromReplies } from './control-capture.js';
import { GONE_MESSAGE, NoServerError, PaneGoneError, type TmuxCore } from './core.js';
import { assertPaneId } from './pane-id.js';
import { isNoServerMessage } from './runner.js';

/** One thing to type: a key tmux names (`Enter`, `C-c`), or literal text. */
export type SendItem = { readonly kind: 'key'; readonly key: string } | { readonly kind: 'text'; readonly text: string };

export interface CaptureOptions {
  /** Lines of history above the visible screen (capture-pane -S -N). */
  readonly history?: number;
  /** Keep colour/attribute escapes (capture-pane -e). */
  readonly escapes?: boolean;
  /** Join wrapped lines (capture-pane -J). */
  readonly join?: boolean;
}

export class PaneIo {
  constructor(private readonly core: TmuxCore) {}

  async capture(paneId: string, options: CaptureOptions = {}): Promise<string> {
    return this.core.checked(paneId, captureCommand(paneId, options));
  }

  /**
   * The pane's visible screen read the way a poll reads it: over the persistent connection through
   * a paste buffer and the same decoder, else as a capture of its own. A screen a person saw (its
   * hash came from a poll) and this one are then the same text whenever the pane did not change.
   */
  async screen(paneId: string): Promise<string> {
    assertPaneId(paneId);
    const { core } = this;
    if (core.pollRunner.replies && core.pollRunner.connected?.() !== false && core.persistent) {
      const style = await core.bufferStyle();
      // The pane's rows first: the screen is cut to them, as the poll cuts its screens (screenRows).
      const rowsCommand = ['display-message', '-p', '-t', paneId, '#{pane_height}'];
      const commands = [rowsCommand, ...bufferedScreensCommands([paneId], `${captureBufferName(core.framing)}-look`)];
      const replies = await core.pollRunner.replies(commands);
      if (replies !== null) {
        const rows = replies[0]?.ok ? Number(replies[0].text.trim()) : Number.NaN;
        const screen = screensFromReplies([paneId], replies.slice(1), style).get(paneId);
        if (screen !== undefined) return Number.isSafeInteger(rows) && rows > 0 ? screenRows(screen, rows) : screen;
        const failed = replies.find((reply) => !reply.ok);
        if (failed && GONE_MESSAGE.test(failed.text)) throw new PaneGoneError(paneId);
      }
    }
    return this.capture(paneId);
  }

  /** Types keys and literal text in order, in one tmux process (all validated beforehand). */
  async send(paneId: string, items: readonly SendItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.core.checked(paneId, chain(sendItemCommands(paneId, items)));
  }

  /** Bracketed paste: the reliable way to put long or multi-line text into a program. */
  async paste(paneId: string, text: string): Promise<void> {
    assertPaneId(paneId);
    const buffer = `corral-${randomBytes(4).toString('hex')}`;
    await this.core.checked(paneId, chain([['load-buffer', '-b', buffer, '-'], ...pasteBufferCommands(paneId, buffer)]), text);
  }

  /**
   * The lines of a paste buffer, which is then deleted; null when there is no such buffer. Runs as
   * its own tmux process (a control client's copy of the text would not be freed on tmux < 3.6).
   */
  async takeBuffer(name: string): Promise<string[] | null> {
    const result = await this.core.runner(['save-buffer', '-b', name, '-', ';', 'delete-buffer', '-b', name]);
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.core.serverLabel);
      return null;
    }
    const text = result.stdout.endsWith('\n') ? result.stdout.slice(0, -1) : result.stdout;
    return text.split('\n');
  }
}

export function captureCommand(paneId: string, options: CaptureOptions = {}): TmuxCommand {
  assertPaneId(paneId);
  const args = ['capture-pane', '-p', '-t', paneId];
  if (options.escapes) args.push('-e');
  if (options.join) args.push('-J');
  if (options.history !== undefined && options.history > 0) args.push('-S', `-${Math.floor(options.history)}`);
  return args;
}

/** Raw bytes go in chunks of this many per `send-keys -H` (a command line stays short). */
const SEND_CHUNK = 512;

/** `send-keys -H` commands for raw terminal bytes: they arrive exactly as a terminal sent them. */
export function sendBytesCommands(paneId: string, bytes: Buffer): TmuxCommand[] {
  assertPaneId(paneId);
  const commands: TmuxCommand[] = [];
  for (let i = 0; i < bytes.length; i += SEND_CHUNK) {
    const hex = [...bytes.subarray(i, i + SEND_CHUNK)].map((b) => b.toString(16).padStart(2, '0'));
    commands.push(['send-keys', '-t', paneId, '-H', ...hex]);
  }
  return commands;
}

/**
 * Every path that types into a pane builds its commands here: key names as they are, text as its
 * UTF-8 bytes in hex, which no quoting, key-name lookup or parser can change (a tab stays a tab).
 */
export function sendItemCommands(paneId: string, items: readonly SendItem[]): TmuxCommand[] {
  assertPaneId(paneId);
  return items.flatMap((item) => (item.kind === 'key' ? [['send-keys', '-t', paneId, item.key]] : sendBytesCommands(paneId, Buffer.from(item.text, 'utf8'))));
}

/** Bracketed paste of a named buffer that `load-buffer -b NAME -` filled from stdin. */
export function pasteBufferCommands(paneId: string, bufferName: string): TmuxCommand[] {
  assertPaneId(paneId);
  return [['paste-buffer', '-p', '-d', '-b', bufferName, '-t', paneId]];
}
