// Hook claims shared through the pane's `@corral_hook` record: the corral that receives a hook
// records it, every other corral on the server reads it from its listing and reaches the same state
// at the same moment; a pane whose agent exited keeps no claim. Scripted tmux, manual clocks.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { agentExited, decodeHookRecord, encodeHookRecord, hookRecordEvent, type HookRecord } from '../../src/engine/hooks/hook-record.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { CorralEvent, HookEvent } from '../../src/engine/types.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from '../helpers/real-time.js';

const permission: HookEvent = {
  agent: 'claude-code',
  signal: 'permission',
  event: 'PermissionRequest',
  sessionId: 'sess-1',
  transcriptPath: '/home/me/.claude/projects/x/sess-1.jsonl',
  cwd: '/srv/app',
  message: 'Bash: touch /tmp/x',
};

/** A seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('hook records', () => {
  it('round-trip any text in their fields, in characters a listing keeps', () => {
    const next = random(24);
    for (let i = 0; i < 500; i++) {
      const text = () => String.fromCodePoint(...Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 0x2000)));
      const command = Array.from({ length: Math.floor(next() * 12) }, () => 'abz09._-'.charAt(Math.floor(next() * 8))).join('');
      const record: HookRecord = { hook: { ...permission, sessionId: text(), cwd: text(), message: next() < 0.3 ? null : text() }, at: 1_700_000_000_000 + i, command };
      const value = encodeHookRecord(record);
      expect(value).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(decodeHookRecord(value)).toEqual(record);
    }
  });

  it('refuse values somebody else wrote: foreign, truncated, mangled or with wrong fields', () => {
    const good = encodeHookRecord({ hook: permission, at: 1_700_000_000_000, command: 'claude' });
    const wrong = (body: object) => `h1.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
    for (const value of ['', 'x', 'h1.', 'h1.!!!', hookRecordEvent(good).slice(0, -5), `h2.${good.slice(3)}`, wrong({ a: 'vim', s: 'permission', e: 'x', i: '', t: '', c: '', m: null, at: 1 }), wrong({ a: 'codex', s: 'launch', e: 'x', i: '', t: '', c: '', m: null, at: 1 }), wrong({ a: 'codex', s: 'stop', e: 'x', i: '', t: '', c: '', m: null, at: -1 }), wrong([1, 2])]) {
      expect(decodeHookRecord(value)).toBeNull();
    }
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const chars = Array.from({ length: Math.floor(next() * 60) }, () => 'h1.AZaz09_-=+/ '.charAt(Math.floor(next() * 15))).join('');
      expect(() => decodeHookRecord(chars)).not.toThrow();
    }
  });

  it('tell an exited agent by a shell where the hook came from another command', () => {
    expect(agentExited('claude', 'bash')).toBe(true);
    expect(agentExited('node', '-zsh')).toBe(true);
    expect(agentExited('', 'fish')).toBe(true);
    expect(agentExited('claude', 'claude')).toBe(false);
    expect(agentExited('bash', 'bash')).toBe(false);
    expect(agentExited('claude', 'vim')).toBe(false);
  });
});

/** Two corral engines on one scripted server, each with its own clocks (set together). */
function twoCorrals(panes: PolledPane[]) {
  const fake = scriptedPoll(panes);
  let now = 5_000_000;
  let wall = 1_700_000_000_000;
  const engine = () => {
    const settings = resolveSettings({ flags: { quietThresholdMs: 10_000 }, env: {}, file: null });
    const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, nonce: 'fixed' });
    const e = createEngine({ ...realEngineTime, settings, tmux, clock: { now: () => now }, wallClock: { now: () => wall } });
    const events: CorralEvent[] = [];
    e.onEvent((event) => events.push(event));
    return { engine: e, events };
  };
  return {
    fake,
    engine,
    advance(ms: number) {
      now += ms;
      wall += ms;
    },
  };
}

const stateOf = (e: ReturnType<ReturnType<typeof twoCorrals>['engine']>, id: string) => {
  const view = e.engine.getSnapshot().panes.find((v) => v.pane.paneId === id);
  return view && { state: view.state, reason: view.reason, message: view.message, claim: view.hook?.claim ?? null, stuckSince: view.stuckSince };
};

