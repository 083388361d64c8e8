// corral's stdout and stderr as its commands see them: every text written goes through
// terminalSafeLines, so a window name, a path, a host's error line or a hook's message in a log
// line or a listing never reaches the terminal raw. JSON output is escaped beforehand
// (terminalSafeJson), which this leaves as it is.

import { terminalSafeLines } from '../engine/text/terminal-text.js';

/** The stream, with write() made terminal-safe; everything else (isTTY, columns, events) is the stream's own. */
export function terminalSafeStream<T extends NodeJS.WritableStream>(stream: T): T {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null;
    return (stream.write as (...args: unknown[]) => boolean)(text === null ? chunk : terminalSafeLines(text), ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
