// Chat bridge, this build side by side with a baseline build in one run: a long fast answer end to
// end (`seq 1 100000`: time, CPU, lines delivered), the latency from a pane printing a line to the
// client receiving it, the time from the prompt's return to the end of the stream, and CPU for
// many concurrent streams. Each runs the built `corral serve` of both builds against private tmux
// servers, the builds taking turns.
//
// The baseline is another checkout's build (BENCH_BASE_DIST, /tmp/corral-base/dist by default):
//   git worktree add --detach /tmp/corral-base 5f3e000 && (cd /tmp/corral-base && npm ci && npm run build)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';
import { treeCpuMs } from './lib/proc.mjs';

export const title = 'Chat bridge: a long answer end to end, print-to-delta latency, end of stream, and CPU for concurrent streams, this build beside a baseline';

const here = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const baseDist = process.env.BENCH_BASE_DIST ?? '/tmp/corral-base/dist';
const TOKEN = 'bench-token-0123456789abcdef';
const SEQ = Number(process.env.BENCH_BRIDGE_SEQ ?? 100_000);
const SEQ_ROUNDS = Number(process.env.BENCH_BRIDGE_SEQ_ROUNDS ?? 3);
const LINES = Number(process.env.BENCH_BRIDGE_LINES ?? 50);
const STREAMS = Number(process.env.BENCH_BRIDGE_STREAMS ?? 20);
const STREAM_SECONDS = Number(process.env.BENCH_BRIDGE_SECONDS ?? 10);
const ENDS = Number(process.env.BENCH_BRIDGE_ENDS ?? 20);
// Each pane starts with a full history (tmux keeps 2000 lines by default), as a working pane has.
const SHELL = 'seq 3000; PS1="$ " exec bash --norc --noprofile -i';

