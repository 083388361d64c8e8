// The bottom line: the most useful keys, from the keymap table. The answer key appears with the
// answers the selected prompt takes (`a 1-3/Enter answer`), and not at all when there are none.

import { Text } from './Text.js';
import { clip } from './format.js';
import { footerItems } from './keymap.js';

export function footerText(answerKeys: string | null): string {
  return footerItems(answerKeys)
    .map((item) => `${item.keys} ${item.label}`)
    .join(' · ');
}

export function Footer({ width, answerKeys }: { readonly width: number; readonly answerKeys: string | null }) {
  return (
    <Text dimColor wrap="truncate-end">
      {clip(footerText(answerKeys), width)}
    </Text>
  );
}
