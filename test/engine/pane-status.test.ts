import { describe, expect, it } from 'vitest';
import { ACTIVE_WINDOW_MS, countStatuses, needsPerson, paneStatus, statusBadge } from '../../src/engine/pane/pane-status.js';
import { fakeAttention, paneView } from '../helpers/fake-engine.js';

describe('pane status words', () => {
  it('stuck, snoozed, answered, idle, active and quiet', () => {
    const stuck = paneView({ pane: { paneId: '%1' }, state: 'stuck', reason: 'permission', quietSince: 0 });
    const snoozed = paneView({ pane: { paneId: '%2' }, state: 'stuck', reason: 'stopped', acknowledged: true, quietSince: 0 });
    const active = paneView({ pane: { paneId: '%3' }, state: 'monitoring', quietSince: 10_000 });
    const quiet = paneView({ pane: { paneId: '%4' }, state: 'monitoring', quietSince: 0 });
    // At its prompt, seen since: held, but needing nobody.
    const idle = paneView({ pane: { paneId: '%5' }, state: 'stuck', reason: 'stopped', quietSince: 0, attention: { ...fakeAttention('stuck', 'stopped', false), need: null, seenAt: 5 } });
    const answered = paneView({
      pane: { paneId: '%6' },
      state: 'stuck',
      reason: 'permission',
      attention: { ...fakeAttention('stuck', 'permission', false), need: null, answered: { at: 1, surface: 'page', what: 'y', on: 'abc' } },
    });
    const now = 10_000 + ACTIVE_WINDOW_MS - 1;
    const views = [stuck, snoozed, active, quiet, idle, answered];
    expect(views.map((v) => paneStatus(v, now))).toEqual(['stuck', 'snoozed', 'active', 'quiet', 'idle', 'answered']);
    expect(views.map(needsPerson)).toEqual([true, false, false, false, false, false]);
    expect(statusBadge('stuck', 'permission')).toBe('STUCK permission');
    expect(statusBadge('stuck', 'permission', true)).toBe('STUCK');
    expect(statusBadge('quiet', null)).toBe('quiet');
    expect(countStatuses(views, now)).toEqual({ stuck: 1, snoozed: 1, answered: 1, idle: 1, active: 1, quiet: 1, total: 6 });
  });

  it('a pane whose host is down needs nobody until it is back', () => {
    const stuck = paneView({ state: 'stuck', reason: 'permission', online: false });
    expect(needsPerson(stuck)).toBe(false);
  });
});
