// The dashboard at fleet size: 500 panes on ten hosts (one of them down). The waiting panes of
// every host on top, hosts that collapse to one line of counts and expand again (Space, H, Enter),
// a filter by host, and a frame that holds only the lines that fit.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import type { HostHealth, PaneView } from '../../src/engine/types.js';
import { App } from '../../src/ui/App.js';
import { fakeActions, fakeEngine, localHealth, manualClock, menuVerdict, paneView, remoteHealth } from '../helpers/fake-engine.js';
import { pressKeys } from '../helpers/ink-keys.js';

afterEach(() => cleanup());

const NOW = 1_000_000;
const HOSTS = ['local', ...Array.from({ length: 9 }, (_, i) => `box-${i + 1}`)];
const DOWN = 'box-9';
const ESC = '\u001b';

/** Pane i of a host: every tenth waits at a permission menu, the rest are quiet. */
function fleetPane(host: string, i: number): PaneView {
  const stuck = i % 10 === 0;
  return paneView({
    host,
    online: host !== DOWN,
    quietSince: 1_000 + i,
    ...(stuck ? { state: 'stuck', reason: 'permission', stuckSince: 2_000 + i, verdict: menuVerdict, lines: ['Do you want to proceed?', '❯ 1. Yes', '  2. No'] } : {}),
    pane: { paneId: `%${i}`, sessionName: 'work', windowIndex: i, windowName: stuck ? 'deploy' : 'build', command: 'bash', title: 'host' },
  });
}

function fleet(): { panes: PaneView[]; hosts: HostHealth[] } {
  const panes = HOSTS.flatMap((host) => Array.from({ length: 50 }, (_, i) => fleetPane(host, i)));
  const hosts = HOSTS.map((host) =>
    host === 'local'
      ? localHealth('default server', { paneCount: 50 })
      : host === DOWN
        ? remoteHealth(host, { state: 'unreachable', since: new Date(2026, 11, 3, 14, 5).getTime(), retryAt: NOW + 8_000 })
        : remoteHealth(host, { paneCount: 50 }),
  );
  return { panes, hosts };
}

const ROWS = 40;

function mount() {
  const { panes, hosts } = fleet();
  const engine = fakeEngine(panes, 'default server', hosts);
  const { actions, calls } = fakeActions({ switched: true, message: 'switched' });
  const r = render(<App engine={engine} actions={actions} clock={manualClock(NOW)} tickMs={10} hostName="host" size={{ columns: 110, rows: ROWS }} />);
  return { ...r, calls };
}

type Mounted = ReturnType<typeof mount>;
const lines = (r: Mounted) => (r.lastFrame() ?? '').split('\n');
const selected = (r: Mounted) => lines(r).find((l) => l.startsWith('›')) ?? '';
// Generous: 500 panes on a loaded machine take a while to draw after a burst of keys.
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 10_000, interval: 10 });
const press = (r: Mounted, ...keys: string[]) => pressKeys(r.stdin, ...keys);

describe('dashboard with ten hosts and 500 panes', () => {
  it('draws only the lines that fit, the waiting panes of every host on top, each naming its host', async () => {
    const r = mount();
    await until(() => expect(r.lastFrame()).toContain('waiting · 45 panes on 9 hosts'));
    const shown = lines(r);
    expect(shown.length).toBeLessThan(ROWS);
    // Nine hosts are up, five waiting panes each; the down host's panes wait for nobody.
    const rows = shown.filter((l) => /^(› | {2})STUCK/.test(l));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((l) => /work:\d+\.0( on box-\d)?/.test(l))).toBe(true);
    expect(rows.some((l) => / on box-\d/.test(l))).toBe(true);
    expect(shown.join('\n')).not.toContain('on box-9');
  });

  it('collapses every host to one line of counts with H, keeps the waiting panes, and expands them with H again', async () => {
    const r = mount();
    await until(() => expect(r.lastFrame()).toContain('waiting · 45 panes'));
    // The 45 waiting rows come first: G goes to the last line, the collapsed box-9.
    await press(r, 'H', 'G');
    await until(() => expect(selected(r)).toMatch(/^› box-9 ▸/));
    const frame = r.lastFrame() ?? '';
    expect(frame).toContain('box-1 ▸ 50 panes · 5 waiting · 0 offline · connected');
    expect(frame).toContain('local ▸ 50 panes · 5 waiting · 0 offline · connected');
    expect(frame).toMatch(/box-9 ▸ 50 panes · 0 waiting · 50 offline · unreachable since 14:05 \(retry in \d+s\)/);
    // No host's other rows are drawn; the waiting ones still are.
    expect(lines(r).filter((l) => l.includes('build'))).toEqual([]);
    expect(lines(r).filter((l) => l.includes('deploy')).length).toBeGreaterThan(5);
    // Expanded again, the selection goes to the first row of the host whose line it was on.
    await press(r, 'H');
    await until(() => expect(r.lastFrame()).not.toContain('▸'));
    expect(selected(r)).toMatch(/^› offline +work:\d+\.0 /);
    expect(r.lastFrame()).toContain('box-9 · unreachable since 14:05');
  });

  it('collapses the selected pane’s host with Space, selects its line, and Enter or Space opens it again', async () => {
    const r = mount();
    await until(() => expect(r.lastFrame()).toContain('waiting · 45 panes'));
    // Past the 45 waiting rows: the first of local's own rows.
    await press(r, 'g', ...Array.from({ length: 45 }, () => 'j'));
    await until(() => expect(selected(r)).toMatch(/quiet.*work:\d+\.0 +build/));
    await press(r, ' ');
    await until(() => expect(selected(r)).toContain('local ▸ 50 panes · 5 waiting · 0 offline · connected'));
    // Nothing can be typed into a host's line.
    await press(r, 'a', '1');
    await until(() => expect(r.lastFrame()).toContain('local is collapsed: Space expands it'));
    expect(r.calls).toEqual([]);
    await press(r, ESC, '\r');
    await until(() => expect(selected(r)).toMatch(/quiet.*work:\d+\.0 +build/));
    expect(r.lastFrame()).toContain('local · connected · 50 panes');
    await press(r, ' ', ' ');
    await until(() => expect(r.lastFrame()).toContain('local · connected'));
    expect(selected(r)).toMatch(/work:\d+\.0 +build/);
  });

  it('filters by host: host:NAME keeps one host, host:box-* several, and words still narrow it', async () => {
    const r = mount();
    await until(() => expect(r.lastFrame()).toContain('waiting · 45 panes'));
    await press(r, '/', ...'host:box-3', '\r');
    await until(() => expect(r.lastFrame()).toContain('waiting · 5 panes on 1 host'));
    const frame = r.lastFrame() ?? '';
    expect(frame).toContain('box-3 · connected · 50 panes');
    expect(frame).not.toMatch(/^(local|box-[124-9]) [·▸]/m);
    expect(frame).not.toMatch(/on box-[124-9]/);
    await press(r, ESC, '/', ...'host:box-* deploy', '\r');
    await until(() => expect(r.lastFrame()).toContain('waiting · 40 panes on 8 hosts'));
    expect(lines(r).filter((l) => l.includes('build'))).toEqual([]);
    // Below the waiting rows, only the down host's deploy panes are left (their stuck badges greyed).
    await press(r, 'G');
    await until(() => expect(selected(r)).toMatch(/offline +work:40\.0 +deploy/));
    expect(lines(r).filter((l) => l.includes('build'))).toEqual([]);
    expect(r.lastFrame()).toContain('box-9 · unreachable');
    expect(r.lastFrame()).not.toMatch(/^local [·▸]/m);
  });
});
