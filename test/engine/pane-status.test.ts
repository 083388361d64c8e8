import { describe, expect, it } from 'vitest';
import { ACTIVE_WINDOW_MS, countStatuses, paneStatus, statusBadge } from '../../src/engine/pane-status.js';
import { paneView } from '../helpers/fake-engine.js';

describe('pane status words', () => {
  it('stuck, snoozed, active and quiet', () => {
    const stuck = paneView({ pane: { paneId: '%1' }, state: 'stuck', reason: 'permission', quietSince: 0 });
    const snoozed = paneView({ pane: { paneId: '%2' }, state: 'stuck', reason: 'stopped', acknowledged: true, quietSince: 0 });
    const active = paneView({ pane: { paneId: '%3' }, state: 'monitoring', quietSince: 10_000 });
    const quiet = paneView({ pane: { paneId: '%4' }, state: 'monitoring', quietSince: 0 });
    const now = 10_000 + ACTIVE_WINDOW_MS - 1;
    expect([stuck, snoozed, active, quiet].map((v) => paneStatus(v, now))).toEqual(['stuck', 'snoozed', 'active', 'quiet']);
    expect(statusBadge('stuck', 'permission')).toBe('STUCK permission');
    expect(statusBadge('stuck', 'permission', true)).toBe('STUCK');
    expect(statusBadge('quiet', null)).toBe('quiet');
    expect(countStatuses([stuck, snoozed, active, quiet], now)).toEqual({ stuck: 1, snoozed: 1, active: 1, quiet: 1, total: 4 });
  });
});
