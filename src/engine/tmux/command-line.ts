// The words every tmux command line shares: joining commands, escaping arguments and formats, and
// the nonce framing that keeps a name a program chose from forging a record boundary. Pure.

import type { PaneInfo } from '../types.js';

export type TmuxCommand = readonly string[];

/**
 * tmux splits its argv on arguments that end in ';' (that is how `cmd1 \; cmd2` works), so a
 * user string ending in ';' would be cut. A trailing '\;' is read back as ';'.
 */
export function escapeArg(value: string): string {
  return value.endsWith(';') ? `${value.slice(0, -1)}\\;` : value;
}

/** Formats are expanded in display-message and friends: '#' must be doubled to stay literal. */
export function escapeFormat(value: string): string {
  // display-message also runs its text through strftime, where `%3` is a padded field: `%%` is a `%`.
  return value.replaceAll('#', '##').replaceAll('%', '%%');
}

/** Joins commands into one tmux invocation: `a ; b ; c`. */
export function chain(commands: readonly TmuxCommand[]): string[] {
  const args: string[] = [];
  commands.forEach((command, index) => {
    if (index > 0) args.push(';');
    args.push(...command);
  });
  return args;
}

/**
 * Record framing for list-panes: fields are separated and records ended by strings that carry a
 * per-process random nonce, so a title or path cannot forge a boundary, whatever it contains.
 */
export interface Framing {
  readonly nonce: string;
  readonly fieldSep: string;
  readonly recordEnd: string;
  readonly blockStart: string;
}

export function makeFraming(nonce: string): Framing {
  return {
    nonce,
    fieldSep: `<~${nonce}~>`,
    recordEnd: `<~${nonce}.~>`,
    blockStart: `<~${nonce}:`,
  };
}

export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `session:window.pane` */
export function paneTarget(pane: Pick<PaneInfo, 'sessionName' | 'windowIndex' | 'paneIndex'>): string {
  return `${pane.sessionName}:${pane.windowIndex}.${pane.paneIndex}`;
}
