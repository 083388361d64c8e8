// The CLI side of the dashboard: actions through the pane port over a scripted TmuxClient, and the
// stuck notifier.

import { describe, expect, it } from 'vitest';
import { attachCommand, createDashboardActions, watchForStuck } from '../../src/cli/dashboard-session.js';
import type { DashboardEngine } from '../../src/cli/dashboard-session.js';
import { NoClientError } from '../../src/engine/tmux/core.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { pickClient } from '../../src/engine/tmux/terminal-clients.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { ScreenChangedError } from '../../src/engine/typing/guarded-send.js';
import { AnswerRefusedError } from '../../src/engine/typing/answer-plan.js';
import { HostDownError } from '../../src/engine/hosts/host-status.js';
import { createPanePort, routePorts, type PanePort } from '../../src/engine/port/pane-port.js';
import { hashScreen } from '../../src/engine/pane/screen-hash.js';
import { LOCAL_HOST, type PromptVerdict } from '../../src/engine/types.js';
import { menuVerdict, paneView, PORT_SETTINGS } from '../helpers/fake-engine.js';
import { waitUntil } from '../helpers/wait-until.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realPortTime } from '../helpers/real-time.js';


const SCREEN = 'Reading package lists... Done\nDo you want to continue? [Y/n] \n\n';

/** What the matcher says of a [Y/n] question: a line answer. */
const lineVerdict: PromptVerdict = { ...menuVerdict, rule: 'generic/yes-no', tool: null, line: 'Do you want to continue? [Y/n]', answer: { kind: 'line', options: ['y', 'n', 'Enter'] } };

/** Jumps never type: the pane port is not asked for. */
const noPanes = async (): Promise<never> => {
  throw new Error('a jump asked for the pane port');
};

function fakeEngine(options: { terminalClient?: boolean; verdict?: PromptVerdict } = {}) {
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
  const answered: { key: string; surface: string; what: string }[] = [];
  const view = paneView({ pane: { sessionName: 'work', windowIndex: 2 }, screenHash: hashScreen(SCREEN), verdict: options.verdict ?? null });
  const engine = {
    tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'work' }, runner }),
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
    markAnswered: (key: string, answer: { surface: string; what: string }) => void answered.push({ key, ...answer }),
    onEvent: (l: (e: CorralEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  } as unknown as DashboardEngine;
  const emit = (e: CorralEvent) => listeners.forEach((l) => l(e));
  const setScreen = (text: string) => void (screen = text);
  return { engine, calls, view, emit, polls: () => polls, setScreen, answered };
}

/** The pane port over the scripted engine's tmux, as the dashboard's services build it. */
function portOver(engine: DashboardEngine, host = LOCAL_HOST): PanePort {
  return createPanePort({ ...realPortTime, engine, tmux: engine.tmux, host, settings: PORT_SETTINGS });
}


/** The tmux commands that type (send-keys; text goes as hex bytes), as the runner received them. */
const typing = (calls: readonly string[][]) => calls.filter((c) => c.join(' ').includes('send-keys')).map((c) => c.join(' '));
const captures = (calls: readonly string[][]) => calls.filter((c) => c[0] === 'capture-pane');

