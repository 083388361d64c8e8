// Listing some windows only: which windows a subscription value says printed, what the journal of
// changes answers for a mark, and how a listing of some windows merges into the last one.

import { describe, expect, it } from 'vitest';
import { ChangeWatch, changedWindows, watchWords, WATCH_SUBSCRIPTION } from '../../../src/engine/tmux/change-watch.js';
import { mergeWindows, windowsListable, worthListingSome } from '../../../src/engine/tmux/window-listing.js';
import { TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { paneInfo } from '../../helpers/fake-engine.js';

const value = (stamps: Record<string, number>) =>
  Object.entries(stamps)
    .map(([w, s]) => `${w} ${s} `)
    .join('');
const told = (watch: ChangeWatch, stamps: Record<string, number>) =>
  watch.handlers.onNotification?.('subscription-changed', `${WATCH_SUBSCRIPTION} $0 - - - : ${value(stamps)}`);

describe('the subscription value', () => {
  const words = watchWords;
  it('names the windows whose stamp moved; a window that came, went or moved is not a list of windows', () => {
    const before = words('@1 100 @2 104 @3 90 ');
    expect(changedWindows(before, words('@1 100 @2 105 @3 91 '))).toEqual(new Set(['@2', '@3']));
    expect(changedWindows(before, words('@1 100 @2 104 @3 90 '))).toEqual(new Set());
    expect(changedWindows(before, words('@1 100 @2 104 '))).toBeNull();
    expect(changedWindows(before, words('@1 100 @2 104 @4 90 '))).toBeNull();
    expect(changedWindows(before, words('@1 100 @3 90 @2 104 '))).toBeNull();
    expect(changedWindows(null, before)).toBeNull();
  });

  it('refuses a value that is not window ids and stamps by turns', () => {
    expect(changedWindows(words('@1 100 @2'), words('@1 100 @2'))).toBeNull();
    expect(changedWindows(words('x 100 @2 1 '), words('x 101 @2 1 '))).toBeNull();
    // A window linked into two sessions shows twice: named once.
    expect(changedWindows(words('@1 100 @1 100 '), words('@1 101 @1 101 '))).toEqual(new Set(['@1']));
  });
});

describe('what changed since a mark', () => {
  it('unites the windows of every change after the mark; any other change is anything', () => {
    const watch = new ChangeWatch(TMUX_FORMATS.recordsStamp);
    told(watch, { '@1': 100, '@2': 100, '@3': 100 });
    // The first value has nothing to compare with.
    expect(watch.windowsSince(0)).toBeNull();
    const mark = 1;
    told(watch, { '@1': 101, '@2': 100, '@3': 100 });
    told(watch, { '@1': 101, '@2': 100, '@3': 102 });
    expect(watch.windowsSince(mark)).toEqual(new Set(['@1', '@3']));
    expect(watch.windowsSince(mark + 1)).toEqual(new Set(['@3']));
    expect(watch.windowsSince(mark + 2)).toEqual(new Set());
    // A paste buffer (corral's own captures) changes no listing; a layout may change anything.
    watch.handlers.onNotification?.('paste-buffer-changed', 'corral-x');
    expect(watch.windowsSince(mark + 2)).toEqual(new Set());
    watch.handlers.onNotification?.('layout-change', '@1 abcd,80x24,0,0,1 abcd,80x24,0,0,1 *');
    expect(watch.windowsSince(mark + 2)).toBeNull();
    // Another subscription's value, or one that does not parse, may mean anything too.
    const after = 4;
    watch.handlers.onNotification?.('subscription-changed', 'someone-else $0 - - - : x');
    expect(watch.windowsSince(after)).toBeNull();
  });

  it('a mark older than the changes it remembers reads as anything', () => {
    const watch = new ChangeWatch(TMUX_FORMATS.recordsStamp);
    for (let i = 0; i < 300; i++) told(watch, { '@1': 100 + i });
    expect(watch.windowsSince(299)).toEqual(new Set(['@1']));
    expect(watch.windowsSince(10)).toBeNull();
  });
});

describe('merging a listing of some windows', () => {
  const last = [
    paneInfo({ paneId: '%1', windowId: '@1', title: 'a' }),
    paneInfo({ paneId: '%2', windowId: '@2', title: 'b' }),
    paneInfo({ paneId: '%3', windowId: '@2', paneIndex: 1, title: 'c' }),
    paneInfo({ paneId: '%4', windowId: '@3', title: 'd' }),
  ];
  const again = (pane: (typeof last)[number], changes: Partial<(typeof last)[number]>) => ({ ...pane, ...changes });

  it('takes the listed windows as listed and every other pane as it was, in the last order', () => {
    const listed = [again(last[1]!, { title: 'B' }), again(last[2]!, { cwd: '/elsewhere' })];
    const merged = mergeWindows(last, new Set(['@2']), listed)!;
    expect(merged.map((p) => p.paneId)).toEqual(['%1', '%2', '%3', '%4']);
    expect(merged[0]).toBe(last[0]);
    expect(merged[3]).toBe(last[3]);
    expect(merged[1]!.title).toBe('B');
    expect(merged[2]!.cwd).toBe('/elsewhere');
  });

  it('refuses a pane that is new, respawned or moved, or a window whose panes changed in number', () => {
    const windows = new Set(['@2']);
    expect(mergeWindows(last, windows, [last[1]!, last[2]!, paneInfo({ paneId: '%9', windowId: '@2' })])).toBeNull();
    expect(mergeWindows(last, windows, [again(last[1]!, { pid: 1 }), last[2]!])).toBeNull();
    expect(mergeWindows(last, windows, [last[1]!])).toBeNull();
    expect(mergeWindows(last, windows, [last[1]!, last[2]!, again(last[3]!, { windowId: '@2' })])).toBeNull();
    expect(mergeWindows(last, new Set(['@7']), [])).toBeNull();
  });

  it('a window linked into two sessions cannot be listed alone', () => {
    expect(windowsListable(last)).toBe(true);
    expect(windowsListable([...last, again(last[0]!, { sessionId: '$1' })])).toBe(false);
  });

  it('lists some windows only where that costs tmux less than listing every pane', () => {
    const panes = Array.from({ length: 50 }, (_, i) => paneInfo({ paneId: `%${100 + i}`, windowId: `@${100 + i}` }));
    const first = (n: number) => new Set(panes.slice(0, n).map((p) => p.windowId));
    expect(worthListingSome(panes, first(1))).toBe(true);
    expect(worthListingSome(panes, first(16))).toBe(true);
    // 20 windows of 50 (the bench's case where listing them costs more than listing all).
    expect(worthListingSome(panes, first(17))).toBe(false);
    expect(worthListingSome(panes, first(20))).toBe(false);
  });
});
