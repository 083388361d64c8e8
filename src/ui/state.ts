// The dashboard's own state (selection, order, filter, input mode, status line) as a plain reducer.
//
// Row order: rows keep their place while you move through them. The order is recomputed (most
// urgent first, see order.ts) when the set of stuck panes changes, or once nobody has pressed a key
// for RESORT_IDLE_MS. In between, new panes are appended at the bottom and closed ones dropped.
//
// Selection: until the first key press it rests on the top row, the most urgent pane. After that it
// follows its pane (by id), never the row number: a re-sort while you are at the keys moves the
// other rows around the selected one, which keeps its row. An answered pane stays selected, marked
// answered until its screen changes. A selection that moved by itself (its pane closed, a more
// urgent pane arrived before the first key) is noted, so that a key that targets the selection
// right after can be refused instead of landing on a pane the person had no time to see.

import type { HostHealth, PaneView } from '../engine/types.js';
import type { SendItem } from '../engine/typing/keys.js';
import { collapsedHostId, collapsedHostOf, groupByHost, isMultiHost, isWaiting, type ShownGroup } from './hosts.js';
import { keepOrder, sameOrder, sortPaneIds, stuckSetKey } from './order.js';
import type { StartDraft } from './start-draft.js';
import { editLine, lineAtEnd, type LineEdit } from './line-editor.js';

export const RESORT_IDLE_MS = 4_000;
/** A key that acts on the selection is refused this soon after the selection moved by itself. */
export const SETTLE_MS = 800;
/** A status message goes after this long (and on the next key). */
export const STATUS_MS = 6_000;

/**
 * `swallow`: a key that starts a sequence (a, r) was refused; the rest of the sequence is ignored.
 * `start`: the prompt for a command to start in a new window; `end`: the question before a pane is ended.
 */
export type Mode = 'normal' | 'answer' | 'reply' | 'confirm' | 'filter' | 'help' | 'swallow' | 'start' | 'end';

/** The pane a person asked to end, as they saw it: its key, its process and how it was named. */
export interface EndingPane {
  readonly key: string;
  readonly pid: number;
  /** `main:1.0 on build-box (claude · fix the tests)` */
  readonly label: string;
}

export interface PendingSend {
  readonly key: string;
  readonly items: readonly SendItem[];
  readonly label: string;
  /** `reply`: the question before a reply into a pane that is not at a prompt (`label` says why); y starts the reply on `hash`. */
  readonly then?: 'reply';
  readonly hash?: string;
}

export interface StatusMessage {
  readonly text: string;
  readonly tone: 'info' | 'warn' | 'error';
}

export interface UiState {
  /** Pane ids in display order (all panes; the filter applies on top). */
  readonly order: readonly string[];
  readonly stuckKey: string;
  readonly lastInputAt: number;
  readonly selectedId: string | null;
  /** Where the selection was, to land nearby when its pane closes. */
  readonly selectedIndex: number;
  readonly mode: Mode;
  readonly filter: string;
  /** Reply text being typed. */
  readonly draft: string;
  /** The cursor in the text field being typed (the reply, the filter or the start prompt's field), in code points. */
  readonly cursor: number;
  /** The pane a reply or confirmation is for (fixed when the mode starts). */
  readonly targetId: string | null;
  /**
   * The target's screen hash as drawn when the answer or reply began; the keys are sent only while
   * the pane still shows it. Null: take the screen drawn when the reply is sent (after a refusal).
   */
  readonly targetHash: string | null;
  readonly pending: PendingSend | null;
  readonly status: StatusMessage | null;
  /** The pane answered last and the screen it was answered on; cleared when that screen changes. */
  readonly answered: { readonly key: string; readonly hash: string } | null;
  /** When the selection last moved without a key (see SETTLE_MS). */
  readonly movedAt: number;
  /** The status message shown and when it was first seen by a sync (see STATUS_MS). */
  readonly statusSeen: { readonly status: StatusMessage; readonly at: number } | null;
  /** The start prompt while it is open (mode `start`). */
  readonly start: StartDraft | null;
  /** The pane the end question is about (mode `end`). */
  readonly ending: EndingPane | null;
  /** A pane just started from here: selected as soon as a snapshot lists it (unless the person moves first). */
  readonly awaiting: string | null;
  /** Hosts shown as one header line, their rows hidden (their waiting panes stay on top). */
  readonly collapsed: readonly string[];
  /** The last status message shown, kept after it goes: the help (`?`) shows it whole. */
  readonly lastStatus: StatusMessage | null;
}

