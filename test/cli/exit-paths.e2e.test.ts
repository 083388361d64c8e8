// Nothing outlives corral: the built dashboard, `serve --attach` and `watch`, each run in a tmux pane
// (its terminal) with output flowing on its control clients, ended by SIGKILL, SIGHUP, SIGTERM, by
// closing that pane, and by SIGKILL after it hung (stopped reading while output piled up). No control client, process or folder of it may be left beyond a few
// seconds; what a SIGKILL cannot clean (its ssh master folder, an idle master) is cleared by the
// next corral that starts. Here one round of every ending for serve (a poll and a stream client per
// host) and two each for the dashboard and watch; `npm run bench exits` runs every command with
// every ending, 20 rounds, locally and with an ssh host.

import { afterAll, describe, expect, it } from 'vitest';
import { ENDINGS, startExitRig, type Ending, type ExitCommand, type ExitResult, type ExitRig } from '../../bench/lib/exit-rig.mjs';

const rigs: ExitRig[] = [];
afterAll(async () => {
  for (const rig of rigs) await rig.dispose();
});

function expectNothingLeft(result: ExitResult): void {
  const shown = JSON.stringify(result);
  expect(result.cleanMs, `not clean within 5 s: ${shown}`).not.toBeNull();
  expect(result.clients, shown).toBe(0);
  expect(result.processes, shown).toEqual([]);
  if (!result.ending.endsWith('SIGKILL')) {
    // Every orderly stop closes its masters and removes its folder itself.
    expect(result.masters, shown).toBe(0);
    expect(result.ownFolder, shown).toBe(false);
  }
}

describe('after corral ends, nothing of it is left', () => {
  it('on this machine: serve every way it can end, the dashboard and watch killed and hung up', { timeout: 180_000 }, async () => {
    const rig = await startExitRig();
    rigs.push(rig);
    const runs: [ExitCommand, Ending][] = [
      ...ENDINGS.map((ending) => ['serve', ending] as [ExitCommand, Ending]),
      ['dashboard', 'terminal'],
      ['dashboard', 'SIGKILL'],
      ['watch', 'SIGHUP'],
      ['watch', 'SIGKILL'],
    ];
    for (const [command, ending] of runs) expectNothingLeft(await rig.run(command, ending));
    expect(rig.residue()).toEqual({ clients: 0, processes: [], sessions: 0, folders: [] });
  });

  it('with a host over ssh: the remote control clients go too, and the next corral clears what a SIGKILL left', { timeout: 180_000 }, async () => {
    const rig = await startExitRig({ remote: true });
    rigs.push(rig);
    const killed = await rig.run('serve', 'SIGKILL');
    expectNothingLeft(killed);
    // A dead process cannot remove its folder; the next corral does, and ends its idle master.
    expect(killed.ownFolder).toBe(true);
    const closed = await rig.run('serve', 'terminal');
    expectNothingLeft(closed);
    expect(closed.staleAtStart).toEqual({ folders: [], masters: 0 });
    expectNothingLeft(await rig.run('dashboard', 'SIGHUP'));
    // Hung with output piling up for it, then killed: the remote clients still go.
    expectNothingLeft(await rig.run('serve', 'hung-SIGKILL'));
    rig.sweep();
    expect(rig.residue()).toEqual({ clients: 0, processes: [], sessions: 0, folders: [] });
  });
});
