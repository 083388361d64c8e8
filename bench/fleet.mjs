// Fleet: ten hosts on this machine, one watched here and nine over ssh, each of those through its
// own sshd on a loopback port, each host its own tmux server of 50 panes: some printing, some
// stuck at a prompt, some cycling through prompts, the rest idle. One corral process (the hosts
// driver) watches all ten at the default poll; over one window after a warm-up it reports corral's
// CPU and memory, each host's tmux server and sshd CPU, ssh masters, the round trips asked and the
// bytes over each connection. Then `corral watch` and `corral dashboard` time prompts typed into
// idle panes, before, during and after one host's outage (lib/fleet-trials.mjs).
//   BENCH_FLEET_HOSTS (10), BENCH_FLEET_PANES (50), BENCH_FLEET_MS (30000),
//   BENCH_FLEET_WARMUP_MS (30000), BENCH_FLEET_INTERVAL_MS (2000), BENCH_FLEET_THRESHOLD_MS (1000).

import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpuMs, readOverWindow } from './lib/tmux-fixture.mjs';
import { processTree, treeCpuMs } from './lib/proc.mjs';
import { startFleetHosts } from './lib/fleet-hosts.mjs';
import { runTrials } from './lib/fleet-trials.mjs';

export const title = 'Fleet: ten hosts of 50 panes, one here and nine over ssh';

