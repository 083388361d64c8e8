// Which stuck panes become notifications, and when: reasons, minimum quiet, quiet hours,
// coalescing, rate limit, and the bursts that are no news (a restart, an empty capture).

import { describe, expect, it } from 'vitest';
import { NotifyPlanner, inQuietHours, parseQuietHours, type NotifyRules } from '../../../src/engine/notify/notify-planner.js';
import type { PaneView, PromptVerdict } from '../../../src/engine/types.js';
import { paneView, restate } from '../../helpers/fake-engine.js';

const rules = (over: Partial<NotifyRules> = {}): NotifyRules => ({
  reasons: new Set(['permission', 'stopped']),
  minQuietMs: 0,
  quietHours: null,
  maxPerMinute: 4,
  coalesceMs: 500,
  settleMs: 3_000,
  ...over,
});
const yn: PromptVerdict = { prompt: true, reason: 'permission', busy: false, tool: 'generic', rule: 'y-n', line: 'Deploy? [y/N]', answer: { kind: 'line', options: ['y', 'n', 'Enter'] } };

/** Panes the planner saw change (so they are news when they get stuck); returns their stuck views. */
function witnessAll(planner: NotifyPlanner, ids: string[]): PaneView[] {
  const before = ids.map((id) => paneView({ pane: { paneId: id }, lines: ['$ ./deploy'], contentHash: `${id}-a`, trackingId: `t${id}` }));
  const stuck = before.map((v) => restate(v, { lines: ['Deploy? [y/N]'], contentHash: `${v.pane.paneId}-b`, state: 'stuck' as const, reason: 'permission' as const, verdict: yn, stuckSince: 1_000, message: 'Deploy? [y/N]' }));
  planner.observe(before);
  planner.observe(stuck);
  return stuck;
}
const witnessed = (planner: NotifyPlanner, id: string) => ({ stuck: witnessAll(planner, [id])[0]! });

