// processAlive: a running process runs; an ended one does not, reaped or not (a zombie).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../../src/engine/tmux/process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false for one that ended, even while nobody reaped it', async () => {
    // `true` ends at once; its parent then becomes `sleep`, which never reaps it: a zombie.
    const parent = spawn('/bin/sh', ['-c', 'true & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      const deadline = Date.now() + 2_000;
      while (processAlive(zombie) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(processAlive(zombie)).toBe(false);
      expect(processAlive(parent.pid!)).toBe(true);
      expect(processAlive(process.pid)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
