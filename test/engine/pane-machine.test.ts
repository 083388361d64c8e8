import { describe, expect, it } from 'vitest';
import { end, observe, register, type PaneTrack } from '../../src/engine/pane/pane-machine.js';
import type { PaneInfo, PromptVerdict } from '../../src/engine/types.js';
import { paneInfo } from '../helpers/fake-engine.js';

const pane = (over: Partial<PaneInfo> = {}): PaneInfo => paneInfo({ paneId: '%7', cwd: '/srv/app', ...over });

const prompt: PromptVerdict = { prompt: true, reason: 'permission', busy: false, tool: 'generic', rule: 'y-n', line: 'Deploy? [y/N]', answer: { kind: 'line', options: ['y', 'n', 'Enter'] } };
const busy: PromptVerdict = { ...prompt, busy: true };
const none: PromptVerdict = { prompt: false, reason: null, busy: false, tool: null, rule: null, line: 'compiling', answer: null };
const config = { quietThresholdMs: 30_000 };

function run(start: PaneTrack, steps: Array<[number, string, PromptVerdict]>) {
  let track = start;
  const events = [];
  for (const [now, hash, verdict] of steps) {
    const step = observe(track, { hash, verdict }, now, config);
    track = step.track;
    events.push(...step.events);
  }
  return { track, events };
}

describe('pane state machine', () => {
  it('registers with a synthetic id and a registered event carrying cwd', () => {
    const { track, events } = register(pane(), 1_000);
    expect(track.trackingId).toBe('tmux-%7-1000');
    expect(track.state).toBe('registered');
    expect(events).toEqual([{ type: 'registered', host: 'local', key: '%7', sessionId: 'tmux-%7-1000', paneId: '%7', cwd: '/srv/app', transcriptPath: '', timestamp: 1_000 }]);
  });

  it('becomes stuck only after the threshold of quiet at a prompt, then unsticks on change', () => {
    const start = register(pane(), 0).track;
    const early = run(start, [
      [2_000, 'h1', prompt],
      [29_999, 'h1', prompt],
    ]);
    expect(early.track.state).toBe('monitoring');
    expect(early.events).toEqual([]);

    const stuck = run(early.track, [[30_000, 'h1', prompt]]);
    expect(stuck.track.state).toBe('stuck');
    expect(stuck.events).toEqual([
      { type: 'stuck', host: 'local', key: '%7', sessionId: 'tmux-%7-0', paneId: '%7', cwd: '/srv/app', transcriptPath: '', reason: 'permission', message: 'Deploy? [y/N]', source: 'screen', timestamp: 30_000 },
    ]);
    // No second stuck event while nothing changes.
    expect(run(stuck.track, [[60_000, 'h1', prompt]]).events).toEqual([]);

    const unstuck = run(stuck.track, [[61_000, 'h2', none]]);
    expect(unstuck.track).toMatchObject({ state: 'monitoring', quietSince: 61_000, stuckSince: null, reason: null });
    expect(unstuck.events).toEqual([{ type: 'unstuck', host: 'local', key: '%7', sessionId: 'tmux-%7-0', paneId: '%7', timestamp: 61_000 }]);
  });

  it('never becomes stuck without a prompt, or while busy signals show', () => {
    const start = register(pane(), 0).track;
    expect(run(start, [[1, 'a', none], [100_000, 'a', none]]).track.state).toBe('monitoring');
    expect(run(start, [[1, 'a', busy], [100_000, 'a', busy]]).track.state).toBe('monitoring');
  });

  it('restarts the quiet clock on every change', () => {
    const start = register(pane(), 0).track;
    const r = run(start, [
      [1_000, 'a', prompt],
      [25_000, 'b', prompt],
      [50_000, 'b', prompt],
    ]);
    expect(r.track.state).toBe('monitoring');
    expect(run(r.track, [[55_000, 'b', prompt]]).track.state).toBe('stuck');
  });

  it("seeds the quiet clock from the window's activity, rounded up to the end of tmux's second", () => {
    const { track } = register(pane({ windowActivity: 100_000 }), 500_000);
    expect(track.quietSince).toBe(100_999);
    const stuck = run(track, [[500_000, 'x', prompt]]);
    expect(stuck.track.state).toBe('stuck');
    // Activity in the future (clock skew) is clamped to now.
    expect(register(pane({ windowActivity: 900_000 }), 500_000).track.quietSince).toBe(500_000);
  });

  it('ends with the reason', () => {
    const start = register(pane(), 0).track;
    expect(end(start, 'closed', 5)).toEqual({ type: 'ended', host: 'local', key: '%7', sessionId: 'tmux-%7-0', paneId: '%7', why: 'closed', timestamp: 5 });
  });
});

describe('panes of another host', () => {
  it('carry the host and a host-prefixed key in their tracking id and events', () => {
    const { track, events } = register(paneInfo({ paneId: '%7' }), 1_000, 'build-box');
    expect(track.key).toBe('build-box/%7');
    expect(track.trackingId).toBe('tmux-build-box-%7-1000');
    expect(events[0]).toMatchObject({ type: 'registered', host: 'build-box', key: 'build-box/%7', paneId: '%7' });
    expect(end(track, 'host-gone', 2_000)).toMatchObject({ type: 'ended', host: 'build-box', key: 'build-box/%7', why: 'host-gone' });
  });
});
