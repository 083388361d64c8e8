// The only place that starts tmux processes (with control-client.ts for persistent connections).
// Everything else builds argument arrays (never shell strings) and hands them to a TmuxRunner; the
// host's transport turns them into the program to run (tmux here, ssh for another host).

import { execa } from 'execa';
import type { Readable } from 'node:stream';
import { HostUnreachableError } from './host-errors.js';
import type { TmuxTransport } from './transport.js';
import { trackChild } from './child-processes.js';

export { TmuxMissingError, tmuxBinary } from './transport.js';

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
const spawnsByHost = new Map<string, number>();

/** How many tmux processes (ssh ones included) this process has started (for benchmarks and tests). */
export function tmuxSpawnCount(): number {
  return spawnCount;
}

/** The same count per host name (`local` for this machine). */
export function tmuxSpawnCountByHost(): ReadonlyMap<string, number> {
  return new Map(spawnsByHost);
}

export interface ExecRunnerOptions {
  /** Ends a run that takes longer (ms); it then fails as the host being unreachable. Default: none locally, 30 s over ssh. */
  readonly timeoutMs?: number;
  /** Ends a run that prints more (bytes on stdout or stderr): MAX_EXEC_OUTPUT, over ssh MAX_REMOTE_EXEC_OUTPUT. */
  readonly maxOutputBytes?: number;
}

/**
 * The most one tmux command may print (bytes), here and on another host: captures with the
 * longest history of many panes stay well below it. More means a broken or hostile tmux or host;
 * the run is ended and fails.
 */
export const MAX_EXEC_OUTPUT = 64 * 1024 * 1024;
export const MAX_REMOTE_EXEC_OUTPUT = 8 * 1024 * 1024;

/**
 * Runs each call as one process through the transport: `tmux ARGS` here, `ssh HOST -- tmux ARGS`
 * for another host. A run that fails at the ssh level throws the transport's error
 * (HostUnreachableError, HostAuthError, TmuxMissingError) instead of returning a result.
 */
export function createExecRunner(transport: TmuxTransport, options: ExecRunnerOptions = {}): TmuxRunner {
  const timeoutMs = options.timeoutMs ?? (transport.remote ? 30_000 : undefined);
  const maxBuffer = options.maxOutputBytes ?? (transport.remote ? MAX_REMOTE_EXEC_OUTPUT : MAX_EXEC_OUTPUT);
  return async (args, runOptions) => {
    spawnCount += 1;
    spawnsByHost.set(transport.host, (spawnsByHost.get(transport.host) ?? 0) + 1);
    const command = transport.command(args);
    let result;
    let stdout: BoundedOutput;
    let stderr: BoundedOutput;
    try {
      // Output is collected here, not by execa: past the limit the run is ended at once and what it
      // printed is dropped, never copied into a result or an error message.
      const run = execa(command.file, command.args, {
        reject: false,
        buffer: false,
        ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
        ...(runOptions?.input === undefined ? { stdin: 'ignore' as const } : { input: runOptions.input }),
      });
      trackChild(run);
      const over = () => run.kill();
      stdout = collectBounded(run.stdout, maxBuffer, over);
      stderr = collectBounded(run.stderr, maxBuffer, over);
      result = await run;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') throw transport.missingProgram();
      throw error;
    }
    if (stdout.over || stderr.over) {
      const why = `printed more than ${Math.round(maxBuffer / (1024 * 1024))} MiB for one command; corral ended it`;
      throw transport.remote ? new HostUnreachableError(transport.host, `the host ${why}`) : new Error(`tmux ${args[0] ?? ''} ${why}`);
    }
    if (result.timedOut) {
      throw transport.remote
        ? new HostUnreachableError(transport.host, `no answer within ${Math.round((timeoutMs ?? 0) / 1000)} s`)
        : new Error(`tmux ${args[0] ?? ''} did not finish within ${timeoutMs ?? 0} ms`);
    }
    if (result.failed && result.exitCode === undefined) {
      if ((result as { code?: string }).code === 'ENOENT') throw transport.missingProgram();
      throw new Error(`could not run ${command.file}: ${result.shortMessage}`);
    }
    const out = { stdout: stdout.text(), stderr: stderr.text(), exitCode: result.exitCode ?? 1 };
    if (out.exitCode !== 0) {
      const failure = transport.classify(out.exitCode, out.stderr);
      if (failure) throw failure;
    }
    return out;
  };
}

/** What a run printed on one stream, kept up to a limit. */
interface BoundedOutput {
  /** It printed more than the limit: what it printed is dropped. */
  readonly over: boolean;
  /** What it printed, decoded as UTF-8 (empty when over). */
  text(): string;
}

/** Collects a stream's bytes up to `limit`; past it, calls `over` once and drops them all. */
function collectBounded(stream: Readable | null, limit: number, over: () => void): BoundedOutput {
  let chunks: Buffer[] = [];
  let size = 0;
  let exceeded = false;
  stream?.on('data', (chunk: Buffer) => {
    if (exceeded) return;
    size += chunk.length;
    if (size <= limit) {
      chunks.push(chunk);
      return;
    }
    exceeded = true;
    chunks = [];
    over();
  });
  return {
    get over() {
      return exceeded;
    },
    text: () => Buffer.concat(chunks, Math.min(size, limit)).toString('utf8'),
  };
}

/** Runs and throws TmuxCommandError on a non-zero exit. */
export async function runChecked(runner: TmuxRunner, args: readonly string[], options?: RunOptions): Promise<string> {
  const result = await runner(args, options);
  if (result.exitCode !== 0) throw new TmuxCommandError(args, result);
  return result.stdout;
}

/** A program corral runs beside tmux on a host (git for worktrees) is not installed there. */
export class ProgramMissingError extends Error {
  constructor(
    readonly program: string,
    readonly host: string,
  ) {
    super(`${program} is not installed${host === 'local' ? '' : ` on ${host}`}, or not on the PATH${host === 'local' ? '' : ' of its ssh sessions'}`);
    this.name = 'ProgramMissingError';
  }
}

/** Runs one other program on the host with the given arguments; a result, never a shell line. */
export type ProgramRunner = (args: readonly string[]) => Promise<TmuxResult>;

/**
 * Runs `file ARGS` on the transport's host: here as argv, over ssh as quoted words. ssh's own
 * failures throw the transport's errors; a program the host lacks throws ProgramMissingError.
 */
export function createProgramRunner(transport: TmuxTransport, file: string, timeoutMs = 60_000): ProgramRunner {
  return async (args) => {
    spawnCount += 1;
    spawnsByHost.set(transport.host, (spawnsByHost.get(transport.host) ?? 0) + 1);
    const command = transport.program(file, args);
    const result = await trackChild(execa(command.file, command.args, { reject: false, stdin: 'ignore', timeout: timeoutMs, maxBuffer: 1024 * 1024 }));
    if ((result as { code?: string }).code === 'ENOENT') {
      throw transport.remote ? transport.missingProgram() : new ProgramMissingError(file, transport.host);
    }
    if (result.timedOut) {
      const why = `${file} did not finish within ${Math.round(timeoutMs / 1000)} s`;
      throw transport.remote ? new HostUnreachableError(transport.host, why) : new Error(why);
    }
    const out = { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? 1 };
    if (out.exitCode === 127 && /not found|no such file/i.test(out.stderr)) throw new ProgramMissingError(file, transport.host);
    const failure = transport.remote && out.exitCode === 255 ? transport.classify(out.exitCode, out.stderr) : null;
    if (failure) throw failure;
    return out;
  };
}
