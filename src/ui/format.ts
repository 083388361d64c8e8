// Pure text helpers for the dashboard: quiet timers, short paths, clipping to a width.

import stripAnsi from 'strip-ansi';
import { cellSafe, cellWidth, padCells, sliceCells } from '../engine/text/cells.js';

/**
 * The quiet timer: seconds under a minute, then whole minutes, hours and minutes, days and hours
 * (`8s`, `12m`, `2h03m`, `3d04h`). A timer past its first minute changes its text once a minute,
 * so an idle dashboard draws a frame only when a shown value really changes.
 */
export function formatQuiet(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${pad2(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${pad2(hours % 24)}h`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * `~/src/app` for paths under home; long paths keep their last parts: `…/deep/er/app`. Parts are
 * measured as drawn (controls shown visibly, wide glyphs two cells), so the last folder is the one
 * kept in view.
 */
export function shortCwd(cwd: string, home: string | null, maxWidth = 24): string {
  let path = cwd;
  if (home && home !== '/' && (path === home || path.startsWith(`${home}/`))) path = `~${path.slice(home.length)}`;
  path = cellSafe(path);
  if (cellWidth(path) <= maxWidth) return path;
  const parts = path.split('/');
  let tail = parts.pop() ?? '';
  while (parts.length > 0 && cellWidth(tail) + cellWidth(parts[parts.length - 1] ?? '') + 3 <= maxWidth) {
    tail = `${parts.pop()}/${tail}`;
  }
  return clip(`…/${tail}`, maxWidth);
}

/**
 * Cuts text to `width` terminal cells, marking the cut with `…`. The text is drawn as Text draws
 * it (controls shown visibly, cellSafe) and measured in cells, so what is returned never takes
 * more than `width` cells on the screen: Ink is never left to cut a line (its cut can leave a
 * wide glyph a cell past the edge).
 */
export function clip(raw: string, width: number): string {
  if (width <= 0) return '';
  const text = cellSafe(raw);
  if (cellWidth(text) <= width) return text;
  if (width === 1) return '…';
  return `${sliceCells(text, width - 1)}…`;
}

/** Pads or clips to exactly `width` cells. */
export function fit(text: string, width: number): string {
  return padCells(clip(text, width), width);
}

/** Screen lines for the preview: colour codes removed, tabs expanded, other controls shown visibly, clipped. */
export function previewLines(lines: readonly string[], width: number, height: number): string[] {
  if (height <= 0) return [];
  const cleaned = lines.map((line) => clip(stripAnsi(line).replace(/\t/g, '    ').trimEnd(), width));
  while (cleaned.length > 0 && cleaned[cleaned.length - 1] === '') cleaned.pop();
  return cleaned.slice(-height);
}
