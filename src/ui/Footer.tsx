// The bottom line: the most useful keys, from the keymap table.

import { Text } from 'ink';
import { clip } from './format.js';
import { footerItems } from './keymap.js';

export function Footer({ width }: { readonly width: number }) {
  const text = footerItems()
    .map((item) => `${item.keys} ${item.label}`)
    .join(' · ');
  return (
    <Text dimColor wrap="truncate-end">
      {clip(text, width)}
    </Text>
  );
}
