// When a pane on this machine last printed, as its terminal device tells: the kernel sets a tty's
// modification time when a program writes to it and its access time when a program reads a key from
// it (in 8-second steps, so the stamps cannot be used to time keystrokes). tmux stamps only windows;
// this tells the panes of one window apart, so a pane idle beside a busy one is not taken for fresh
// when corral starts.

import { readlinkSync, statSync } from 'node:fs';

/** The kernel moves a tty's times only when they change by more than this (low three bits of the seconds). */
const TTY_STAMP_STEP_S = 8;

/** A terminal's device path (a pseudo-terminal as tmux makes them, or a console); /dev/null is not one. */
const TERMINAL_PATH = /^\/dev\/(pts\/\d+|tty[A-Za-z0-9]*)$/;

/**
 * The latest wall-clock time (ms) the pane's program can have printed or read a key, from the tty
 * its process `pid` holds on fd 0, 1 or 2; null when none of them is a terminal this process can
 * see (another user's pane, a system without /proc, a process that has gone).
 */
export function ttyUsedBy(pid: number): number | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  for (const fd of [0, 1, 2]) {
    try {
      const link = `/proc/${pid}/fd/${fd}`;
      if (!TERMINAL_PATH.test(readlinkSync(link))) continue;
      const stats = statSync(link);
      if (!stats.isCharacterDevice()) continue;
      return usedByFromStamps(Math.floor(stats.mtimeMs / 1000), Math.floor(stats.atimeMs / 1000));
    } catch {
      continue;
    }
  }
  return null;
}

/**
 * The latest time a write or a read could have happened given a tty's modification and access
 * seconds: the end of the 8-second step the later one is in (another use in the same step leaves
 * the stamp as it was).
 */
export function usedByFromStamps(mtimeS: number, atimeS: number): number {
  return (Math.floor(Math.max(mtimeS, atimeS) / TTY_STAMP_STEP_S) + 1) * TTY_STAMP_STEP_S * 1000;
}