describe('engines that share hook claims through the pane record', () => {
  it('a hook received by one corral reaches another through its listing, with the same state and stuck time', async () => {
    const pane: PolledPane = { id: '%1', screen: '● Creating a marker file', command: 'claude' };
    const w = twoCorrals([pane]);
    const receiver = w.engine();
    const follower = w.engine();
    await receiver.engine.pollNow();
    await follower.engine.pollNow();
    w.advance(1_000);
    expect(receiver.engine.observeHook('%1', permission)).toBe(true);
    await new Promise((r) => setImmediate(r)); // the record is written in the background
    expect(decodeHookRecord(pane.hookRecord ?? '')).toEqual({ hook: permission, at: 1_700_000_001_000, command: 'claude' });
    w.advance(300);
    await follower.engine.pollNow();
    expect(stateOf(follower, '%1')).toEqual(stateOf(receiver, '%1'));
    expect(stateOf(follower, '%1')).toMatchObject({ state: 'stuck', reason: 'permission', claim: 'permission', message: 'Bash: touch /tmp/x' });
    const stuck = (events: CorralEvent[]) => events.find((e) => e.type === 'stuck');
    expect(stuck(follower.events)).toEqual(stuck(receiver.events));
    expect(stuck(follower.events)).toMatchObject({ source: 'hook', timestamp: 5_001_000 });
    // The receiver reads back its own record without hearing the hook twice.
    const before = receiver.events.length;
    await receiver.engine.pollNow();
    expect(receiver.events).toHaveLength(before);
  });

  it('a corral that starts late overrules a contradicted claim at the same moment as one that watched all along', async () => {
    // The agent says its turn runs, but its screen shows the idle shell prompt: after the grace
    // time (10 s by default) the screen wins.
    const pane: PolledPane = { id: '%1', screen: 'me@box:~/src$ ', command: 'claude' };
    const w = twoCorrals([pane]);
    const early = w.engine();
    await early.engine.pollNow();
    await early.engine.pollNow();
    early.engine.observeHook('%1', { ...permission, signal: 'prompt', event: 'UserPromptSubmit', message: null });
    await new Promise((r) => setImmediate(r));
    const claimOf = (e: typeof early) => e.engine.getSnapshot().panes[0]?.hook?.claim ?? null;
    w.advance(6_000);
    await early.engine.pollNow();
    const late = w.engine();
    await late.engine.pollNow();
    await late.engine.pollNow();
    expect([claimOf(early), claimOf(late)]).toEqual(['working', 'working']);
    w.advance(3_900);
    await early.engine.pollNow();
    await late.engine.pollNow();
    expect([claimOf(early), claimOf(late)]).toEqual(['working', 'working']);
    w.advance(200);
    await early.engine.pollNow();
    await late.engine.pollNow();
    expect([claimOf(early), claimOf(late)]).toEqual([null, null]);
  });

  it('drops the claims of an agent that exited at once, and clears its record for every corral', async () => {
    const pane: PolledPane = { id: '%1', screen: 'Do you want to proceed?\n❯ 1. Yes\n  2. No', command: 'claude' };
    const w = twoCorrals([pane]);
    const receiver = w.engine();
    await receiver.engine.pollNow();
    receiver.engine.observeHook('%1', permission);
    await new Promise((r) => setImmediate(r));
    expect(stateOf(receiver, '%1')).toMatchObject({ state: 'stuck', reason: 'permission' });
    // The person quits the agent: the shell is back, and no SessionEnd came.
    pane.command = 'bash';
    pane.screen = 'me@box:~/src$ ';
    w.advance(2_000);
    await receiver.engine.pollNow();
    expect(stateOf(receiver, '%1')).toMatchObject({ state: 'monitoring', claim: null });
    expect(receiver.events.map((e) => e.type)).toEqual(['registered', 'stuck', 'unstuck']);
    expect(pane.hookRecord).toBe('');
    // A corral started now hears nothing of the old agent.
    const late = w.engine();
    await late.engine.pollNow();
    expect(late.engine.getSnapshot().panes[0]?.hook).toBeNull();
  });

  it('a stale record of an agent that exited before a corral started gives no claim', async () => {
    const record = encodeHookRecord({ hook: permission, at: 1_699_999_000_000, command: 'claude' });
    const pane: PolledPane = { id: '%1', screen: 'me@box:~/src$ ', command: 'bash', hookRecord: record };
    const w = twoCorrals([pane]);
    const late = w.engine();
    await late.engine.pollNow();
    await late.engine.pollNow();
    expect(stateOf(late, '%1')).toMatchObject({ state: 'monitoring', claim: null });
    expect(late.events.map((e) => e.type)).toEqual(['registered']);
    expect(pane.hookRecord).toBe('');
  });

  it('ignores a record somebody forged with characters a record never holds', async () => {
    const pane: PolledPane = { id: '%1', screen: 'working', command: 'claude', hookRecord: 'h1.not base64 \n%9 x' };
    const w = twoCorrals([pane]);
    const e = w.engine();
    await e.engine.pollNow();
    expect(e.engine.getSnapshot().panes.map((v) => [v.pane.paneId, v.hook])).toEqual([['%1', null]]);
  });
});