describe('dashboard actions', () => {
  it('answers through the pane port: checks the screen is the one drawn, types the text, then Enter in a second step, then polls', async () => {
    const f = fakeEngine({ verdict: lineVerdict });
    const port = portOver(f.engine);
    const actions = createDashboardActions(f.engine, async () => port, null, () => {});
    const plan = await actions.answer(f.view, 'y', hashScreen(SCREEN));
    expect(plan).toEqual({ kind: 'line', text: 'y', label: 'y, then Enter' });
    const id = f.view.pane.paneId;
    expect(captures(f.calls)).toEqual([['capture-pane', '-p', '-t', id]]);
    expect(typing(f.calls)).toEqual([`send-keys -t ${id} -H 79`, `send-keys -t ${id} Enter`]);
    expect(f.polls()).toBe(1);
  });

  it('types nothing when the screen changed since it was drawn, and looks again', async () => {
    const f = fakeEngine({ verdict: lineVerdict });
    const actions = createDashboardActions(f.engine, async () => portOver(f.engine), null, () => {});
    f.setScreen(`${SCREEN}y\n`);
    await expect(actions.answer(f.view, 'y', hashScreen(SCREEN))).rejects.toThrow(ScreenChangedError);
    expect(typing(f.calls)).toEqual([]);
    expect(f.polls()).toBe(1);
  });

  it('refuses an option the prompt does not offer, typing nothing', async () => {
    const f = fakeEngine({ verdict: lineVerdict });
    const actions = createDashboardActions(f.engine, async () => portOver(f.engine), null, () => {});
    await expect(actions.answer(f.view, 'maybe', hashScreen(SCREEN))).rejects.toThrow(AnswerRefusedError);
    expect(typing(f.calls)).toEqual([]);
  });

  it('sends a confirmed signal without the screen check', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, async () => portOver(f.engine), null, () => {});
    f.setScreen('building... 42%');
    await actions.send(f.view, [{ kind: 'key', key: 'C-c' }], null);
    expect(captures(f.calls)).toEqual([]);
    expect(typing(f.calls)).toEqual([`send-keys -t ${f.view.pane.paneId} C-c`]);
  });

  it('types a reply, then Enter, only on the screen drawn', async () => {
    const f = fakeEngine();
    const actions = createDashboardActions(f.engine, async () => portOver(f.engine), null, () => {});
    await actions.reply(f.view, 'ship it', hashScreen(SCREEN));
    const id = f.view.pane.paneId;
    expect(typing(f.calls)).toEqual([`send-keys -t ${id} -H 73 68 69 70 20 69 74`, `send-keys -t ${id} Enter`]);
  });

  it("refuses to end the dashboard's own pane, and leaves the port alone", async () => {
    const f = fakeEngine();
    const own = f.view.pane.paneId;
    await expect(createDashboardActions(f.engine, noPanes, own, () => {}).end(f.view, f.view.pane.pid)).rejects.toThrow(/runs this dashboard: quit with q/);
    // Any other pane goes to the port (this one throws when asked).
    await expect(createDashboardActions(f.engine, noPanes, '%99', () => {}).end(f.view, f.view.pane.pid)).rejects.toThrow('asked for the pane port');
  });

  it('gives the attach command for the selected pane when no tmux client is attached', async () => {
    const f = fakeEngine({ terminalClient: false });
    const result = await createDashboardActions(f.engine, noPanes, '%99', () => {}).jumpTo(f.view);
    expect(result).toEqual({
      switched: false,
      message: 'to go there run: tmux -L work attach -t work:2.0   (no tmux client is attached to switch)',
    });
  });

  it('switches the client when running inside the server, else names the attach command', async () => {
    const f = fakeEngine();
    const outside = await createDashboardActions(f.engine, noPanes, null, () => {}).jumpTo(f.view);
    expect(outside).toEqual({
      switched: false,
      message: 'to go there run: tmux -L work attach -t work:2.0   (corral is not inside this tmux server)',
    });
    expect(f.calls).toEqual([]);
    const inside = await createDashboardActions(f.engine, noPanes, '%99', () => {}).jumpTo(f.view);
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
    // A later stuck pane marks the end: once its message went out, one for the unstuck would have too.
    // (An id no fake view gets: the listed pane's id depends on how many views this file made before.)
    f.emit({ ...stuck, paneId: '%999', key: '%999', message: 'Later? [y/N]' });
    await waitUntil(() => f.calls.length >= 2, 5000, 'the later pane\'s message');
    expect(rings).toBe(2);
    expect(f.calls).toEqual([
      ['display-message', 'corral: work:2.0 is stuck (permission): Deploy? [y/N]'],
      // (%% is how a tmux format writes a %.)
      ['display-message', 'corral: %%999 is stuck (permission): Later? [y/N]'],
    ]);
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
    const box = fakeEngine({ verdict: menuVerdict });
    const view = { ...box.view, host: 'box', key: `box/${box.view.pane.paneId}` };
    const engine = {
      ...local.engine,
      getSnapshot: () => ({
        ...local.engine.getSnapshot(),
        panes: [local.view, view],
        hosts: [
          { name: 'local', ssh: null, server: '-L work', state: 'connected', since: 0, status: 'ok', error: null, paneCount: 1, retryAt: null },
          { name: 'box', ssh: 'box', server: 'default server on box', state: boxState, since: 0, status: boxState === 'connected' ? 'ok' : 'error', error: null, paneCount: 1, retryAt: null },
        ],
      }),
    } as DashboardEngine;
    const ports = new Map<string, PanePort>([
      [LOCAL_HOST, portOver({ ...engine, tmux: local.engine.tmux })],
      ['box', portOver({ ...engine, tmux: box.engine.tmux }, 'box')],
    ]);
    const port = routePorts(ports, engine, realClock);
    return { local, box, view, engine, port };
  }

  it("types into a remote pane through that host's client only", async () => {
    const h = twoHosts('connected');
    await createDashboardActions(h.engine, async () => h.port, null, () => {}).answer(h.view, '1', hashScreen(SCREEN));
    expect(captures(h.box.calls)).toHaveLength(1);
    expect(typing(h.box.calls)).toEqual([`send-keys -t ${h.box.view.pane.paneId} -H 31`]);
    expect(typing(h.local.calls)).toEqual([]);
    expect(captures(h.local.calls)).toEqual([]);
  });

  it('refuses a pane whose host is down, typing nothing anywhere', async () => {
    const h = twoHosts('unreachable');
    const answering = createDashboardActions(h.engine, async () => h.port, null, () => {}).answer(h.view, '1', hashScreen(SCREEN));
    await expect(answering).rejects.toThrow(HostDownError);
    expect([...h.box.calls, ...h.local.calls]).toEqual([]);
  });

  it('names the attach command for a remote pane instead of switching the local client', async () => {
    const h = twoHosts('connected');
    const result = await createDashboardActions(h.engine, noPanes, '%99', () => {}).jumpTo(h.view);
    expect(result).toEqual({ switched: false, message: `${h.view.key} is on box: attach with corral attach ${h.view.key}` });
    expect(h.local.calls).toEqual([]);
  });
});
