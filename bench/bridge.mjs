// Chat bridge: latency from a pane printing a line to the client receiving it as an SSE delta,
// the time from the prompt's return to the end of the stream, and CPU for many concurrent
// streams. Runs the built `corral serve` against a private tmux server.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Chat bridge: print-to-delta latency, end of stream after the prompt returns, and CPU for concurrent streams (100 ms poll)';

const CLI = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const TOKEN = 'bench-token-0123456789abcdef';
const LINES = Number(process.env.BENCH_BRIDGE_LINES ?? 50);
const STREAMS = Number(process.env.BENCH_BRIDGE_STREAMS ?? 20);
const STREAM_SECONDS = Number(process.env.BENCH_BRIDGE_SECONDS ?? 10);
const ENDS = Number(process.env.BENCH_BRIDGE_ENDS ?? 20);
// Each pane starts with a full history (tmux keeps 2000 lines by default), as a working pane has.
const SHELL = 'seq 3000; PS1="$ " exec bash --norc --noprofile -i';

async function startCorral(server) {
  const child = spawn(process.execPath, [CLI, 'serve', '-L', server.name, '--port', '0'], {
    env: { ...process.env, CORRAL_TOKEN: TOKEN, TMUX: '', TMUX_PANE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const deadline = Date.now() + 10_000;
  while (!/http:\/\/[\d.]+:\d+/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`corral serve did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const base = /(http:\/\/[\d.]+:\d+)/.exec(out)[1];
  return { child, base, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}

/** Streams one answer; calls onDelta(text, receivedAtMs) per content delta; resolves to the time the finish chunk arrived. */
async function stream(base, model, content, onDelta) {
  let finishedAt = null;
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const part of res.body) {
    const now = Date.now();
    buffer += decoder.decode(part, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
      const choice = JSON.parse(event.slice(6)).choices[0];
      if (choice?.delta?.content) onDelta(choice.delta.content, now);
      if (choice?.finish_reason) finishedAt = now;
    }
  }
  return finishedAt;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function paneIds(server) {
  return server.tmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n');
}

async function latency(log) {
  // One idle shell; the typed command prints LINES timestamps (bash builtins only), 150-350 ms apart.
  const server = startServer(1, SHELL);
  const corral = await startCorral(server);
  try {
    await new Promise((r) => setTimeout(r, 500));
    const [pane] = await paneIds(server);
    const command = `for i in $(seq ${LINES}); do read -r -t 0.$((RANDOM % 3 + 1))5 _; echo "at \${EPOCHREALTIME/./}"; done`;
    const samples = [];
    await stream(corral.base, pane, command, (text, receivedAt) => {
      for (const m of text.matchAll(/at (\d{16})/g)) samples.push(receivedAt - Number(m[1]) / 1000);
    });
    log(`latency: ${samples.length} lines`);
    const sorted = samples.sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
  } finally {
    await corral.stop();
    server.kill();
  }
}

async function endOfStream(log) {
  // The command's last act is to print the time; bash draws its prompt right after. The stream
  // must end once the prompt held still for the quiet (800 ms), within two polls.
  const server = startServer(1, SHELL);
  const corral = await startCorral(server);
  try {
    await new Promise((r) => setTimeout(r, 500));
    const [pane] = await paneIds(server);
    const samples = [];
    for (let i = 0; i < ENDS; i++) {
      const command = `read -r -t 0.$((RANDOM % 3 + 1)) _; echo "at \${EPOCHREALTIME/./}"`;
      let printedAt = null;
      const finishedAt = await stream(corral.base, pane, command, (text) => {
        const m = /at (\d{16})/.exec(text);
        if (m) printedAt = Number(m[1]) / 1000;
      });
      if (printedAt !== null && finishedAt !== null) samples.push(finishedAt - printedAt);
    }
    log(`end of stream: ${samples.length} answers`);
    const sorted = samples.sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
  } finally {
    await corral.stop();
    server.kill();
  }
}

async function concurrent(log) {
  const server = startServer(STREAMS, SHELL);
  const corral = await startCorral(server);
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const panes = await paneIds(server);
    const lines = Math.round((STREAM_SECONDS * 1000) / 200);
    const command = `for i in $(seq ${lines}); do read -r -t 0.2 _; echo "line $i"; done`;
    const cpuBefore = cpuMs(corral.child.pid, true);
    const serverBefore = cpuMs(server.pid);
    const started = Date.now();
    let received = 0;
    await Promise.all(panes.map((pane) => stream(corral.base, pane, command, (text) => (received += (text.match(/^line \d+$/gm) ?? []).length))));
    const elapsed = Date.now() - started;
    const corralCpu = cpuMs(corral.child.pid, true) - cpuBefore;
    const serverCpu = cpuMs(server.pid) - serverBefore;
    log(`concurrent: ${panes.length} streams, ${received} lines in ${elapsed} ms`);
    return { streams: panes.length, expected: panes.length * lines, received, elapsed, corralCpu, serverCpu };
  } finally {
    await corral.stop();
    server.kill();
  }
}

export async function run(log) {
  const lat = await latency(log);
  const end = await endOfStream(log);
  const con = await concurrent(log);
  const perSec = (ms) => ((ms / con.elapsed) * 1000).toFixed(0);
  return [
    `Latency: one pane prints ${lat.n} lines 150-350 ms apart; each line carries bash's \`$EPOCHREALTIME\`, compared with the time the client read the delta.`,
    '',
    '| lines | p50 | p95 | max | target p50 |',
    '|---:|---:|---:|---:|---:|',
    `| ${lat.n} | ${lat.p50.toFixed(0)} ms | ${lat.p95.toFixed(0)} ms | ${lat.max.toFixed(0)} ms | < 120 ms (poll + 20 ms) |`,
    '',
    `End of stream: ${end.n} answers whose last output is the time, printed right before the shell prompt returns; from that time to the client reading the finish chunk. The answer ends once the prompt held still for the quiet (800 ms); the target is within two polls after that.`,
    '',
    '| answers | p50 | p95 | max | target |',
    '|---:|---:|---:|---:|---:|',
    `| ${end.n} | ${end.p50.toFixed(0)} ms | ${end.p95.toFixed(0)} ms | ${end.max.toFixed(0)} ms | 800 ms + at most 2 polls (1000 ms) |`,
    '',
    `CPU: ${con.streams} concurrent streams on ${con.streams} panes (each with 2000 lines of history), each printing a line every 200 ms for ${STREAM_SECONDS} s. CPU in ms per second of wall time (1000 = one core); corral includes the tmux clients it spawned and its engine's own 2 s poll.`,
    '',
    '| streams | lines received / printed | wall time | corral CPU ms/s | tmux server CPU ms/s | total |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${con.streams} | ${con.received} / ${con.expected} | ${(con.elapsed / 1000).toFixed(1)} s | ${perSec(con.corralCpu)} | ${perSec(con.serverCpu)} | ${perSec(con.corralCpu + con.serverCpu)} |`,
  ].join('\n');
}
