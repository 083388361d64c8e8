// The pane machine with agent hooks as a second signal: claims, vetoes, and the screen overruling them.

import { describe, expect, it } from 'vitest';
import { HOOK_QUIET_MS, describeDisagreement, hookView, hookWaitDueAt, observe, register, type Observation, type PaneTrack } from '../../src/engine/pane/pane-machine.js';
import type { HookEvent, HookSignal, PromptVerdict } from '../../src/engine/types.js';
import { paneInfo } from '../helpers/fake-engine.js';

const config = { quietThresholdMs: 30_000, hookGraceMs: 5_000, hookPermissionTtlMs: 60_000 };

const verdict = (over: Partial<PromptVerdict>): PromptVerdict => ({
  prompt: false,
  reason: null,
  busy: false,
  tool: 'claude-code',
  rule: null,
  line: '',
  answer: null,
  ...over,
});
const working = verdict({ busy: true, line: '✻ Thinking… (esc to interrupt)' });
const dialog = verdict({ prompt: true, reason: 'permission', line: 'Do you want to proceed?', answer: { kind: 'key', options: ['1', '2', 'Enter'] } });
const inputBox = verdict({ prompt: true, reason: 'stopped', line: '>' });
const unknown = verdict({ tool: null, line: 'some new dialog' });

const hook = (signal: HookSignal, over: Partial<HookEvent> = {}): Observation => ({
  kind: 'hook',
  hook: {
    agent: 'claude-code',
    signal,
    event: { prompt: 'UserPromptSubmit', tool: 'PostToolUse', permission: 'PermissionRequest', stop: 'Stop', end: 'SessionEnd' }[signal],
    sessionId: 'sess-1',
    transcriptPath: '/home/me/.claude/projects/x/sess-1.jsonl',
    cwd: '/srv/app',
    message: signal === 'permission' ? 'Bash: touch /tmp/x' : null,
    ...over,
  },
});
const screen = (hash: string, v: PromptVerdict): Observation => ({ hash, verdict: v });

function run(start: PaneTrack, steps: Array<[number, Observation]>) {
  let track = start;
  const events = [];
  for (const [now, observation] of steps) {
    const step = observe(track, observation, now, config);
    track = step.track;
    events.push(...step.events);
  }
  return { track, events };
}

const fresh = () => run(register(paneInfo({ paneId: '%4', cwd: '/srv/app' }), 0).track, [[100, screen('idle', inputBox)]]).track;

