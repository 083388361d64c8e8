// Engines of remote hosts with a scripted tmux and a hand-driven clock: clock skew, host health,
// reconnect backoff, host-gone events, and engines combined across hosts.

import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, reconnectDelay, type Engine } from '../../src/engine/engine.js';
import { HostAuthError, HostUnreachableError } from '../../src/engine/tmux/host-errors.js';
import { combineEngines } from '../../src/engine/hosts/hosts-engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import { scriptedPoll, type PolledPane } from '../helpers/scripted-poll.js';
import type { CorralEvent, HostSpec } from '../../src/engine/types.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from '../helpers/real-time.js';

const T0 = 1_800_000_000_000;

interface RemotePane {
  id: string;
  screen: string;
  /** When the pane last printed, in the LOCAL clock (ms); the remote stamps it in its own clock. */
  printedAt: number;
}

/** A remote tmux server whose clock runs `skewMs` ahead of this machine's (behind when negative). */
function remoteTmux(panes: RemotePane[], now: () => number, skewMs: number) {
  const remoteSeconds = (localMs: number) => Math.floor((localMs + skewMs) / 1000);
  // The remote stamps each window in its own clock.
  const polled: PolledPane[] = panes.map((p) => ({
    id: p.id,
    get screen() {
      return p.screen;
    },
    get activity() {
      return remoteSeconds(p.printedAt);
    },
  }));
  return scriptedPoll(polled, () => remoteSeconds(now()));
}

const buildBox: HostSpec = { name: 'build-box', ssh: 'build-box', socket: { kind: 'default' } };

function remoteEngine(panes: RemotePane[], skewMs: number, persistent = false) {
  let now = T0;
  const clock = { now: () => now };
  const remote = remoteTmux(panes, clock.now, skewMs);
  const settings = resolveSettings({ flags: { quietThresholdMs: 10_000, askThresholdMs: 10_000 }, env: {}, file: null });
  // A poll runner of its own stands for the control-mode connection over ssh.
  const pollRunner: TmuxRunner = (args, options) => remote.runner(args, options);
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: buildBox.socket, runner: remote.runner, nonce: 'fixed', ...(persistent ? { pollRunner } : {}) });
  const engine = createEngine({ ...realEngineTime, settings, tmux, clock, wallClock: clock, host: buildBox });
  const events: CorralEvent[] = [];
  engine.onEvent((e) => events.push(e));
  return { engine, events, remote, advance: (ms: number) => (now += ms), now: () => now };
}

/** Runs one scenario on a host with the given skew and returns what a person would see. */
async function scenario(skewMs: number, persistent = false) {
  const prompt: RemotePane = { id: '%1', screen: 'Deploy? [y/N]', printedAt: T0 - 5_000 };
  const printing: RemotePane = { id: '%2', screen: 'step 1', printedAt: T0 - 600_000 };
  const h = remoteEngine([prompt, printing], skewMs, persistent);
  const seen: string[] = [];
  const look = () => {
    const views = h.engine.getSnapshot().panes;
    seen.push(views.map((v) => `${v.key}:${v.state}:${v.lines.join('|')}:${Math.round((h.now() - v.quietSince) / 1000)}s`).join(' '));
  };
  for (let i = 0; i < 12; i++) {
    await h.engine.pollNow();
    look();
    if (i === 2) {
      // The second pane prints: its screen changes and the remote stamps the window.
      printing.screen = 'step 2';
      printing.printedAt = h.now();
    }
    h.advance(1_000);
  }
  return { seen, events: h.events.map((e) => `${e.type}:${e.key}@${e.timestamp - T0}`), roundTrips: h.remote.calls.length };
}

