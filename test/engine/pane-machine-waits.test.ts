// The pane machine's waits: stuck is a verdict that holds, whatever animation changes meanwhile;
// the quiet clock still follows every change of the screen.

import { describe, expect, it } from 'vitest';
import { RESUME_MS, followWait, observe, register, waitKey, type PaneTrack } from '../../src/engine/pane/pane-machine.js';
import type { CorralEvent, HookEvent, PromptVerdict } from '../../src/engine/types.js';
import { menuVerdict, paneInfo } from '../helpers/fake-engine.js';

const dialog = menuVerdict;
const shell: PromptVerdict = { prompt: true, reason: 'stopped', busy: false, tool: 'shell', rule: 'shell/user-host', line: 'me@box:~$', answer: { kind: 'line', options: [] } };
const working: PromptVerdict = { prompt: false, reason: null, busy: true, tool: 'claude-code', rule: 'claude-code/spinner', line: '✻ Running… (3s · esc to interrupt)', answer: null };
const config = { quietThresholdMs: 30_000 };

/** A screen: its plain hash, its content hash (animation masked) and its verdict. */
type Frame = [at: number, hash: string, content: string, verdict: PromptVerdict];

function play(start: PaneTrack, frames: readonly Frame[], machine: typeof config & { hookGraceMs?: number } = config) {
  let track = start;
  const events: CorralEvent[] = [];
  for (const [at, hash, content, verdict] of frames) {
    const step = observe(track, { hash, contentHash: content, verdict }, at, machine);
    track = step.track;
    events.push(...step.events);
  }
  return { track, events };
}

/** A dialog whose bullet blinks once a second: plain hashes alternate, the content stays. */
function blinking(from: number, to: number, content = 'dialog'): Frame[] {
  const frames: Frame[] = [];
  for (let at = from, i = 0; at <= to; at += 1_000, i++) frames.push([at, i % 2 === 0 ? 'bullet-on' : 'bullet-off', content, dialog]);
  return frames;
}

const fresh = () => register(paneInfo({ paneId: '%4' }), 0).track;
const types = (events: readonly CorralEvent[]) => events.map((e) => e.type);

