// Quitting is prompt whatever the hosts do: the dashboard runs in a real tmux pane, watching this
// machine and generated hosts behind a fake ssh that hangs, ignores SIGTERM, floods, dies at once or
// answers late; it is quit with q, SIGINT or SIGTERM while they do. It must say "quitting…", be gone
// within 1 s, and leave no process it started (each carries a marker in its environment) and no
// tmux client behind.

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { processesWithEnv } from '../helpers/processes.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What each fake host does when corral runs ssh to it (any ssh command, -O exit included). */
const FAULTS = {
  hang: 'exec sleep 600',
  stubborn: "trap '' TERM HUP INT; while :; do sleep 1; done",
  flood: "exec tr '\\0' x < /dev/zero",
  die: 'echo "ssh: connect to host port 22: Connection refused" >&2; exit 255',
  slow: 'sleep 3; exit 255',
} as const;
type Fault = keyof typeof FAULTS;
const KINDS = Object.keys(FAULTS) as Fault[];

const QUIT_LIMIT_MS = 1_000;

describe('quitting while hosts misbehave', () => {
  let server: TestTmux;
  let folder = '';
  let ssh = '';
  const worst: Partial<Record<Fault | 'q' | 'SIGINT' | 'SIGTERM', number>> = {};

  beforeAll(async () => {
    server = await startTestTmux();
    await server.spawn('sleep 600');
    folder = mkdtempSync(join(tmpdir(), 'corral-quit-'));
    ssh = join(folder, 'ssh');
    writeFileSync(
      ssh,
      ['#!/bin/sh', 'case "$*" in', ...KINDS.map((kind) => `  *${kind}-*) ${FAULTS[kind]} ;;`), 'esac', ''].join('\n'),
    );
    chmodSync(ssh, 0o755);
  });

  afterAll(async () => {
    await server?.kill();
    if (folder !== '') rmSync(folder, { recursive: true, force: true });
    process.stdout.write(
      `quit under host faults: the longest quit per fault and per way (ms): ${JSON.stringify(worst)}\n`,
    );
  });

  for (const seed of testSeeds(41_007)) {
    it(
      `ends within 1 s, says so at once, leaves nothing (seed ${seed}, 5 generated runs)`,
      { timeout: 90_000 },
      async () => {
        const rng = new SeededRandom(seed);
        for (let run = 0; run < 5; run++) {
          const faults = Array.from({ length: rng.int(1, 4) }, () => rng.pick(KINDS));
          // Every kind at least once over the runs of a seed.
          if (run < KINDS.length && !faults.includes(KINDS[run] as Fault)) faults.push(KINDS[run] as Fault);
          const ways = ['q', 'SIGINT', 'SIGTERM'] as const;
          const way = run < ways.length ? (ways[run] as (typeof ways)[number]) : rng.pick(ways);
          const marker = `CORRAL_QUIT_TEST=${randomBytes(6).toString('hex')}`;
          const stream = join(folder, `run-${seed}-${run}.out`);
          const hosts = faults.flatMap((fault, i) => ['--host', `${fault}-${i}.example`]);
          const where = `seed ${seed} run ${run}: ${way} with ${faults.join(', ')}`;
          const pane = await server.spawn(
            `exec env ${marker} CORRAL_SSH_BIN=${shellQuote(ssh)} TMUX= ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard -L ${server.socketName} --poll-interval 300 ${hosts.join(' ')}`,
            { session: `quit-${run}`, width: 110, height: 30 },
          );
          await server.tmux('pipe-pane', '-t', pane, '-o', `cat >> ${shellQuote(stream)}`);
          const pid = Number((await server.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
          await server.waitForScreen(pane, (s) => /\d+ total/.test(s), 15_000);
          // The hosts are mid-fault: connecting, flooding, retrying. A time, not an event: quitting at
          // a generated moment of the faults is what is tried.
          await sleep(rng.int(300, 2_000));
          const started = Date.now();
          if (way === 'q') await server.tmux('send-keys', '-t', pane, 'q');
          else process.kill(pid, way);
          while (existsSync(`/proc/${pid}`) && Date.now() - started < 10_000) await sleep(10);
          const took = Date.now() - started;
          for (const key of [...new Set(faults), way] as const) worst[key] = Math.max(worst[key] ?? 0, took);
          expect(took, where).toBeLessThan(QUIT_LIMIT_MS);
          expect(readFileSync(stream, 'utf8'), where).toContain('quitting…');
          // A process killed while it ran `sleep 1` leaves that sleep for at most a second: everything
          // is gone by then.
          await expect.poll(() => processesWithEnv(marker), { message: where, timeout: 1_200, interval: 50 }).toEqual([]);
          expect((await server.tmux('list-clients', '-F', '#{client_name}')).trim(), where).toBe('');
        }
      },
    );
  }
});
