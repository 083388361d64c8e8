// Starting and ending panes from the dashboard's keys, without Ink: `c` opens the start prompt for
// the selected pane's place, Tab switches to the worktree branch, Enter asks for a start effect;
// `X` asks a question naming the pane and only `y` asks for an end effect. Actions go through the
// real reducer, as the store applies them.

import { describe, expect, it } from 'vitest';
import { dispatchKey, type KeyEffect, type KeyPress, type KeyScene } from '../../src/ui/key-dispatch.js';
import { initialUiState, uiReducer, visibleRows, type UiAction, type UiState } from '../../src/ui/state.js';
import { matchesFilter } from '../../src/ui/pane-label.js';
import { UNAVAILABLE_SERVICES } from '../../src/ui/service-state.js';
import { startRequestOf } from '../../src/ui/start-draft.js';
import { runKeyEffect } from '../../src/ui/key-effects.js';
import type { HostHealth, PaneView } from '../../src/engine/types.js';
import { fakeActions, localHealth, paneView, remoteHealth } from '../helpers/fake-engine.js';

const press = (name: string): KeyPress => ({ name, input: name.length === 1 ? name : '', ctrl: name.startsWith('ctrl+'), meta: false });

function dashboard(views: readonly PaneView[], hosts: HostHealth[] = [localHealth()]) {
  let now = 10_000;
  let ui: UiState = uiReducer(initialUiState, { type: 'sync', panes: views, now });
  let current = views;
  const effects: KeyEffect[] = [];
  const scene = (): KeyScene => ({
    ui,
    rows: visibleRows(ui, current, matchesFilter, hosts),
    hosts,
    services: UNAVAILABLE_SERVICES,
    now,
    stateNow: now,
    activeWindowMs: 5_000,
  });
  return {
    effects,
    scene,
    get ui() {
      return ui;
    },
    apply(action: UiAction) {
      ui = uiReducer(ui, action);
    },
    /** Each name is a key; `type:TEXT` types TEXT as one run, as a paste or fast typing arrives. */
    keys(...names: string[]) {
      for (const name of names) {
        const typed = name.startsWith('type:') ? { name: name.slice(5), input: name.slice(5), ctrl: false, meta: false } : press(name);
        const outcome = dispatchKey(scene(), typed);
        for (const action of outcome.actions) ui = uiReducer(ui, action);
        effects.push(...outcome.effects);
        now += 100;
      }
    },
    setPanes(next: readonly PaneView[]) {
      current = next;
      ui = uiReducer(ui, { type: 'sync', panes: next, now });
    },
  };
}

function twoPanes() {
  // app has been quiet the longest: it is the top row, selected before any key.
  const app = paneView({ quietSince: 0, pane: { sessionId: '$4', sessionName: 'work', cwd: '/home/me/src/app', command: 'claude', title: 'fix the tests' } });
  const logs = paneView({ quietSince: 9_000, pane: { sessionId: '$5', sessionName: 'ops', cwd: '/var/log', command: 'tail' } });
  return { app, logs, all: [app, logs] };
}