describe('a remote host whose clock is off', () => {
  it('sees the same states, quiet times and screens 90 s ahead, 90 s behind and in step', async () => {
    const inStep = await scenario(0);
    // The prompt printed 5 s before the first poll: stuck once 10 s of quiet have passed, not
    // before (a remote stamp errs late by up to a second, its whole second; the clock reading
    // errs by the round trip and the phase of the second it was read in, none here).
    expect(inStep.events).toEqual(['registered:build-box/%1@0', 'registered:build-box/%2@0', 'stuck:build-box/%1@6000']);
    // The print at the third cycle is captured at the next one.
    expect(inStep.seen[3]).toContain('build-box/%2:monitoring:step 2');
    expect(await scenario(90_000)).toEqual(inStep);
    expect(await scenario(-90_000)).toEqual(inStep);
  });

  it('the same over a persistent connection, one round trip a cycle', async () => {
    const inStep = await scenario(0, true);
    expect(inStep.events).toEqual(['registered:build-box/%1@0', 'registered:build-box/%2@0', 'stuck:build-box/%1@6000']);
    // The print at the third cycle: listed at the next one, captured with the list after that.
    expect(inStep.seen[3]).toContain('build-box/%2:monitoring:step 1');
    expect(inStep.seen[4]).toContain('build-box/%2:monitoring:step 2');
    // 12 cycles, and once a question on how this server shows a paste buffer.
    expect(inStep.roundTrips).toBe(13);
    expect(await scenario(90_000, true)).toEqual(inStep);
    expect(await scenario(-90_000, true)).toEqual(inStep);
  });

  it('asks the remote server for its clock in the same round trip as the listing', async () => {
    const h = remoteEngine([{ id: '%1', screen: '$', printedAt: T0 }], 90_000);
    await h.engine.pollNow();
    await h.engine.pollNow();
    expect(h.remote.calls).toHaveLength(2);
    expect(h.remote.calls[1]).toContain('list-panes');
    expect(h.remote.calls[1]!.some((a) => a.endsWith('clock~>%s'))).toBe(true);
  });
});

describe('a remote host that goes down', () => {
  it('greys its rows, ends its panes with host-gone, backs off 1 s to 60 s, and recovers', async () => {
    const h = remoteEngine([{ id: '%1', screen: 'Deploy? [y/N]', printedAt: T0 - 60_000 }], 0);
    await h.engine.pollNow();
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]).toMatchObject({ name: 'build-box', ssh: 'build-box', state: 'connected', paneCount: 1, error: null });

    h.remote.fail(new HostUnreachableError('build-box', 'ssh: connect to host build-box port 22: Connection refused'));
    h.advance(1_000);
    await h.engine.pollNow();
    const down = h.engine.getSnapshot();
    expect(down.hosts[0]).toMatchObject({ state: 'unreachable', since: h.now(), error: 'ssh: connect to host build-box port 22: Connection refused', retryAt: h.now() + 1_000 });
    expect(down.panes.map((v) => [v.key, v.online])).toEqual([['build-box/%1', false]]);
    expect(h.events.at(-1)).toMatchObject({ type: 'ended', why: 'host-gone', host: 'build-box', key: 'build-box/%1' });

    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map(reconnectDelay);
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]?.retryAt).toBe(h.now() + 2_000);
    expect(h.engine.getSnapshot().hosts[0]?.since).toBe(down.hosts[0]?.since);
    expect(h.events.filter((e) => e.type === 'ended')).toHaveLength(1);

    h.remote.fail(new HostAuthError('build-box', 'root@127.0.0.1: Permission denied (publickey).'));
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]).toMatchObject({ state: 'auth-failed', error: 'root@127.0.0.1: Permission denied (publickey).' });

    h.remote.fail(null);
    h.advance(5_000);
    await h.engine.pollNow();
    const back = h.engine.getSnapshot();
    expect(back.hosts[0]).toMatchObject({ state: 'connected', error: null, retryAt: null });
    expect(back.panes.map((v) => [v.key, v.online])).toEqual([['build-box/%1', true]]);
    expect(h.events.at(-1)).toMatchObject({ type: 'registered', key: 'build-box/%1' });
  });
});

