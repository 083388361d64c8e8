// What the dashboard shows of one pane besides its status (see engine/pane/pane-status.ts): its name,
// and whether it matches the filter. Pure functions.

import { LOCAL_HOST, type PaneView } from '../engine/types.js';
export { paneLabel } from '../engine/pane/pane-name.js';

/**
 * A filter as typed, split into its `host:NAME` terms (any of them keeps a pane of that host; `*`
 * stands for any run of characters: `host:box-*`) and the rest, the text the other fields must hold.
 */
export interface ParsedFilter {
  readonly hosts: readonly RegExp[];
  readonly text: string;
}

const HOST_TERM = /^host:(.*)$/i;

function hostPattern(name: string): RegExp {
  const escaped = name.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`, 'i');
}

export function parseFilter(filter: string): ParsedFilter {
  const hosts: RegExp[] = [];
  const words: string[] = [];
  for (const word of filter.trim().split(/\s+/)) {
    const term = HOST_TERM.exec(word);
    // `host:` alone (a name not typed yet) keeps every host.
    if (term) {
      if (term[1]) hosts.push(hostPattern(term[1]));
    } else if (word !== '') words.push(word);
  }
  return { hosts, text: words.join(' ').toLowerCase() };
}

// The filter is the same for every pane of one listing: parse it once.
let lastFilter: { readonly filter: string; readonly parsed: ParsedFilter } | null = null;

/**
 * Does the pane match the filter text (window name, title, command, cwd, session, target, label,
 * host), and, when the filter names hosts (`host:NAME`), is it on one of them?
 */
export function matchesFilter(view: PaneView, filter: string): boolean {
  if (filter.trim() === '') return true;
  if (lastFilter?.filter !== filter) lastFilter = { filter, parsed: parseFilter(filter) };
  const { hosts, text } = lastFilter.parsed;
  if (hosts.length > 0 && !hosts.some((pattern) => pattern.test(view.host))) return false;
  if (text === '') return true;
  const { title, command, cwd, sessionName, windowName } = view.pane;
  // The host counts only where there are several (every pane here is `local`).
  const host = view.host === LOCAL_HOST ? '' : view.host;
  return [windowName, title, command, cwd, sessionName, view.target, view.label ?? '', host].some((field) =>
    field.toLowerCase().includes(text),
  );
}
