import { describe, expect, it } from 'vitest';
import { RESORT_IDLE_MS, applyEdit, initialUiState, uiReducer, type UiState } from '../../src/ui/state.js';
import { paneView, restate } from '../helpers/fake-engine.js';

const ids = (...views: { pane: { paneId: string } }[]) => views.map((v) => v.pane.paneId);

describe('uiReducer sync', () => {
  const a = paneView({ quietSince: 1_000 });
  const b = paneView({ quietSince: 2_000 });
  const c = paneView({ quietSince: 3_000 });

  it('sorts on the first snapshot and selects the first row', () => {
    const state = uiReducer(initialUiState, { type: 'sync', panes: [c, a, b], now: 10_000 });
    expect(state.order).toEqual(ids(a, b, c));
    expect(state.selectedId).toBe(a.pane.paneId);
  });

  it('keeps the order while the user is moving, then re-sorts once idle', () => {
    let state = uiReducer(initialUiState, { type: 'sync', panes: [a, b, c], now: 10_000 });
    state = uiReducer(state, { type: 'move', visible: state.order, delta: 1, now: 10_000 });
    expect(state.selectedId).toBe(b.pane.paneId);
    // a prints something: it is now the least quiet, but the rows stay put while the user is busy.
    const aActive = { ...a, quietSince: 10_500 };
    state = uiReducer(state, { type: 'sync', panes: [aActive, b, c], now: 11_000 });
    expect(state.order).toEqual(ids(a, b, c));
    state = uiReducer(state, { type: 'sync', panes: [aActive, b, c], now: 10_000 + RESORT_IDLE_MS });
    expect(state.order).toEqual(ids(b, c, a));
    expect(state.selectedId).toBe(b.pane.paneId);
  });

  it('starts on the most urgent pane: the selection rests on the top row until the first key', () => {
    // The first look lists the panes before their screens are known: nothing is stuck yet.
    let state = uiReducer(initialUiState, { type: 'sync', panes: [a, b, c], now: 10_000 });
    expect(state.selectedId).toBe(a.pane.paneId);
    const cPermission = restate(c, { state: 'stuck' as const, reason: 'permission' as const, stuckSince: 10_100 });
    state = uiReducer(state, { type: 'sync', panes: [a, b, cPermission], now: 10_200 });
    expect(state.order).toEqual(ids(c, a, b));
    expect(state.selectedId).toBe(c.pane.paneId);
    // It moved by itself: a key on the selection right now is refused (see App).
    expect(state.movedAt).toBe(10_200);
  });

  it('after a key, a re-sort leaves the selected pane on its row and the selection on its pane', () => {
    let state = uiReducer(initialUiState, { type: 'sync', panes: [a, b, c], now: 10_000 });
    state = uiReducer(state, { type: 'move', visible: state.order, delta: 1, now: 10_000 });
    expect(state.selectedId).toBe(b.pane.paneId);
    const cStuck = restate(c, { state: 'stuck' as const, reason: 'stopped' as const, stuckSince: 10_100 });
    state = uiReducer(state, { type: 'sync', panes: [a, b, cStuck], now: 10_200 });
    // c is most urgent and goes to the top; b keeps row 1 under the cursor.
    expect(state.order).toEqual(ids(c, b, a));
    expect(state.selectedId).toBe(b.pane.paneId);
    expect(state.movedAt).toBe(Number.NEGATIVE_INFINITY);
    // Once idle, the full order returns and the selection follows b to its place.
    state = uiReducer(state, { type: 'sync', panes: [a, b, cStuck], now: 10_000 + RESORT_IDLE_MS });
    expect(state.order).toEqual(ids(c, a, b));
    expect(state.selectedId).toBe(b.pane.paneId);
  });

  it('keeps an answered pane selected and marked until its screen changes; the next stuck pane never takes the cursor', () => {
    const s1 = restate(a, { state: 'stuck' as const, reason: 'permission' as const, stuckSince: 1_000 });
    const s2 = restate(b, { state: 'stuck' as const, reason: 'permission' as const, stuckSince: 2_000 });
    let state = uiReducer(initialUiState, { type: 'sync', panes: [s1, s2, c], now: 10_000 });
    state = uiReducer(state, { type: 'start-answer', key: a.key, hash: s1.contentHash, now: 10_000 });
    state = uiReducer(state, {
      type: 'answered',
      key: a.key,
      hash: s1.contentHash,
      status: { text: 'sending y + Enter', tone: 'info' },
    });
    expect(state.answered).toEqual({ key: a.key, hash: s1.contentHash });
    // Same screen (the poll has not seen the answer yet): still marked.
    state = uiReducer(state, { type: 'sync', panes: [s1, s2, c], now: 10_050 });
    expect(state.answered).not.toBeNull();
    // Its screen changed and it left the stuck set: it keeps row 0 and the cursor, the mark goes.
    const moved = { ...a, state: 'monitoring' as const, stuckSince: null, quietSince: 10_100, contentHash: 'after' };
    state = uiReducer(state, { type: 'sync', panes: [moved, s2, c], now: 10_200 });
    expect(state.order[0]).toBe(a.pane.paneId);
    expect(state.selectedId).toBe(a.pane.paneId);
    expect(state.answered).toBeNull();
  });

  it('moves the selection to a neighbour when its pane closes, and returns the same state when nothing changed', () => {
    let state = uiReducer(initialUiState, { type: 'sync', panes: [a, b, c], now: 10_000 });
    state = uiReducer(state, { type: 'move', visible: state.order, delta: 1, now: 10_000 });
    state = uiReducer(state, { type: 'sync', panes: [a, c], now: 10_100 });
    expect(state.selectedId).toBe(c.pane.paneId);
    expect(state.movedAt).toBe(10_100);
    expect(uiReducer(state, { type: 'sync', panes: [a, c], now: 10_200 })).toBe(state);
  });
});

