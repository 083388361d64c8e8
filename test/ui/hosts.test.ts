import { describe, expect, it } from 'vitest';
import { clockTime, groupByHost, hostDown, hostLine, isMultiHost, paneWhere } from '../../src/ui/hosts.js';
import { keepOrder, sortPaneIds, stuckSetKey } from '../../src/ui/order.js';
import { planLayout } from '../../src/ui/layout.js';
import { localHealth, paneView, remoteHealth } from '../helpers/fake-engine.js';

const at1405 = new Date(2026, 11, 2, 14, 5, 30).getTime();

describe('host health lines', () => {
  it('says how each host is doing, in the words a person acts on', () => {
    const now = at1405 + 60_000;
    expect(hostLine({ host: 'local', health: localHealth('default server', { paneCount: 12 }) }, now)).toBe(
      'local · connected · 12 panes',
    );
    expect(hostLine({ host: 'box', health: remoteHealth('box', { paneCount: 1 }) }, now)).toBe('box · connected · 1 pane');
    expect(hostLine({ host: 'box', health: remoteHealth('box') }, now)).toBe('box · connected · no panes');
    expect(hostLine({ host: 'box', health: remoteHealth('box', { status: 'no-server' }) }, now)).toBe(
      'box · connected · no tmux server',
    );
    expect(hostLine({ host: 'build-box', health: remoteHealth('build-box', { state: 'connecting' }) }, now)).toBe(
      'build-box · connecting…',
    );
    const down = remoteHealth('build-box', { state: 'unreachable', since: at1405, retryAt: now + 7_200 });
    expect(hostLine({ host: 'build-box', health: down }, now)).toBe('build-box · unreachable since 14:05 (retry in 8s)');
    expect(hostLine({ host: 'build-box', health: down }, now + 7_200)).toBe('build-box · unreachable since 14:05 (retrying…)');
    expect(
      hostLine(
        { host: 'build-box', health: { ...down, retryAt: null, error: 'ssh: connect to host build-box port 22: No route to host' } },
        now,
      ),
    ).toBe('build-box · unreachable since 14:05: ssh: connect to host build-box port 22: No route to host');
    const refused = remoteHealth('vm1', { state: 'auth-failed', since: at1405, error: 'Permission denied (publickey).' });
    expect(hostLine({ host: 'vm1', health: refused }, now)).toBe('vm1 · auth failed: Permission denied (publickey).');
    expect(hostLine({ host: 'gone', health: null }, now)).toBe('gone · offline');
    expect(clockTime(new Date(2026, 0, 1, 9, 3).getTime())).toBe('09:03');
  });

  it('names the reason nothing can be sent to a pane whose host is down', () => {
    const hosts = [
      localHealth(),
      remoteHealth('build-box', { state: 'unreachable' }),
      remoteHealth('vm1', { state: 'auth-failed' }),
      remoteHealth('new', { state: 'connecting' }),
    ];
    expect(hostDown(paneView({ host: 'build-box', online: false }), hosts)).toBe('build-box is unreachable');
    expect(hostDown(paneView({ host: 'vm1', online: false }), hosts)).toBe('vm1: auth failed');
    expect(hostDown(paneView({ host: 'new', online: false }), hosts)).toBe('new is connecting');
    expect(hostDown(paneView({ host: 'elsewhere', online: false }), hosts)).toBe('elsewhere is offline');
    expect(hostDown(paneView({ host: 'build-box' }), hosts)).toBeNull();
    const remote = paneView({ host: 'build-box', pane: { sessionName: 'ci', windowIndex: 4 } });
    expect(remote.key).toMatch(/^build-box\/%\d+$/);
    expect(paneWhere(remote)).toBe('ci:4.0 on build-box');
    expect(paneWhere(paneView({ pane: { sessionName: 'ci', windowIndex: 4 } }))).toBe('ci:4.0');
  });
});

describe('groupByHost', () => {
  const local = paneView();
  const box = paneView({ host: 'build-box' });
  const vm = paneView({ host: 'vm1' });
  const stray = paneView({ host: 'stray' });
  const byKey = new Map([local, box, vm, stray].map((v) => [v.key, v]));
  const hosts = [remoteHealth('vm1'), localHealth(), remoteHealth('build-box'), remoteHealth('empty')];

  it('puts the local host first, then the hosts in snapshot order, then hosts it does not list', () => {
    const groups = groupByHost([stray.key, box.key, vm.key, local.key], byKey, hosts, true);
    expect(groups.map((g) => [g.host, g.keys])).toEqual([
      ['local', [local.key]],
      ['vm1', [vm.key]],
      ['build-box', [box.key]],
      ['empty', []],
      ['stray', [stray.key]],
    ]);
    expect(groups.find((g) => g.host === 'stray')?.health).toBeNull();
  });

  it('drops hosts without rows when asked to (a filter is on)', () => {
    expect(groupByHost([box.key], byKey, hosts, false).map((g) => g.host)).toEqual(['build-box']);
  });

  it('groups only when there is more than the local host', () => {
    expect(isMultiHost([localHealth()], [local])).toBe(false);
    expect(isMultiHost([localHealth(), remoteHealth('build-box')], [local])).toBe(true);
    expect(isMultiHost([localHealth()], [local, box])).toBe(true);
  });
});

describe('order with hosts down', () => {
  it('sorts panes on a host that is down after the others, and leaves them out of the stuck set', () => {
    const offlineStuck = paneView({ host: 'vm1', online: false, state: 'stuck', reason: 'permission', stuckSince: 1 });
    const stuck = paneView({ state: 'stuck', reason: 'stopped', stuckSince: 5_000 });
    const quiet = paneView({ quietSince: 0 });
    expect(sortPaneIds([offlineStuck, quiet, stuck])).toEqual([stuck.key, quiet.key, offlineStuck.key]);
    expect(stuckSetKey([offlineStuck, stuck])).toBe(stuck.key);
    expect(keepOrder([offlineStuck.key], [quiet, offlineStuck])).toEqual([offlineStuck.key, quiet.key]);
  });
});

describe('planLayout with host lines', () => {
  it('gives the list room for host lines too, and never more than the terminal has', () => {
    // 100 x 40, preview below: 6 rows and 3 host lines fit, the preview takes the rest.
    const grouped = planLayout(100, 40, 10, 1, { rows: 6, groupLines: 3, previewLines: 50 });
    const plain = planLayout(100, 40, 10, 1, { rows: 6, previewLines: 50 });
    expect(grouped.preview).toBe('below');
    expect(grouped.listHeight).toBe(plain.listHeight + 3);
    expect(grouped.listHeight).toBe(9);
    for (const rows of [1, 5, 30, 200]) {
      for (const height of [14, 20, 40]) {
        const layout = planLayout(100, height, 10, 1, { rows, groupLines: 4, previewLines: 30 });
        const used = layout.listHeight + (layout.columnHeader ? 1 : 0) + (layout.preview === 'below' ? layout.previewHeight + 1 : 0);
        expect(used + 3).toBeLessThanOrEqual(height - 1);
        expect(layout.listHeight).toBeGreaterThan(0);
      }
    }
  });
});
