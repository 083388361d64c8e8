import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostHealth, PaneView } from '../../src/engine/types.js';
import { fakeActions, fakeEngine, menuVerdict, localHealth, manualClock, paneView, remoteHealth } from '../helpers/fake-engine.js';
import { pressKeys } from '../helpers/ink-keys.js';

// Colour escapes on, so that greyed rows can be told from the others: chalk reads this once, when
// it is loaded, so the modules that draw are loaded after it is set (and the variable is put back).
vi.stubEnv('FORCE_COLOR', '1');
const { cleanup, render } = await import('ink-testing-library');
const { App } = await import('../../src/ui/App.js');
vi.unstubAllEnvs();

afterEach(() => cleanup());

// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
/** The frame as read, colours left out. */
const frameOf = (r: { lastFrame: () => string | undefined }) => plain(r.lastFrame() ?? '');
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 2000, interval: 10 });
const ESC = '\u001b';
const press = pressKeys;
const lines = (r: { lastFrame: () => string | undefined }) => plain(frameOf(r)).split('\n');
const lineWith = (r: { lastFrame: () => string | undefined }, text: string) =>
  lines(r).find((l) => l.includes(text)) ?? '';
const rawLineWith = (r: { lastFrame: () => string | undefined }, text: string) =>
  (r.lastFrame() ?? '')
    .split('\n')
    .find((l) => plain(l).includes(text)) ?? '';

const menu = menuVerdict;

const NOW = 100_000;
const at1405 = new Date(2026, 11, 2, 14, 5).getTime();

function stuckAt(host: string, session: string, overrides: Partial<Omit<PaneView, 'pane'>> = {}) {
  return paneView({
    host,
    state: 'stuck',
    reason: 'permission',
    quietSince: 10_000,
    stuckSince: 20_000,
    verdict: menu,
    lines: ['Do you want to proceed?', '❯ 1. Yes', '  2. No'],
    pane: { sessionName: session, windowIndex: 1, windowName: 'node', command: 'node', title: 'host' },
    ...overrides,
  });
}

/** Panes on three hosts: this machine, build-box (up) and vm1 (refused the key). */
function hostsScene() {
  const localStuck = stuckAt('local', 'here', { stuckSince: 30_000 });
  const localQuiet = paneView({
    quietSince: 5_000,
    pane: { sessionName: 'here', windowIndex: 2, windowName: 'bash', command: 'bash', title: 'host' },
  });
  const boxStuck = stuckAt('build-box', 'ci', { stuckSince: 40_000, screenHash: 'box-1' });
  const boxQuiet = paneView({
    host: 'build-box',
    quietSince: 8_000,
    pane: { sessionName: 'ci', windowIndex: 2, windowName: 'make', command: 'make', title: 'host' },
  });
  // Stuck longest of all, but its host is down: its row is the last one seen.
  const vmStuck = stuckAt('vm1', 'lab', { online: false, stuckSince: 1_000 });
  const hosts: HostHealth[] = [
    localHealth('default server', { paneCount: 2 }),
    remoteHealth('build-box', { paneCount: 2 }),
    remoteHealth('vm1', { state: 'auth-failed', since: at1405, error: 'Permission denied (publickey).' }),
  ];
  return { localStuck, localQuiet, boxStuck, boxQuiet, vmStuck, hosts, panes: [vmStuck, boxQuiet, localQuiet, boxStuck, localStuck] };
}

function mount(scene = hostsScene(), size = { columns: 100, rows: 40 }) {
  const engine = fakeEngine(scene.panes, 'default server', scene.hosts);
  const clock = manualClock(NOW);
  const { actions, calls } = fakeActions({ switched: true, message: 'switched' });
  const r = render(
    <App engine={engine} actions={actions} clock={clock} tickMs={10} hostName="host" size={size} />,
  );
  return { ...r, ...scene, engine, clock, calls };
}

