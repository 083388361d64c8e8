// The control-client supervisors with the real /bin/sh and stand-in programs: each passes input
// on and the program's exit status back, ends with the program, and ends the program (and itself)
// a second after corral's side ends, whether corral closed it or died by SIGKILL. Here that side
// is a lifeline pipe (fd 3); on an ssh host it is the input itself, relayed.

import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localSupervisorArgs, remoteSupervisorArgs } from '../../../src/engine/tmux/control-supervisor.js';
import { processesMatching } from '../../helpers/processes.js';
import { waitUntil } from '../../helpers/wait-until.js';

interface Variant {
  readonly name: string;
  readonly args: (program: string, args: string[]) => string[];
  readonly stdio: ('pipe' | 'ignore')[];
  /** What corral does when it is done with the client: closes the lifeline, or the input. */
  readonly endCorralSide: (child: ChildProcess) => void;
}

const VARIANTS: Variant[] = [
  { name: 'here (lifeline on fd 3)', args: localSupervisorArgs, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], endCorralSide: (child) => child.stdio[3]?.destroy() },
  { name: 'on an ssh host (relayed input)', args: remoteSupervisorArgs, stdio: ['pipe', 'pipe', 'pipe'], endCorralSide: (child) => child.stdin?.end() },
];

function exited(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, ms: Date.now() - started })));
}

/** A `sleep` no other process runs: its command line is the marker to look for. */
function uniqueSleep(): string {
  return `sleep ${600_000 + randomBytes(3).readUIntBE(0, 3)}`;
}

/** The program itself runs: a process whose command line is the marker (the supervisor shells' only contain it). */
function programRuns(marker: string): boolean {
  return processesMatching(marker).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').startsWith(marker);
    } catch {
      return false;
    }
  });
}

async function gone(marker: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processesMatching(marker).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe.each(VARIANTS)('the control-client supervisor $name', (variant) => {
  const supervise = (program: string, args: string[]) =>
    spawn('/bin/sh', variant.args(program, args), { stdio: variant.stdio, detached: true }) as ChildProcessWithoutNullStreams;

  it('passes input to the program and its exit status back', async () => {
    const child = supervise('/bin/sh', ['-c', 'read line; echo "got:$line"; exit 3']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const done = exited(child);
    child.stdin.write('hello\n');
    // Corral's side stays open: the supervisor still ends with the program.
    const { code, ms } = await done;
    expect(out).toBe('got:hello\n');
    expect(code).toBe(3);
    expect(ms).toBeLessThan(900);
  });

  it('says a missing program the way the shell does (127, "not found"), and ends at once every time', async () => {
    // A program that fails at once races the supervisor's start: the relay without its "ready"
    // line left 42 of 300 such supervisors running (it swallowed the TERM meant for it).
    for (let batch = 0; batch < 4; batch++) {
      const children = Array.from({ length: 10 }, () => supervise('corral-no-such-program', []));
      const errors = children.map((child) => {
        let err = '';
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        return () => err;
      });
      const ends = await Promise.all(children.map(exited));
      for (const [i, end] of ends.entries()) {
        expect(end.code).toBe(127);
        expect(end.ms).toBeLessThan(2_000);
        expect(errors[i]!()).toMatch(/not found/);
      }
    }
  });

  it("ends a program that would outlive corral's side, a second after that side ends", async () => {
    const marker = uniqueSleep();
    // A program that ignores its input, as tmux does with output still queued for a dead reader.
    const child = supervise('/bin/sh', ['-c', `exec ${marker}`]);
    await waitUntil(() => programRuns(marker), 5_000, 'the supervised program to run');
    const done = exited(child);
    variant.endCorralSide(child);
    const { ms } = await done;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
    expect(await gone(marker, 1_000)).toBe(true);
  });

  it('ends the program when its parent dies by SIGKILL, holding the pipes', async () => {
    const marker = uniqueSleep();
    const parentScript = `
      const { spawn } = require('node:child_process');
      const child = spawn('/bin/sh', ${JSON.stringify(variant.args('/bin/sh', ['-c', `exec ${marker}`]))}, { stdio: ${JSON.stringify(variant.stdio)}, detached: true });
      child.stdout.on('data', () => {});
      setTimeout(() => process.stdout.write('READY\\n'), 100);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve()));
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(2);
    parent.kill('SIGKILL');
    expect(await gone(marker, 3_000)).toBe(true);
  });

  it('ends at once, program included, when corral ends its process group (kill())', async () => {
    const marker = uniqueSleep();
    const child = supervise('/bin/sh', ['-c', `exec ${marker}`]);
    // Running first: a program that never started would be "gone" as well. The program itself, not
    // only the supervisor's shells (whose command lines name it too): once it runs, every shell has
    // set its TERM handling; a TERM that came before could be swallowed by a shell just forked.
    await waitUntil(() => programRuns(marker), 5_000, 'the supervised program to run');
    const done = exited(child);
    process.kill(-child.pid!, 'SIGTERM');
    expect((await done).ms).toBeLessThan(900);
    expect(await gone(marker, 500)).toBe(true);
  });
});
