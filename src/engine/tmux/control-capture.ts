// Screens captured over a control-mode connection without growing the user's tmux server.
//
// tmux 3.2 to 3.5 never free the text of a `capture-pane -p` that a control client runs (fixed in
// 3.6): each such capture costs the server the size of the screen, for as long as it runs (3000
// captures of a 200x50 screen: +55 MB). Text a control client reads with `show-buffer` is freed, so
// over a control connection corral captures into a paste buffer of its own, shows it and deletes
// it, on every version. How `show-buffer` prints to a control client differs: 3.2 and 3.3 encode it
// like vis(3) (a backslash doubled, `$` before a letter, `_` or `{` as `\$`, tabs and control bytes
// as C escapes or octal), 3.4 on print it as it is. Rather than trust a version number, corral asks
// the server once (probeCommand). Screens read this way and plain `capture-pane -p` are the same text
// (test/engine/tmux/*-oracle.integration.test.ts compares them on every tmux build it finds).

import type { Framing } from './command-line.js';
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

// What a backslash and one character stand for in tmux's encoding (vis(3) with VIS_CSTYLE, plus
// tmux's own `\$` before a letter, `_` or `{`). Indexed by the character's code.
const C_ESCAPES: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = [];
  const pairs: [string, string][] = [
    ['a', '\x07'],
    ['b', '\b'],
    ['t', '\t'],
    ['n', '\n'],
    ['v', '\v'],
    ['f', '\f'],
    ['r', '\r'],
    ['s', ' '],
    ['\\', '\\'],
    ['$', '$'],
  ];
  for (const [code, text] of pairs) table[code.charCodeAt(0)] = text;
  return table;
})();

const BACKSLASH = 0x5c;

function octalDigit(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0x30 && code <= 0x37 ? code - 0x30 : -1;
}

/** The byte of a three-digit octal escape whose digits start at `at`, or -1. */
function octalByte(text: string, at: number): number {
  const a = octalDigit(text, at);
  if (a < 0 || a > 3) return -1;
  const b = octalDigit(text, at + 1);
  if (b < 0) return -1;
  const c = octalDigit(text, at + 2);
  return c < 0 ? -1 : (a << 6) | (b << 3) | c;
}

/**
 * Undoes the encoding tmux 3.2 and 3.3 give a paste buffer shown to a control client (utf8_strvis
 * with VIS_OCTAL | VIS_CSTYLE | VIS_TAB): `\\` is a backslash, `\$` a dollar (written before a
 * letter, `_` or `{`), `\t` `\r` `\a` `\b` `\v` `\f` `\0` the control characters, `\ooo` any other
 * byte. Valid UTF-8 arrives as itself. Escaped bytes of 0x80 and above are gathered and read as
 * UTF-8, so the result is the buffer's bytes read as UTF-8, exactly as a plain `tmux` prints them.
 */
export function decodeEscaped(text: string): string {
  let at = text.indexOf('\\');
  if (at === -1) return text;
  let out = '';
  let copied = 0;
  while (at !== -1) {
    out += text.slice(copied, at);
    const next = text.charCodeAt(at + 1);
    const byte = octalByte(text, at + 1);
    if (byte >= 0x80) {
      // A run of escaped high bytes: read them together, as the bytes of the original text.
      const bytes: number[] = [];
      let end = at;
      for (let b = byte; b >= 0x80; b = text.charCodeAt(end) === BACKSLASH ? octalByte(text, end + 1) : -1) {
        bytes.push(b);
        end += 4;
      }
      out += Buffer.from(bytes).toString('utf8');
      copied = end;
    } else if (byte >= 0) {
      out += String.fromCharCode(byte);
      copied = at + 4;
    } else if (next === 0x30 /* \0 before a character that is not an octal digit */) {
      out += '\0';
      copied = at + 2;
    } else {
      const decoded = C_ESCAPES[next];
      // Anything else is not tmux's: kept as it is.
      out += decoded ?? text.slice(at, at + 2);
      copied = Math.min(text.length, at + 2);
    }
    at = text.indexOf('\\', copied);
  }
  return out + text.slice(copied);
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
 * A screen cut to its pane's rows: a capture of the visible screen is one line a row, each ending
 * in a newline. tmux 3.5a can show a control client a few bytes past the end of a paste buffer
 * (seen after a row holding a flag's tag characters, in a buffer that held a longer screen
 * before), after the last row; they are not the screen. A screen with fewer lines is left as it is.
 */
export function screenRows(screen: string, rows: number): string {
  let end = -1;
  for (let row = 0; row < rows; row++) {
    end = screen.indexOf('\n', end + 1);
    if (end === -1) return screen;
  }
  return end === screen.length - 1 ? screen : screen.slice(0, end + 1);
}

/** Every screen of `screens` cut to its pane's rows (the panes as the same cycle listed them). */
export function screensToRows(screens: Map<string, string>, panes: readonly { readonly paneId: string; readonly height: number }[]): Map<string, string> {
  for (const pane of panes) {
    const screen = screens.get(pane.paneId);
    if (screen !== undefined && pane.height > 0) screens.set(pane.paneId, screenRows(screen, pane.height));
  }
  return screens;
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
