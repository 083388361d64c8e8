// The CLI side of the dashboard: actions over a scripted TmuxClient, and the stuck notifier.

import { describe, expect, it } from 'vitest';
import { attachCommand, createDashboardActions, watchForStuck } from '../../src/cli/dashboard-session.js';
import type { DashboardEngine } from '../../src/cli/dashboard-session.js';
import { NoClientError, TmuxClient, pickClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { ScreenChangedError } from '../../src/engine/guarded-send.js';
import { contentHash } from '../../src/engine/screen-content.js';
import { hashScreen, readLines } from '../../src/engine/screen-hash.js';
import { paneView } from '../helpers/fake-engine.js';
import { waitUntil } from '../helpers/wait-until.js';

const SCREEN = 'Reading package lists... Done\nDo you want to continue? [Y/n] \n\n';

function fakeEngine(options: { terminalClient?: boolean } = {}) {
  const calls: string[][] = [];
  let screen = SCREEN;
  const runner: TmuxRunner = async (args) => {
    calls.push([...args]);
    if (args[0] === 'capture-pane') return { stdout: screen, stderr: '', exitCode: 0 };
    if (args[0] === 'display-message' && args.includes('-p')) return { stdout: '$1\n', stderr: '', exitCode: 0 };
    if (args[0] === 'list-clients') {
      // A control-mode client (like corral's own poll connection) first: it must never be picked.
      const format = args[args.indexOf('-F') + 1]!;
      const line = (name: string, control: string) =>
        format
          .replace('#{client_name}', name)
          .replace('#{client_control_mode}', control)
          .replace('#{session_id}', '$1')
          .replace('#{pane_id}', '%99')
          .replace('#{client_activity}', '1700000000');
      const terminal = options.terminalClient === false ? '' : `${line('/dev/pts/7', '0')}\n`;
      return { stdout: `${line('client-123', '1')}\n${terminal}`, stderr: '', exitCode: 0 };
    }
    return { stdout: '', stderr: '', exitCode: 0 };
  };
  const listeners = new Set<(e: CorralEvent) => void>();
  let polls = 0;
  const view = paneView({ pane: { sessionName: 'work', windowIndex: 2 } });
  const engine = {
    tmux: new TmuxClient({ socket: { kind: 'name', name: 'work' }, runner }),
    getSnapshot: () => ({
      server: '-L work',
      hosts: [],
      status: 'ok',
      statusMessage: null,
      panes: [view],
      updatedAt: 0,
      cycle: 1,
    }),
    pollNow: async () => void (polls += 1),
    onEvent: (l: (e: CorralEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  } as unknown as DashboardEngine;
  const emit = (e: CorralEvent) => listeners.forEach((l) => l(e));
  const setScreen = (text: string) => void (screen = text);
  return { engine, calls, view, emit, polls: () => polls, setScreen };
}

describe('dashboard actions', () => {
  it('checks the screen is the one drawn, types the text, then Enter in a second step, then polls', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, null, () => {});
    const shownHash = hashScreen(SCREEN);
    await actions.type(f.view, { items: [{ kind: 'text', text: 'y' }], enter: true, shownHash });
    const id = f.view.pane.paneId;
    expect(f.calls).toEqual([
      ['capture-pane', '-p', '-t', id],
      ['send-keys', '-t', id, '-l', '--', 'y'],
      ['send-keys', '-t', id, 'Enter'],
    ]);
    expect(f.polls()).toBe(1);
  });

  it('types nothing when the screen changed since it was drawn', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, null, () => {});
    const shownHash = hashScreen(SCREEN);
    f.setScreen(`${SCREEN}y\n`);
    await expect(actions.type(f.view, { items: [{ kind: 'text', text: 'y' }], enter: true, shownHash })).rejects.toThrow(
      ScreenChangedError,
    );
    expect(f.calls).toEqual([['capture-pane', '-p', '-t', f.view.pane.paneId]]);
  });

  it('types when only animation changed since it was drawn: a blinking bullet is the same dialog', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, null, () => {});
    const dialog = (bullet: string) => `● I will run that command.\n${bullet} Running the command\n Do you want to proceed?\n ❯ 1. Yes\n   2. No\n`;
    f.setScreen(dialog('●'));
    const shown = readLines(dialog('●'));
    const shownHash = contentHash(shown.lines, shown.hash);
    f.setScreen(dialog(' '));
    await actions.type(f.view, { items: [{ kind: 'text', text: '1' }], enter: false, shownHash });
    expect(f.calls.map((c) => c[0])).toEqual(['capture-pane', 'send-keys']);
    // The cursor moved to another option: that is another screen.
    f.setScreen(dialog(' ').replace(' ❯ 1. Yes\n   2. No', '   1. Yes\n ❯ 2. No'));
    await expect(actions.type(f.view, { items: [{ kind: 'key', key: 'Enter' }], enter: false, shownHash })).rejects.toThrow(ScreenChangedError);
  });

  it('sends a confirmed signal without the screen check', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, null, () => {});
    f.setScreen('building... 42%');
    await actions.type(f.view, { items: [{ kind: 'key', key: 'C-c' }], enter: false, shownHash: null });
    expect(f.calls).toEqual([['send-keys', '-t', f.view.pane.paneId, 'C-c']]);
  });

  it('gives the attach command for the selected pane when no tmux client is attached', async () => {
    const f = fakeEngine({ terminalClient: false });
    const result = await createDashboardActions(f.engine, '%99', () => {}).jumpTo(f.view);
    expect(result).toEqual({
      switched: false,
      message: 'to go there run: tmux -L work attach -t work:2.0   (no tmux client is attached to switch)',
    });
  });

  it('switches the client when running inside the server, else names the attach command', async () => {
    const f = fakeEngine();
    const outside = await createDashboardActions(f.engine, null, () => {}).jumpTo(f.view);
    expect(outside).toEqual({
      switched: false,
      message: 'to go there run: tmux -L work attach -t work:2.0   (corral is not inside this tmux server)',
    });
    expect(f.calls).toEqual([]);
    const inside = await createDashboardActions(f.engine, '%99', () => {}).jumpTo(f.view);
    expect(inside.switched).toBe(true);
    expect(f.calls.flat()).toContain('switch-client');
    expect(f.calls.flat()).toContain('/dev/pts/7');
    expect(attachCommand(f.engine, 'a:1.0')).toBe('tmux -L work attach -t a:1.0');
    expect(attachCommand(f.engine, "it's mine:1.0")).toBe(`tmux -L work attach -t 'it'\\''s mine:1.0'`);
  });
});

