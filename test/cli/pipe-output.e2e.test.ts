// Every command of the command table in a pipe whose reader goes away: `corral X | head -1`, and a
// reader closed before corral writes. The oracle is the same command with a reader that reads
// everything: a closed pipe must not change its exit code (a command that runs until stopped may
// end on its own with 0 instead), and nothing on stderr may be a stack or an EPIPE.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { MAIN_JS } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

type Reader = 'all' | 'head -1' | 'closed';

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  /** Ended by the test's SIGTERM (a command that runs until stopped). */
  readonly stopped: boolean;
}

/** Arguments that make each command do its work here (a private tmux server, a scratch HOME). */
function argsFor(pane: string): Record<string, readonly string[]> {
  return {
    dashboard: [],
    demo: [],
    watch: ['--poll-interval', '200'],
    ls: [],
    status: [],
    next: [],
    send: [pane, 'x'],
    new: ['--', 'sleep', '60'],
    end: ['--yes', '%999'],
    check: ['-'],
    serve: ['--port', '0', '--attach'],
    mcp: [],
    attach: [pane],
    link: ['--list'],
    hooks: ['print', '--agent', 'claude-code'],
    hook: ['--agent', 'claude-code'],
    completion: ['bash'],
  };
}

describe('every command behaves in a pipe', () => {
  let server: TestTmux;
  let home = '';
  let env: NodeJS.ProcessEnv = {};
  let screen = '';
  let pane = '';

  beforeAll(async () => {
    server = await startTestTmux();
    pane = await server.spawn(`read -p 'Continue? [y/N] ' a; sleep 600`);
    await server.spawn('seq 1 200; sleep 600');
    await server.waitForScreen(pane, (s) => s.includes('[y/N]'));
    home = mkdtempSync(join(tmpdir(), 'corral-pipe-'));
    screen = `${'output line\n'.repeat(50)}Continue? [y/N] `;
    const socket = (await server.tmux('display-message', '-p', '#{socket_path}')).trim();
    env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TMUX: `${socket},0,0`, TMUX_PANE: '' };
    delete env.CORRAL_DAEMON_URL;
  });

  afterAll(async () => {
    await server?.kill();
    if (home !== '') rmSync(home, { recursive: true, force: true });
  });

  /** Runs `corral ARGS` with stdout going to the reader; a command still running after `deadlineMs` gets SIGTERM. */
  function run(args: readonly string[], reader: Reader, deadlineMs = 4_000): Promise<Run> {
    // head reads corral's stdout directly: this process keeps no end of that pipe open.
    const head = reader === 'head -1' ? spawn('head', ['-1'], { stdio: ['pipe', 'ignore', 'ignore'] }) : null;
    const child = spawn(process.execPath, [MAIN_JS, ...args], {
      env,
      stdio: ['pipe', head === null ? 'pipe' : head.stdin, 'pipe'],
    });
    head?.stdin.destroy();
    // The command's stdin: a screen for check and hook (a hook event reads it); nothing for the rest.
    child.stdin?.end(args[0] === 'check' || args[0] === 'hook' ? screen : '');
    if (reader === 'closed') child.stdout?.destroy();
    else child.stdout?.resume();
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      child.kill('SIGTERM');
    }, deadlineMs);
    return new Promise((resolve) => {
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr, stopped });
      });
    });
  }

  it('covers every command of the table', () => {
    expect(Object.keys(argsFor('%0')).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  for (const command of COMMANDS.map((c) => c.name)) {
    it(`corral ${command}: the same exit code with a reader that goes away, and no stack`, async () => {
      const args = [command, ...(argsFor(pane)[command] ?? [])];
      const all = await run(args, 'all');
      expect(all.stderr, `${command} with a reader that reads everything`).not.toMatch(/\n\s+at |EPIPE|Unhandled/);
      for (const reader of ['head -1', 'closed'] as const) {
        const piped = await run(args, reader);
        const why = `${command} | ${reader}: ${piped.stderr}`;
        expect(piped.stderr, why).not.toMatch(/\n\s+at |EPIPE|Unhandled|Error:/);
        if (all.stopped) {
          // Runs until stopped: it may end by itself once its output has no reader, and then cleanly.
          expect(piped.stopped ? piped.code === all.code : piped.code === 0, `${why} (code ${piped.code})`).toBe(true);
        } else {
          expect(piped.stopped, why).toBe(false);
          expect(piped.code, why).toBe(all.code);
        }
      }
    });
  }
});
