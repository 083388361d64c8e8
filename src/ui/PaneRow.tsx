// One row of the pane list: marker, badge, target, title or command, short cwd, quiet timer.

import { memo } from 'react';
import { Text } from 'ink';
import { fit } from './format.js';
import type { RowColumns } from './layout.js';
import type { PaneStatus } from '../engine/pane-status.js';

export interface RowModel {
  readonly paneId: string;
  readonly status: PaneStatus;
  readonly badge: string;
  readonly target: string;
  readonly label: string;
  readonly cwd: string;
  readonly timer: string;
  /** The agent's hooks and the screen disagree (see `corral check --pane`). */
  readonly disagrees?: boolean;
}

const STATUS_COLORS: Record<PaneStatus, string> = { stuck: 'red', snoozed: 'yellow', quiet: 'blue', active: 'green' };

interface Props {
  readonly row: RowModel;
  readonly columns: RowColumns;
  readonly selected: boolean;
  readonly color: boolean;
}

function PaneRowView({ row, columns, selected, color }: Props) {
  const badgeColor = color ? STATUS_COLORS[row.status] : undefined;
  // The marker takes the space between badge and target, so the columns do not move.
  const rest =
    `${row.disagrees ? '≠' : ' '}${fit(row.target, columns.target)}` +
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
