// Whether a process still runs, by pid (a signal 0 probe: nothing is sent). A zombie (ended, not
// yet reaped by its parent) does not run: on Linux its state in /proc says so. It lives beside the
// code that starts processes (child-processes.ts); the transport uses it for masters left behind.

import { readFileSync } from 'node:fs';

function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false; // no /proc here, or gone meanwhile: the probe decides
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}