export const initialUiState: UiState = {
  order: [],
  stuckKey: '',
  lastInputAt: Number.NEGATIVE_INFINITY,
  selectedId: null,
  selectedIndex: 0,
  mode: 'normal',
  filter: '',
  draft: '',
  cursor: 0,
  targetId: null,
  targetHash: null,
  pending: null,
  status: null,
  answered: null,
  movedAt: Number.NEGATIVE_INFINITY,
  statusSeen: null,
  start: null,
  ending: null,
  awaiting: null,
  collapsed: [],
  lastStatus: null,
};

export type UiAction =
  | { readonly type: 'sync'; readonly panes: readonly PaneView[]; readonly now: number }
  /** `visible`: ids of the rows on screen, in order (the filter applied). */
  | { readonly type: 'move'; readonly visible: readonly string[]; readonly delta: number; readonly now: number }
  | { readonly type: 'first' | 'last'; readonly visible: readonly string[]; readonly now: number }
  | {
      readonly type: 'next-stuck';
      readonly visible: readonly string[];
      readonly stuck: ReadonlySet<string>;
      readonly now: number;
    }
  | { readonly type: 'mode'; readonly mode: Mode; readonly now: number }
  | {
      readonly type: 'start-reply' | 'start-answer';
      readonly key: string;
      readonly hash: string;
      readonly now: number;
    }
  /** An answer or reply went out to the pane, typed on the screen with this hash. */
  | { readonly type: 'answered'; readonly key: string; readonly hash: string; readonly status: StatusMessage }
  /** Sending failed: the pane is not marked answered after all. */
  | { readonly type: 'unanswered'; readonly key: string }
  /** A reply was refused: keep the draft; the next Enter checks against the screen drawn then. */
  | { readonly type: 'reply-refused'; readonly key: string; readonly draft: string; readonly status: StatusMessage }
  /** The person was told where the selection moved: the next key may act on it. */
  | { readonly type: 'settled'; readonly now: number }
  | { readonly type: 'confirm'; readonly pending: PendingSend; readonly now: number }
  | { readonly type: 'edit'; readonly field: 'draft' | 'filter'; readonly edit: TextEdit; readonly now: number }
  | { readonly type: 'clear-filter'; readonly now: number }
  /** A key that starts a sequence was refused: say why, and ignore what follows of it. */
  | { readonly type: 'swallow'; readonly status: StatusMessage | null; readonly now: number }
  /** The person chose this pane (the one selected in the filter as they left it). */
  | { readonly type: 'choose'; readonly key: string; readonly now: number }
  | { readonly type: 'done'; readonly status: StatusMessage | null }
  /**
   * Opens the start prompt, or reopens it with what was typed after a refusal (`now` null: tmux
   * refused it later; then only from the plain list, so no other prompt's keys are taken).
   */
  | { readonly type: 'start-open'; readonly draft: StartDraft; readonly status: StatusMessage | null; readonly now: number | null }
  | { readonly type: 'start-edit'; readonly edit: TextEdit; readonly now: number }
  /** Tab in the start prompt: the other field takes the keys. */
  | { readonly type: 'start-field'; readonly now: number }
  | { readonly type: 'end-ask'; readonly ending: EndingPane; readonly now: number }
  /** Select this pane once it is listed. */
  | { readonly type: 'await-pane'; readonly key: string }
  /** Collapses (or expands) these hosts; `select`: the line to select after (a pane or a host's header). */
  | {
      readonly type: 'collapse';
      readonly hosts: readonly string[];
      readonly collapsed: boolean;
      readonly select: string | null;
      readonly now: number;
    }
  | { readonly type: 'status'; readonly status: StatusMessage | null };

export type TextEdit = LineEdit;

/** An edit made at the end of `value` (the cursor where typing leaves it). */
export function applyEdit(value: string, edit: TextEdit): string {
  return editLine(lineAtEnd(value), edit).text;
}

/** Applies an edit to a field's text at the state's cursor. */
function editField(state: UiState, text: string, edit: TextEdit): { text: string; cursor: number } {
  return editLine({ text, cursor: state.cursor }, edit);
}

const cursorAtEnd = (text: string): number => lineAtEnd(text).cursor;

function select(state: UiState, visible: readonly string[], index: number, now: number): UiState {
  if (visible.length === 0) return { ...state, lastInputAt: now };
  const clamped = Math.max(0, Math.min(visible.length - 1, index));
  const selectedId = visible[clamped] ?? null;
  const inOrder = selectedId === null ? -1 : state.order.indexOf(selectedId);
  return { ...state, selectedId, selectedIndex: inOrder === -1 ? clamped : inOrder, lastInputAt: now, awaiting: null };
}