describe('pane machine with hooks', () => {
  it('a permission request makes the pane stuck at once, with the transcript path, and the dialog drawing does not undo it', () => {
    const start = run(fresh(), [[1_000, hook('prompt')], [1_100, screen('busy1', working)]]).track;
    const asked = run(start, [[2_000, hook('permission')]]);
    expect(asked.track).toMatchObject({ state: 'stuck', reason: 'permission', message: 'Bash: touch /tmp/x', stuckSince: 2_000 });
    expect(asked.events).toEqual([
      {
        type: 'stuck',
        host: 'local',
        key: '%4',
        sessionId: 'tmux-%4-0',
        paneId: '%4',
        cwd: '/srv/app',
        transcriptPath: '/home/me/.claude/projects/x/sess-1.jsonl',
        reason: 'permission',
        message: 'Bash: touch /tmp/x',
        source: 'hook',
        timestamp: 2_000,
      },
    ]);
    // The hook comes before the dialog: the screen still shows the spinner, then the dialog.
    const drawn = run(asked.track, [[2_100, screen('busy1', working)], [2_600, screen('dialog', dialog)], [40_000, screen('dialog', dialog)]]);
    expect(drawn.events).toEqual([]);
    expect(drawn.track.state).toBe('stuck');
  });

  it('the next tool or prompt event clears the permission; Stop then waits for the next prompt', () => {
    const asked = run(fresh(), [[1_000, hook('prompt')], [2_000, hook('permission')], [2_500, screen('dialog', dialog)]]).track;
    const approved = run(asked, [[5_000, hook('tool')]]);
    expect(approved.events).toEqual([{ type: 'unstuck', host: 'local', key: '%4', sessionId: 'tmux-%4-0', paneId: '%4', timestamp: 5_000 }]);
    expect(approved.track.hook?.claim).toBe('working');
    const stopped = run(approved.track, [[6_000, hook('stop')], [6_300, screen('answer', inputBox)]]);
    expect(stopped.track.hook?.claim).toBe('waiting');
    expect(stopped.track.state).toBe('monitoring');
    // The hook is the evidence that the turn is over: the input box need only hold HOOK_QUIET_MS,
    // not the quiet threshold a screen alone needs.
    expect(run(stopped.track, [[6_300 + HOOK_QUIET_MS - 1, screen('answer', inputBox)]]).track.state).toBe('monitoring');
    const later = run(stopped.track, [[6_300 + HOOK_QUIET_MS, screen('answer', inputBox)]]);
    expect(later.track).toMatchObject({ state: 'stuck', reason: 'stopped' });
  });

  it('a rejection fires nothing: the screen showing the input box overrules the claim after the grace time', () => {
    const asked = run(fresh(), [[1_000, hook('prompt')], [2_000, hook('permission')], [2_500, screen('dialog', dialog)]]).track;
    const rejected = run(asked, [[10_000, screen('interrupted', inputBox)]]);
    // The screen changed while the claim still holds: no news yet, but a disagreement is shown.
    expect(rejected.track.state).toBe('stuck');
    expect(hookView(rejected.track.hook)?.disagreement).toEqual({ claim: 'permission', screen: 'stopped', since: 10_000, overruled: false });
    expect(describeDisagreement(hookView(rejected.track.hook)!.disagreement)).toBe('hook says permission, screen shows stopped');
    const overruled = run(rejected.track, [[14_999, screen('interrupted', inputBox)], [15_000, screen('interrupted', inputBox)]]);
    expect(overruled.events).toEqual([{ type: 'unstuck', host: 'local', key: '%4', sessionId: 'tmux-%4-0', paneId: '%4', timestamp: 15_000 }]);
    expect(overruled.track.hook?.claim).toBeNull();
    expect(hookView(overruled.track.hook)?.disagreement).toMatchObject({ claim: 'permission', overruled: true });
    // From now on the screen decides alone: stuck (stopped) after the quiet threshold since its last change.
    expect(run(overruled.track, [[40_000, screen('interrupted', inputBox)]]).track).toMatchObject({ state: 'stuck', reason: 'stopped' });
  });

  it('an unknown dialog does not contradict the claim, but a claim never confirmed lapses after its TTL', () => {
    const asked = run(fresh(), [[1_000, hook('permission')], [1_500, screen('new-dialog', unknown)]]).track;
    const held = run(asked, [[50_000, screen('new-dialog', unknown)]]);
    expect(held.track.state).toBe('stuck');
    expect(hookView(held.track.hook)?.disagreement).toBeNull();
    const lapsed = run(held.track, [[61_000, screen('new-dialog', unknown)]]);
    expect(lapsed.track.state).toBe('monitoring');
    expect(lapsed.events.map((e) => e.type)).toEqual(['unstuck']);
  });

  it('a permission claim the screen confirms does not lapse', () => {
    const asked = run(fresh(), [[1_000, hook('permission')], [1_500, screen('dialog', dialog)], [59_000, screen('dialog', dialog)]]).track;
    expect(run(asked, [[100_000, screen('dialog', dialog)]]).track.state).toBe('stuck');
  });

  it('a running turn vetoes "stopped" until the screen has contradicted it for the grace time', () => {
    const turn = run(fresh(), [[1_000, hook('prompt')], [1_200, screen('stalled', inputBox)]]).track;
    // The input box is contradicted for the grace time (5 s): the screen wins, and at the quiet threshold the pane is stuck.
    const overruled = run(turn, [[6_199, screen('stalled', inputBox)]]);
    expect(overruled.track.hook?.claim).toBe('working');
    const won = run(overruled.track, [[6_200, screen('stalled', inputBox)]]);
    expect(won.track.hook?.claim).toBeNull();
    expect(run(won.track, [[31_199, screen('stalled', inputBox)]]).track.state).toBe('monitoring');
    expect(run(won.track, [[31_200, screen('stalled', inputBox)]]).track).toMatchObject({ state: 'stuck', reason: 'stopped' });

    const long = { ...config, hookGraceMs: 120_000 };
    let track = turn;
    for (const now of [10_000, 31_200, 60_000]) track = observe(track, screen('stalled', inputBox), now, long).track;
    expect(track.state).toBe('monitoring');
    expect(hookView(track.hook)?.disagreement).toMatchObject({ claim: 'working', screen: 'stopped', overruled: false });
  });

  it('Stop lets a screen without a rule count as stopped after the quiet threshold', () => {
    const done = run(fresh(), [[1_000, hook('prompt')], [2_000, hook('stop')], [2_100, screen('custom', unknown)]]).track;
    const stuck = run(done, [[32_100, screen('custom', unknown)]]);
    expect(stuck.events).toEqual([expect.objectContaining({ type: 'stuck', reason: 'stopped', message: 'some new dialog' })]);
  });

  it('says when a turn a hook said is over becomes a wait: the moment a step makes it stuck, not before', () => {
    const done = run(fresh(), [[1_000, hook('prompt')], [2_000, hook('stop')], [2_100, screen('answer', unknown)]]).track;
    const due = hookWaitDueAt(done, config);
    expect(due).toBe(2_100 + HOOK_QUIET_MS);
    expect(run(done, [[due - 1, screen('answer', unknown)]]).events).toEqual([]);
    const stuck = run(done, [[due, screen('answer', unknown)]]);
    expect(stuck.events).toEqual([expect.objectContaining({ type: 'stuck', reason: 'stopped' })]);
    expect(hookWaitDueAt(stuck.track, config)).toBe(Infinity);
    // No claim, or a claim that the turn goes on: nothing comes of age by the hook.
    expect(hookWaitDueAt(fresh(), config)).toBe(Infinity);
    expect(hookWaitDueAt(run(fresh(), [[1_000, hook('prompt')]]).track, config)).toBe(Infinity);
  });

  it('a permission request on a pane stuck at its input box replaces the reason', () => {
    const idle = run(fresh(), [[40_000, screen('idle', inputBox)]]).track;
    expect(idle).toMatchObject({ state: 'stuck', reason: 'stopped' });
    const asked = run(idle, [[41_000, hook('permission')]]);
    expect(asked.events.map((e) => e.type)).toEqual(['unstuck', 'stuck']);
    expect(asked.track.reason).toBe('permission');
  });

  it('SessionEnd ends the claim and hands the pane back to the screen', () => {
    const asked = run(fresh(), [[1_000, hook('permission')]]).track;
    const ended = run(asked, [[2_000, hook('end')]]);
    expect(ended.events.map((e) => e.type)).toEqual(['unstuck']);
    expect(ended.track.hook).toMatchObject({ claim: null, lastEvent: 'SessionEnd' });
  });

  it('panes without hooks behave exactly as before', () => {
    const track = fresh();
    expect(track.hook).toBeNull();
    expect(run(track, [[30_100, screen('idle', inputBox)]]).track).toMatchObject({ state: 'stuck', reason: 'stopped' });
  });
});
