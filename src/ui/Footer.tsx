// The bottom line: what `a` offers on the selected pane (`a: y n q a d e ?`, `a: —`), then the most
// useful keys, from the keymap table. Offered keys come from a pane's screen: they are drawn
// terminal-safe, and a long list is cut so the other keys stay in view.

import { Text } from './Text.js';
import { clip } from './format.js';
import { footerItems } from './keymap.js';

/** The most of the line the offered answers may take before they are cut with `…`. */
const ANSWERS_SHARE = 0.4;
const ANSWERS_MIN = 12;

export function footerText(answerKeys: string, width: number = Number.POSITIVE_INFINITY): string {
  const budget = Math.max(ANSWERS_MIN, Math.floor(width * ANSWERS_SHARE));
  return footerItems(clip(answerKeys, budget))
    .map((item) => `${item.keys} ${item.label}`)
    .join(' · ');
}

export function Footer({ width, answerKeys }: { readonly width: number; readonly answerKeys: string }) {
  return (
    <Text dimColor wrap="truncate-end">
      {clip(footerText(answerKeys, width), width)}
    </Text>
  );
}