function currentIndex(state: UiState, visible: readonly string[]): number {
  const i = state.selectedId === null ? -1 : visible.indexOf(state.selectedId);
  return i === -1 ? Math.min(state.selectedIndex, visible.length - 1) : i;
}

/** Leaves whatever the person was doing (an answer, a reply, a confirmation) for the plain list. */
function backToList(state: UiState, status: StatusMessage | null): UiState {
  return { ...state, mode: 'normal', draft: '', targetId: null, targetHash: null, pending: null, status, start: null, ending: null };
}

type ActionOf<T extends UiAction['type']> = Extract<UiAction, { readonly type: T }>;
type SelectionAction = ActionOf<'move' | 'first' | 'last' | 'next-stuck' | 'choose'>;
type ModeAction = ActionOf<'mode' | 'start-reply' | 'start-answer' | 'confirm' | 'clear-filter' | 'done' | 'swallow'>;
type AnswerAction = ActionOf<'answered' | 'unanswered' | 'reply-refused' | 'settled'>;

export function uiReducer(state: UiState, action: UiAction): UiState {
  const next = reduce(state, action);
  // Every message shown is kept as the last one, for `?` to show whole.
  return next.status !== null && next.status !== state.status && next.status !== next.lastStatus ? { ...next, lastStatus: next.status } : next;
}

function reduce(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'sync':
      return sync(state, action.panes, action.now);
    case 'move':
    case 'first':
    case 'last':
    case 'next-stuck':
    case 'choose':
      return moveSelection(state, action);
    case 'mode':
    case 'start-reply':
    case 'start-answer':
    case 'confirm':
    case 'clear-filter':
    case 'done':
    case 'swallow':
      return changeMode(state, action);
    case 'answered':
    case 'unanswered':
    case 'reply-refused':
    case 'settled':
      return noteAnswer(state, action);
    case 'edit': {
      const { text, cursor } = editField(state, state[action.field], action.edit);
      return { ...state, [action.field]: text, cursor, lastInputAt: action.now };
    }
    case 'status':
      return state.status === action.status ? state : { ...state, status: action.status };
    case 'start-open':
    case 'start-edit':
    case 'start-field':
    case 'end-ask':
    case 'await-pane':
      return startOrEnd(state, action);
    case 'collapse':
      return collapse(state, action.hosts, action.collapsed, action.select, action.now);
  }
}

/** The person's own moves: up, down, first, last, the next stuck pane, the pane chosen in the filter. */
function moveSelection(state: UiState, action: SelectionAction): UiState {
  switch (action.type) {
    case 'move': {
      const at = currentIndex(state, action.visible);
      return select(state, action.visible, at === -1 ? 0 : at + action.delta, action.now);
    }
    case 'first':
      return select(state, action.visible, 0, action.now);
    case 'last':
      return select(state, action.visible, action.visible.length - 1, action.now);
    case 'next-stuck': {
      const at = currentIndex(state, action.visible);
      const n = action.visible.length;
      for (let step = 1; step <= n; step++) {
        const index = (((at + step) % n) + n) % n;
        if (action.stuck.has(action.visible[index] as string)) return select(state, action.visible, index, action.now);
      }
      return { ...state, lastInputAt: action.now, status: { text: 'no stuck pane', tone: 'info' } };
    }
    case 'choose': {
      const index = state.order.indexOf(action.key);
      if (index === -1) return state;
      return { ...state, selectedId: action.key, selectedIndex: index, lastInputAt: action.now, awaiting: null };
    }
  }
}

/** Entering and leaving the input modes: help, filter, a reply, an answer key, a confirmation. */
function changeMode(state: UiState, action: ModeAction): UiState {
  switch (action.type) {
    case 'mode':
      return {
        ...state,
        mode: action.mode,
        lastInputAt: action.now,
        ...(action.mode === 'filter' ? { status: null, cursor: cursorAtEnd(state.filter) } : {}),
      };
    case 'start-reply':
      return { ...state, mode: 'reply', draft: '', cursor: 0, targetId: action.key, targetHash: action.hash, status: null, lastInputAt: action.now };
    case 'start-answer':
      return { ...state, mode: 'answer', targetId: action.key, targetHash: action.hash, status: null, lastInputAt: action.now };
    case 'confirm':
      return { ...state, mode: 'confirm', pending: action.pending, targetId: action.pending.key, lastInputAt: action.now };
    case 'clear-filter':
      return { ...state, filter: '', mode: 'normal', lastInputAt: action.now };
    case 'done':
      return backToList(state, action.status);
    case 'swallow':
      return { ...backToList(state, action.status), mode: 'swallow', lastInputAt: action.now };
  }
}