describe('notification planner', () => {
  it('notifies a witnessed stuck pane once the coalescing window closes', () => {
    const planner = new NotifyPlanner(rules());
    const { stuck } = witnessed(planner, '%1');
    planner.stuck(stuck, 'permission', 'Deploy? [y/N]', 1_000);
    expect(planner.due([stuck], 1_499, 0)).toEqual([]);
    expect(planner.due([stuck], 1_500, 0)).toEqual([{ kind: 'single', item: { view: stuck, reason: 'permission', message: 'Deploy? [y/N]' } }]);
    expect(planner.due([stuck], 2_000, 0)).toEqual([]);
  });

  it('tells a wait once: the same question back after a redraw is no news, a new one is', () => {
    const planner = new NotifyPlanner(rules());
    const stuck = restate(witnessed(planner, '%1').stuck, { waitSince: 800 });
    planner.stuck(stuck, 'permission', 'Deploy? [y/N]', 1_000);
    expect(planner.due([stuck], 1_500, 0)).toHaveLength(1);
    // Unstuck for a redraw, stuck again with its moment kept: the same wait.
    planner.stuck(stuck, 'permission', 'Deploy? [y/N]', 4_000);
    expect(planner.due([stuck], 5_000, 0)).toEqual([]);
    expect(planner.skipped.told).toBe(1);
    // Asked again after other output: a wait of its own.
    const again = restate(stuck, { waitSince: 6_000, contentHash: '%1-c' });
    planner.observe([again]);
    planner.stuck(again, 'permission', 'Deploy? [y/N]', 7_000);
    expect(planner.due([again], 7_500, 0)).toHaveLength(1);
  });

  it('twenty panes stuck at once give one summary', () => {
    const planner = new NotifyPlanner(rules());
    const panes = witnessAll(planner, Array.from({ length: 20 }, (_, i) => `%${i + 1}`));
    for (const view of panes) planner.stuck(view, 'permission', 'Deploy? [y/N]', 1_000 + Number(view.pane.paneId.slice(1)));
    const out = planner.due(panes, 1_600, 0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'summary' });
    expect(out[0]!.kind === 'summary' && out[0]!.items).toHaveLength(20);
  });

  it('panes that were just there (corral or tmux restarted) and screens back from an empty capture are no news', () => {
    const planner = new NotifyPlanner(rules());
    // Seen for the first time already stuck: a restart's burst.
    const restored = paneView({ pane: { paneId: '%1' }, lines: ['$'], state: 'stuck', reason: 'stopped', verdict: { ...yn, reason: 'stopped' } });
    planner.observe([restored]);
    planner.stuck(restored, 'stopped', '$', 1_000);
    // A screen that was empty (the capture failed), then came back.
    const empty = paneView({ pane: { paneId: '%2' }, lines: [], contentHash: 'empty', trackingId: 't2' });
    const back = restate(empty, { lines: ['$'], contentHash: 'back', state: 'stuck' as const, reason: 'stopped' as const });
    planner.observe([restored, empty]);
    planner.observe([restored, back]);
    planner.stuck(back, 'stopped', '$', 1_000);
    expect(planner.due([restored, back], 5_000, 0)).toEqual([]);
    expect(planner.skipped.unwitnessed).toBe(2);
  });

  it('a hook call counts as witnessed activity', () => {
    const planner = new NotifyPlanner(rules());
    const view = paneView({
      pane: { paneId: '%5' },
      state: 'stuck',
      reason: 'permission',
      registeredAt: 0,
      verdict: yn,
      hook: { agent: 'claude-code', sessionId: 's', transcriptPath: '', claim: 'permission', claimSince: 10, lastEvent: 'PermissionRequest', lastEventAt: 10, disagreement: null },
    });
    planner.observe([view]);
    planner.stuck(view, 'permission', 'Bash: ls', 10);
    expect(planner.due([view], 600, 0)).toHaveLength(1);
  });

  it('a hook permission waits for its dialog on screen (for answer buttons), at most settleMs', () => {
    const planner = new NotifyPlanner(rules());
    const { stuck } = witnessed(planner, '%1');
    const drawing = { ...stuck, verdict: { ...yn, prompt: false, busy: true } };
    planner.stuck(drawing, 'permission', 'Bash: ls', 1_000);
    expect(planner.due([drawing], 1_600, 0)).toEqual([]);
    expect(planner.due([stuck], 1_700, 0)).toHaveLength(1);
    planner.stuck(drawing, 'permission', 'Bash: ls', 10_000);
    expect(planner.due([drawing], 12_999, 0)).toEqual([]);
    expect(planner.due([drawing], 13_000, 0)).toHaveLength(1);
  });

  it('drops panes that are no longer stuck, snoozed, or gone; honours reasons and the minimum quiet time', () => {
    const planner = new NotifyPlanner(rules({ reasons: new Set(['permission']), minQuietMs: 10_000 }));
    const { stuck } = witnessed(planner, '%1');
    planner.stuck({ ...stuck, reason: 'stopped' }, 'stopped', '$', 1_000);
    expect(planner.skipped.reason).toBe(1);
    planner.stuck(stuck, 'permission', 'Deploy? [y/N]', 1_000);
    expect(planner.due([{ ...stuck, quietSince: 0 }], 9_999, 0)).toEqual([]);
    expect(planner.due([{ ...stuck, quietSince: 0 }], 10_000, 0)).toHaveLength(1);
    planner.stuck(stuck, 'permission', 'Deploy? [y/N]', 20_000);
    expect(planner.due([restate(stuck, { acknowledged: true })], 40_000, 0)).toEqual([]);
    expect(planner.waiting).toBe(0);
  });

  it('counts the minimum quiet time of a wait that animates from when the wait began, not from its last blink', () => {
    const planner = new NotifyPlanner(rules({ minQuietMs: 10_000 }));
    const { stuck } = witnessed(planner, '%1');
    planner.stuck(stuck, 'permission', 'Do you want to proceed?', 1_000);
    // It blinked a second ago, and has shown the same dialog since 0.
    expect(planner.due([{ ...stuck, quietSince: 9_000, waitSince: 0 }], 9_999, 0)).toEqual([]);
    expect(planner.due([{ ...stuck, quietSince: 9_000, waitSince: 0 }], 10_000, 0)).toHaveLength(1);
  });

  it('rate-limits: beyond the limit, what waits goes out as one summary when a slot frees', () => {
    const planner = new NotifyPlanner(rules({ maxPerMinute: 2 }));
    const views = witnessAll(planner, ['%1', '%2', '%3', '%4', '%5']);
    planner.stuck(views[0]!, 'permission', 'a', 0);
    expect(planner.due(views, 500, 0)).toHaveLength(1);
    planner.stuck(views[1]!, 'permission', 'b', 1_000);
    expect(planner.due(views, 1_500, 0)).toHaveLength(1);
    planner.stuck(views[2]!, 'permission', 'c', 2_000);
    planner.stuck(views[3]!, 'permission', 'd', 3_000);
    planner.stuck(views[4]!, 'permission', 'e', 4_000);
    expect(planner.due(views, 5_000, 0)).toEqual([]);
    expect(planner.due(views, 59_999, 0)).toEqual([]);
    const later = planner.due(views, 60_500, 0);
    expect(later).toHaveLength(1);
    expect(later[0]!.kind === 'summary' && later[0]!.items.map((i) => i.view.pane.paneId)).toEqual(['%3', '%4', '%5']);
  });

  it('stays silent in quiet hours, which may wrap midnight', () => {
    expect(parseQuietHours('22:00-07:30')).toEqual({ start: 1_320, end: 450 });
    expect(() => parseQuietHours('late')).toThrow(/22:00-07:00/);
    expect(() => parseQuietHours('25:00-07:00')).toThrow(/impossible/);
    const night = parseQuietHours('22:00-07:00');
    expect([inQuietHours(night, 23 * 60), inQuietHours(night, 6 * 60), inQuietHours(night, 12 * 60)]).toEqual([true, true, false]);
    const planner = new NotifyPlanner(rules({ quietHours: night }));
    const { stuck } = witnessed(planner, '%1');
    planner.stuck(stuck, 'permission', 'x', 0);
    expect(planner.due([stuck], 1_000, 23 * 60)).toEqual([]);
    expect(planner.skipped.quietHours).toBe(1);
  });
});
