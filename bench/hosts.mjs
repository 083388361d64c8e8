// Hosts: three tmux servers of 50 printing panes each, one watched here and two over ssh to a real
// sshd on loopback. Each host is measured alone, then all three at once: CPU per host (corral, its
// ssh processes, sshd and the tmux server's extra work), round trips per cycle, ssh masters, and
// the processes started per minute.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuMs, numberedPrinter, readOverWindow, startServer } from './lib/tmux-fixture.mjs';
import { processTree, treeCpuMs } from './lib/proc.mjs';
import { startTestSshd } from './lib/sshd.mjs';

export const title = 'Hosts: one local, two over ssh (50 printing panes each, 500 ms poll)';

const driver = fileURLToPath(new URL('./lib/hosts-driver.mjs', import.meta.url));
const DURATION = Number(process.env.BENCH_HOSTS_MS ?? 20_000);
const WARMUP = Number(process.env.BENCH_HOSTS_WARMUP_MS ?? 60_000);
const PANES = Number(process.env.BENCH_HOSTS_PANES ?? 50);
const INTERVAL = 500;
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Pane i prints a numbered line every 1 to 4 s (by i).
const printer = numberedPrinter((i) => 1 + (i % 4));

export async function run(log) {
  const sshd = await startTestSshd();
  // A fourth, identical server that nobody polls: read over the same seconds as the others, it
  // tells what their panes cost them by themselves.
  const servers = [0, 1, 2, 3].map(() => startServer(PANES, printer));
  const [local, boxA, boxB, unpolled] = servers;
  const hosts = {
    local: { name: 'local', socketName: local.name },
    'box-a': { name: 'box-a', ssh: sshd.alias, socketName: boxA.name },
    'box-b': { name: 'box-b', ssh: sshd.otherAlias, socketName: boxB.name },
  };
  const serverOf = { local, 'box-a': boxA, 'box-b': boxB };
  const sshdPid = () => sshd.processes()[0];
  try {
    await sleep(1_500);

    const measure = async (names) => {
      const config = { hosts: names.map((n) => hosts[n]), sshOptions: sshd.sshOptions, controlDir: sshd.controlDir, intervalMs: INTERVAL, warmupMs: WARMUP, durationMs: DURATION };
      const running = execFileAsync(process.execPath, [driver, JSON.stringify(config)], { encoding: 'utf8', maxBuffer: 1 << 20 });
      // Processes sshd starts for corral in the measured window (sessions, shells, tmux clients),
      // seen by sampling its tree; the connections made while warming up are not counted.
      const sshdPids = new Set();
      let initial = new Set();
      let sampler = null;
      // The driver measures from the end of its warm-up for DURATION: so do these readings.
      const { before, after, windowMs: window } = await readOverWindow(
        WARMUP,
        DURATION,
        () => [...servers.map((s) => cpuMs(s.pid)), treeCpuMs(sshdPid())],
        () => {
          initial = new Set(processTree(sshdPid()));
          sampler = setInterval(() => processTree(sshdPid()).forEach((p) => sshdPids.add(p)), 100);
        },
      );
      clearInterval(sampler);
      const spent = servers.map((_, i) => after[i] - before[i]);
      const sshdSpent = after[servers.length] - before[servers.length];
      const { stdout } = await running;
      const result = JSON.parse(stdout.trim().split('\n').at(-1));
      // Per ms of the readings' window, scaled to the driver's.
      const scale = result.elapsedMs / window;
      const idle = spent[servers.indexOf(unpolled)];
      result.serverExtraMs = Object.fromEntries(names.map((n) => [n, (spent[servers.indexOf(serverOf[n])] - idle) * scale]));
      result.sshdMs = sshdSpent * scale;
      result.sshdProcesses = [...sshdPids].filter((p) => !initial.has(p)).length;
      result.idleServerMs = idle * scale;
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
      `${DURATION / 1000} s per run, after ${WARMUP / 1000} s of warm-up. The ssh hosts are tmux servers on this machine reached through a real sshd on 127.0.0.1, so "there" (sshd and the tmux server) runs here too. A tmux server's extra work is its CPU minus that of an identical server nobody polls, read over the same seconds (that one spent ${perSec(all.idleServerMs, all.elapsedMs).toFixed(1)} ms/s).`,
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
