// The only place that starts tmux processes. Everything else builds argument
// arrays (never shell strings) and hands them to a TmuxRunner.

import { execa } from 'execa';
import type { TmuxSocket } from '../types.js';
import { envValue, type Env } from '../env.js';
import { socketArgs } from './socket.js';

export interface TmuxResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface RunOptions {
  /** Bytes for tmux's stdin (used by `load-buffer -`). */
  readonly input?: string;
}

/** Runs one tmux client with the given arguments (socket flags excluded). */
export type TmuxRunner = (args: readonly string[], options?: RunOptions) => Promise<TmuxResult>;

export class TmuxMissingError extends Error {
  constructor() {
    super('tmux is not installed (corral needs tmux >= 3.2): apt install tmux, or brew install tmux');
    this.name = 'TmuxMissingError';
  }
}

export class TmuxCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: TmuxResult,
  ) {
    super(`tmux ${args[0] ?? ''} failed: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
    this.name = 'TmuxCommandError';
  }
}

/** True when stderr says there is no server on the socket (not an error in the command). */
export function isNoServerMessage(stderr: string): boolean {
  return /no server running|error connecting to|failed to connect to server|server exited unexpectedly/i.test(stderr);
}

let spawnCount = 0;
/** How many tmux processes this process has started (for benchmarks and tests). */
export function tmuxSpawnCount(): number {
  return spawnCount;
}

/** The tmux program to run: $CORRAL_TMUX_BIN (unless empty), else `tmux` from PATH. */
export function tmuxBinary(env: Env = process.env): string {
  return envValue(env, 'CORRAL_TMUX_BIN') ?? 'tmux';
}

export function createExecRunner(socket: TmuxSocket, binary = tmuxBinary()): TmuxRunner {
  const prefix = socketArgs(socket);
  return async (args, options) => {
    spawnCount += 1;
    try {
      const result = await execa(binary, [...prefix, ...args], {
        reject: false,
        stripFinalNewline: false,
        ...(options?.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
      });
      if (result.failed && result.exitCode === undefined) {
        const code = (result as { code?: string }).code;
        if (code === 'ENOENT') throw new TmuxMissingError();
        throw new Error(`could not run tmux: ${result.shortMessage}`);
      }
      return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? 1 };
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') throw new TmuxMissingError();
      throw error;
    }
  };
}

/** Runs and throws TmuxCommandError on a non-zero exit. */
export async function runChecked(runner: TmuxRunner, args: readonly string[], options?: RunOptions): Promise<string> {
  const result = await runner(args, options);
  if (result.exitCode !== 0) throw new TmuxCommandError(args, result);
  return result.stdout;
}
