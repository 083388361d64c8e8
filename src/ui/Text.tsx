// The dashboard's only way to draw text: Ink's Text, with every string it is given made
// terminal-safe first (names, titles, paths, screen lines, host names, messages), in the form no
// measured terminal draws wider than Ink counts it (cellSafe). A lint rule keeps Ink's own Text out
// of every other component.

import { Children, type ReactNode } from 'react';
// eslint-disable-next-line no-restricted-imports
import { Text as InkText, type TextProps } from 'ink';
import { cellSafe } from '../engine/text/cells.js';

function safe(children: ReactNode): ReactNode {
  if (typeof children === 'string') return cellSafe(children);
  if (!Array.isArray(children)) return children;
  return Children.map(children, (child: ReactNode) => (typeof child === 'string' ? cellSafe(child) : child));
}

export function Text({ children, ...props }: TextProps) {
  return <InkText {...props}>{safe(children)}</InkText>;
}
