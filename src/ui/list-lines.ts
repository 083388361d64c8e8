// The pane list as lines (a host's header line before its rows when corral watches several hosts)
// and the window of them in view. Pure: keys, groups and sizes in, lines out.

import type { HostGroup } from './hosts.js';

/** One line of the pane list: a host's header (several hosts only) or a pane's row. */
export type ListLine = { readonly kind: 'host'; readonly group: HostGroup } | { readonly kind: 'pane'; readonly key: string };

export function listLines(keys: readonly string[], groups: readonly HostGroup[] | null): ListLine[] {
  if (groups === null) return keys.map((key) => ({ kind: 'pane', key }));
  return groups.flatMap((group): ListLine[] => [
    { kind: 'host', group },
    ...group.keys.map((key): ListLine => ({ kind: 'pane', key })),
  ]);
}

/**
 * The lines in view for `rows` lines of room, starting near `lastTop`: the selected row is always in
 * view, and a window that begins inside a host's rows repeats that host's line on top, so every row
 * shown is under its host's name. Scrolls as little as possible: the top rows (the most urgent) stay
 * in view until the selection leaves the window, and the window never hangs past the last line.
 */
export function scrollList(
  lines: readonly ListLine[],
  selectedKey: string | null,
  lastTop: number,
  rows: number,
): { top: number; shown: ListLine[] } {
  const found = selectedKey === null ? -1 : lines.findIndex((l) => l.kind === 'pane' && l.key === selectedKey);
  const selected = Math.max(0, found);
  let top = Math.min(lastTop, selected);
  if (selected >= top + rows) top = selected - rows + 1;
  top = Math.max(0, Math.min(top, lines.length - rows));
  const sticky = rows >= 2 && lines.some((l) => l.kind === 'host');
  // The repeated host line takes the top line: the selected row must not be the one it covers.
  if (sticky && top > 0 && top === selected && lines[top]?.kind === 'pane') top -= 1;
  const shown = lines.slice(top, top + rows);
  if (sticky && top > 0 && shown[0]?.kind === 'pane') {
    for (let i = top - 1; i >= 0; i--) {
      const line = lines[i] as ListLine;
      if (line.kind === 'host') {
        shown[0] = line;
        break;
      }
    }
  }
  return { top, shown };
}
