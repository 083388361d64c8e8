// Where things go for a given terminal size. Pure: size and content in, sizes out.
// Wide terminals put the preview beside the list, medium ones below it, small ones hide it. Every
// row is used: rows the list does not need go to the preview and the other way round.
// Row columns drop by priority as the width shrinks: cwd first, then the name, then the reason.

export interface Layout {
  readonly preview: 'side' | 'below' | 'none';
  readonly listWidth: number;
  /** Lines for the list: its rows and host header lines together (the column names apart). */
  readonly listHeight: number;
  readonly previewWidth: number;
  readonly previewHeight: number;
  readonly columns: RowColumns;
  /** Whether there is room for a line of column names. */
  readonly columnHeader: boolean;
}

export interface RowColumns {
  readonly badge: number;
  /** Short badges say `STUCK` without the reason. */
  readonly shortBadge: boolean;
  readonly target: number;
  readonly label: number;
  readonly cwd: number;
  readonly timer: number;
}

/** Header, status line and footer. */
const CHROME_LINES = 3;
const SIDE_MIN_WIDTH = 120;
const MARKER = 2;
/** The preview's share of the rows when both it and the list could use more. */
const PREVIEW_SHARE = 0.4;

/**
 * How much there is to show: rows in the list, the host header lines between them (one per host
 * when corral watches several, else none), lines of the selected pane's screen.
 */
export interface LayoutContent {
  readonly rows: number;
  readonly groupLines?: number;
  readonly previewLines: number;
}

export function planLayout(
  width: number,
  height: number,
  targetWidth: number,
  headerLines = 1,
  content: LayoutContent = { rows: Number.POSITIVE_INFINITY, previewLines: Number.POSITIVE_INFINITY },
): Layout {
  // Ink redraws the whole screen when the output is as tall as the terminal: stay one line short.
  const usable = Math.max(1, height - 1 - CHROME_LINES - (headerLines - 1));
  let preview: Layout['preview'] = 'below';
  if (width >= SIDE_MIN_WIDTH && usable >= 6) preview = 'side';
  else if (usable < 12) preview = 'none';

  if (preview === 'side') {
    const listWidth = Math.min(100, Math.floor(width * 0.55));
    const columnHeader = usable >= 8;
    return {
      preview,
      listWidth,
      listHeight: usable - (columnHeader ? 1 : 0),
      previewWidth: width - listWidth - 3,
      previewHeight: usable - 1,
      columns: planColumns(listWidth, targetWidth),
      columnHeader,
    };
  }
  if (preview === 'none') {
    const columnHeader = usable >= 8;
    return {
      preview,
      listWidth: width,
      listHeight: usable - (columnHeader ? 1 : 0),
      previewWidth: width,
      previewHeight: 0,
      columns: planColumns(width, targetWidth),
      columnHeader,
    };
  }
  // Below: the list's rows, host lines (and its column names) over the preview's rule and lines.
  const columnHeader = usable >= 16;
  const listNeed = Math.max(1, content.rows + (content.groupLines ?? 0)) + (columnHeader ? 1 : 0);
  const previewNeed = 1 + Math.max(1, content.previewLines);
  const share = Math.max(3, Math.floor(usable * PREVIEW_SHARE));
  let previewRows: number;
  if (listNeed + previewNeed <= usable) previewRows = usable - listNeed;
  else if (previewNeed <= share) previewRows = previewNeed;
  else previewRows = Math.max(share, usable - listNeed);
  const listRows = usable - previewRows;
  return {
    preview,
    listWidth: width,
    listHeight: listRows - (columnHeader ? 1 : 0),
    previewWidth: width,
    previewHeight: previewRows - 1,
    columns: planColumns(width, targetWidth),
    columnHeader,
  };
}

export function planColumns(width: number, targetWidth: number): RowColumns {
  const timer = 6;
  const shortBadge = width < 56;
  const badge = shortBadge ? 7 : 16;
  const target = Math.max(5, Math.min(targetWidth, 20, width - MARKER - badge - timer - 3));
  const fixed = MARKER + badge + 1 + target + 1 + 1 + timer;
  const free = Math.max(0, width - fixed);
  const cwd = free >= 40 ? Math.min(28, Math.floor(free * 0.35)) : 0;
  const label = Math.max(0, free - (cwd > 0 ? cwd + 1 : 0));
  return { badge, shortBadge, target, label, cwd, timer };
}