describe('the client Enter moves', () => {
  const sep = '|';
  const listing = ['ctl-1|1|%5|1700000009', '/dev/pts/1|0|%2|1700000001', '/dev/pts/2|0|%5|1700000003', '/dev/pts/3|0|%7|1700000002'].join('\n');

  it("is the terminal client showing corral's pane, else the one used last; never a control client", () => {
    expect(pickClient(listing, sep, '%2')).toBe('/dev/pts/1');
    expect(pickClient(listing, sep, '%5')).toBe('/dev/pts/2');
    expect(pickClient(listing, sep, '%9')).toBe('/dev/pts/2');
    expect(pickClient(listing, sep, null)).toBe('/dev/pts/2');
    expect(() => pickClient('ctl-1|1|%5|1700000009\n', sep, null)).toThrow(NoClientError);
  });
});

describe('stuck notifier', () => {
  const stuck: CorralEvent = {
    type: 'stuck',
    host: 'local',
    key: '%1',
    sessionId: 't',
    paneId: '%1',
    timestamp: 0,
    cwd: '/',
    transcriptPath: '',
    reason: 'permission',
    message: 'Deploy? [y/N]',
    source: 'screen',
  };

  it('rings and shows a tmux message for new stuck panes', async () => {
    const f = fakeEngine();
    let rings = 0;
    watchForStuck(f.engine, 'both', () => void (rings += 1));
    f.emit({ ...stuck, paneId: f.view.pane.paneId, key: f.view.pane.paneId });
    f.emit({ type: 'unstuck', host: 'local', key: '%1', sessionId: 't', paneId: '%1', timestamp: 1 });
    // The message for the stuck pane comes after its ring: once it is asked for, both events were heard.
    await waitUntil(() => f.calls.length > 0, 5000, 'the tmux message');
    expect(rings).toBe(1);
    expect(f.calls).toEqual([['display-message', 'corral: work:2.0 is stuck (permission): Deploy? [y/N]']]);
  });

  it('does nothing when off', async () => {
    const f = fakeEngine();
    let rings = 0;
    watchForStuck(f.engine, 'off', () => void (rings += 1));
    f.emit(stuck);
    expect(rings).toBe(0);
    expect(f.calls).toEqual([]);
  });
});

describe('dashboard actions across hosts', () => {
  function twoHosts(boxState: 'connected' | 'unreachable') {
    const local = fakeEngine();
    const box = fakeEngine();
    const view = { ...box.view, host: 'box', key: `box/${box.view.pane.paneId}` };
    const engine = {
      ...local.engine,
      getSnapshot: () => ({
        ...local.engine.getSnapshot(),
        hosts: [
          { name: 'local', ssh: null, server: '-L work', state: 'connected', since: 0, status: 'ok', error: null, paneCount: 1, retryAt: null },
          { name: 'box', ssh: 'box', server: 'default server on box', state: boxState, since: 0, status: boxState === 'connected' ? 'ok' : 'error', error: null, paneCount: 1, retryAt: null },
        ],
      }),
      tmuxOf: (host: string) => (host === 'box' ? box.engine.tmux : null),
    } as DashboardEngine;
    return { local, box, view, engine };
  }

  it("types into a remote pane through that host's client only", async () => {
    const h = twoHosts('connected');
    await createDashboardActions(h.engine, null, () => {}).type(h.view, { items: [{ kind: 'text', text: 'y' }], enter: false, shownHash: hashScreen(SCREEN) });
    expect(h.box.calls.map((c) => c[0])).toEqual(['capture-pane', 'send-keys']);
    expect(h.local.calls).toEqual([]);
  });

  it('refuses a pane whose host is down, typing nothing anywhere', async () => {
    const h = twoHosts('unreachable');
    const typing = createDashboardActions(h.engine, null, () => {}).type(h.view, { items: [{ kind: 'text', text: 'y' }], enter: true, shownHash: null });
    await expect(typing).rejects.toThrow('box is unreachable: not sent');
    expect([...h.box.calls, ...h.local.calls]).toEqual([]);
  });

  it('names the attach command for a remote pane instead of switching the local client', async () => {
    const h = twoHosts('connected');
    const result = await createDashboardActions(h.engine, '%99', () => {}).jumpTo(h.view);
    expect(result).toEqual({ switched: false, message: `${h.view.key} is on box: attach with corral attach ${h.view.key}` });
    expect(h.local.calls).toEqual([]);
  });
});
