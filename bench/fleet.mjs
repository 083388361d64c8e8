// Fleet: ten hosts on this machine, one watched here and nine over ssh, each of those through its
// own sshd on a loopback port, each host its own tmux server of 50 panes: some printing, some
// stuck at a prompt, some cycling through prompts, the rest idle. One corral process (the hosts
// driver) watches all ten at the default poll; over one window after a warm-up it reports corral's
// CPU and memory, each host's tmux server and sshd CPU, ssh masters, and the round trips asked.
//   BENCH_FLEET_HOSTS (10), BENCH_FLEET_PANES (50), BENCH_FLEET_MS (30000),
//   BENCH_FLEET_WARMUP_MS (30000), BENCH_FLEET_INTERVAL_MS (2000).

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuMs, readOverWindow, startServer } from './lib/tmux-fixture.mjs';
import { treeCpuMs } from './lib/proc.mjs';
import { startTestSshd } from './lib/sshd.mjs';

export const title = 'Fleet: ten hosts of 50 panes, one here and nine over ssh';

const driver = fileURLToPath(new URL('./lib/hosts-driver.mjs', import.meta.url));
const HOSTS = Number(process.env.BENCH_FLEET_HOSTS ?? 10);
const PANES = Number(process.env.BENCH_FLEET_PANES ?? 50);
const DURATION = Number(process.env.BENCH_FLEET_MS ?? 30_000);
const WARMUP = Number(process.env.BENCH_FLEET_WARMUP_MS ?? 30_000);
const INTERVAL = Number(process.env.BENCH_FLEET_INTERVAL_MS ?? 2_000);
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Pane i's program, by i modulo 10: two print a line every 1 to 4 s, one waits at a prompt for
 * good, one cycles (a prompt for 7 s, then 5 s of work), six sit idle.
 */
function paneProgram(i) {
  const kind = i % 10;
  if (kind < 2) return `n=0; while :; do read -r -t ${1 + (i % 4)} _; n=$((n + 1)); echo "tick $n of pane ${i}"; done`;
  if (kind === 2) return `printf 'Deploy build ${i} to production? [y/N] '; read -r _; exec sleep 1000000`;
  if (kind === 3) return `while :; do printf 'Apply the migration? [y/N] '; read -r -t 7 _; echo; echo working; sleep 5; done`;
  return 'exec sleep 1000000';
}

export async function run(log) {
  log(`${HOSTS} tmux servers of ${PANES} panes, ${HOSTS - 1} sshd: starting`);
  const servers = Array.from({ length: HOSTS }, () => startServer(PANES, paneProgram));
  const sshds = [];
  try {
    for (let k = 1; k < HOSTS; k++) sshds.push(await startTestSshd());
    const hosts = servers.map((server, k) =>
      k === 0
        ? { name: 'local', socketName: server.name }
        : { name: `box-${k}`, ssh: sshds[k - 1].alias, socketName: server.name, sshOptions: sshds[k - 1].sshOptions, controlDir: sshds[k - 1].controlDir },
    );
    await sleep(1_500);
    const config = { hosts, intervalMs: INTERVAL, warmupMs: WARMUP, durationMs: DURATION };
    log(`watching ${HOSTS * PANES} panes: ${WARMUP / 1000} s of warm-up, then ${DURATION / 1000} s measured`);
    const running = execFileAsync(process.execPath, [driver, JSON.stringify(config)], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const sshdPid = (k) => sshds[k - 1].processes()[0];
    const read = () => [...servers.map((s) => cpuMs(s.pid)), ...sshds.map((_, j) => treeCpuMs(sshdPid(j + 1)))];
    const { before, after, windowMs } = await readOverWindow(WARMUP, DURATION, read);
    const { stdout } = await running;
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    const perSec = (ms) => ms / (windowMs / 1000);
    const spent = before.map((b, i) => perSec(after[i] - b));
    const rows = hosts.map((host, k) => {
      const h = result.hosts[host.name];
      const sshd = k === 0 ? '-' : spent[HOSTS + k - 1].toFixed(1);
      return `| ${host.name} | ${k === 0 ? 'here' : `ssh, own sshd`} | ${h.state} | ${h.panes} | ${(h.roundTrips / (result.elapsedMs / 1000)).toFixed(2)} | ${spent[k].toFixed(1)} | ${sshd} |`;
    });
    const sshdTotal = spent.slice(HOSTS).reduce((a, b) => a + b, 0);
    const tmuxTotal = spent.slice(0, HOSTS).reduce((a, b) => a + b, 0);
    const seconds = result.elapsedMs / 1000;
    return [
      `${HOSTS} hosts on this machine (a 2-core box shared with other work): "local" watched directly, the others through ${HOSTS - 1} sshd instances on loopback ports, one each. ${PANES} panes per host: by pane number modulo 10, two print a line every 1 to 4 s, one waits at a [y/N] prompt, one cycles (7 s at a prompt, 5 s of work), six are idle. One corral process watches all ${HOSTS * PANES} panes at a ${INTERVAL} ms poll, over one control-mode connection per host; ${WARMUP / 1000} s of warm-up, then ${DURATION / 1000} s measured. CPU in ms per second of wall time; a tmux server's CPU includes what its panes' own output costs it.`,
      '',
      `corral: **${((result.cpuMs + result.masterCpuMs) / seconds).toFixed(1)} ms/s** of CPU (its process and children ${(result.cpuMs / seconds).toFixed(1)}, the ssh masters ${(result.masterCpuMs / seconds).toFixed(1)}), ${result.rssMb.toFixed(0)} MB resident, ${result.masters} ssh master${result.masters === 1 ? '' : 's'} for ${HOSTS - 1} ssh hosts. All tmux servers together: ${tmuxTotal.toFixed(1)} ms/s; all sshd: ${sshdTotal.toFixed(1)} ms/s.`,
      '',
      '| host | reached | state | panes | round trips/s | tmux server ms/s | sshd ms/s |',
      '|---|---|---|---:|---:|---:|---:|',
      ...rows,
    ].join('\n');
  } finally {
    for (const server of servers) server.kill();
    for (const sshd of sshds) await sshd.dispose();
  }
}
