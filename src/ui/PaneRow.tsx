// One row of the pane list: marker, badge, target, name (window name or title), short cwd, quiet timer.

import { memo } from 'react';
import { Text } from 'ink';
import { fit } from './format.js';
import type { RowColumns } from './layout.js';
import type { PaneStatus } from '../engine/pane-status.js';

export interface RowModel {
  readonly paneId: string;
  /** `answered`: the dashboard's mark for a pane answered from it, until its screen changes. */
  readonly status: PaneStatus | 'answered';
  readonly badge: string;
  readonly target: string;
  readonly label: string;
  readonly cwd: string;
  readonly timer: string;
}

const STATUS_COLORS: Record<RowModel['status'], string> = {
  stuck: 'red',
  snoozed: 'yellow',
  quiet: 'blue',
  active: 'green',
  answered: 'cyan',
};

interface Props {
  readonly row: RowModel;
  readonly columns: RowColumns;
  readonly selected: boolean;
  readonly color: boolean;
}

function PaneRowView({ row, columns, selected, color }: Props) {
  const badgeColor = color ? STATUS_COLORS[row.status] : undefined;
  const rest =
    ` ${fit(row.target, columns.target)}` +
    (columns.label > 0 ? ` ${fit(row.label, columns.label)}` : '') +
    (columns.cwd > 0 ? ` ${fit(row.cwd, columns.cwd)}` : '') +
    ` ${row.timer.padStart(columns.timer)}`;
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {selected ? '› ' : '  '}
      <Text
        {...(badgeColor ? { color: badgeColor } : {})}
        bold={row.status === 'stuck'}
        dimColor={row.status === 'snoozed'}
      >
        {fit(row.badge, columns.badge)}
      </Text>
      {rest}
    </Text>
  );
}

export const PaneRow = memo(PaneRowView);
