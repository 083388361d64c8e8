// The CLI side of the dashboard: actions over a scripted TmuxClient, and the stuck notifier.

import { describe, expect, it } from 'vitest';
import { attachCommand, createDashboardActions, watchForStuck } from '../../src/cli/dashboard-session.js';
import type { Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { paneView } from '../helpers/fake-engine.js';

function fakeEngine() {
  const calls: string[][] = [];
  const runner: TmuxRunner = async (args) => {
    calls.push([...args]);
    if (args[0] === 'display-message' && args.includes('-p')) return { stdout: '$1\n', stderr: '', exitCode: 0 };
    if (args[0] === 'list-clients') {
      // A control-mode client (like corral's own poll connection) first: it must never be picked.
      const format = args[args.indexOf('-F') + 1]!;
      const line = (name: string, control: string) =>
        format
          .replace('#{client_name}', name)
          .replace('#{client_control_mode}', control)
          .replace('#{session_id}', '$1')
          .replace('#{pane_id}', '%99');
      return { stdout: `${line('client-123', '1')}\n${line('/dev/pts/7', '0')}\n`, stderr: '', exitCode: 0 };
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
  } as unknown as Engine;
  const emit = (e: CorralEvent) => listeners.forEach((l) => l(e));
  return { engine, calls, view, emit, polls: () => polls };
}

describe('dashboard actions', () => {
  it('types a reply, then Enter in a second step, then polls', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, null, () => {});
    await actions.reply(f.view, 'yes please');
    expect(f.calls).toHaveLength(2);
    expect(f.calls[0]).toEqual(['send-keys', '-t', f.view.pane.paneId, '-l', '--', 'yes please']);
    expect(f.calls[1]).toEqual(['send-keys', '-t', f.view.pane.paneId, 'Enter']);
    expect(f.polls()).toBe(1);
  });

  it('switches the client when running inside the server, else names the attach command', async () => {
    const f = fakeEngine();
    const outside = await createDashboardActions(f.engine, null, () => {}).jumpTo(f.view);
    expect(outside).toEqual({
      switched: false,
      message: 'not inside this tmux server; run: tmux -L work attach -t work:2.0',
    });
    expect(f.calls).toEqual([]);
    const inside = await createDashboardActions(f.engine, '%99', () => {}).jumpTo(f.view);
    expect(inside.switched).toBe(true);
    expect(f.calls.flat()).toContain('switch-client');
    expect(f.calls.flat()).toContain('/dev/pts/7');
    expect(attachCommand(f.engine, 'a:1.0')).toBe('tmux -L work attach -t a:1.0');
  });
});

describe('stuck notifier', () => {
  const stuck: CorralEvent = {
    type: 'stuck',
    sessionId: 't',
    paneId: '%1',
    timestamp: 0,
    cwd: '/',
    transcriptPath: '',
    reason: 'permission',
    message: 'Deploy? [y/N]',
  };

  it('rings and shows a tmux message for new stuck panes', async () => {
    const f = fakeEngine();
    let rings = 0;
    watchForStuck(f.engine, 'both', () => void (rings += 1));
    f.emit({ ...stuck, paneId: f.view.pane.paneId });
    f.emit({ type: 'unstuck', sessionId: 't', paneId: '%1', timestamp: 1 });
    await new Promise((r) => setTimeout(r, 10));
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
