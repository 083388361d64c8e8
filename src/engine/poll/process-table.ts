// The process tree of a host far away (see prompt/process-work.ts): when its next round trip asks
// for the table, and what a table that came back says of its panes. A table costs one `ps` on the
// host, so it is asked only while a pane's screen looks idle and the tree could change the verdict.

import { foregroundChildCommand, parseProcessTable } from '../prompt/process-work.js';
import type { PaneInfo, PromptVerdict } from '../types.js';
import type { PaneEntry } from './poll-step.js';

/** What the engine remembers of a host's tables between cycles. */
export interface TableRecord {
  /** Engine-clock time of the last cycle that brought a table; null before the first. */
  readonly lastAt: number | null;
  /** The host answered with no rows: its `ps` lacks these options (busybox), so it is not asked again. */
  readonly unsupported: boolean;
}

export const NO_TABLES: TableRecord = { lastAt: null, unsupported: false };

/** An idle-looking screen, the only verdict the tree may overrule (see withProcessWork). */
function looksIdle(verdict: PromptVerdict | undefined): boolean {
  return verdict !== undefined && verdict.prompt && verdict.reason === 'stopped' && !verdict.busy && verdict.menu !== true;
}

/**
 * Whether the next round trip asks for the table: some live pane's last screen looks idle and is
 * not stuck, or became stuck without a table having been seen (its first screen was quiet for long
 * already, or it came in a cycle that had none): one table may un-stick it. A pane stuck with a
 * table in view is left alone; a screen change starts its wait anew, and with it the asking, so a
 * pane that waits for hours costs no `ps` at all.
 */
export function tableWanted(entries: ReadonlyMap<string, PaneEntry>, record: TableRecord): boolean {
  if (record.unsupported) return false;
  for (const { pane, screen, track } of entries.values()) {
    if (pane.dead || !looksIdle(screen?.verdict)) continue;
    if (track.state !== 'stuck') return true;
    if (record.lastAt === null || (track.stuckSince ?? -Infinity) > record.lastAt) return true;
  }
  return false;
}

/**
 * The process signal of one cycle from its round trip's answer: `undefined` (no signal) without a
 * table, so an earlier table is never reused; and the record for the next cycle.
 */
export function workFromTable(
  answer: string | null | undefined,
  record: TableRecord,
  now: number,
): { workOf: ((pane: PaneInfo) => string | null) | undefined; record: TableRecord } {
  if (answer === undefined || answer === null) return { workOf: undefined, record };
  const rows = parseProcessTable(answer);
  // A working `ps` lists at least itself: nothing at all means the options are not understood.
  if (rows.length === 0) return { workOf: undefined, record: { lastAt: now, unsupported: true } };
  return { workOf: (pane) => (pane.dead ? null : foregroundChildCommand(rows, pane.pid)), record: { lastAt: now, unsupported: false } };
}
