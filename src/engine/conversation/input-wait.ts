// Whether the program in the foreground of a pane on this machine is waiting for input: the
// kernel tells which system call a blocked process is in (/proc/PID/syscall). A `read` on its
// standard input, or a wait on several descriptors (select, poll), is a program waiting for keys;
// a sleep or a wait for a child is not. So `printf 'ok:'; sleep 2` is output that pauses, not a
// question. Linux only; elsewhere (or for another user's process) the answer is "unknown".

import { readFileSync } from 'node:fs';

interface SyscallTable {
  readonly read: number;
  readonly waits: ReadonlySet<number>;
}

// Numbers from the kernel's tables for each architecture (read; select, poll, pselect6, ppoll, epoll waits).
const TABLES: Record<string, SyscallTable> = {
  x64: { read: 0, waits: new Set([7, 23, 232, 270, 271, 281, 441]) },
  arm64: { read: 63, waits: new Set([22, 72, 73, 441]) },
};

export type ReadFile = (path: string) => string;

/**
 * True when the foreground process of the terminal `panePid` runs in waits for input, false when
 * it is blocked in something else, null when this cannot be told.
 */
export function foregroundWaitsForInput(panePid: number, read: ReadFile = (path) => readFileSync(path, 'utf8'), arch: string = process.arch): boolean | null {
  const table = TABLES[arch];
  if (!table || !Number.isInteger(panePid) || panePid <= 0) return null;
  try {
    // Fields after the command name, which is in parentheses and may hold anything.
    const stat = read(`/proc/${panePid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const foreground = Number(fields[5]);
    if (!Number.isInteger(foreground) || foreground <= 0) return null;
    const [call, first] = read(`/proc/${foreground}/syscall`).trim().split(' ');
    if (call === 'running' || call === undefined) return false;
    const number = Number(call);
    if (!Number.isInteger(number) || number < 0) return null;
    if (number === table.read) return Number(first) === 0;
    return table.waits.has(number);
  } catch {
    return null;
  }
}
