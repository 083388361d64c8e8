// Hosts: three tmux servers of 50 printing panes each, one watched here and two over ssh to a real
// sshd on loopback. Each host is measured alone, then all three at once: CPU per host (corral, its
// ssh processes, sshd and the tmux server's extra work), round trips per cycle, ssh masters, and
// the processes started per minute.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';
import { processTree, treeCpuMs } from './lib/proc.mjs';
import { startTestSshd } from './lib/sshd.mjs';

export const title = 'Hosts: one local, two over ssh (50 printing panes each, 500 ms poll)';

const driver = fileURLToPath(new URL('./lib/hosts-driver.mjs', import.meta.url));
const DURATION = Number(process.env.BENCH_HOSTS_MS ?? 20_000);
const PANES = Number(process.env.BENCH_HOSTS_PANES ?? 50);
const INTERVAL = 500;

export async function run(log) {
  const sshd = await startTestSshd();
  const servers = [startServer(PANES), startServer(PANES), startServer(PANES)];
  const [local, boxA, boxB] = servers;
  const hosts = {
    local: { name: 'local', socketName: local.name },
    'box-a': { name: 'box-a', ssh: sshd.alias, socketName: boxA.name },
    'box-b': { name: 'box-b', ssh: sshd.otherAlias, socketName: boxB.name },
  };
  const serverOf = { local, 'box-a': boxA, 'box-b': boxB };
  const sshdPid = () => sshd.processes()[0];
  try {
    await new Promise((r) => setTimeout(r, 1_500));
    // What the servers spend with nobody polling: their panes print all the same.
    log('servers alone');
    const before = servers.map((s) => cpuMs(s.pid));
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, DURATION));
    const baseRate = servers.map((s, i) => (cpuMs(s.pid) - before[i]) / (Date.now() - t0));

    const measure = async (names) => {
      const serverBefore = servers.map((s) => cpuMs(s.pid));
      const sshdBefore = treeCpuMs(sshdPid());
      // Processes sshd starts for corral (sessions, shells, tmux clients), seen by sampling its tree.
      const sshdPids = new Set(processTree(sshdPid()));
      const initial = new Set(sshdPids);
      const sampler = setInterval(() => processTree(sshdPid()).forEach((p) => sshdPids.add(p)), 100);
      const config = { hosts: names.map((n) => hosts[n]), sshOptions: sshd.sshOptions, controlDir: sshd.controlDir, intervalMs: INTERVAL, durationMs: DURATION };
      const out = execFileSync(process.execPath, [driver, JSON.stringify(config)], { encoding: 'utf8' });
      clearInterval(sampler);
      const result = JSON.parse(out.trim().split('\n').at(-1));
      const elapsed = result.elapsedMs;
      result.serverExtraMs = Object.fromEntries(
        names.map((n) => {
          const i = servers.indexOf(serverOf[n]);
          // The driver warms up for 3 s before its measured window: that part is left out too.
          const spent = cpuMs(servers[i].pid) - serverBefore[i];
          return [n, spent - baseRate[i] * (elapsed + 3_000)];
        }),
      );
      result.sshdMs = treeCpuMs(sshdPid()) - sshdBefore;
      result.sshdProcesses = [...sshdPids].filter((p) => !initial.has(p)).length;
      return result;
    };

    log('local alone');
    const alone = { local: await measure(['local']) };
    log('box-a alone (ssh)');
    alone['box-a'] = await measure(['box-a']);
    log('all three');
    const all = await measure(['local', 'box-a', 'box-b']);

    const perSec = (ms, elapsed) => ms / (elapsed / 1000);
    const localCpu = perSec(alone.local.cpuMs + alone.local.serverExtraMs.local, alone.local.elapsedMs);
    const a = alone['box-a'];
    const sshHere = perSec(a.cpuMs + a.masterCpuMs, a.elapsedMs);
    const sshThere = perSec(a.sshdMs + a.serverExtraMs['box-a'], a.elapsedMs);
    const minutes = all.elapsedMs / 60_000;
    const row = (name) => {
      const h = all.hosts[name];
      return `| ${name} | ${name === 'local' ? 'here' : 'ssh, loopback'} | ${h.panes} | ${h.cycles} | ${(h.roundTrips / h.cycles).toFixed(2)} | ${(h.spawns / minutes).toFixed(1)} |`;
    };
    return [
      `${DURATION / 1000} s per run, after 3 s of warm-up. The ssh hosts are tmux servers on this machine reached through a real sshd on 127.0.0.1, so "there" (sshd and the tmux server) runs here too. The tmux servers' own cost with nobody polling is taken out.`,
      '',
      '"Here" is this machine: corral, and for an ssh host its ssh client (the master and the poll session); for the local host the extra work of its tmux server, which runs here. "There" is what the remote machine spends for corral: sshd and its tmux server\'s extra work.',
      '',
      '| one host, alone | CPU ms/s here | CPU ms/s there | here / local | here + there / local |',
      '|---|---:|---:|---:|---:|',
      `| local (control mode) | ${localCpu.toFixed(1)} | - | 1.00x | 1.00x |`,
      `| box-a (control mode over ssh) | ${sshHere.toFixed(1)} | ${sshThere.toFixed(1)} | ${(sshHere / localCpu).toFixed(2)}x | ${((sshHere + sshThere) / localCpu).toFixed(2)}x |`,
      '',
      `All three at once: ${perSec(all.cpuMs + all.masterCpuMs, all.elapsedMs).toFixed(1)} ms/s of CPU here, ${perSec(all.sshdMs + Object.values(all.serverExtraMs).reduce((x, y) => x + y, 0) - all.serverExtraMs.local, all.elapsedMs).toFixed(1)} ms/s there (+ ${perSec(all.serverExtraMs.local, all.elapsedMs).toFixed(1)} ms/s of the local tmux server); ${all.masters} ssh master${all.masters === 1 ? '' : 's'} for 2 ssh hosts; sshd started ${(all.sshdProcesses / minutes).toFixed(1)} processes a minute.`,
      '',
      '| host | reached | panes | cycles | round trips per cycle | processes started per minute |',
      '|---|---|---:|---:|---:|---:|',
      row('local'),
      row('box-a'),
      row('box-b'),
    ].join('\n');
  } finally {
    for (const s of servers) s.kill();
    await sshd.dispose();
  }
}