describe('engines combined across hosts', () => {
  function localAndRemote() {
    const r = remoteEngine([{ id: '%1', screen: 'Deploy? [y/N]', printedAt: T0 - 60_000 }], 0);
    const l = remoteTmux([{ id: '%1', screen: '$', printedAt: T0 - 60_000 }], r.now, 0);
    const settings = resolveSettings({ flags: {}, env: {}, file: null });
    const local = createEngine({ ...realEngineTime, settings, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'default' }, runner: l.runner, nonce: 'fixed' }), clock: { now: r.now } });
    const engines = new Map<string, Engine>([['local', local], ['build-box', r.engine]]);
    return { combined: combineEngines(engines), r, local, l };
  }

  it('lists every host, local first, and keeps one snapshot object while nothing changes', async () => {
    const { combined } = localAndRemote();
    await combined.pollNow();
    const snap = combined.getSnapshot();
    expect(snap.hosts.map((h) => [h.name, h.state])).toEqual([['local', 'connected'], ['build-box', 'connected']]);
    expect(snap.panes.map((v) => v.key)).toEqual(['%1', 'build-box/%1']);
    expect(combined.getSnapshot()).toBe(snap);
  });

  it('sends a call about a pane to its own host only', async () => {
    const { combined, r, local } = localAndRemote();
    await combined.pollNow();
    r.advance(20_000);
    await combined.pollNow();
    await combined.pollNow();
    expect(r.engine.getSnapshot().panes[0]?.state).toBe('stuck');
    combined.acknowledge('build-box/%1');
    expect(r.engine.getSnapshot().panes[0]?.acknowledged).toBe(true);
    expect(local.getSnapshot().panes[0]?.acknowledged).toBe(false);
    combined.acknowledge('elsewhere/%1');
    combined.acknowledge('not a key');
    combined.acknowledge('%1');
    expect(local.getSnapshot().panes[0]?.acknowledged).toBe(true);
  });

  it('keeps polling the other hosts while one is down', async () => {
    const { combined, r, l } = localAndRemote();
    await combined.pollNow();
    r.remote.fail(new HostUnreachableError('build-box', 'ssh: connect to host build-box port 22: Connection timed out'));
    const before = l.calls.length;
    await combined.pollNow();
    await combined.pollNow();
    expect(l.calls.length).toBe(before + 2);
    const snap = combined.getSnapshot();
    expect(snap.hosts.map((h) => h.state)).toEqual(['connected', 'unreachable']);
    expect(snap.panes.map((v) => [v.key, v.online])).toEqual([['%1', true], ['build-box/%1', false]]);
  });
});

describe('a reachable host without a tmux server', () => {
  it('is connected, and says why it lists no panes', async () => {
    const h = remoteEngine([{ id: '%1', screen: '$', printedAt: T0 }], 0);
    h.remote.setServer(false);
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]).toMatchObject({ state: 'connected', status: 'no-server', error: 'no tmux server is running on default server', retryAt: null });
  });

  it('answered after ssh failures: the backoff starts again from 1 s, and no retry time is left behind', async () => {
    const h = remoteEngine([{ id: '%1', screen: '$', printedAt: T0 }], 0);
    h.remote.fail(new HostUnreachableError('build-box', 'ssh: connect to host build-box port 22: Connection refused'));
    await h.engine.pollNow();
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]?.retryAt).toBe(h.now() + 2_000);
    h.remote.fail(null);
    h.remote.setServer(false);
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]).toMatchObject({ state: 'connected', status: 'no-server', retryAt: null });
    h.remote.fail(new HostUnreachableError('build-box', 'ssh: connect to host build-box port 22: Connection refused'));
    await h.engine.pollNow();
    expect(h.engine.getSnapshot().hosts[0]?.retryAt).toBe(h.now() + 1_000);
  });
});
