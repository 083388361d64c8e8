// One row of the pane list: marker, badge, target, name (window name or title), short cwd, quiet timer.

import { memo } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';
import { fit } from './format.js';
import type { RowColumns } from './layout.js';
import type { PaneStatus } from '../engine/pane/pane-status.js';

export interface RowModel {
  readonly key: string;
  readonly status: PaneStatus;
  readonly badge: string;
  readonly target: string;
  readonly label: string;
  readonly cwd: string;
  readonly timer: string;
  /** The agent's hooks and the screen disagree (see `corral check --pane`). */
  readonly disagrees?: boolean;
  /** Its host is down: the row is the last one seen, greyed, with the offline badge. */
  readonly offline?: boolean;
}

const STATUS_COLORS: Record<RowModel['status'], string> = {
  stuck: 'red',
  snoozed: 'yellow',
  quiet: 'blue',
  active: 'green',
  answered: 'cyan',
  idle: 'gray',
};

interface Props {
  readonly row: RowModel;
  readonly columns: RowColumns;
  readonly selected: boolean;
  readonly color: boolean;
}

function PaneRowView({ row, columns, selected, color }: Props) {
  const offline = row.offline === true;
  const badgeColor = color && !offline ? STATUS_COLORS[row.status] : undefined;
  // The marker takes the space between badge and target, so the columns do not move.
  const rest =
    `${row.disagrees ? '≠' : ' '}${fit(row.target, columns.target)}` +
    (columns.label > 0 ? ` ${fit(row.label, columns.label)}` : '') +
    (columns.cwd > 0 ? ` ${fit(row.cwd, columns.cwd)}` : '');
  // The timer is a text of its own: when only it changes (the usual frame on an idle dashboard),
  // Ink measures a few ASCII characters instead of the whole row again (titles with a non-ASCII
  // character make that measuring several times slower).
  return (
    <Box>
      <Text wrap="truncate-end" inverse={selected} dimColor={offline}>
        {selected ? '› ' : '  '}
        <Text
          {...(badgeColor ? { color: badgeColor } : {})}
          bold={row.status === 'stuck' && !offline}
          dimColor={row.status === 'snoozed' || offline}
        >
          {fit(row.badge, columns.badge)}
        </Text>
        {rest}
      </Text>
      <Box flexShrink={0}>
        <Text inverse={selected} dimColor={offline}>{` ${row.timer.padStart(columns.timer)}`}</Text>
      </Box>
    </Box>
  );
}

function shallowEqual<T extends object>(a: T, b: T): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

// Rows and columns are rebuilt on every render; a row whose contents did not change is not drawn
// again (a key press redraws the two rows the selection left and reached, not all of them).
export const PaneRow = memo(
  PaneRowView,
  (a, b) =>
    a.selected === b.selected && a.color === b.color && shallowEqual(a.row, b.row) && shallowEqual(a.columns, b.columns),
);
