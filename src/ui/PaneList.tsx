// The pane list box: the column names, then the lines in view (host headers and pane rows), or why
// there is nothing to list (loading, no tmux server, no pane matches the filter).

import { Box } from 'ink';
import { Text } from './Text.js';
import { ColumnHeader } from './ColumnHeader.js';
import { HostHeader } from './HostHeader.js';
import { PaneRow, type RowModel } from './PaneRow.js';
import { clip } from './format.js';
import { collapsedHostId, collapsedHostLine, hostLine, waitingLine } from './hosts.js';
import type { Layout } from './layout.js';
import type { ListLine } from './list-lines.js';
import type { EngineSnapshot, PaneView } from '../engine/types.js';

interface Props {
  readonly layout: Layout;
  readonly snapshot: EngineSnapshot;
  readonly lines: readonly ListLine[];
  /** Several hosts: the list has host header lines. */
  readonly grouped: boolean;
  readonly byId: ReadonlyMap<string, PaneView>;
  readonly selectedId: string | null;
  readonly filter: string;
  readonly now: number;
  readonly color: boolean;
  readonly rowModel: (key: string, withHost: boolean) => RowModel;
}

export function PaneList({ layout, snapshot, lines, grouped, byId, selectedId, filter, now, color, rowModel }: Props) {
  const loading = snapshot.status === 'starting';
  const why =
    loading || (snapshot.status !== 'ok' && snapshot.panes.length === 0 && !grouped)
      ? (snapshot.statusMessage ?? (loading ? `loading: asking ${snapshot.server} for its panes…` : snapshot.status))
      : null;
  return (
    <Box flexDirection="column" width={layout.listWidth} height={layout.listHeight + (layout.columnHeader ? 1 : 0)}>
      {layout.columnHeader ? <ColumnHeader columns={layout.columns} /> : null}
      {why !== null ? (
        <Text {...(color && !loading ? { color: 'yellow' } : {})}>{clip(why, layout.listWidth)}</Text>
      ) : lines.length === 0 ? (
        <Text dimColor>{filter !== '' ? `no pane matches "${filter}"` : 'no panes'}</Text>
      ) : (
        lines.map((line) => {
          if (line.kind === 'waiting') {
            return <HostHeader key="waiting" host="waiting" tone="waiting" text={waitingLine(line.keys, byId)} width={layout.listWidth} color={color} />;
          }
          if (line.kind === 'pane') {
            const row = rowModel(line.key, line.withHost);
            return <PaneRow key={line.key} row={row} columns={layout.columns} selected={line.key === selectedId} color={color} />;
          }
          const { group } = line;
          return (
            <HostHeader
              key={`host ${group.host}`}
              host={group.host}
              health={group.health}
              text={group.collapsed ? collapsedHostLine(group, now) : hostLine(group, now)}
              width={layout.listWidth}
              color={color}
              selected={group.collapsed && collapsedHostId(group.host) === selectedId}
            />
          );
        })
      )}
    </Box>
  );
}
