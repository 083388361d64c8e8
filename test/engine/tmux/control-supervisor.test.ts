// The control-client supervisor with the real /bin/sh and stand-in programs: it relays input, passes
// the program's exit status on, ends with the program, and ends the program (and itself) once its
// input ends, whether its parent closed it or died by SIGKILL.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { supervisedArgs } from '../../../src/engine/tmux/control-supervisor.js';
import { processesMatching } from '../../helpers/processes.js';

function supervise(program: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn('/bin/sh', supervisedArgs(program, args), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, ms: Date.now() - started })));
}

/** A `sleep` no other process runs: its command line is the marker to look for. */
function uniqueSleep(): string {
  return `sleep ${600_000 + randomBytes(3).readUIntBE(0, 3)}`;
}

async function gone(marker: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processesMatching(marker).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe('the control-client supervisor', () => {
  it('relays input to the program and passes its exit status on', async () => {
    const child = supervise('/bin/sh', ['-c', 'read line; echo "got:$line"; exit 3']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const done = exited(child);
    child.stdin.write('hello\n');
    // Its input stays open: the supervisor still ends with the program.
    const { code, ms } = await done;
    expect(out).toBe('got:hello\n');
    expect(code).toBe(3);
    expect(ms).toBeLessThan(900);
    child.stdin.destroy();
  });

  it('says a missing program the way the shell does (127, "not found"), and ends at once every time', async () => {
    // A program that fails at once races the relay's start: without the relay's "ready" line, 42
    // of 300 such supervisors never ended (the relay swallowed the TERM meant for it).
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
      for (const child of children) child.stdin.destroy();
    }
  });

  it('ends a program that would outlive its input, a second after the input ends', async () => {
    const marker = uniqueSleep();
    // A program that ignores its input, as tmux does with output still queued for a dead reader.
    const child = supervise('/bin/sh', ['-c', `exec ${marker}`]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(2); // the supervisor's shells, and the program
    const done = exited(child);
    child.stdin.end();
    const { ms } = await done;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
    expect(await gone(marker, 1_000)).toBe(true);
  });

  it('ends the program when its parent dies by SIGKILL, holding the pipes', async () => {
    const marker = uniqueSleep();
    const parentScript = `
      const { spawn } = require('node:child_process');
      const child = spawn('/bin/sh', ${JSON.stringify(supervisedArgs('/bin/sh', ['-c', `exec ${marker}`]))}, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      child.stdout.on('data', () => {});
      setTimeout(() => process.stdout.write('READY\\n'), 100);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve()));
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(2);
    parent.kill('SIGKILL');
    expect(await gone(marker, 3_000)).toBe(true);
  });

  it('ends with its whole group on TERM, reporting the program\'s status', async () => {
    const child = supervise('/bin/sh', ['-c', 'trap "exit 7" TERM; while :; do sleep 0.05; done']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const done = exited(child);
    process.kill(-child.pid!, 'SIGTERM');
    const { code, ms } = await done;
    expect(code).toBe(7);
    expect(ms).toBeLessThan(900);
  });
});
