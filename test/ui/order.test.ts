import { describe, expect, it } from 'vitest';
import { keepOrder, sortPaneIds, stuckSetKey } from '../../src/ui/order.js';
import { paneView, restate } from '../helpers/fake-engine.js';

describe('sortPaneIds', () => {
  it('puts permission before stopped (each longest stuck first), then snoozed, then by quiet time', () => {
    const active = paneView({ quietSince: 9_000 });
    const quiet = paneView({ quietSince: 1_000 });
    const stuckNew = paneView({ state: 'stuck', reason: 'permission', quietSince: 2_000, stuckSince: 5_000 });
    const stuckOld = paneView({ state: 'stuck', reason: 'stopped', quietSince: 3_000, stuckSince: 4_000 });
    const snoozed = paneView({
      state: 'stuck',
      reason: 'stopped',
      quietSince: 0,
      stuckSince: 1_000,
      acknowledged: true,
    });
    const permissionOld = paneView({ state: 'stuck', reason: 'permission', quietSince: 2_500, stuckSince: 4_500 });
    const ids = sortPaneIds([active, quiet, stuckNew, snoozed, stuckOld, permissionOld]);
    // A permission prompt that became stuck a moment ago still comes before an idle prompt stuck for longer.
    expect(ids).toEqual([permissionOld, stuckNew, stuckOld, snoozed, quiet, active].map((v) => v.pane.paneId));
  });
});

describe('keepOrder', () => {
  it('drops closed panes and appends new ones without moving the others', () => {
    const a = paneView({ quietSince: 5 });
    const b = paneView({ quietSince: 1 });
    const c = paneView({ quietSince: 3 });
    const d = paneView({ state: 'stuck', quietSince: 0, stuckSince: 0 });
    const order = [a.pane.paneId, b.pane.paneId, 'gone'];
    expect(keepOrder(order, [a, b, c, d])).toEqual([a.pane.paneId, b.pane.paneId, d.pane.paneId, c.pane.paneId]);
  });
});

describe('stuckSetKey', () => {
  it('changes only with the set of unsnoozed stuck panes', () => {
    const s1 = paneView({ state: 'stuck' });
    const s2 = paneView({ state: 'stuck' });
    const calm = paneView();
    expect(stuckSetKey([s1, calm, s2])).toBe(stuckSetKey([s2, s1]));
    expect(stuckSetKey([s1, restate(s2, { acknowledged: true })])).toBe(stuckSetKey([s1]));
    expect(stuckSetKey([s1])).not.toBe(stuckSetKey([s2]));
  });
});
