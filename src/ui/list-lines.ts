// The pane list as lines (with several hosts: the waiting panes of every host on top, then each
// host's header line before its rows, or alone when the host is collapsed) and the window of them
// in view. Pure: keys, groups and sizes in, lines out.

import { collapsedHostId, type ShownGroup } from './hosts.js';

/**
 * One line of the pane list: the header over the waiting panes, a host's header (several hosts
 * only; a collapsed host's header stands for its rows and can be selected), or a pane's row
 * (`withHost`: in the waiting list, where the row names its host).
 */
export type ListLine =
  | { readonly kind: 'waiting'; readonly keys: readonly string[] }
  | { readonly kind: 'host'; readonly group: ShownGroup }
  | { readonly kind: 'pane'; readonly key: string; readonly withHost: boolean };

export function listLines(keys: readonly string[], groups: readonly ShownGroup[] | null, waiting: readonly string[] = []): ListLine[] {
  if (groups === null) return keys.map((key) => ({ kind: 'pane', key, withHost: false }));
  const top: ListLine[] =
    waiting.length === 0
      ? []
      : [{ kind: 'waiting', keys: waiting }, ...waiting.map((key): ListLine => ({ kind: 'pane', key, withHost: true }))];
  return top.concat(
    groups.flatMap((group): ListLine[] => [
      { kind: 'host', group },
      ...(group.collapsed ? [] : group.keys.map((key): ListLine => ({ kind: 'pane', key, withHost: false }))),
    ]),
  );
}

/** The selection id a line stands for: a pane's key, a collapsed host's id; null for other headers. */
export function lineId(line: ListLine): string | null {
  if (line.kind === 'pane') return line.key;
  return line.kind === 'host' && line.group.collapsed ? collapsedHostId(line.group.host) : null;
}

const isHeader = (line: ListLine | undefined): boolean =>
  line !== undefined && (line.kind === 'waiting' || (line.kind === 'host' && !line.group.collapsed));

/**
 * The lines in view for `rows` lines of room, starting near `lastTop`: the selected row is always in
 * view, and a window that begins inside a host's rows (or the waiting ones) repeats that header on
 * top, so every row shown is under its header. Scrolls as little as possible: the top rows (the most
 * urgent) stay in view until the selection leaves the window, and the window never hangs past the
 * last line.
 */
export function scrollList(
  lines: readonly ListLine[],
  selectedKey: string | null,
  lastTop: number,
  rows: number,
): { top: number; shown: ListLine[] } {
  const found = selectedKey === null ? -1 : lines.findIndex((l) => lineId(l) === selectedKey);
  const selected = Math.max(0, found);
  let top = Math.min(lastTop, selected);
  if (selected >= top + rows) top = selected - rows + 1;
  top = Math.max(0, Math.min(top, lines.length - rows));
  const sticky = rows >= 2 && lines.some(isHeader);
  // The repeated header takes the top line: the selected row must not be the one it covers.
  if (sticky && top > 0 && top === selected && lines[top]?.kind === 'pane') top -= 1;
  const shown = lines.slice(top, top + rows);
  if (sticky && top > 0 && shown[0]?.kind === 'pane') {
    for (let i = top - 1; i >= 0; i--) {
      const line = lines[i] as ListLine;
      if (line.kind !== 'pane') {
        if (isHeader(line)) shown[0] = line;
        break;
      }
    }
  }
  return { top, shown };
}
