// Finds processes by their command line in /proc (Linux), to check nothing is left behind.

import { readdirSync, readFileSync } from 'node:fs';

export function processesMatching(fragment: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(fragment)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export function environHas(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/** Pids of processes whose environment contains `entry` (e.g. a unique marker variable). */
export function processesWithEnv(entry: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && environHas(pid, entry));
}