async function startCorral(server, dist) {
  const child = spawn(process.execPath, [`${dist}/bin/corral.js`, 'serve', '-L', server.name, '--port', '0'], {
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

const median = (xs) => percentile([...xs].sort((a, b) => a - b), 50);

async function paneIds(server) {
  return server.tmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n');
}

/** One corral of `dist` on a fresh tmux server of `panes` shells; `work` gets (corral, panes). */
async function withCorral(dist, panes, settleMs, work) {
  const server = startServer(panes, SHELL);
  const corral = await startCorral(server, dist);
  try {
    await new Promise((r) => setTimeout(r, settleMs));
    return await work(corral, await paneIds(server), server);
  } finally {
    await corral.stop();
    server.kill();
  }
}

/** `seq 1 N` typed into an idle shell: wall time to the finish chunk, CPU, and the lines that came back. */
function longAnswer(dist) {
  return withCorral(dist, 1, 500, async (corral, [pane], server) => {
    const cpuBefore = treeCpuMs(corral.child.pid);
    const serverBefore = cpuMs(server.pid);
    const started = Date.now();
    let text = '';
    const finishedAt = await stream(corral.base, pane, `seq 1 ${SEQ}`, (delta) => (text += delta));
    const numbers = text.split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
    const whole = numbers.length === SEQ && numbers.every((n, i) => n === i + 1);
    return {
      ms: (finishedAt ?? Date.now()) - started,
      corralCpu: treeCpuMs(corral.child.pid) - cpuBefore,
      serverCpu: cpuMs(server.pid) - serverBefore,
      lines: numbers.length,
      first: numbers[0] ?? null,
      whole,
    };
  });
}

function latency(dist) {
  // One idle shell; the typed command prints LINES timestamps (bash builtins only), 150-350 ms apart.
  return withCorral(dist, 1, 500, async (corral, [pane]) => {
    const command = `for i in $(seq ${LINES}); do read -r -t 0.$((RANDOM % 3 + 1))5 _; echo "at \${EPOCHREALTIME/./}"; done`;
    const samples = [];
    await stream(corral.base, pane, command, (text, receivedAt) => {
      for (const m of text.matchAll(/at (\d{16})/g)) samples.push(receivedAt - Number(m[1]) / 1000);
    });
    const sorted = samples.sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
  });
}

function endOfStream(dist) {
  // The command's last act is to print the time; bash draws its prompt right after. The stream
  // must end once the prompt held still for the quiet (800 ms), within two polls.
  return withCorral(dist, 1, 500, async (corral, [pane]) => {
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
    const sorted = samples.sort((a, b) => a - b);
    return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
  });
}

function concurrent(dist) {
  return withCorral(dist, STREAMS, 1000, async (corral, panes, server) => {
    const lines = Math.round((STREAM_SECONDS * 1000) / 200);
    const command = `for i in $(seq ${lines}); do read -r -t 0.2 _; echo "line $i"; done`;
    const cpuBefore = treeCpuMs(corral.child.pid);
    const serverBefore = cpuMs(server.pid);
    const started = Date.now();
    let received = 0;
    await Promise.all(panes.map((pane) => stream(corral.base, pane, command, (text) => (received += (text.match(/^line \d+$/gm) ?? []).length))));
    const elapsed = Date.now() - started;
    return { streams: panes.length, expected: panes.length * lines, received, elapsed, corralCpu: treeCpuMs(corral.child.pid) - cpuBefore, serverCpu: cpuMs(server.pid) - serverBefore };
  });
}

/** Runs `measure` for both builds, taking turns (baseline first, then this build), `rounds` times. */
async function sideBySide(name, rounds, measure, log) {
  const results = { base: [], here: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [which, dist] of round % 2 === 0 ? [['base', baseDist], ['here', here]] : [['here', here], ['base', baseDist]]) {
      const result = await measure(dist);
      log(`${name}, round ${round + 1}, ${which === 'base' ? 'baseline' : 'this build'}: ${JSON.stringify(result)}`);
      results[which].push(result);
    }
  }
  return results;
}

const ratio = (a, b) => `×${(a / b).toFixed(2)}`;

export async function run(log) {
  if (!existsSync(`${baseDist}/bin/corral.js`)) {
    throw new Error(`no baseline build at ${baseDist}: build one (see the top of bench/bridge.mjs) or set BENCH_BASE_DIST`);
  }
  const seq = await sideBySide('seq', SEQ_ROUNDS, longAnswer, log);
  const lat = await sideBySide('latency', 1, latency, log);
  const end = await sideBySide('end of stream', 1, endOfStream, log);
  const con = await sideBySide('concurrent', 1, concurrent, log);
  const seqRow = (name, rs) => {
    const ms = median(rs.map((r) => r.ms));
    const cpu = median(rs.map((r) => r.corralCpu));
    const server = median(rs.map((r) => r.serverCpu));
    const lines = rs.map((r) => `${r.lines}${r.whole ? ' (whole)' : ` (from ${r.first})`}`).join(', ');
    return { ms, cpu, server, text: `| ${name} | ${ms} ms | ${cpu.toFixed(0)} ms | ${server.toFixed(0)} ms | ${lines} |` };
  };
  const seqBase = seqRow('baseline', seq.base);
  const seqHere = seqRow('this build', seq.here);
  const latRow = (name, [r]) => `| ${name} | ${r.n} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${r.max.toFixed(0)} ms |`;
  const endRow = (name, [r]) => `| ${name} | ${r.n} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${r.max.toFixed(0)} ms |`;
  const perSec = (r, ms) => ((ms / r.elapsed) * 1000).toFixed(0);
  const conRow = (name, [r]) => `| ${name} | ${r.received} / ${r.expected} | ${(r.elapsed / 1000).toFixed(1)} s | ${perSec(r, r.corralCpu)} | ${perSec(r, r.serverCpu)} |`;
  const [lb, lh] = [lat.base[0], lat.here[0]];
  return [
    `Baseline: ${baseDist}; this build: ${here}. The builds take turns on fresh private tmux servers.`,
    '',
    `A long answer: \`seq 1 ${SEQ}\` typed into an idle shell (2000 lines of history), streamed; from the request to the finish chunk (median of ${SEQ_ROUNDS}), CPU of corral and the tmux clients it started, and of the tmux server; the lines each run delivered.`,
    '',
    '| build | time | corral CPU | tmux server CPU | lines delivered |',
    '|---|---:|---:|---:|---|',
    seqBase.text,
    seqHere.text,
    '',
    `This build / baseline: time ${ratio(seqHere.ms, seqBase.ms)}, corral CPU ${ratio(seqHere.cpu, seqBase.cpu)}.`,
    '',
    `Latency: one pane prints ${LINES} lines 150-350 ms apart; each line carries bash's \`$EPOCHREALTIME\`, compared with the time the client read the delta.`,
    '',
    '| build | lines | p50 | p95 | max |',
    '|---|---:|---:|---:|---:|',
    latRow('baseline', lat.base),
    latRow('this build', lat.here),
    '',
    `This build / baseline: p50 ${ratio(lh.p50, lb.p50)}, p95 ${ratio(lh.p95, lb.p95)}.`,
    '',
    `End of stream: ${ENDS} answers whose last output is the time, printed right before the shell prompt returns; from that time to the client reading the finish chunk (the quiet is 800 ms).`,
    '',
    '| build | answers | p50 | p95 | max |',
    '|---|---:|---:|---:|---:|',
    endRow('baseline', end.base),
    endRow('this build', end.here),
    '',
    `CPU: ${STREAMS} concurrent streams on ${STREAMS} panes (each with 2000 lines of history), each printing a line every 200 ms for ${STREAM_SECONDS} s. CPU in ms per second of wall time (1000 = one core).`,
    '',
    '| build | lines received / printed | wall time | corral CPU ms/s | tmux server CPU ms/s |',
    '|---|---:|---:|---:|---:|',
    conRow('baseline', con.base),
    conRow('this build', con.here),
  ].join('\n');
}
