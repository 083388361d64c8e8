// A shell command that the tmux server runs in a poll's own round trip (`run-shell`), so a host far
// away answers it without a second connection. The caller owns the command and what its answer
// means; this file only carries it there and back.
//
// run-shell from an attached client (a control connection is one) shows the command's output in
// the client's current pane, in view mode (measured on tmux 3.3a): it would cover what the person
// sees. So the output goes into a paste buffer instead, printed and deleted after it. The leading
// `echo` keeps that buffer from being empty (an empty load-buffer makes none, and show-buffer
// would then fail the chain); errors go nowhere, so a missing command only leaves the buffer blank.

import type { Framing, TmuxCommand } from './command-line.js';

/** The paste buffer a poll's shell answer passes through (the nonce keeps it apart from other clients). */
export function shellBufferName(framing: Framing): string {
  return `corral-shell-${framing.nonce}`;
}

/** The marker printed before a shell answer. */
function shellMarker(framing: Framing): string {
  return `${framing.blockStart}shell~>`;
}

/**
 * The commands that run `shell` on the tmux server's host and print its answer after a marker.
 * `shell` is the caller's fixed text, never a user's: tmux expands `#{…}` in it, so `#` is refused.
 */
export function shellAnswerCommands(framing: Framing, shell: string, buffer = shellBufferName(framing)): TmuxCommand[] {
  if (shell.includes('#') || /[\n\r]/.test(shell)) throw new Error('a shell command for run-shell must not hold # or a line break');
  if (!/^[A-Za-z0-9_-]+$/.test(buffer)) throw new Error(`not a plain buffer name: ${buffer}`);
  return [
    ['display-message', '-p', shellMarker(framing)],
    ['run-shell', `{ echo; ${shell}; } 2>/dev/null | tmux load-buffer -b ${buffer} - >/dev/null 2>&1`],
    ['show-buffer', '-b', buffer],
    ['delete-buffer', '-b', buffer],
  ];
}

/**
 * A round trip's output cut at the shell marker: what came before it, and the raw answer after it
 * (still as the connection shows a buffer), or null when the marker is missing or the shell part
 * failed (`answered`: every command after the marker ran). The first marker counts: nothing before
 * it can forge one, since the nonce is this process's own.
 */
export function splitShellAnswer(stdout: string, framing: Framing, answered: boolean): { before: string; answer: string | null } {
  const marker = `${shellMarker(framing)}\n`;
  const at = stdout.startsWith(marker) ? 0 : stdout.indexOf(`\n${marker}`);
  if (at === -1) return { before: stdout, answer: null };
  const start = at === 0 ? 0 : at + 1;
  const body = stdout.slice(start + marker.length);
  // The echo's empty first line.
  return { before: stdout.slice(0, start), answer: answered ? body.replace(/^\n/, '') : null };
}
