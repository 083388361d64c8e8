// The line above the footer: what the dashboard is doing (typing a reply, waiting for an answer
// key, asking before a signal) or what just happened.

import { Box } from 'ink';
import { Text } from './Text.js';
import { clip } from './format.js';
import { ANSWER_PREFIX } from './keymap.js';
import { answerHint, type PaneAnswers } from './quick-answers.js';
import type { StatusMessage, UiState } from './state.js';
import type { StartDraft } from './start-draft.js';

export function StatusLine({
  ui,
  target,
  answers,
  width,
  color,
}: {
  ui: UiState;
  target: string | null;
  answers: PaneAnswers;
  width: number;
  color: boolean;
}) {
  const on = target ?? '?';
  switch (ui.mode) {
    case 'reply':
      return (
        <Text wrap={ui.status ? 'truncate-end' : 'truncate-start'}>
          <Text bold>{`reply to ${on} › `}</Text>
          <Field text={ui.draft} cursor={ui.cursor} />
          {ui.status ? (
            <Text {...(color ? { color: 'yellow' } : {})}>{`  ${ui.status.text}`}</Text>
          ) : (
            <Text dimColor>{'  Enter sends · Esc cancels'}</Text>
          )}
        </Text>
      );
    case 'filter':
      return (
        <Text wrap="truncate-start">
          <Text bold>{'/'}</Text>
          <Field text={ui.filter} cursor={ui.cursor} />
          <Text dimColor>{'  Enter keeps · Esc clears'}</Text>
        </Text>
      );
    case 'answer':
      return (
        <Text wrap="truncate-end">{clip(`answer ${on} (${ANSWER_PREFIX} …): ${answerHint(answers)}`, width)}</Text>
      );
    case 'start':
      return ui.start ? <StartPrompt draft={ui.start} cursor={ui.cursor} status={ui.status} color={color} /> : <Text> </Text>;
    case 'end':
      return (
        <Text wrap="truncate-end" {...(color ? { color: 'yellow' } : {})} bold>
          {clip(`end ${ui.ending?.label ?? on}? y ends it (kill-pane), any other key cancels`, width)}
        </Text>
      );
    case 'confirm':
      return (
        <Text wrap="truncate-end" {...(color ? { color: 'yellow' } : {})} bold>
          {clip(
            ui.pending?.then === 'reply'
              ? `${ui.pending.label}: reply anyway? y types a reply there, any other key cancels`
              : `send ${ui.pending?.label ?? ''} to ${on}? y sends, any other key cancels`,
            width,
          )}
        </Text>
      );
    default: {
      if (ui.status) {
        const tone = ui.status.tone === 'error' ? 'red' : ui.status.tone === 'warn' ? 'yellow' : undefined;
        return (
          <MessageLine text={ui.status.text} width={width} color={color && tone ? tone : null} />
        );
      }
      if (ui.filter !== '')
        return (
          <Text dimColor wrap="truncate-end">
            {clip(`filter: ${ui.filter} (Esc clears)`, width)}
          </Text>
        );
      return <Text> </Text>;
    }
  }
}

/** The start prompt: the field being typed ends the line (the cursor stays in view), its hint or refusal after it. */
function StartPrompt({ draft, cursor, status, color }: { draft: StartDraft; cursor: number; status: StatusMessage | null; color: boolean }) {
  const place = `${draft.cwd ?? "the session's folder"}${draft.host === 'local' ? '' : ` on ${draft.host}`}`;
  const onBranch = draft.field === 'branch';
  const lead = onBranch ? `start ${draft.command.trim() || '…'} in a new git worktree of ${place}, new branch › ` : `start in a new window, in ${place} › `;
  const hint = onBranch ? 'Tab: back to the command · empty: no worktree · Enter starts · Esc cancels' : `Tab: ${draft.branch.trim() === '' ? 'in a new git worktree' : `worktree branch ${draft.branch.trim()}`} · Enter starts · Esc cancels`;
  return (
    <Text wrap={status ? 'truncate-end' : 'truncate-start'}>
      <Text bold>{lead}</Text>
      <Field text={onBranch ? draft.branch : draft.command} cursor={cursor} />
      {status ? <Text {...(color ? { color: 'yellow' } : {})}>{`  ${status.text}`}</Text> : <Text dimColor>{`  ${hint}`}</Text>}
    </Text>
  );
}

/** A text field's line with its cursor drawn (the character under it inverted; a blank at the end). */
function Field({ text, cursor }: { text: string; cursor: number }) {
  const chars = [...text];
  const at = Math.max(0, Math.min(cursor, chars.length));
  return (
    <>
      {chars.slice(0, at).join('')}
      <Text inverse>{chars[at] ?? ' '}</Text>
      {chars.slice(at + 1).join('')}
    </>
  );
}

const WHOLE_HINT = ' (? shows it whole)';

/** A message on one line; when it may be cut, the hint where the whole of it is stays in view. */
function MessageLine({ text, width, color }: { text: string; width: number; color: string | null }) {
  return (
    <Box width={width}>
      <Box flexShrink={1}>
        <Text wrap="truncate-end" {...(color ? { color } : {})}>
          {clip(text, width)}
        </Text>
      </Box>
      {mayNotFit(text, width) ? (
        <Box flexShrink={0}>
          <Text dimColor>{WHOLE_HINT}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * Whether a message may be cut on one line: more characters than fit, or wide characters (CJK,
 * emoji take two cells) that may make it so. Then the hint says where the whole of it is.
 */
function mayNotFit(text: string, width: number): boolean {
  const chars = [...text];
  const wide = chars.filter((c) => (c.codePointAt(0) ?? 0) >= 0x1100).length;
  return chars.length + wide > width;
}
