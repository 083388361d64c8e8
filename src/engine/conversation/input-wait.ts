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
 * it is blocked in something else or the foreground is changing hands, null when this cannot be
 * told.
 *
 * Between two commands the terminal's foreground group can name a process that has just exited
 * (the shell has not taken the terminal back yet), and a pipeline's group can outlive its first
 * process. So the group is looked for among the shell's children when its leader is gone, and a
 * group with no live process is a program ending, not one that waits: the next look tells.
 */
export function foregroundWaitsForInput(panePid: number, read: ReadFile = (path) => readFileSync(path, 'utf8'), arch: string = process.arch): boolean | null {
  const table = TABLES[arch];
  if (!table || !Number.isInteger(panePid) || panePid <= 0) return null;
  let shell: ProcStat;
  try {
    shell = procStat(read(`/proc/${panePid}/stat`));
  } catch {
    return null;
  }
  if (shell.foregroundGroup <= 0) return null;
  const member = liveMember(shell.foregroundGroup, panePid, read);
  if (member === undefined) return false;
  let syscall: string;
  try {
    syscall = read(`/proc/${member}/syscall`);
  } catch (error) {
    // Gone since its stat was read: ending. Not ours to read (sudo, another user): unknown.
    return isGone(error) ? false : null;
  }
  const [call, first] = syscall.trim().split(' ');
  if (call === 'running' || call === undefined) return false;
  const number = Number(call);
  // -1: stopped outside any system call (starting, ending, a page fault): not reading either.
  if (number === -1) return false;
  if (!Number.isInteger(number) || number < 0) return null;
  if (number === table.read) return Number(first) === 0;
  return table.waits.has(number);
}

interface ProcStat {
  readonly state: string;
  readonly group: number;
  readonly foregroundGroup: number;
}

/** The fields of /proc/PID/stat after the command name, which is in parentheses and may hold anything. */
function procStat(stat: string): ProcStat {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', group: Number(fields[2]), foregroundGroup: Number(fields[5]) };
}

/** A process of `group` that has not exited: its leader, else one of the shell's children in it. */
function liveMember(group: number, shellPid: number, read: ReadFile): number | undefined {
  if (isLiveMember(group, group, read)) return group;
  let children: string[];
  try {
    children = read(`/proc/${shellPid}/task/${shellPid}/children`).trim().split(' ');
  } catch {
    return undefined;
  }
  return children.map(Number).find((pid) => Number.isInteger(pid) && pid > 0 && isLiveMember(pid, group, read));
}

function isLiveMember(pid: number, group: number, read: ReadFile): boolean {
  try {
    const stat = procStat(read(`/proc/${pid}/stat`));
    return stat.group === group && stat.state !== 'Z' && stat.state !== 'X';
  } catch {
    return false; // gone between two reads
  }
}

function isGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ESRCH';
}