describe('c: start a command in a new window', () => {
  it("opens a prompt for the selected pane's host, folder and session; Enter asks to start what was typed", () => {
    const { app, all } = twoPanes();
    const d = dashboard(all);
    d.keys('c');
    expect(d.ui.mode).toBe('start');
    expect(d.ui.start).toMatchObject({ host: 'local', cwd: app.pane.cwd, sessionId: '$4', command: '', field: 'command' });
    d.keys('type:npm run dev', 'enter');
    expect(d.ui.mode).toBe('normal');
    expect(d.effects).toHaveLength(1);
    const effect = d.effects[0];
    if (effect?.kind !== 'start') throw new Error(`expected a start effect, got ${effect?.kind}`);
    expect(startRequestOf(effect.draft)).toEqual({ command: 'npm run dev', cwd: '/home/me/src/app', worktree: null, session: { id: '$4' } });
  });

  it('takes a branch after Tab and asks for the command in a new worktree on it; Tab goes back to the command', () => {
    const d = dashboard(twoPanes().all);
    d.keys('c', 'type:claude', 'tab', 'type:feat/login', 'tab', 'backspace', 'type:e');
    expect(d.ui.start).toMatchObject({ command: 'claude', branch: 'feat/login', field: 'command' });
    d.keys('enter');
    const effect = d.effects[0];
    if (effect?.kind !== 'start') throw new Error('expected a start effect');
    expect(startRequestOf(effect.draft)).toMatchObject({ command: 'claude', worktree: 'feat/login' });
  });

  it('refuses Enter without a command or with a branch git would misread, keeping what was typed; Esc cancels and says so', () => {
    const d = dashboard(twoPanes().all);
    d.keys('c', 'enter');
    expect(d.ui.mode).toBe('start');
    expect(d.ui.status?.text).toMatch(/type the command/);
    d.keys('type:claude', 'tab', 'type:-rf', 'enter');
    expect(d.ui.mode).toBe('start');
    expect(d.ui.status?.text).toMatch(/starts with "-"/);
    expect(d.ui.start).toMatchObject({ command: 'claude', branch: '-rf' });
    d.keys('escape');
    expect(d.ui.mode).toBe('normal');
    expect(d.ui.status?.text).toBe('nothing was started');
    expect(d.effects).toEqual([]);
  });

  it('letters typed into the prompt are never dashboard commands', () => {
    const d = dashboard(twoPanes().all);
    d.keys('c', 'q', 'X', 'w', 'a', '/', 'j');
    expect(d.ui.mode).toBe('start');
    expect(d.ui.start?.command).toBe('qXwa/j');
    expect(d.effects).toEqual([]);
  });

  it('starts on the remote host of the selected pane, and refuses while that host is down', () => {
    const remote = paneView({ host: 'build-box', pane: { cwd: '/srv/app' } });
    const up = dashboard([remote], [localHealth(), remoteHealth('build-box')]);
    up.keys('c');
    expect(up.ui.start).toMatchObject({ host: 'build-box', cwd: '/srv/app' });
    const down = dashboard([{ ...remote, online: false }], [localHealth(), remoteHealth('build-box', { state: 'unreachable' })]);
    down.keys('c', 'type:x', 'enter');
    expect(down.ui.mode).not.toBe('start');
    expect(down.ui.status?.text).toMatch(/build-box is unreachable/);
    expect(down.effects).toEqual([]);
  });

  it('with no pane at all, opens the prompt for this machine in tmux’s default folder and session', () => {
    const d = dashboard([]);
    d.keys('c');
    expect(d.ui.start).toMatchObject({ host: 'local', cwd: null, sessionId: null });
  });

  it('selects the new pane once a snapshot lists it, unless the person moved first', () => {
    const { all } = twoPanes();
    const d = dashboard(all);
    d.keys('j');
    const started = paneView({ pane: { paneId: '%900' } });
    d.apply({ type: 'await-pane', key: started.key });
    d.setPanes(all);
    expect(d.ui.selectedId).toBe(all[1]?.key);
    d.setPanes([...all, started]);
    expect(d.ui.selectedId).toBe(started.key);
    const other = paneView({ pane: { paneId: '%901' } });
    d.apply({ type: 'await-pane', key: other.key });
    d.keys('k');
    d.setPanes([...all, started, other]);
    expect(d.ui.selectedId).not.toBe(other.key);
  });

  it('shows and selects the new pane even when the filter would hide it', () => {
    const { all } = twoPanes();
    const d = dashboard(all);
    d.keys('/', 'type:nothing-matches-this', 'enter');
    expect(d.ui.filter).toBe('nothing-matches-this');
    const started = paneView({ pane: { paneId: '%902', windowName: 'fresh' } });
    d.apply({ type: 'await-pane', key: started.key });
    d.setPanes([...all, started]);
    expect(d.ui.filter).toBe('');
    expect(d.ui.selectedId).toBe(started.key);
    // The row drawn selected, which keys act on.
    expect(d.scene().rows.selectedId).toBe(started.key);
  });

  it('runs the start through the actions, and a refusal reopens the prompt with the draft and the reason', async () => {
    const { all } = twoPanes();
    const d = dashboard(all);
    const { actions, calls } = fakeActions(undefined, undefined, 'branch fix already exists in /home/me/src/app: choose a new name');
    d.keys('c', 'type:claude', 'tab', 'type:fix', 'enter');
    const dispatched: UiAction[] = [];
    runKeyEffect(d.effects[0] as KeyEffect, { actions, engine: { acknowledge: () => {}, markSeen: () => {} }, services: { getSnapshot: () => UNAVAILABLE_SERVICES, subscribe: () => () => {} }, dispatch: (a) => dispatched.push(a) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([{ kind: 'start', start: { host: 'local', request: { command: 'claude', cwd: '/home/me/src/app', worktree: 'fix', session: { id: '$4' } } } }]);
    for (const action of dispatched) d.apply(action);
    expect(d.ui.mode).toBe('start');
    expect(d.ui.start).toMatchObject({ command: 'claude', branch: 'fix' });
    expect(d.ui.status?.text).toMatch(/already exists.*Enter tries again/);
  });
});

describe('X: end a pane after a question that names it', () => {
  it('asks naming the host, the target, the command and the title; y asks to end that pane and its process', () => {
    const { app, all } = twoPanes();
    const d = dashboard(all);
    d.keys('X');
    expect(d.ui.mode).toBe('end');
    expect(d.ui.ending).toEqual({ key: app.key, pid: app.pane.pid, label: `${app.target} (claude · fix the tests)` });
    d.keys('y');
    expect(d.effects).toEqual([{ kind: 'end', pane: app, pid: app.pane.pid }]);
  });

  it('any other key cancels and says so; nothing is ended', () => {
    for (const other of ['n', 'Y', 'enter', 'escape', 'X', 'q']) {
      const d = dashboard(twoPanes().all);
      d.keys('X', other);
      expect(d.ui.mode, other).toBe('normal');
      expect(d.ui.status?.text, other).toMatch(/^cancelled: .* keeps running$/);
      expect(d.effects, other).toEqual([]);
    }
  });

  it('ends nothing when the pane closed while the question was shown, and says so', () => {
    const { app, logs } = twoPanes();
    const d = dashboard([app, logs]);
    d.keys('X');
    d.setPanes([logs]);
    d.keys('y');
    expect(d.effects).toEqual([]);
    expect(d.ui.status?.text).toMatch(/has closed; nothing was ended/);
  });

  it('names a remote pane with its host', () => {
    const remote = paneView({ host: 'build-box', pane: { command: 'aider', title: '' } });
    const d = dashboard([remote], [localHealth(), remoteHealth('build-box')]);
    d.keys('X');
    expect(d.ui.ending?.label).toBe(`${remote.target} on build-box (aider)`);
  });
});
