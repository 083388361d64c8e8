// The names above the list's columns.

import { Text } from './Text.js';
import type { RowColumns } from './layout.js';

export function ColumnHeader({ columns }: { readonly columns: RowColumns }) {
  const text =
    '  ' +
    'STATE'.padEnd(columns.badge) +
    ' ' +
    'PANE'.padEnd(columns.target) +
    (columns.label > 0 ? ` ${'NAME'.slice(0, columns.label).padEnd(columns.label)}` : '') +
    (columns.cwd > 0 ? ` ${'CWD'.padEnd(columns.cwd)}` : '') +
    ` ${'QUIET'.padStart(columns.timer)}`;
  return (
    <Text dimColor wrap="truncate-end">
      {text}
    </Text>
  );
}
