// The dashboard's own state (selection, order, filter, input mode, status line) as a plain reducer.
//
// Row order: rows keep their place while you move through them. The order is recomputed (stuck
// first, then by quiet time) only when the set of stuck panes changes, or once nobody has pressed a
// key for RESORT_IDLE_MS. In between, new panes are appended at the bottom and closed ones dropped.
// The selection follows the pane (by id), not the row number; except that when the selected stuck
// pane gets answered, the cursor stays on its row (where the next stuck pane now is).

import type { PaneView } from '../engine/types.js';
import type { SendItem } from '../engine/tmux/keys.js';
import { keepOrder, sameOrder, sortPaneIds, stuckSetKey } from './order.js';

export const RESORT_IDLE_MS = 4_000;

export type Mode = 'normal' | 'answer' | 'reply' | 'confirm' | 'filter' | 'help';

export interface PendingSend {
  readonly paneId: string;
  readonly items: readonly SendItem[];
  readonly label: string;
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
  /** The pane a reply or confirmation is for (fixed when the mode starts). */
  readonly targetId: string | null;
  readonly pending: PendingSend | null;
  readonly status: StatusMessage | null;
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
  targetId: null,
  pending: null,
  status: null,
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
  | { readonly type: 'start-reply' | 'start-answer'; readonly paneId: string; readonly now: number }
  | { readonly type: 'confirm'; readonly pending: PendingSend; readonly now: number }
  | { readonly type: 'edit'; readonly field: 'draft' | 'filter'; readonly edit: TextEdit; readonly now: number }
  | { readonly type: 'clear-filter'; readonly now: number }
  | { readonly type: 'done'; readonly status: StatusMessage | null }
  | { readonly type: 'status'; readonly status: StatusMessage | null };

export type TextEdit =
  { readonly kind: 'insert'; readonly text: string } | { readonly kind: 'backspace' } | { readonly kind: 'clear' };

export function applyEdit(value: string, edit: TextEdit): string {
  switch (edit.kind) {
    case 'insert':
      // Pasted text may carry newlines; a reply is one line.
      return value + edit.text.replace(/[\r\n]+/g, ' ');
    case 'backspace':
      return [...value].slice(0, -1).join('');
    case 'clear':
      return '';
  }
}

function select(state: UiState, visible: readonly string[], index: number, now: number): UiState {
  if (visible.length === 0) return { ...state, lastInputAt: now };
  const clamped = Math.max(0, Math.min(visible.length - 1, index));
  return { ...state, selectedId: visible[clamped] ?? null, selectedIndex: clamped, lastInputAt: now };
}

function currentIndex(state: UiState, visible: readonly string[]): number {
  const i = state.selectedId === null ? -1 : visible.indexOf(state.selectedId);
  return i === -1 ? Math.min(state.selectedIndex, visible.length - 1) : i;
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'sync':
      return sync(state, action.panes, action.now);
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
    case 'mode':
      return {
        ...state,
        mode: action.mode,
        lastInputAt: action.now,
        ...(action.mode === 'filter' ? { status: null } : {}),
      };
    case 'start-reply':
      return { ...state, mode: 'reply', draft: '', targetId: action.paneId, status: null, lastInputAt: action.now };
    case 'start-answer':
      return { ...state, mode: 'answer', targetId: action.paneId, status: null, lastInputAt: action.now };
    case 'confirm':
      return {
        ...state,
        mode: 'confirm',
        pending: action.pending,
        targetId: action.pending.paneId,
        lastInputAt: action.now,
      };
    case 'edit': {
      const next = applyEdit(state[action.field], action.edit);
      return { ...state, [action.field]: next, lastInputAt: action.now };
    }
    case 'clear-filter':
      return { ...state, filter: '', mode: 'normal', lastInputAt: action.now };
    case 'done':
      return { ...state, mode: 'normal', draft: '', targetId: null, pending: null, status: action.status };
    case 'status':
      return state.status === action.status ? state : { ...state, status: action.status };
  }
}

/** Takes in a new snapshot (or a timer tick): updates the order and keeps the selection valid. */
function sync(state: UiState, panes: readonly PaneView[], now: number): UiState {
  const stuckKey = stuckSetKey(panes);
  const resort = stuckKey !== state.stuckKey || now - state.lastInputAt >= RESORT_IDLE_MS || state.order.length === 0;
  const computed = resort ? sortPaneIds(panes) : keepOrder(state.order, panes);
  const order = sameOrder(computed, state.order) ? state.order : computed;
  let { selectedId, selectedIndex } = state;
  // A selected stuck pane that was just answered leaves the stuck group: keep the cursor on the
  // same row, where the next stuck pane now is, instead of following the answered one down.
  const answered =
    selectedId !== null &&
    resort &&
    state.stuckKey.split(' ').includes(selectedId) &&
    !stuckKey.split(' ').includes(selectedId);
  if (selectedId === null || !order.includes(selectedId) || answered) {
    selectedIndex = Math.max(0, Math.min(selectedIndex, order.length - 1));
    selectedId = order[selectedIndex] ?? null;
  } else {
    selectedIndex = order.indexOf(selectedId);
  }
  if (
    order === state.order &&
    stuckKey === state.stuckKey &&
    selectedId === state.selectedId &&
    selectedIndex === state.selectedIndex
  ) {
    return state;
  }
  return { ...state, order, stuckKey, selectedId, selectedIndex };
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
  /** Ids of the rows that pass the filter, in display order. */
  readonly visibleIds: readonly string[];
  readonly selectedId: string | null;
}

/** What is on screen for a UI state and a list of panes (shared by rendering and key handling). */
export function visibleRows(
  state: UiState,
  panes: readonly PaneView[],
  matches: (view: PaneView, filter: string) => boolean,
): VisibleRows {
  const byId = new Map(panes.map((v) => [v.pane.paneId, v]));
  const visibleIds = state.order.filter((id) => {
    const view = byId.get(id);
    return view !== undefined && matches(view, state.filter);
  });
  const selectedId =
    state.selectedId !== null && visibleIds.includes(state.selectedId) ? state.selectedId : (visibleIds[0] ?? null);
  return { byId, visibleIds, selectedId };
}