describe('uiReducer navigation and modes', () => {
  const visible = ['%a', '%b', '%c', '%d'];
  const base: UiState = { ...initialUiState, order: visible, selectedId: '%b', selectedIndex: 1 };

  it('moves within bounds', () => {
    expect(uiReducer(base, { type: 'move', visible, delta: -1, now: 0 }).selectedId).toBe('%a');
    expect(uiReducer(base, { type: 'move', visible, delta: -5, now: 0 }).selectedId).toBe('%a');
    expect(uiReducer(base, { type: 'move', visible, delta: 9, now: 0 }).selectedId).toBe('%d');
    expect(uiReducer(base, { type: 'first', visible, now: 0 }).selectedId).toBe('%a');
    expect(uiReducer(base, { type: 'last', visible, now: 0 }).selectedId).toBe('%d');
  });

  it('finds the next stuck pane, wrapping around', () => {
    const stuck = new Set(['%a', '%d']);
    const once = uiReducer(base, { type: 'next-stuck', visible, stuck, now: 0 });
    expect(once.selectedId).toBe('%d');
    expect(uiReducer(once, { type: 'next-stuck', visible, stuck, now: 0 }).selectedId).toBe('%a');
    expect(uiReducer(base, { type: 'next-stuck', visible, stuck: new Set(), now: 0 }).status?.text).toBe(
      'no stuck pane',
    );
  });

  it('edits the reply draft and resets on done', () => {
    let state = uiReducer(base, { type: 'start-reply', key: '%b', hash: 'h-b', now: 0 });
    expect(state.mode).toBe('reply');
    state = uiReducer(state, { type: 'edit', field: 'draft', edit: { kind: 'insert', text: 'ye' }, now: 0 });
    state = uiReducer(state, { type: 'edit', field: 'draft', edit: { kind: 'insert', text: 's' }, now: 0 });
    state = uiReducer(state, { type: 'edit', field: 'draft', edit: { kind: 'backspace' }, now: 0 });
    expect(state.draft).toBe('ye');
    expect(state.targetId).toBe('%b');
    expect(state.targetHash).toBe('h-b');
    state = uiReducer(state, { type: 'done', status: null });
    expect(state).toMatchObject({ mode: 'normal', draft: '', targetId: null });
  });

  it('keeps a reply on one line', () => {
    expect(applyEdit('a', { kind: 'insert', text: 'b\r\nc' })).toBe('ab c');
    expect(applyEdit('héé', { kind: 'backspace' })).toBe('hé');
    expect(applyEdit('abc', { kind: 'clear' })).toBe('');
  });
});
