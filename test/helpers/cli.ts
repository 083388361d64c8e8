// Runs the built CLI (dist/, built by `npm test`'s pretest) as a real process.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/bin/corral.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: options.env ?? cliEnv(), timeout: options.timeoutMs ?? 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** An environment without the caller's tmux (tests must never reach the user's server). */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return env;
}

export interface LiveCli {
  child: ChildProcess;
  stdoutLines: string[];
  stderr: () => string;
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = cliEnv()): LiveCli {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdoutLines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    stdoutLines.push(...parts);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const poll = async (check: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${stdoutLines.join('\n')}\nstderr:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    child,
    stdoutLines,
    stderr: () => stderr,
    async waitForLine(predicate, timeoutMs = 10_000) {
      await poll(() => stdoutLines.some(predicate), timeoutMs, 'a stdout line');
      return stdoutLines.find(predicate)!;
    },
    waitForStderr: (pattern, timeoutMs = 10_000) => poll(() => pattern.test(stderr), timeoutMs, `stderr ${pattern}`),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