/** What came of typing into a pane: the answered mark, a refused reply kept for another try. */
function noteAnswer(state: UiState, action: AnswerAction): UiState {
  switch (action.type) {
    case 'answered':
      return { ...backToList(state, action.status), answered: { key: action.key, hash: action.hash } };
    case 'unanswered':
      return state.answered?.key === action.key ? { ...state, answered: null } : state;
    case 'reply-refused':
      return { ...state, mode: 'reply', draft: action.draft, cursor: cursorAtEnd(action.draft), targetId: action.key, targetHash: null, status: action.status };
    case 'settled':
      return { ...state, movedAt: Number.NEGATIVE_INFINITY, lastInputAt: action.now };
  }
}

type StartOrEndAction = Extract<UiAction, { type: 'start-open' | 'start-edit' | 'start-field' | 'end-ask' | 'await-pane' }>;

/** The start prompt and the end question. */
function startOrEnd(state: UiState, action: StartOrEndAction): UiState {
  switch (action.type) {
    case 'start-open':
      if (action.now === null && state.mode !== 'normal' && state.mode !== 'start') return { ...state, status: action.status };
      return { ...backToList(state, action.status), mode: 'start', start: action.draft, cursor: cursorAtEnd(action.draft[action.draft.field]), lastInputAt: action.now ?? state.lastInputAt };
    case 'start-edit': {
      if (state.start === null) return state;
      const field = state.start.field;
      const { text, cursor } = editField(state, state.start[field], action.edit);
      return { ...state, start: { ...state.start, [field]: text }, cursor, lastInputAt: action.now };
    }
    case 'start-field':
      if (state.start === null) return state;
      {
        const field = state.start.field === 'command' ? 'branch' : 'command';
        return { ...state, start: { ...state.start, field }, cursor: cursorAtEnd(state.start[field]), lastInputAt: action.now };
      }
    case 'end-ask':
      return { ...backToList(state, null), mode: 'end', ending: action.ending, targetId: action.ending.key, lastInputAt: action.now };
    case 'await-pane':
      // A filter the new pane may not pass would hide it, and the selection with it: it goes
      // (unless the person is typing it right now).
      return { ...state, awaiting: action.key, ...(state.mode === 'filter' ? {} : { filter: '' }) };
  }
}

/** Selects the pane started from here once the order lists it. */
function selectAwaited(state: UiState): UiState {
  if (state.awaiting === null) return state;
  const index = state.order.indexOf(state.awaiting);
  if (index === -1) return state;
  return { ...state, selectedId: state.awaiting, selectedIndex: index, awaiting: null };
}

/** Collapses or expands hosts, then selects `select` (a pane or a host's header line) when given. */
function collapse(state: UiState, hosts: readonly string[], collapsed: boolean, select: string | null, now: number): UiState {
  const set = new Set(state.collapsed);
  for (const host of hosts) {
    if (collapsed) set.add(host);
    else set.delete(host);
  }
  const next = { ...state, collapsed: [...set].sort(), lastInputAt: now };
  if (select === null) return next;
  const index = state.order.indexOf(select);
  return { ...next, selectedId: select, selectedIndex: index === -1 ? state.selectedIndex : index };
}

/** The selection rests on the header line of a host that is still collapsed. */
function onCollapsedHost(state: UiState, id: string): boolean {
  const host = collapsedHostOf(id);
  return host !== null && state.collapsed.includes(host);
}

/** Takes in a new snapshot (or a timer tick): the order, the selection, the status message's age. */
function sync(state: UiState, panes: readonly PaneView[], now: number): UiState {
  return expireStatus(selectAwaited(syncPanes(state, panes, now)), now);
}

/** A status message in the plain list goes STATUS_MS after it was first shown. */
function expireStatus(state: UiState, now: number): UiState {
  const { status, statusSeen } = state;
  if (status === null) return statusSeen === null ? state : { ...state, statusSeen: null };
  if (statusSeen?.status !== status) return { ...state, statusSeen: { status, at: now } };
  if (state.mode !== 'normal' || now - statusSeen.at < STATUS_MS) return state;
  return { ...state, status: null, statusSeen: null };
}

