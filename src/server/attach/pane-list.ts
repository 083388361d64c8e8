// The pane list the web page shows, built from an engine snapshot: in the dashboard's order, with
// the engine's words for states and reasons, quiet times, and for a pane at a prompt the prompt's
// last lines and the quick answers valid for it. Pure: snapshot and time in, plain data out.

import { paneLabel } from '../../engine/pane/pane-name.js';
import { compareViews } from '../../engine/pane/pane-order.js';
import { REASON_MEANINGS, countStatuses, paneStatus, quietMs, statusBadge, type PaneStatus } from '../../engine/pane/pane-status.js';
import type { AnswerKind, EngineSnapshot, PaneView, StuckReason } from '../../engine/types.js';

/** Screen lines a prompt card shows (the last ones, ending at the prompt). */
export const PROMPT_LINES = 8;
const MAX_LINE = 240;

export interface ListedPrompt {
  /** The line the prompt was found on. */
  readonly line: string;
  /** The last screen lines up to and including the prompt's menu. */
  readonly lines: readonly string[];
  readonly kind: AnswerKind;
  /** Quick answers valid for this prompt, as their keys: `1`, `y`, `Enter`. */
  readonly options: readonly string[];
  readonly tool: string | null;
}

export interface ListedPane {
  /** The pane key: `%3` here, `build-box/%3` on another host. */
  readonly id: string;
  readonly host: string;
  /** False while the pane's host is down (the entry is the last one seen). */
  readonly online: boolean;
  readonly target: string;
  readonly session: string;
  readonly label: string | null;
  /** The pane's name, by the rule every surface uses (engine/pane/pane-name.ts). */
  readonly name: string;
  readonly title: string;
  readonly command: string;
  readonly cwd: string;
  readonly status: PaneStatus;
  /** What its wait asks, in one line (the command, the file, the question); null when nothing is known. */
  readonly ask: string | null;
  /** Since when its wait has been on screen (epoch ms, the same in every corral process); null when it waits for nothing. */
  readonly wait_since: number | null;
  readonly badge: string;
  readonly reason: StuckReason | null;
  readonly reason_text: string | null;
  /** Quiet time when the list was built; the page counts on from there. */
  readonly quiet_ms: number;
  /** The last line with text on the screen (a preview for panes without a prompt card). */
  readonly last_line: string;
  /** Identifies the screen the person sees: answers carry it back, and go nowhere if it changed. */
  readonly screen: string;
  readonly cols: number;
  readonly rows: number;
  readonly prompt: ListedPrompt | null;
}

export interface PaneList {
  readonly server: string;
  readonly status: EngineSnapshot['status'];
  readonly status_message: string | null;
  /** Whether this viewer may answer and type. */
  readonly write: boolean;
  readonly resize: boolean;
  readonly counts: ReturnType<typeof countStatuses>;
  readonly panes: readonly ListedPane[];
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

const BOX_SIDE = /^\s*[│┃║╎╏┆┇┊┋]\s?|\s?[│┃║╎╏┆┇┊┋]\s*$/g;
/** Only box-drawing characters (U+2500 to U+257F) and spaces. */
const BOX_RULE = /^[\s\u2500-\u257f]*[\u2500-\u257f][\s\u2500-\u257f]*$/;

/**
 * A screen line without the frame an agent draws around its dialog (`│ text │`, `╰────╯`): on a
 * narrow card the frame would wrap and hide the text. Null for a line that is only frame.
 */
export function unframe(line: string): string | null {
  if (BOX_RULE.test(line)) return null;
  return line.replace(BOX_SIDE, '').trimEnd();
}

/** The last screen lines (unframed, no blank runs), moved up when needed to hold the prompt line. */
export function promptLines(view: PaneView): string[] {
  const prompt = view.verdict?.line ? unframe(view.verdict.line)?.trim() : null;
  const lines: string[] = [];
  for (const raw of view.lines) {
    const line = unframe(raw);
    if (line === null) continue;
    if (line.trim() === '' && (lines.length === 0 || lines[lines.length - 1]!.trim() === '')) continue;
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  let start = Math.max(0, lines.length - PROMPT_LINES);
  const at = prompt ? lines.findLastIndex((line) => line.trim() === prompt) : -1;
  if (at !== -1 && at < start) start = at;
  const shown = lines.slice(start, start + PROMPT_LINES);
  while (shown.length > 0 && shown[0]!.trim() === '') shown.shift();
  return shown.map(clip);
}

export function listPane(view: PaneView, now: number): ListedPane {
  const status = paneStatus(view, now);
  const verdict = view.verdict;
  const prompt: ListedPrompt | null =
    verdict?.prompt && verdict.answer
      ? {
          line: clip(verdict.line),
          lines: promptLines(view),
          kind: verdict.answer.kind,
          options: [...verdict.answer.options],
          tool: verdict.tool,
        }
      : null;
  return {
    id: view.key,
    host: view.host,
    online: view.online,
    target: view.target,
    session: view.pane.sessionName,
    label: view.label,
    name: paneLabel(view),
    title: view.pane.title,
    command: view.pane.command,
    cwd: view.pane.cwd,
    status,
    ask: view.attention.ask,
    wait_since: view.waitSince,
    badge: statusBadge(status, view.reason),
    reason: view.reason,
    reason_text: view.reason === null ? null : REASON_MEANINGS[view.reason],
    quiet_ms: quietMs(view, now),
    last_line: clip([...view.lines].reverse().find((line) => line.trim() !== '') ?? ''),
    screen: view.contentHash,
    cols: view.pane.width,
    rows: view.pane.height,
    prompt,
  };
}

export function listPanes(
  snapshot: EngineSnapshot,
  now: number,
  access: { readonly write: boolean; readonly resize: boolean },
): PaneList {
  return {
    server: snapshot.server,
    status: snapshot.status,
    status_message: snapshot.statusMessage,
    write: access.write,
    resize: access.resize,
    counts: countStatuses(snapshot.panes, now),
    panes: [...snapshot.panes].sort(compareViews).map((view) => listPane(view, now)),
  };
}

/** The list without its clock-driven numbers: when this is unchanged, the page needs no update. */
export function listShape(list: PaneList): string {
  return JSON.stringify(list, (key, value: unknown) => (key === 'quiet_ms' ? undefined : value));
}
