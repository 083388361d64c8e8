// The selected pane's last screen lines, escapes stripped and clipped to the width.

import { Box } from 'ink';
import { Text } from './Text.js';
import { clip, previewLines } from './format.js';
import { cellWidth } from '../engine/text/cells.js';

interface Props {
  readonly title: string;
  readonly lines: readonly string[];
  readonly width: number;
  readonly height: number;
}

export function Preview({ title, lines, width, height }: Props) {
  const shown = previewLines(lines, width, height);
  const rule = `── ${clip(title, Math.max(0, width - 6))} `;
  return (
    <Box flexDirection="column" width={width}>
      <Text dimColor wrap="truncate-end">
        {rule + '─'.repeat(Math.max(0, width - cellWidth(rule)))}
      </Text>
      {shown.length === 0 ? (
        <Text dimColor>(empty screen)</Text>
      ) : (
        shown.map((line, i) => (
          <Text key={i} wrap="truncate-end">
            {line === '' ? ' ' : line}
          </Text>
        ))
      )}
    </Box>
  );
}