function syncPanes(state: UiState, panes: readonly PaneView[], now: number): UiState {
  const stuckKey = stuckSetKey(panes);
  const keyed = state.lastInputAt !== Number.NEGATIVE_INFINITY;
  const atKeys = keyed && now - state.lastInputAt < RESORT_IDLE_MS;
  const resort = stuckKey !== state.stuckKey || !atKeys || state.order.length === 0;
  let computed = resort ? sortPaneIds(panes) : keepOrder(state.order, panes);
  // While someone is at the keys, a re-sort leaves the selected pane on its row.
  if (resort && atKeys && state.selectedId !== null && computed.includes(state.selectedId)) {
    computed = pinAt(computed, state.selectedId, state.selectedIndex);
  }
  const order = sameOrder(computed, state.order) ? state.order : computed;

  let { selectedId, selectedIndex, movedAt } = state;
  if (!keyed) {
    // Before the first key the selection rests on the most urgent pane.
    selectedIndex = 0;
    selectedId = order[0] ?? null;
  } else if (selectedId === null || (!order.includes(selectedId) && !onCollapsedHost(state, selectedId))) {
    selectedIndex = Math.max(0, Math.min(selectedIndex, order.length - 1));
    selectedId = order[selectedIndex] ?? null;
  } else if (order.includes(selectedId)) {
    selectedIndex = order.indexOf(selectedId);
  }
  if (selectedId !== state.selectedId && state.selectedId !== null) movedAt = now;

  const byId = state.answered === null ? null : panes.find((v) => v.key === state.answered?.key);
  const answered = byId && byId.contentHash === state.answered?.hash ? state.answered : null;

  if (
    order === state.order &&
    stuckKey === state.stuckKey &&
    selectedId === state.selectedId &&
    selectedIndex === state.selectedIndex &&
    answered === state.answered
  ) {
    return state;
  }
  return { ...state, order, stuckKey, selectedId, selectedIndex, movedAt, answered };
}

/** Moves `id` to `index` (clamped), keeping the others in their order. */
function pinAt(order: readonly string[], id: string, index: number): string[] {
  const rest = order.filter((x) => x !== id);
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}

/**
 * The reducer behind a tiny synchronous store: key handlers read the state that results from the
 * previous key even when several keys arrive before React renders again.
 */
export interface UiStore {
  getState(): UiState;
  dispatch(action: UiAction): void;
  subscribe(listener: () => void): () => void;
}

export function createUiStore(initial: UiState = initialUiState): UiStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = uiReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface VisibleRows {
  readonly byId: ReadonlyMap<string, PaneView>;
  /**
   * The selectable lines that pass the filter, in display order: pane keys, and the header of a
   * collapsed host (collapsedHostId) in place of its rows.
   */
  readonly visibleIds: readonly string[];
  readonly selectedId: string | null;
  /** The rows by host, in display order; null when corral watches only this machine (no grouping). */
  readonly groups: readonly ShownGroup[] | null;
  /** Several hosts: the waiting panes of every host, listed on top (and not again under their host). */
  readonly waiting: readonly string[];
}

/** What is on screen for a UI state and a list of panes (shared by rendering and key handling). */
export function visibleRows(
  state: UiState,
  panes: readonly PaneView[],
  matches: (view: PaneView, filter: string) => boolean,
  hosts: readonly HostHealth[] = [],
): VisibleRows {
  const byId = new Map(panes.map((v) => [v.key, v]));
  // Panes newer than the order (a snapshot the reducer has not taken in yet) are listed too.
  const order = keepOrder(state.order, panes);
  const matching = order.filter((id) => {
    const view = byId.get(id);
    return view !== undefined && matches(view, state.filter);
  });
  if (!isMultiHost(hosts, panes)) {
    return { byId, visibleIds: matching, selectedId: pickSelected(state.selectedId, matching), groups: null, waiting: [] };
  }
  // Several hosts: the waiting panes of all of them first, then each host's other rows together.
  const waiting = matching.filter((id) => isWaiting(byId.get(id) as PaneView));
  const rest = waiting.length === 0 ? matching : matching.filter((id) => !isWaiting(byId.get(id) as PaneView));
  const groups = groupByHost(rest, byId, hosts, state.filter.trim() === '').map((group): ShownGroup => {
    const own = matching.filter((id) => byId.get(id)?.host === group.host);
    return {
      ...group,
      collapsed: state.collapsed.includes(group.host),
      panes: own.length,
      waiting: own.length - group.keys.length,
      offline: own.filter((id) => !byId.get(id)?.online).length,
    };
  });
  const visibleIds = [...waiting, ...groups.flatMap((g) => (g.collapsed ? [collapsedHostId(g.host)] : g.keys))];
  return { byId, visibleIds, selectedId: pickSelected(state.selectedId, visibleIds), groups, waiting };
}

function pickSelected(selectedId: string | null, visibleIds: readonly string[]): string | null {
  return selectedId !== null && visibleIds.includes(selectedId) ? selectedId : (visibleIds[0] ?? null);
}
