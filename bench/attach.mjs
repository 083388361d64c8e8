// Attach server: latency from a pane printing a line to a WebSocket client receiving it; 50
// clients on one pane printing about 1 MB/s (delivered throughput, the server's CPU and RSS);
// connect churn (rounds of 25 viewers subscribing and closing: rounds per second and the tmux
// server's RSS before and after); and corral's RSS with 300 idle viewers.

import { execFileSync, spawn } from 'node:child_process';
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
const CHURN_ROUNDS = Number(process.env.BENCH_ATTACH_CHURN_ROUNDS ?? 1000);
const CHURN_CLIENTS = 25;
const IDLE_VIEWERS = Number(process.env.BENCH_ATTACH_IDLE_VIEWERS ?? 300);

// Builtins only (read -t, echo, $EPOCHREALTIME): the panes start no processes while measuring.
const TICKER = 'while :; do read -r -t 0.05 _; echo "T $EPOCHREALTIME"; done';
// About 1 MB/s: 10 lines of 1000 bytes, then a 10 ms pause.
const FLOOD =
  's=$(printf "%01000d" 0); while :; do for k in 1 2 3 4 5 6 7 8 9 10; do echo "$s"; done; read -r -t 0.01 _; done';

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function startAttachServer(socketName, settings = {}) {
  const child = spawn(process.execPath, [serverScript, socketName, TOKEN, JSON.stringify(settings)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const info = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(JSON.parse(d.toString().trim().split('\n')[0])));
    child.once('exit', (code) => reject(new Error(`attach server exited (${code})`)));
  });
  return {
    ...info,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function connect(port, pane, mode = 'raw') {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/attach/${pane.slice(1)}?mode=${mode}`, {
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

/** One viewer in JSON mode: subscribe, wait for the replay, close, wait for the close. */
function viewOnce(port, pane) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/attach/${pane.slice(1)}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe' })));
    ws.on('message', (data) => {
      if (JSON.parse(data.toString()).type === 'replay') ws.close();
    });
    ws.once('close', resolve);
    ws.once('error', reject);
  });
}

function tmuxVersionText() {
  return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim().replace(/^tmux /, '');
}

function controlClients(tmux) {
  return tmux
    .tmux('list-clients', '-F', '#{client_control_mode}')
    .split('\n')
    .filter((line) => line === '1').length;
}

// A full 120x30 screen, then quiet: every repaint of it is about 3.6 KB of text.
const FULL_SCREEN = 'for i in $(seq 1 29); do printf "%0119d\\n" $i; done; read -r _';

/** Rounds of 25 viewers on three full-screen panes in two sessions; the grace period as given. */
async function churn(log, graceMs, rounds) {
  const tmux = startServer(1, FULL_SCREEN);
  tmux.tmux('new-window', '-d', '-t', 'bench:', 'bash', '--norc', '-c', FULL_SCREEN);
  tmux.tmux('new-session', '-d', '-s', 'other', '-x', '120', '-y', '30', 'bash', '--norc', '-c', FULL_SCREEN);
  await new Promise((r) => setTimeout(r, 500));
  const panes = tmux.tmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n');
  const server = await startAttachServer(tmux.name, { attachGraceMs: graceMs });
  try {
    const rssBefore = rssMb(tmux.pid);
    log(`churn: ${rounds} rounds of ${CHURN_CLIENTS} viewers, grace ${graceMs / 1000} s`);
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: CHURN_CLIENTS }, (_, i) => viewOnce(server.port, panes[i % panes.length])),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = rssMb(tmux.pid);
    const alive = tmux.tmux('list-sessions', '-F', '#{session_name}').trim().split('\n').length === 2;
    await server.stop();
    const left = controlClients(tmux);
    return { rounds, seconds, perSecond: rounds / seconds, rssBefore, rssAfter, alive, left };
  } finally {
    await server.stop().catch(() => {});
    tmux.kill();
  }
}

/** 300 viewers subscribed to 10 idle panes: corral's RSS and CPU while nothing happens. */
async function idleViewers(log, count) {
  const tmux = startServer(10, 'read -r _');
  const server = await startAttachServer(tmux.name);
  try {
    const panes = tmux.tmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n');
    await new Promise((r) => setTimeout(r, 1000));
    const rssEmpty = rssMb(server.pid);
    log(`idle: ${count} viewers on ${panes.length} idle panes`);
    const clients = [];
    for (let i = 0; i < count; i++) {
      const ws = await connect(server.port, panes[i % panes.length], 'json');
      await new Promise((resolve) => {
        ws.on('message', (data) => JSON.parse(data.toString()).type === 'replay' && resolve());
        ws.send(JSON.stringify({ type: 'subscribe' }));
      });
      clients.push(ws);
    }
    await new Promise((r) => setTimeout(r, 2000)); // settle
    const cpuBefore = cpuMs(server.pid);
    let maxRss = rssMb(server.pid);
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 250));
      maxRss = Math.max(maxRss, rssMb(server.pid));
    }
    const cpu = (cpuMs(server.pid) - cpuBefore) / ((Date.now() - started) / 1000) / 10;
    const open = clients.filter((ws) => ws.readyState === WebSocket.OPEN).length;
    for (const ws of clients) ws.close();
    return { rssEmpty, maxRss, cpu, open, panes: panes.length };
  } finally {
    await server.stop();
    tmux.kill();
  }
}

export async function run(log) {
  const lat = await latency(log);
  const one = await fanout(log, 1);
  const fan = await fanout(log, CLIENTS);
  const kept = await churn(log, 300_000, CHURN_ROUNDS);
  const bare = await churn(log, 0, Math.min(CHURN_ROUNDS, 300));
  const idle = await idleViewers(log, IDLE_VIEWERS);
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
    '',
    `Connect churn: rounds of ${CHURN_CLIENTS} viewers subscribing to three full-screen panes (two sessions) and closing, one round after the other; tmux ${tmuxVersionText()}.`,
    '',
    '| measure | grace period 5 min (default) | no grace period |',
    '|---|---:|---:|',
    `| rounds | ${kept.rounds} | ${bare.rounds} |`,
    `| rounds per second | ${kept.perSecond.toFixed(1)} | ${bare.perSecond.toFixed(1)} |`,
    `| tmux server RSS before / after | ${kept.rssBefore.toFixed(1)} / ${kept.rssAfter.toFixed(1)} MB | ${bare.rssBefore.toFixed(1)} / ${bare.rssAfter.toFixed(1)} MB |`,
    `| tmux server alive after | ${kept.alive ? 'yes' : 'NO'} | ${bare.alive ? 'yes' : 'NO'} |`,
    `| control clients left after corral stopped | ${kept.left} | ${bare.left} |`,
    '',
    `| ${IDLE_VIEWERS} idle viewers (JSON mode) on ${idle.panes} quiet panes | value |`,
    '|---|---:|',
    `| corral server RSS with no viewer | ${idle.rssEmpty.toFixed(0)} MB |`,
    `| corral server max RSS with ${IDLE_VIEWERS} viewers | ${idle.maxRss.toFixed(0)} MB |`,
    `| corral server CPU while they idle | ${idle.cpu.toFixed(1)} % of one core |`,
    `| viewers still connected | ${idle.open} / ${IDLE_VIEWERS} |`,
  ].join('\n');
}
