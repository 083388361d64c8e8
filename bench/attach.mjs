// Attach server: latency from a pane printing a line to a WebSocket client receiving it, and 50
// clients on one pane printing about 1 MB/s (delivered throughput, the server's CPU and RSS).

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Attach server: latency and fan-out';

const serverScript = fileURLToPath(new URL('./lib/attach-server.mjs', import.meta.url));
const TOKEN = 'bench-token-0123456789abcdef';
const LATENCY_MS = Number(process.env.BENCH_ATTACH_LATENCY_MS ?? 10_000);
const FANOUT_MS = Number(process.env.BENCH_ATTACH_FANOUT_MS ?? 10_000);
const CLIENTS = Number(process.env.BENCH_ATTACH_CLIENTS ?? 50);

// Builtins only (read -t, echo, $EPOCHREALTIME): the panes start no processes while measuring.
const TICKER = 'while :; do read -r -t 0.05 _; echo "T $EPOCHREALTIME"; done';
// About 1 MB/s: 10 lines of 1000 bytes, then a 10 ms pause.
const FLOOD =
  's=$(printf "%01000d" 0); while :; do for k in 1 2 3 4 5 6 7 8 9 10; do echo "$s"; done; read -r -t 0.01 _; done';

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function startAttachServer(socketName) {
  const child = spawn(process.execPath, [serverScript, socketName, TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(JSON.parse(d.toString().trim().split('\n')[0])));
    child.once('exit', (code) => reject(new Error(`attach server exited (${code})`)));
  });
  return {
    ...info,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

function connect(port, pane) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/attach/${pane.slice(1)}?mode=raw`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function latency(log) {
  const tmux = startServer(1, TICKER);
  const server = await startAttachServer(tmux.name);
  try {
    const pane = tmux.tmux('display-message', '-p', '-t', 'bench:0', '#{pane_id}').trim();
    const ws = await connect(server.port, pane);
    const samples = [];
    let first = true;
    let carry = '';
    ws.on('message', (data) => {
      const now = (performance.timeOrigin + performance.now()) * 1000; // µs, same clock as $EPOCHREALTIME
      if (first) {
        first = false; // the repaint
        return;
      }
      const text = carry + data.toString('latin1');
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        const m = /T (\d+)\.(\d{6})/.exec(line);
        if (m) samples.push((now - (Number(m[1]) * 1e6 + Number(m[2]))) / 1000);
      }
    });
    log(`latency: ${LATENCY_MS / 1000} s of lines every 50 ms`);
    await new Promise((r) => setTimeout(r, LATENCY_MS));
    ws.close();
    samples.sort((a, b) => a - b);
    return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1) };
  } finally {
    await server.stop();
    tmux.kill();
  }
}

async function fanout(log, count) {
  const tmux = startServer(1, FLOOD);
  const server = await startAttachServer(tmux.name);
  try {
    const pane = tmux.tmux('display-message', '-p', '-t', 'bench:0', '#{pane_id}').trim();
    const clients = [];
    for (let i = 0; i < count; i++) clients.push(await connect(server.port, pane));
    const received = new Array(count).fill(0);
    clients.forEach((ws, i) => ws.on('message', (data) => (received[i] += data.length)));
    await new Promise((r) => setTimeout(r, 1000)); // warm-up
    received.fill(0);
    const cpuBefore = cpuMs(server.pid);
    const tmuxCpuBefore = cpuMs(tmux.pid);
    const started = Date.now();
    let maxRss = rssMb(server.pid);
    log(`fan-out: ${count} clients for ${FANOUT_MS / 1000} s`);
    while (Date.now() - started < FANOUT_MS) {
      await new Promise((r) => setTimeout(r, 250));
      maxRss = Math.max(maxRss, rssMb(server.pid));
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = (cpuMs(server.pid) - cpuBefore) / seconds / 10; // % of one core
    const tmuxCpu = (cpuMs(tmux.pid) - tmuxCpuBefore) / seconds / 10;
    const perClient = received.map((b) => b / seconds / 1e6);
    const open = clients.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    for (const ws of clients) ws.close();
    return {
      seconds,
      minMBs: Math.min(...perClient),
      maxMBs: Math.max(...perClient),
      totalMBs: perClient.reduce((a, b) => a + b, 0),
      cpu,
      tmuxCpu,
      maxRss,
      open,
    };
  } finally {
    await server.stop();
    tmux.kill();
  }
}

export async function run(log) {
  const lat = await latency(log);
  const one = await fanout(log, 1);
  const fan = await fanout(log, CLIENTS);
  return [
    `Pane to WebSocket client, raw mode; clients, server and tmux share this machine's cores (load average ${loadavg()[0].toFixed(1)} at the end).`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| latency p50 (line printed in the pane -> received by the client) | ${lat.p50.toFixed(1)} ms |`,
    `| latency p95 | ${lat.p95.toFixed(1)} ms |`,
    `| latency max (${lat.n} samples) | ${lat.max.toFixed(1)} ms |`,
    `| 1 client on the ~1 MB/s pane: delivered (what the pane produces here) | ${one.totalMBs.toFixed(2)} MB/s |`,
    `| 1 client: corral server CPU / max RSS | ${one.cpu.toFixed(0)} % of one core / ${one.maxRss.toFixed(0)} MB |`,
    `| ${CLIENTS} clients on one pane: delivered per client (min / max) | ${fan.minMBs.toFixed(2)} / ${fan.maxMBs.toFixed(2)} MB/s |`,
    `| ${CLIENTS} clients: delivered in total | ${fan.totalMBs.toFixed(1)} MB/s |`,
    `| corral server CPU during fan-out | ${fan.cpu.toFixed(0)} % of one core |`,
    `| tmux server CPU during fan-out | ${fan.tmuxCpu.toFixed(0)} % of one core |`,
    `| corral server max RSS during fan-out | ${fan.maxRss.toFixed(0)} MB |`,
    `| clients still connected at the end | ${fan.open} / ${CLIENTS} |`,
  ].join('\n');
}
