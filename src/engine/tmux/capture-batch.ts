// Several panes captured with history and the cursor in one tmux process (the chat bridge's
// captures): the command line, its parser, and the run that goes on past a pane that closed.

import { chain, escapeRegExp, type Framing, type TmuxCommand } from './command-line.js';
import { GONE_MESSAGE, type TmuxCore } from './core.js';
import { captureCommand } from './pane-io.js';
import { assertPaneId } from './pane-id.js';
import { TmuxCommandError } from './runner.js';

export interface CaptureBatchOptions {
  /** Lines of history above the screen (capture-pane -S -N). */
  readonly history: number;
  /** Per-pane history, where it differs from `history`. */
  readonly historyByPane?: ReadonlyMap<string, number>;
}

export interface BatchCapture {
  readonly paneId: string;
  /** capture-pane output, one line per row (wrapped rows joined). */
  readonly text: string;
  /** Index of the cursor's line in the capture's lines. */
  readonly cursorRow: number;
  readonly height: number;
  readonly dead: boolean;
  /** The pane shows the alternate screen (a full-screen program: vim, less, top, a TUI). */
  readonly alternate: boolean;
  /** The pane's foreground command (`bash`, `sleep`, `vim` ...), as tmux names it. */
  readonly command: string;
  /** Column of the cursor on its row. */
  readonly cursorX?: number;
  readonly width?: number;
  /**
   * The tmux server that holds the pane: its pid and start time (`4411:1796285931`). A pane id is
   * unique only within one server; a new server on the same socket starts again at `%0`.
   */
  readonly server?: string;
}

export interface CaptureBatchResult {
  readonly captures: Map<string, BatchCapture>;
  /** Panes that no longer exist. */
  readonly gone: readonly string[];
}

/**
 * Captures several panes (with history and the cursor row) in one tmux process. tmux stops a
 * command sequence at the first pane that no longer exists: that pane is reported gone and the
 * rest are captured again, so one closed pane costs one extra process, not all the captures.
 */
export async function captureBatch(core: TmuxCore, paneIds: readonly string[], options: CaptureBatchOptions): Promise<CaptureBatchResult> {
  const captures = new Map<string, BatchCapture>();
  const gone: string[] = [];
  let remaining = [...paneIds];
  while (remaining.length > 0) {
    const result = await core.runner(captureBatchCommand(core.framing, remaining, options));
    core.throwIfNoServer(result);
    for (const capture of parseCaptureBatch(result.stdout, core.framing, result.exitCode === 0)) {
      captures.set(capture.paneId, capture);
    }
    if (result.exitCode === 0) break;
    const failed = remaining.find((id) => !captures.has(id));
    if (failed === undefined) break;
    if (!GONE_MESSAGE.test(result.stderr)) {
      throw new TmuxCommandError(['capture-pane'], result);
    }
    gone.push(failed);
    remaining = remaining.slice(remaining.indexOf(failed) + 1);
  }
  return { captures, gone };
}

/**
 * display-message passes its text through strftime, so a pane id in a marker comes out mangled
 * (`%4~` prints as ` %4~`, `%12` padded with spaces). The capture-batch markers carry the id's
 * digits only; their parser accepts them with or without the '%'.
 */
export function markerId(paneId: string): string {
  return paneId.slice(1);
}

/**
 * For each pane: a marker line that also carries the cursor, the screen size, whether the pane is
 * dead, whether it shows the alternate screen, the tmux server's identity and the pane's foreground
 * command, then the joined capture with history. One tmux process for all panes.
 */
export function captureBatchCommand(framing: Framing, paneIds: readonly string[], options: CaptureBatchOptions): string[] {
  const commands: TmuxCommand[] = [];
  for (const id of paneIds) {
    assertPaneId(id);
    commands.push(['display-message', '-p', '-t', id, `${framing.blockStart}${markerId(id)}~> #{cursor_y} #{pane_height} #{pane_dead} #{alternate_on} #{cursor_x} #{pane_width} #{pid}:#{start_time} #{pane_current_command}`]);
    commands.push(captureCommand(id, { history: options.historyByPane?.get(id) ?? options.history, join: true }));
  }
  return chain(commands);
}

/**
 * Splits a captureBatchCommand's output. When tmux stopped early (a pane closed), the last block
 * may be cut short, so it is dropped unless the run ended cleanly.
 */
export function parseCaptureBatch(stdout: string, framing: Framing, exitedCleanly: boolean): BatchCapture[] {
  const head = `^${escapeRegExp(framing.blockStart)}%?(\\d+)~> (\\d+) (\\d+) ([01])(?: ([01])(?: (\\d+) (\\d+) (\\d+:\\d+))? ?(.*))?$`;
  const marker = new RegExp(head, 'm');
  const first = stdout.search(marker);
  if (first === -1) return [];
  const blocks = stdout.slice(first).split(new RegExp(`^(?=${escapeRegExp(framing.blockStart)}%?\\d+~> )`, 'm'));
  const out: BatchCapture[] = [];
  blocks.forEach((block, index) => {
    const m = marker.exec(block);
    if (!m || m.index !== 0) return;
    if (index === blocks.length - 1 && !exitedCleanly) return;
    const text = block.slice(m[0].length + 1);
    const cursorY = Number(m[2]);
    const height = Number(m[3]);
    const rows = text.endsWith('\n') ? text.slice(0, -1).split('\n').length : text === '' ? 0 : text.split('\n').length;
    // Count from the bottom: joined rows above the cursor do not shift it.
    const cursorRow = Math.max(0, rows - (height - cursorY));
    out.push({
      paneId: `%${m[1] as string}`,
      text,
      cursorRow,
      height,
      dead: m[4] === '1',
      alternate: m[5] === '1',
      command: m[9] ?? '',
      ...(m[6] !== undefined ? { cursorX: Number(m[6]), width: Number(m[7]), server: m[8] as string } : {}),
    });
  });
  return out;
}
