// corral's logs on stderr: one event, one line. Text in a log line comes from clients, panes,
// hosts and hooks (an MCP client's name, a window name, an error line), so every control
// character in it is shown, line breaks included: no logged text can start a line of its own.

import { terminalSafe } from '../engine/text/terminal-text.js';

/** A log for the stream: each call writes `prefix` and the text on one line. */
export function lineLog(stream: NodeJS.WritableStream, prefix = 'corral: '): (line: string) => void {
  return (line) => {
    stream.write(`${prefix}${terminalSafe(line)}\n`);
  };
}