describe('dashboard with several hosts', () => {
  it('lists the waiting panes of every host first, then the other rows under a line per host: local first, then the hosts in snapshot order', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('vm1 · auth failed'));
    const shown = lines(r);
    const at = (text: string) => shown.findIndex((l) => l.includes(text));
    expect(shown[at('waiting · ')]?.trim()).toBe('waiting · 2 panes on 2 hosts');
    expect(shown[at('local · ')]?.trim()).toBe('local · connected · 2 panes');
    expect(shown[at('build-box · ')]?.trim()).toBe('build-box · connected · 2 panes');
    expect(shown[at('vm1 · ')]?.trim()).toBe('vm1 · auth failed: Permission denied (publickey).');
    // The waiting rows name their host; each pane is listed once.
    expect(shown.filter((l) => l.includes('ci:1.0'))).toHaveLength(1);
    const order = ['waiting · ', 'here:1.0', 'ci:1.0 on build-box', 'local · ', 'here:2.0', 'build-box · ', 'ci:2.0', 'vm1 · ', 'lab:1.0'].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The header counts the panes on hosts that are down apart.
    expect(frameOf(r)).toContain('2 stuck · 2 quiet · 0 active · 4 total · 1 offline');
  });

  it('shows connecting, and unreachable with the time it went down and a retry countdown', async () => {
    const s = hostsScene();
    const r = mount(s);
    await until(() => expect(frameOf(r)).toContain('vm1 · auth failed'));
    r.engine.setHosts([
      s.hosts[0] as HostHealth,
      remoteHealth('build-box', { state: 'connecting' }),
      remoteHealth('vm1', { state: 'unreachable', since: at1405, retryAt: NOW + 8_000 }),
    ]);
    await until(() => expect(lineWith(r, 'build-box · ').trim()).toBe('build-box · connecting…'));
    expect(lineWith(r, 'vm1 · ').trim()).toBe('vm1 · unreachable since 14:05 (retry in 8s)');
    r.clock.advance(5_000);
    await until(() => expect(lineWith(r, 'vm1 · ').trim()).toBe('vm1 · unreachable since 14:05 (retry in 3s)'));
  });

  it('greys the rows of a host that is down and shows no stuck badge on them', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('lab:1.0'));
    const offline = rawLineWith(r, 'lab:1.0');
    expect(plain(offline)).toMatch(/offline\s+lab:1\.0/);
    expect(plain(offline)).not.toContain('STUCK');
    expect(offline).toContain('\u001b[2m');
    // An online row of the same kind is neither greyed nor marked offline.
    const online = rawLineWith(r, 'ci:1.0');
    expect(plain(online)).toContain('STUCK permission');
    expect(online).not.toContain('\u001b[2m');
  });

  it('goes to the next stuck pane across hosts and skips the ones on a host that is down', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('lab:1.0'));
    const selected = () => lines(r).find((l) => l.startsWith('›')) ?? '';
    const seen: string[] = [];
    // Two stuck panes are online: every n moves the selection, so each move is awaited.
    for (let i = 0; i < 4; i++) {
      const before = selected();
      await press(r.stdin, 'n');
      await until(() => expect(selected()).not.toBe(before));
      seen.push(/(here|ci|lab):\d\.0/.exec(selected())?.[0] ?? '');
    }
    expect(new Set(seen)).toEqual(new Set(['here:1.0', 'ci:1.0']));
    // Moving row by row still reaches the offline pane (its last screen can be looked at).
    await press(r.stdin, 'G');
    await until(() => expect(selected()).toContain('lab:1.0'));
    expect(frameOf(r)).toContain('offline, last screen seen');
  });

  it('refuses answers, replies, signals, snooze and jump for a pane whose host is down, and sends nothing', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('lab:1.0'));
    await press(r.stdin, 'G');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('lab:1.0'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('vm1: auth failed: not sent'));
    // The refused a swallows its answer key; Esc ends that.
    await press(r.stdin, '1', ESC, 's');
    await until(() => expect(frameOf(r)).toContain('vm1: auth failed: its last state may be stale; not snoozed'));
    await press(r.stdin, 'r');
    await until(() => expect(frameOf(r)).toContain('vm1: auth failed: a reply cannot go out'));
    expect(frameOf(r)).not.toContain('reply to');
    await press(r.stdin, ESC, '\r');
    await until(() => expect(frameOf(r)).toContain(`vm1: auth failed: cannot jump to ${r.vmStuck.key}`));
    expect(r.calls).toEqual([]);
    expect(r.engine.acknowledged).toEqual([]);
    // The footer offers no answer key for it, and the help says why.
    expect(frameOf(r)).not.toContain('a 1/2/Enter');
    await press(r.stdin, '?');
    await until(() => expect(frameOf(r)).toContain('Answer (lab:1.0 on vm1)'));
    expect(frameOf(r)).toContain('vm1: auth failed: nothing can be sent until it is back');
  });

  it('refuses an answer or a reply begun while the host was up once it is unreachable', async () => {
    const s = hostsScene();
    const r = mount(s);
    await until(() => expect(frameOf(r)).toContain('ci:1.0'));
    await press(r.stdin, 'n');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('ci:1.0'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('answer ci:1.0 on build-box'));
    const down = s.panes.map((v) => (v.host === 'build-box' ? { ...v, online: false } : v));
    r.engine.setHosts([s.hosts[0] as HostHealth, remoteHealth('build-box', { state: 'unreachable', since: at1405 }), s.hosts[2] as HostHealth]);
    r.engine.setPanes(down);
    await until(() => expect(lineWith(r, 'build-box · ')).toContain('unreachable'));
    await press(r.stdin, '1');
    await until(() => expect(frameOf(r)).toContain('build-box is unreachable: not sent'));
    expect(r.calls).toEqual([]);
  });

  it('keeps a reply begun while the host was up when the host goes down, and sends nothing', async () => {
    const s = hostsScene();
    const r = mount(s);
    await until(() => expect(frameOf(r)).toContain('ci:1.0'));
    await press(r.stdin, 'n');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('ci:1.0'));
    await press(r.stdin, 'r', 'o', 'k');
    await until(() => expect(frameOf(r)).toContain('reply to ci:1.0 on build-box › ok'));
    r.engine.setHosts([s.hosts[0] as HostHealth, remoteHealth('build-box', { state: 'unreachable', since: at1405 }), s.hosts[2] as HostHealth]);
    r.engine.setPanes(s.panes.map((v) => (v.host === 'build-box' ? { ...v, online: false } : v)));
    await until(() => expect(lineWith(r, 'build-box · ')).toContain('unreachable'));
    await press(r.stdin, '\r');
    await until(() => expect(frameOf(r)).toContain('build-box is unreachable: not sent (Enter sends, Esc cancels)'));
    expect(frameOf(r)).toContain('reply to ci:1.0 on build-box › ok');
    expect(r.calls).toEqual([]);
  });

  it('sends no confirmed signal once the host has gone down', async () => {
    const s = hostsScene();
    const r = mount(s);
    await until(() => expect(frameOf(r)).toContain('ci:1.0'));
    await press(r.stdin, 'n');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('ci:1.0'));
    await press(r.stdin, 'a', '\u0003');
    await until(() => expect(frameOf(r)).toContain('send C-c to ci:1.0 on build-box? y sends'));
    r.engine.setHosts([s.hosts[0] as HostHealth, remoteHealth('build-box', { state: 'auth-failed', since: at1405 }), s.hosts[2] as HostHealth]);
    r.engine.setPanes(s.panes.map((v) => (v.host === 'build-box' ? { ...v, online: false } : v)));
    await until(() => expect(lineWith(r, 'build-box · ')).toContain('auth failed'));
    await press(r.stdin, 'y');
    await until(() => expect(frameOf(r)).toContain('build-box: auth failed: not sent'));
    expect(r.calls).toEqual([]);
  });

  it('answers and snoozes a pane on another host by its key, and points to attach instead of switching', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('ci:1.0'));
    await press(r.stdin, 'n');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('ci:1.0'));
    await press(r.stdin, '\r');
    const key = r.boxStuck.key;
    expect(key).toMatch(/^build-box\/%\d+$/);
    await until(() => expect(frameOf(r)).toContain(`${key} is on build-box: attach with corral attach ${key}`));
    expect(r.calls.filter((c) => c.kind === 'jump')).toEqual([]);
    await press(r.stdin, 'a', '1');
    await until(() =>
      expect(r.calls).toContainEqual({ kind: 'answer', paneId: key, option: '1', shownHash: 'box-1' }),
    );
    await until(() => expect(frameOf(r)).toContain('sent 1 to ci:1.0 on build-box'));
    r.engine.setPanes(r.panes.map((v) => (v.key === key ? { ...v, screenHash: 'box-2' } : v)));
    await press(r.stdin, 's');
    await until(() => expect(r.engine.acknowledged).toEqual([key]));
    // A local pane still switches the tmux client.
    await press(r.stdin, 'g', '\r');
    await until(() => expect(r.calls).toContainEqual({ kind: 'jump', paneId: r.localStuck.key }));
  });

  it('keeps the list within a short terminal: host lines count, and the selected row stays under its host', async () => {
    const s = hostsScene();
    const more = Array.from({ length: 12 }, (_, i) =>
      paneView({
        host: 'build-box',
        quietSince: 1_000 + i,
        pane: { sessionName: 'ci', windowIndex: 10 + i, windowName: 'make', command: 'make', title: 'host' },
      }),
    );
    const scene = { ...s, panes: [...s.panes, ...more] };
    const rows = 14;
    const r = mount(scene, { columns: 80, rows });
    await until(() => expect(frameOf(r)).toContain('local · '));
    expect(lines(r).length).toBeLessThan(rows);
    // Down to the build-box rows past the window: the top line names their host.
    for (let i = 0; i < 9; i++) await press(r.stdin, 'j');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toMatch(/ci:1\d\.0/));
    expect(lines(r).length).toBeLessThan(rows);
    expect(frameOf(r)).not.toContain('local · ');
    const shown = lines(r);
    expect(shown[shown.findIndex((l) => l.trimStart().startsWith('STATE')) + 1]).toContain('build-box · connected');
    await press(r.stdin, 'G');
    await until(() => expect(lines(r).find((l) => l.startsWith('›'))).toContain('lab:1.0'));
    expect(lines(r).length).toBeLessThan(rows);
    expect(frameOf(r)).toContain('vm1 · auth failed');
  });

  it('shows no host line with the local host alone', async () => {
    const s = hostsScene();
    const r = mount({ ...s, hosts: [localHealth()], panes: [s.localStuck, s.localQuiet] });
    await until(() => expect(frameOf(r)).toContain('here:1.0'));
    expect(frameOf(r)).not.toContain('local · ');
    expect(frameOf(r)).toContain('1 stuck · 1 quiet · 0 active · 2 total');
    expect(frameOf(r)).not.toContain('offline');
  });
});
