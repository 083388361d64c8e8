// All keys, grouped, from the keymap table. Two columns when the terminal is wide enough.

import { Box, Text } from 'ink';
import { clip } from './format.js';
import { bindingKeys, bindingsByGroup } from './keymap.js';

interface Props {
  readonly width: number;
  readonly height: number;
}

type Line = { readonly kind: 'group' | 'key'; readonly text: string };

export function helpLines(keyWidth: number): Line[][] {
  return bindingsByGroup().map(([group, list]) => [
    { kind: 'group', text: group },
    ...list.map((b) => ({ kind: 'key' as const, text: `${bindingKeys(b).padEnd(keyWidth)} ${b.label}` })),
  ]);
}

export function HelpOverlay({ width, height }: Props) {
  const groups = helpLines(12);
  const total = groups.reduce((n, g) => n + g.length, 0);
  const twoColumns = total + 1 > height && width >= 90;
  const columns: Line[][] = [[], []];
  const half = Math.ceil(total / 2);
  for (const group of groups) {
    const target = twoColumns && (columns[0] as Line[]).length >= half - 2 ? 1 : 0;
    (columns[target] as Line[]).push(...group);
  }
  const columnWidth = twoColumns ? Math.floor((width - 2) / 2) : width;
  const room = Math.max(1, height - 1);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Keys (any key closes this help)</Text>
      <Box>
        {columns
          .filter((c) => c.length > 0)
          .map((column, ci) => (
            <Box key={ci} flexDirection="column" width={columnWidth} marginRight={ci === 0 && twoColumns ? 2 : 0}>
              {(column.length > room ? [...column.slice(0, room - 1), { kind: 'key', text: '…' } as Line] : column).map(
                (line, i) => (
                  <Text key={i} bold={line.kind === 'group'} wrap="truncate-end">
                    {clip(line.kind === 'group' ? line.text : `  ${line.text}`, columnWidth)}
                  </Text>
                ),
              )}
            </Box>
          ))}
      </Box>
    </Box>
  );
}
