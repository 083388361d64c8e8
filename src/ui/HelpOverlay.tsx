// All keys, grouped, from the keymap table. The Answer group lists the answers valid for the
// selected pane's prompt, not every key the table knows. Two columns when the terminal is wide enough.

import { Box } from 'ink';
import { Text } from './Text.js';
import { clip } from './format.js';
import { ANSWER_PREFIX, LINE_KEYS, LINE_KEYS_TITLE, bindingKeys, bindingsByGroup, keyLabel } from './keymap.js';
import type { PaneAnswers } from './quick-answers.js';

interface Props {
  readonly width: number;
  readonly height: number;
  readonly answers: PaneAnswers;
  /** The selected pane (`main:1.0`), or null when there is none. */
  readonly target: string | null;
  /** Why nothing can be sent to the selected pane (`build-box is unreachable`), null when its host is up. */
  readonly down?: string | null;
  /** The last status message, shown whole above the keys. */
  readonly lastMessage?: string | null;
}

type Line = { readonly kind: 'group' | 'key'; readonly text: string };

/** What the selected pane's answers are, for the help: one line per answer, or why there are none. */
function answerLines(keyWidth: number, answers: PaneAnswers, target: string | null, down: string | null): Line[] {
  const where = target ?? 'no pane selected';
  const head: Line = { kind: 'group', text: `Answer (${where})` };
  if (target === null) return [head, { kind: 'key', text: 'select a pane first' }];
  if (down !== null) return [head, { kind: 'key', text: `${down}: nothing can be sent until it is back` }];
  const lines = answers.choices.map((c) => ({
    kind: 'key' as const,
    text: `${`${ANSWER_PREFIX} ${keyLabel(c.key)}`.padEnd(keyWidth)} ${c.label}`,
  }));
  const note =
    answers.kind === 'secret'
      ? 'it asks for a password or PIN: no quick answer; Enter jumps to the pane to type it there'
      : answers.kind === null
        ? 'it shows no prompt: no quick answer'
        : answers.choices.every((c) => c.source !== 'prompt')
          ? 'its prompt takes free text: r types a reply'
          : null;
  return [head, ...(note === null ? [] : [{ kind: 'key' as const, text: note }]), ...lines];
}

export function helpLines(
  keyWidth: number,
  answers: PaneAnswers,
  target: string | null,
  down: string | null = null,
): Line[][] {
  const groups = bindingsByGroup().map(([group, list]): Line[] =>
    group === 'Answer'
      ? answerLines(keyWidth, answers, target, down)
      : [
          { kind: 'group', text: group },
          ...list.map((b) => ({ kind: 'key' as const, text: `${bindingKeys(b).padEnd(keyWidth)} ${b.label}` })),
        ],
  );
  // One line: the same keys in every field, as in a shell.
  const lineKeys: Line[] = [
    { kind: 'group', text: LINE_KEYS_TITLE },
    { kind: 'key', text: LINE_KEYS.map((k) => keyLabel(k.keys[0] ?? '')).join(' ') + ' · Ctrl-' + LINE_KEYS.flatMap((k) => k.keys.slice(1)).map((n) => n.replace('ctrl+', '').toUpperCase()).join('/') },
  ];
  return [...groups, lineKeys];
}

export function HelpOverlay({ width, height, answers, target, down = null, lastMessage = null }: Props) {
  const groups = helpLines(12, answers, target, down);
  // The last message, wrapped: a long reason cut on the status line is read here in full.
  const message = lastMessage === null ? null : clip(`Last message: ${lastMessage}`, Number.MAX_SAFE_INTEGER);
  const keysHeight = height - (message === null ? 0 : cellsOf(message) / Math.max(1, width) + 1);
  const total = groups.reduce((n, g) => n + g.length, 0);
  const twoColumns = total + 1 > keysHeight && width >= 90;
  const columns: Line[][] = [[], []];
  const half = Math.ceil(total / 2);
  for (const group of groups) {
    const target = twoColumns && (columns[0] as Line[]).length >= half - 2 ? 1 : 0;
    (columns[target] as Line[]).push(...group);
  }
  const columnWidth = twoColumns ? Math.floor((width - 2) / 2) : width;
  const room = Math.max(1, keysHeight - 1);
  return (
    <Box flexDirection="column" width={width}>
      {message === null ? null : <Text wrap="wrap">{message}</Text>}
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

/** Cells a text takes, counting a character from U+1100 on (CJK, emoji) as two: enough to keep room. */
function cellsOf(text: string): number {
  return [...text].reduce((n, c) => n + ((c.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1), 0);
}
