// Finds what a pane printed since a baseline capture, one capture at a time. Pure: lines in,
// lines out. Captures include history (capture-pane -J -S -N), so the same text moves up as the
// pane scrolls, drops off the top when history is trimmed, and vanishes on clear; full-screen
// programs redraw in place. The differ copes with all of these:
//
// - The region of new output starts after an anchor: the last block of baseline lines (before
//   the baseline's cursor line, which typing changes) still found in the capture at the same
//   place or higher.
// - The region ends before the "chrome": the baseline's cursor line and what is below it (a
//   shell prompt, an agent's input box and status bar), when the capture ends the same way.
// - A line is committed once the cursor has left it (it is above the cursor line): the cursor
//   line can still be rewritten (`\r` progress bars, spinners). Committed lines are emitted once,
//   in order; later captures are aligned with what was already committed.

import { sanitizeLine } from './sanitize.js';

/** One capture of a pane: lines (history first) and the row of the cursor in them. */
export interface Capture {
  readonly lines: readonly string[];
  /** Index into `lines` of the cursor's line. */
  readonly cursorRow: number;
}

export interface DiffState {
  readonly baseline: readonly string[];
  /** Baseline lines from the chrome's first line to the end. */
  readonly chrome: readonly string[];
  /** Raw region lines committed so far (before any filtering). */
  readonly committed: readonly string[];
  /** The previous region including open lines, to tell whether anything moved. */
  readonly previousRegion: readonly string[];
  /** Whether the baseline anchor was found in the last capture. */
  readonly anchored: boolean;
  /** Where it was found (baseline block end, capture start), to look there first next time. */
  readonly hint: AnchorHint | null;
}

export interface AnchorHint {
  readonly end: number;
  readonly start: number;
}

export interface DiffStep {
  readonly state: DiffState;
  /** Lines committed by this capture, in order. */
  readonly added: readonly string[];
  /** Lines of the region the cursor has not left yet (may still change). */
  readonly open: readonly string[];
  /** Whether the region differs from the previous capture's. */
  readonly changed: boolean;
  /** Lines from the start of the new output to the end of the capture (null: no anchor). */
  readonly rowsFromAnchor: number | null;
}

const ANCHOR_LINES = 6;
const ANCHOR_SEARCH_DEPTH = 400;
const CANDIDATES_PER_BLOCK = 64;
const OVERLAP_LINES = 24;

/** Normalises raw capture text into lines: sanitized, trailing spaces and blank lines removed. */
export function captureLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map(sanitizeLine);
}

function trimBlankTail(lines: readonly string[], keep: number): number {
  let end = lines.length;
  while (end > keep && (lines[end - 1] ?? '') === '') end -= 1;
  return end;
}

const BOX_ONLY = /^[\s─━═╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝│┃║-]*$/;

export function createDiffState(baseline: Capture): DiffState {
  const lines = baseline.lines.slice(0, trimBlankTail(baseline.lines, Math.min(baseline.cursorRow + 1, baseline.lines.length)));
  let chromeStart = Math.min(Math.max(0, baseline.cursorRow), lines.length);
  // An input box drawn around the cursor line: its top border belongs to the chrome too.
  while (chromeStart > 0 && chromeStart > baseline.cursorRow - 3 && BOX_ONLY.test(lines[chromeStart - 1] ?? '') && (lines[chromeStart - 1] ?? '') !== '') {
    chromeStart -= 1;
  }
  return {
    baseline: lines,
    chrome: lines.slice(chromeStart),
    committed: [],
    previousRegion: [],
    anchored: true,
    hint: null,
  };
}

const MAX_SCROLL_PER_POLL = 400;

/** The block found last time, at the same place or scrolled up a little: the common case, cheap. */
function anchorNearHint(baseline: readonly string[], lines: readonly string[], hint: AnchorHint): number | null {
  const size = Math.min(ANCHOR_LINES, hint.end);
  const from = hint.end - size;
  for (let start = hint.start; start >= size && start >= hint.start - MAX_SCROLL_PER_POLL; start--) {
    const p = start - size;
    let same = true;
    for (let k = 0; k < size; k++) {
      if (lines[p + k] !== baseline[from + k]) {
        same = false;
        break;
      }
    }
    if (same) return start;
  }
  return null;
}

/** Where the new output starts in `lines`, or null when no baseline anchor is left. */
export function locateAnchor(baseline: readonly string[], chromeLength: number, lines: readonly string[]): number | null {
  return findAnchor(baseline, chromeLength, lines)?.start ?? null;
}

