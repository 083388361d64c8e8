// Screens captured over a control-mode connection without growing the user's tmux server.
//
// tmux 3.2 to 3.5 never free the text of a `capture-pane -p` that a control client runs (fixed in
// 3.6): each such capture costs the server the size of the screen, for as long as it runs (3000
// captures of a 200x50 screen: +55 MB). Text a control client reads with `show-buffer` is freed, so
// over a control connection corral captures into a paste buffer of its own, shows it and deletes
// it, on every version. How `show-buffer` prints to a control client differs: 3.2 and 3.3 encode it
// like vis(3) (a backslash doubled, tabs and control bytes as C escapes or octal), 3.4 on print it
// as it is. Rather than trust a version number, corral asks the server once (probeCommand).

import type { Framing } from './commands.js';
import type { ControlReply } from './control-protocol.js';
import { assertPaneId } from './pane-id.js';

export type BufferStyle = 'escaped' | 'raw';

/** The paste buffer a poll cycle captures into (one per corral process; deleted after each use). */
export function captureBufferName(framing: Framing): string {
  return `corral-poll-${framing.nonce}`;
}

const PROBE_TEXT = 'corral\\probe';

/** Sets a buffer to a text with a backslash and shows it: the reply says how buffers are shown. */
export function probeCommand(framing: Framing): string[] {
  const name = `${captureBufferName(framing)}-probe`;
  return ['set-buffer', '-b', name, '--', PROBE_TEXT, ';', 'show-buffer', '-b', name, ';', 'delete-buffer', '-b', name];
}

export function parseProbe(stdout: string): BufferStyle | null {
  const shown = stdout.replace(/\n+$/, '');
  if (shown === PROBE_TEXT) return 'raw';
  if (shown === PROBE_TEXT.replace('\\', '\\\\')) return 'escaped';
  return null;
}

/**
 * The commands that put one pane's screen into the reply through a paste buffer. Each capture
 * replaces the buffer's text (tmux frees the old one), so a cycle deletes it once, at its end.
 */
export function bufferedCapture(paneId: string, buffer: string): string[][] {
  return [
    ['capture-pane', '-b', buffer, '-t', paneId],
    ['show-buffer', '-b', buffer],
  ];
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  s: ' ',
  E: '\x1b',
  e: '\x1b',
  '0': '\0',
  '\\': '\\',
};

/** Undoes tmux 3.2/3.3's vis(3) encoding (VIS_OCTAL | VIS_CSTYLE | VIS_TAB) of a shown buffer. */
export function decodeEscaped(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([0-7]{3}|.)/gs, (whole, code: string) => {
    if (code.length === 3) return String.fromCharCode(Number.parseInt(code, 8));
    return C_ESCAPES[code] ?? whole;
  });
}

/**
 * A screen block as shown by `show-buffer`, turned into what `capture-pane -p` would have printed:
 * decoded, and without the newline the buffer ends with (capture-pane -p drops it; the buffer
 * keeps it, and the reply adds a line end of its own).
 */
export function shownScreen(body: string, style: BufferStyle): string {
  const text = body.endsWith('\n\n') ? body.slice(0, -1) : body;
  return style === 'escaped' ? decodeEscaped(text) : text;
}

/**
 * A cycle's captures as separate commands, for a connection that answers each command on its own:
 * no marker is needed between the screens, the replies come in the order of the panes.
 */
export function bufferedScreensCommands(paneIds: readonly string[], buffer: string): string[][] {
  const commands: string[][] = [];
  for (const id of paneIds) {
    assertPaneId(id);
    commands.push(...bufferedCapture(id, buffer));
  }
  if (paneIds.length > 0) commands.push(['delete-buffer', '-b', buffer]);
  return commands;
}

/**
 * The screens in the replies to bufferedScreensCommands. tmux stops at the first command that fails
 * (a pane that closed since the listing): the panes from there on are left out.
 */
export function screensFromReplies(paneIds: readonly string[], replies: readonly ControlReply[], style: BufferStyle): Map<string, string> {
  const screens = new Map<string, string>();
  paneIds.forEach((id, index) => {
    const captured = replies[2 * index];
    const shown = replies[2 * index + 1];
    if (!captured?.ok || !shown?.ok) return;
    screens.set(id, shownScreen(shown.text, style));
  });
  return screens;
}
