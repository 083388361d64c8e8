// A private tmux server for integration tests: `tmux -L corral-test-<random>`, never the user's
// default server. Fails loudly when tmux is missing. Always call kill() (afterEach/afterAll).

import { execFileSync, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { namedSocketPath } from '../../src/engine/tmux/socket.js';
import type { TmuxSocket } from '../../src/engine/types.js';

const execFileAsync = promisify(execFile);

export function requireTmux(binary = 'tmux'): void {
  try {
    execFileSync(binary, ['-V'], { stdio: 'pipe' });
  } catch {
    throw new Error(
      binary === 'tmux'
        ? 'integration tests need tmux >= 3.2 on PATH (apt-get install tmux); it was not found'
        : `integration tests cannot run the tmux at ${binary}`,
    );
  }
}

export interface TestTmux {
  readonly socketName: string;
  /** The tmux program the server runs (`tmux` from PATH unless the test chose another build). */
  readonly binary: string;
  readonly socket: TmuxSocket;
  /** Runs tmux on the private socket and returns stdout. */
  tmux(...args: string[]): Promise<string>;
  /**
   * Starts a new session (the first call) or window running `command` in a clean bash,
   * and returns the new pane id.
   */
  spawn(command?: string, options?: { title?: string; width?: number; height?: number; session?: string }): Promise<string>;
  capture(paneId: string): Promise<string>;
  /** Polls capture-pane until `predicate` holds (or throws after timeoutMs with the last screen). */
  waitForScreen(paneId: string, predicate: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  kill(): Promise<void>;
}

const CLEAN_ENV = {
  ...process.env,
  PS1: '$ ',
  PROMPT_COMMAND: '',
  HISTFILE: '/dev/null',
  TERM: 'xterm-256color',
} as NodeJS.ProcessEnv;
delete CLEAN_ENV.TMUX;
delete CLEAN_ENV.TMUX_PANE;

/** tmux leaves a dead server's socket file behind; tests remove theirs. */
export function removeSocketFile(socketName: string): void {
  rmSync(namedSocketPath(socketName, process.env, process.getuid?.() ?? 0), { force: true });
}

export async function startTestTmux(options: { readonly binary?: string } = {}): Promise<TestTmux> {
  const binary = options.binary ?? 'tmux';
  requireTmux(binary);
  const socketName = `corral-test-${randomBytes(5).toString('hex')}`;
  let sessions = 0;
  const tmux = async (...args: string[]): Promise<string> => {
    const { stdout } = await execFileAsync(binary, ['-L', socketName, ...args], { env: CLEAN_ENV, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  };
  const shell = (command: string | undefined) =>
    command === undefined ? ['bash', '--norc', '--noprofile'] : ['bash', '--norc', '--noprofile', '-c', command];

  const api: TestTmux = {
    socketName,
    binary,
    socket: { kind: 'name', name: socketName },
    tmux,
    async spawn(command, options = {}) {
      const size = ['-x', String(options.width ?? 100), '-y', String(options.height ?? 30)];
      let paneId: string;
      const session = options.session;
      const exists = session !== undefined && sessions > 0 && (await tmux('list-sessions', '-F', '#{session_name}')).split('\n').includes(session);
      if (sessions === 0 || (session !== undefined && !exists)) {
        const name = session ?? 'main';
        paneId = (
          await tmux('-f', '/dev/null', 'new-session', '-d', '-s', name, ...size, '-P', '-F', '#{pane_id}', ...shell(command))
        ).trim();
        if (sessions === 0) await tmux('set-option', '-g', 'remain-on-exit', 'off');
        sessions += 1;
      } else {
        paneId = (await tmux('new-window', '-d', '-t', `${session ?? 'main'}:`, '-P', '-F', '#{pane_id}', ...shell(command))).trim();
      }
      if (options.title !== undefined) await tmux('select-pane', '-t', paneId, '-T', options.title);
      return paneId;
    },
    capture: (paneId) => tmux('capture-pane', '-p', '-t', paneId),
    async waitForScreen(paneId, predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      let screen = '';
      for (;;) {
        screen = await tmux('capture-pane', '-p', '-t', paneId);
        if (predicate(screen)) return screen;
        if (Date.now() > deadline) throw new Error(`timed out waiting for pane ${paneId}; screen was:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill() {
      sessions = 0;
      try {
        await execFileAsync(binary, ['-L', socketName, 'kill-server'], { env: CLEAN_ENV });
      } catch {
        // already gone
      }
      removeSocketFile(socketName);
    },
  };
  return api;
}