function findAnchor(baseline: readonly string[], chromeLength: number, lines: readonly string[]): AnchorHint | null {
  const positions = new Map<string, number[]>();
  lines.forEach((line, index) => {
    if (line === '') return;
    const list = positions.get(line);
    if (list) list.push(index);
    else positions.set(line, [index]);
  });
  const top = baseline.length - chromeLength;
  const lowest = Math.max(1, top - ANCHOR_SEARCH_DEPTH);
  // The block ending right before the chrome first; then earlier blocks (after a clear or a
  // history trim the later ones are gone).
  for (let end = top; end >= lowest; end--) {
    const size = Math.min(ANCHOR_LINES, end);
    const from = end - size;
    let offset = -1;
    for (let i = from; i < end; i++) {
      if ((baseline[i] ?? '') !== '') {
        offset = i - from;
        break;
      }
    }
    if (offset === -1) continue;
    const candidates = positions.get(baseline[from + offset] as string) ?? [];
    let checked = 0;
    for (let c = candidates.length - 1; c >= 0 && checked < CANDIDATES_PER_BLOCK; c--) {
      const p = (candidates[c] as number) - offset;
      if (p < 0 || p > from || p + size > lines.length) continue;
      checked += 1;
      let same = true;
      for (let k = 0; k < size; k++) {
        if (lines[p + k] !== baseline[from + k]) {
          same = false;
          break;
        }
      }
      if (same) return { end, start: p + size };
    }
  }
  // The block right before the chrome, partly gone off the top (history trimmed or the capture
  // window slid): its remaining lines open the capture.
  const size = Math.min(ANCHOR_LINES, top);
  for (let clip = 1; clip < size; clip++) {
    const kept = size - clip;
    let same = lines.length >= kept;
    let nonBlank = false;
    for (let k = 0; same && k < kept; k++) {
      const want = baseline[top - kept + k] ?? '';
      if (lines[k] !== want) same = false;
      if (want !== '') nonBlank = true;
    }
    if (same && nonBlank) return { end: top, start: kept };
  }
  return top === 0 ? { end: 0, start: 0 } : null;
}

/** Length of the chrome found at the end of `lines` (never reaching above `floor`). */
function chromeAtEnd(chrome: readonly string[], lines: readonly string[], end: number, floor: number): number {
  const n = chrome.length;
  if (n === 0 || end - n < floor) return 0;
  for (let k = 0; k < n; k++) if (lines[end - n + k] !== chrome[k]) return 0;
  return n;
}

/** The committable lines not committed before, given the lines committed so far. */
function newLines(committed: readonly string[], region: readonly string[]): string[] {
  let lcp = 0;
  while (lcp < committed.length && lcp < region.length && committed[lcp] === region[lcp]) lcp += 1;
  if (lcp === committed.length) return region.slice(lcp);
  const seen = new Set(committed.filter((line) => line !== ''));
  const unseen = (lines: readonly string[]) => lines.filter((line) => line === '' || !seen.has(line));
  // The region moved or was redrawn: look for the last committed lines in it. Lines between the
  // common start and that spot that were never committed were inserted (a reply written above
  // a status line) and are new too.
  for (let size = Math.min(OVERLAP_LINES, committed.length); size >= 1; size--) {
    const tail = committed.slice(committed.length - size);
    if (size === 1 && (tail[0] ?? '') === '') break;
    for (let p = region.length - size; p >= lcp; p--) {
      let same = true;
      for (let k = 0; k < size; k++) {
        if (region[p + k] !== tail[k]) {
          same = false;
          break;
        }
      }
      if (same) return [...unseen(region.slice(lcp, p)).filter((line) => line !== ''), ...region.slice(p + size)];
    }
  }
  // No overlap. When most committed lines are still there, lines were rewritten in place (a
  // status line replaced by text, a list updated): what differs from the common start is new,
  // unless it was committed already. Otherwise the screen was cleared or redrawn with other
  // content: the whole region is new.
  const present = new Set(region);
  const kept = committed.filter((line) => present.has(line)).length;
  return kept * 2 >= committed.length ? unseen(region.slice(lcp)) : [...region];
}

export function diffCapture(state: DiffState, capture: Capture): DiffStep {
  const lines = capture.lines;
  let hint: AnchorHint | null = null;
  if (state.hint && state.hint.end > 0) {
    const near = anchorNearHint(state.baseline, lines, state.hint);
    if (near !== null) hint = { end: state.hint.end, start: near };
  }
  hint ??= findAnchor(state.baseline, state.chrome.length, lines);
  const anchored = hint !== null;
  const start = hint?.start ?? 0;
  const cursorRow = Math.max(start, Math.min(capture.cursorRow, lines.length));
  let end = trimBlankTail(lines, start);
  end -= chromeAtEnd(state.chrome, lines, end, start);
  const region = lines.slice(start, end);
  const committable = region.slice(0, Math.max(0, Math.min(region.length, cursorRow - start)));
  const open = region.slice(committable.length);

  const added = newLines(state.committed, committable);
  const changed = !sameLines(region, state.previousRegion);
  return {
    state: {
      ...state,
      // Everything the cursor has left is committed now: emitted, or seen before in another form.
      committed: sameLines(committable, state.committed) ? state.committed : committable,
      previousRegion: region,
      anchored,
      hint,
    },
    added,
    open,
    changed,
    rowsFromAnchor: hint === null ? null : lines.length - start,
  };
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
