// A pane's quiet time, kept where every corral process can read it: the pane option `@corral_quiet`
// holds since when the corral that watches the pane has seen its screen still, with a short hash of
// that screen. A corral that starts later (a second dashboard, `serve`, `ls`, a restarted one)
// takes the time over when its first capture shows the same screen, so quiet time does not restart
// with the process that reads it. tmux drops the option with its pane.

export const QUIET_OPTION = '@corral_quiet';

/** The listing field: the option with every character a record never holds removed by tmux. */
export const QUIET_RECORD_FORMAT = `#{s/[^0-9a-z.]//:${QUIET_OPTION}}`;

/** How much of the screen's content hash a record keeps: enough to tell two screens apart. */
const HASH_CHARS = 16;

/** The option's value for a pane quiet since `since` (ms) on a screen of content hash `contentHash`. */
export function quietRecordValue(since: number, contentHash: string): string {
  return `${Math.floor(since)}.${contentHash.slice(-HASH_CHARS).toLowerCase()}`;
}

/**
 * Since when a pane has been quiet by its record, if the record was made on the screen of content
 * hash `contentHash` and is not later than `now`; null otherwise (no record, another screen, or a
 * value that is not a record).
 */
export function quietSinceFromRecord(record: string, contentHash: string, now: number): number | null {
  const match = /^(\d{1,15})\.([0-9a-f]{1,64})$/.exec(record);
  if (match === null || contentHash === '') return null;
  if (match[2] !== contentHash.slice(-HASH_CHARS).toLowerCase()) return null;
  const since = Number(match[1]);
  return since > 0 && since <= now ? since : null;
}