describe('waits that animate', () => {
  it('turns a blinking permission dialog stuck once it has shown for the threshold, with one stuck event', () => {
    const before = play(fresh(), [[0, 'work', 'work', working]]).track;
    const r = play(before, blinking(5_000, 60_000));
    expect(types(r.events)).toEqual(['stuck']);
    expect(r.events[0]).toMatchObject({ reason: 'permission', message: 'Do you want to proceed?', timestamp: 35_000 });
    // The quiet clock says when the pane last printed: the last blink.
    expect(r.track).toMatchObject({ state: 'stuck', stuckSince: 35_000, quietSince: 60_000 });
    expect(r.track.wait).toMatchObject({ reason: 'permission', since: 5_000 });
  });

  it('holds a wait through an animation it does not know: a cycle of screens already seen', () => {
    // No masking helps here (content = plain hash): the second frame is new, the rest come back.
    const frames: Frame[] = [];
    for (let at = 5_000, i = 0; at <= 60_000; at += 500, i++) {
      const hash = `spin-${i % 4}`;
      frames.push([at, hash, hash, dialog]);
    }
    const r = play(play(fresh(), [[0, 'work', 'work', working]]).track, frames);
    // The wait starts again on each new frame of the first cycle; when the first frame comes back
    // (7 s), the wait before the last new one resumes (6 s: the question left at 6.5 s, on a
    // screen that wait had shown), then it holds.
    expect(r.track.wait?.since).toBe(6_000);
    expect(types(r.events)).toEqual(['stuck']);
    expect(r.events[0]?.timestamp).toBe(36_000);
  });

  it('keeps a question through a redraw of the whole screen: the same wait, stuck again at once, with its moment', () => {
    const fast = { quietThresholdMs: 3_000, askThresholdMs: 1_000 };
    const asked = play(play(fresh(), [[0, 'work', 'work', working]], fast).track, [[2_000, 'q', 'q', dialog], [4_000, 'q', 'q', dialog]], fast);
    expect(asked.track).toMatchObject({ state: 'stuck', wait: { since: 2_000 } });
    // The transcript drawn again from the top (no dialog on screen), then the dialog's screen as before.
    const top: PromptVerdict = { prompt: false, reason: null, busy: false, tool: null, rule: null, line: '', answer: null };
    const redrawn = play(asked.track, [[6_000, 'top', 'top', top], [8_000, 'q', 'q', dialog]], fast);
    expect(types(redrawn.events)).toEqual(['unstuck', 'stuck']);
    expect(redrawn.track).toMatchObject({ state: 'stuck', wait: { since: 2_000 } });
    expect(redrawn.events[1]?.timestamp).toBe(8_000);
    // Drawn otherwise for a poll (the same question on a screen of its own), then as before: the same.
    const shifted = play(asked.track, [[6_000, 'q-shifted', 'q-shifted', dialog], [8_000, 'q', 'q', dialog]], fast);
    expect(shifted.track.wait).toMatchObject({ since: 2_000 });
  });

  it('takes a question asked again after other output as a new wait, and one back after RESUME_MS too', () => {
    const fast = { quietThresholdMs: 3_000, askThresholdMs: 1_000 };
    const asked = play(fresh(), [[0, 'work', 'work', working], [2_000, 'q', 'q', dialog], [4_000, 'q', 'q', dialog]], fast).track;
    const again = play(asked, [[6_000, 'work-2', 'work-2', working], [8_000, 'q-2', 'q-2', dialog]], fast);
    expect(again.track.wait).toMatchObject({ since: 8_000 });
    const late = play(asked, [[6_000, 'work-2', 'work-2', working], [6_000 + RESUME_MS + 1, 'q', 'q', dialog]], fast);
    expect(late.track.wait).toMatchObject({ since: 6_000 + RESUME_MS + 1 });
  });

  it('ends a wait on new output even when the same prompt comes back', () => {
    const stuck = play(fresh(), [[0, 'prompt-1', 'prompt-1', shell], [30_000, 'prompt-1', 'prompt-1', shell]]);
    expect(stuck.track.state).toBe('stuck');
    // `ls` ran between two captures: the same prompt line, under output never seen before.
    const after = play(stuck.track, [[31_000, 'listing', 'listing', shell]]);
    expect(types(after.events)).toEqual(['unstuck']);
    expect(after.track.wait).toMatchObject({ since: 31_000 });
    expect(play(after.track, [[61_000, 'listing', 'listing', shell]]).track.state).toBe('stuck');
  });

  it('ends a wait when another prompt shows, or none', () => {
    const stuck = play(fresh(), blinking(0, 30_000)).track;
    expect(stuck.state).toBe('stuck');
    const other = play(stuck, [[31_000, 'bullet-on', 'dialog', { ...dialog, line: 'Do you want to make this edit to app.ts?' }]]);
    expect(types(other.events)).toEqual(['unstuck']);
    const gone = play(stuck, [[31_000, 'work', 'work', working]]);
    expect(types(gone.events)).toEqual(['unstuck']);
    expect(gone.track.wait).toBeNull();
  });

  it('is never stuck while a busy signal shows, however long it holds', () => {
    const frames: Frame[] = [];
    for (let at = 0, i = 0; at <= 120_000; at += 1_000, i++) frames.push([at, `spin-${i % 8}`, 'work', working]);
    const r = play(fresh(), frames);
    expect(r.events).toEqual([]);
    expect(r.track.wait).toBeNull();
  });

  it('keeps one wait through the blinking (what a snooze names), and starts another with the next dialog', () => {
    const stuck = play(fresh(), blinking(0, 30_000)).track;
    const blinked = play(stuck, blinking(31_000, 90_000)).track;
    expect(blinked).toMatchObject({ state: 'stuck' });
    expect([blinked.wait?.key, blinked.wait?.since, blinked.wait?.first]).toEqual([stuck.wait?.key, stuck.wait?.since, stuck.wait?.first]);
    const next = play(stuck, [[31_000, 'next', 'next', { ...dialog, line: 'Do you want to make this edit to app.ts?' }]]).track;
    expect(next.state).toBe('monitoring');
    expect(next.wait?.since).toBe(31_000);
  });

  it('keeps a hook permission claim stuck while the dialog is drawn and blinks, with one stuck event', () => {
    const hook: HookEvent = { agent: 'claude-code', signal: 'permission', event: 'PermissionRequest', sessionId: 's', transcriptPath: '', message: 'touch x', cwd: '/w' };
    let track = play(fresh(), [[0, 'work', 'work', working]]).track;
    const claimed = observe(track, { kind: 'hook', hook }, 1_000, config);
    track = claimed.track;
    const r = play(track, blinking(1_500, 50_000));
    expect(types([...claimed.events, ...r.events])).toEqual(['stuck']);
    expect(r.track.state).toBe('stuck');
  });

  it('lets a running turn veto an idle input box while the claim stands, as before', () => {
    const hook: HookEvent = { agent: 'claude-code', signal: 'prompt', event: 'UserPromptSubmit', sessionId: 's', transcriptPath: '', message: null, cwd: '/w' };
    const track = observe(fresh(), { kind: 'hook', hook }, 0, config).track;
    const box: PromptVerdict = { ...shell, tool: 'claude-code', rule: 'claude-code/input-box', line: '❯' };
    const frames: Frame[] = [[1_000, 'box', 'box', box], [60_000, 'box', 'box', box]];
    expect(play(track, frames, { ...config, hookGraceMs: 120_000 }).events).toEqual([]);
    // Once the screen has contradicted the claim for the grace time, the screen wins.
    expect(types(play(track, frames, { ...config, hookGraceMs: 10_000 }).events)).toEqual(['stuck']);
  });

  it("says so when the prompt is the agent's own menu", () => {
    const menu: PromptVerdict = { ...shell, tool: 'claude-code', rule: 'claude-code/own-menu', line: 'Select model', menu: true };
    const r = play(fresh(), [[0, 'menu', 'menu', menu], [30_000, 'menu', 'menu', menu]]);
    expect(r.events[0]).toMatchObject({ type: 'stuck', reason: 'stopped', message: 'menu open: Select model' });
  });

  it('counts a wait seen on the first capture from the last activity tmux knows of', () => {
    const { track } = register(paneInfo({ paneId: '%4', windowActivity: 100_000 }), 500_000);
    const r = play(track, [[500_000, 'x', 'x', dialog]]);
    expect(r.track.wait?.since).toBe(100_999);
    expect(types(r.events)).toEqual(['stuck']);
  });
});

describe('wait keys', () => {
  it('name the reason, the rule and the line with its animation masked', () => {
    expect(waitKey(working)).toBeNull();
    expect(waitKey({ ...dialog, busy: true })).toBeNull();
    expect(waitKey({ ...dialog, line: '⠋ Waiting for user confirmation' })).toBe(waitKey({ ...dialog, line: '⠙ Waiting for user confirmation' }));
    expect(waitKey(dialog)).not.toBe(waitKey({ ...dialog, reason: 'stopped' }));
  });

  it('keep the same object while the wait holds, and remember a bounded number of screens', () => {
    const wait = followWait(null, dialog, 'a', 1);
    expect(followWait(wait, dialog, 'a', 2)).toBe(wait);
    let grown = wait;
    for (let i = 0; i < 40; i++) grown = followWait(grown, dialog, `s${i}`, 10 + i);
    expect(grown?.screens.length).toBe(16);
    expect(followWait(grown, dialog, 's39', 100)).toBe(grown);
  });
});