const driver = fileURLToPath(new URL('./lib/hosts-driver.mjs', import.meta.url));
const HOSTS = Number(process.env.BENCH_FLEET_HOSTS ?? 10);
const PANES = Number(process.env.BENCH_FLEET_PANES ?? 50);
const DURATION = Number(process.env.BENCH_FLEET_MS ?? 30_000);
const WARMUP = Number(process.env.BENCH_FLEET_WARMUP_MS ?? 30_000);
const INTERVAL = Number(process.env.BENCH_FLEET_INTERVAL_MS ?? 2_000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Probes: idle panes that echo what is typed (`cat`), where the trials type their prompts. */
const isProbe = (i) => i % 10 === 4 || i % 10 === 5;

/**
 * Pane i's program, by i modulo 10: two print a line every 1 to 4 s, one waits at a prompt for
 * good, one cycles (a prompt for 7 s, then 5 s of work), two are probes, four sit idle.
 */
function paneProgram(i) {
  const kind = i % 10;
  if (kind < 2) return `n=0; while :; do read -r -t ${1 + (i % 4)} _; n=$((n + 1)); echo "tick $n of pane ${i}"; done`;
  if (kind === 2) return `printf 'Deploy build ${i} to production? [y/N] '; read -r _; exec sleep 1000000`;
  if (kind === 3) return `while :; do printf 'Apply the migration? [y/N] '; read -r -t 7 _; echo; echo working; sleep 5; done`;
  if (isProbe(i)) return 'exec cat';
  return 'exec sleep 1000000';
}

/** Bytes sent and received so far over the established TCP connections to a loopback sshd port. */
function connectionBytes(port) {
  const out = execFileSync('ss', ['-tinH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  const sum = (name) => [...out.matchAll(new RegExp(`\\b${name}:(\\d+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
  return { sent: sum('bytes_acked'), received: sum('bytes_received') };
}

/** Bytes the local host's control client has read and written (its Unix socket and corral's pipe). */
function clientBytes(driverPid, socketName) {
  for (const pid of processTree(driverPid)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(socketName)) continue;
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      return { sent: Number(/wchar: (\d+)/.exec(io)?.[1] ?? 0), received: Number(/rchar: (\d+)/.exec(io)?.[1] ?? 0) };
    } catch {
      // gone meanwhile
    }
  }
  return { sent: 0, received: 0 };
}

export async function run(log) {
  log(`${HOSTS} tmux servers of ${PANES} panes, ${HOSTS - 1} sshd: starting`);
  const fleet = await startFleetHosts(HOSTS, PANES, paneProgram);
  try {
    await sleep(1_500);
    const usage = await measureUsage(fleet, log);
    log('timing prompts, and one host lost and back');
    const trials = await runTrials(fleet, isProbe, log);
    return `${usage}\n\n${trials}`;
  } finally {
    await fleet.dispose();
  }
}

/** The hosts driver over one window: CPU, memory, round trips and bytes per host (Markdown). */
async function measureUsage(fleet, log) {
  const { servers, sshds } = fleet;
  const hosts = fleet.driverHosts();
  const config = { hosts, intervalMs: INTERVAL, warmupMs: WARMUP, durationMs: DURATION };
  log(`watching ${HOSTS * PANES} panes: ${WARMUP / 1000} s of warm-up, then ${DURATION / 1000} s measured`);
  const child = execFile(process.execPath, [driver, JSON.stringify(config)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const running = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`hosts driver exited with ${code}`)))));
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const sshdPid = (k) => sshds[k - 1].processes()[0];
  const bytes = () => [clientBytes(child.pid, servers[0].name), ...sshds.map((sshd) => connectionBytes(sshd.port))];
  const read = () => ({ cpu: [...servers.map((s) => cpuMs(s.pid)), ...sshds.map((_, j) => treeCpuMs(sshdPid(j + 1)))], bytes: bytes() });
  const { before, after, windowMs } = await readOverWindow(WARMUP, DURATION, read);
  await running;
  const result = JSON.parse(stdout.trim().split('\n').at(-1));
  const perSec = (ms) => ms / (windowMs / 1000);
  const spent = before.cpu.map((b, i) => perSec(after.cpu[i] - b));
  const kb = (k, dir) => (perSec(after.bytes[k][dir] - before.bytes[k][dir]) / 1024).toFixed(1);
  const rows = hosts.map((host, k) => {
    const h = result.hosts[host.name];
    const sshd = k === 0 ? '-' : spent[HOSTS + k - 1].toFixed(1);
    return `| ${host.name} | ${k === 0 ? 'here' : `ssh, own sshd`} | ${h.state} | ${h.panes} | ${(h.roundTrips / (result.elapsedMs / 1000)).toFixed(2)} | ${kb(k, 'sent')} / ${kb(k, 'received')} | ${spent[k].toFixed(1)} | ${sshd} |`;
  });
  const sshdTotal = spent.slice(HOSTS).reduce((a, b) => a + b, 0);
  const tmuxTotal = spent.slice(0, HOSTS).reduce((a, b) => a + b, 0);
  const seconds = result.elapsedMs / 1000;
  return [
    `${HOSTS} hosts on this machine (a 2-core box shared with other work; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]} at the end): "local" watched directly, the others through ${HOSTS - 1} sshd instances on loopback ports, one each. ${PANES} panes per host: by pane number modulo 10, two print a line every 1 to 4 s, one waits at a [y/N] prompt, one cycles (7 s at a prompt, 5 s of work), two run \`cat\` (the probes typed into below), four are idle. One corral process watches all ${HOSTS * PANES} panes at a ${INTERVAL} ms poll, over one control-mode connection per host; ${WARMUP / 1000} s of warm-up, then ${DURATION / 1000} s measured. CPU in ms per second of wall time; a tmux server's CPU includes what its panes' own output costs it. Bytes: over each host's ssh connection (TCP, as \`ss\` counts it: sshd → corral / corral → sshd); for the local host, what its control-mode client read and wrote (its Unix socket and the pipe to corral, so the same bytes counted about twice).`,
    '',
    `corral: **${((result.cpuMs + result.masterCpuMs) / seconds).toFixed(1)} ms/s** of CPU (its process and children ${(result.cpuMs / seconds).toFixed(1)}, the ssh masters ${(result.masterCpuMs / seconds).toFixed(1)}), ${result.rssMb.toFixed(0)} MB resident, ${result.masters} ssh master${result.masters === 1 ? '' : 's'} for ${HOSTS - 1} ssh hosts. All tmux servers together: ${tmuxTotal.toFixed(1)} ms/s; all sshd: ${sshdTotal.toFixed(1)} ms/s.`,
    '',
    '| host | reached | state | panes | round trips/s | KB/s over the connection (to corral / from corral) | tmux server ms/s | sshd ms/s |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
