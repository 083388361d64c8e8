// How tmux is reached on one host: this machine's tmux directly, or another machine's over ssh.
// A transport only builds the program and argv of a run and reads ssh's failures; runner.ts and
// control-client.ts stay the only modules that start processes (plus `ssh -O exit`, which ends a
// master in close() and the masters that dead corral processes left).

import { processAlive } from './process-alive.js';
import { HostAuthError, HostUnreachableError } from './host-errors.js';

export { HostAuthError, HostUnreachableError };
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_HOST, type HostSpec, type TmuxSocket } from '../types.js';
import { socketArgs } from './socket.js';
import { localSupervisorArgs, remoteSupervisorArgs } from './control-supervisor.js';
import { trackChild } from './child-processes.js';

/** Environment variables; an empty value counts as unset, as everywhere in corral (src/engine/settings/env.ts). */
type Env = Readonly<Record<string, string | undefined>>;

export interface TmuxTransport {
  /** The host's name (`local` for this machine). */
  readonly host: string;
  readonly remote: boolean;
  /** Program and argv that run tmux with these args (socket flags included); never a shell string locally. */
  command(args: readonly string[]): { file: string; args: string[] };
  /** Program and argv that run another program on the host (git, test); quoted word by word over ssh. */
  program(file: string, args: readonly string[]): { file: string; args: string[] };
  /**
   * The same for a long-lived control client, which runs under a supervisor of
   * control-supervisor.ts so that it ends when corral does, however corral ends: here the
   * supervisor itself, which needs the lifeline pipe as fd 3 (`lifeline`); over ssh the remote
   * command (and ending ssh ends it). Either is started in a session of its own and ended as a
   * process group.
   */
  controlCommand(args: readonly string[]): { file: string; args: string[]; lifeline: boolean };
  /** A failed run (exit code and stderr) as HostUnreachableError, HostAuthError or TmuxMissingError; null when tmux itself failed. */
  classify(exitCode: number, stderr: string): Error | null;
  /** The error for a program that could not be started at all (ENOENT). */
  missingProgram(): Error;
  /** Stops what the transport keeps open (the ssh master, with `ssh -O exit`). Idempotent. */
  close(): Promise<void>;
}

export class TmuxMissingError extends Error {
  /**
   * `host`: the machine without tmux, when it is not this one; `binary`: the program
   * CORRAL_TMUX_BIN named, when it did (then that program is missing, not tmux itself).
   */
  constructor(
    readonly host: string = LOCAL_HOST,
    binary: string = 'tmux',
  ) {
    super(
      binary !== 'tmux' && host === LOCAL_HOST
        ? `CORRAL_TMUX_BIN names ${binary}, which is not there or cannot run: point it at a tmux >= 3.2, or unset it to use tmux from the PATH`
        : host === LOCAL_HOST
          ? 'tmux is not installed (corral needs tmux >= 3.2): apt install tmux, or brew install tmux'
          : `tmux is not installed on ${host}, or not on the PATH of its ssh sessions (corral needs tmux >= 3.2 there): apt install tmux, or brew install tmux`,
    );
    this.name = 'TmuxMissingError';
  }
}

/** A host description corral cannot use (e.g. an ssh destination that ssh would read as an option). */

export class HostSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostSpecError';
  }
}

export class SshMissingError extends Error {
  constructor(readonly program: string) {
    super(`ssh (${program}) is not installed, and corral needs it to reach other hosts: apt install openssh-client`);
    this.name = 'SshMissingError';
  }
}

/** The tmux program to run: $CORRAL_TMUX_BIN (unless empty), else `tmux` from PATH. */
export function tmuxBinary(env: Env = process.env): string {
  return env['CORRAL_TMUX_BIN'] || 'tmux';
}

/** The ssh program to run: $CORRAL_SSH_BIN (unless empty), else `ssh` from PATH. */
export function sshBinary(env: Env = process.env): string {
  return env['CORRAL_SSH_BIN'] || 'ssh';
}

/** The shell the control-client supervisor runs in, on this machine. */
const LOCAL_SHELL = '/bin/sh';

export function localTransport(socket: TmuxSocket, binary: string = tmuxBinary()): TmuxTransport {
  const prefix = socketArgs(socket);
  return {
    host: LOCAL_HOST,
    remote: false,
    command: (args) => ({ file: binary, args: [...prefix, ...args] }),
    program: (file, args) => ({ file, args: [...args] }),
    controlCommand: (args) => ({ file: LOCAL_SHELL, args: localSupervisorArgs(binary, [...prefix, ...args]), lifeline: true }),
    // Under the supervisor, a missing tmux is the shell's "not found" (127), not ENOENT.
    classify: (exitCode, stderr) => (exitCode === 127 && /not found|no such file/i.test(stderr) ? new TmuxMissingError(LOCAL_HOST, binary) : null),
    missingProgram: () => new TmuxMissingError(LOCAL_HOST, binary),
    close: () => Promise.resolve(),
  };
}

/**
 * One word for a POSIX shell: ssh joins its arguments with spaces and the remote shell parses the
 * line again, so every word goes in single quotes (a quote inside becomes `'\''`).
 */
export function quoteShellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line the remote shell runs: every word quoted, so nothing in it is shell syntax. */
export function remoteCommandLine(words: readonly string[]): string {
  return words.map(quoteShellWord).join(' ');
}

/** Throws HostSpecError for an ssh destination that is empty, starts with `-` or holds blanks. */
export function checkSshDestination(destination: string): void {
  if (destination === '') throw new HostSpecError('the ssh destination of a host is empty');
  if (destination.startsWith('-')) {
    throw new HostSpecError(`ssh destination "${destination}" starts with "-", which ssh would read as an option`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(destination)) {
    throw new HostSpecError(`ssh destination "${destination}" contains blanks or control characters`);
  }
}

const AUTH_FAILURES = [
  /Permission denied/i,
  /Host key verification failed/i,
  /REMOTE HOST IDENTIFICATION HAS CHANGED/i,
  /Too many authentication failures/i,
  /No (?:matching )?host ?key/i,
];

function lastLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines[lines.length - 1] ?? '';
}

/**
 * What a failed `ssh HOST tmux …` means. ssh exits 255 for its own failures (tmux never does):
 * refused credentials or host keys are HostAuthError, anything else HostUnreachableError. A remote
 * shell that cannot find tmux exits 127. Anything else is tmux's own answer: null.
 */
export function classifySshFailure(host: string, exitCode: number, stderr: string): Error | null {
  if (exitCode === 255) {
    const message = lastLine(stderr) || 'ssh failed (exit 255) without saying why';
    return AUTH_FAILURES.some((pattern) => pattern.test(stderr))
      ? new HostAuthError(host, message)
      : new HostUnreachableError(host, message);
  }
  if (exitCode === 127 && /not found|no such file/i.test(stderr)) return new TmuxMissingError(host);
  return null;
}

/** Unix socket paths hold about 104 bytes; the ControlPath is the folder, a slash and 40 hex digits (%C). */
const MAX_CONTROL_DIR = 104 - 42;

/** A private folder for ssh master sockets: `corral-ssh-<uid>` in the temporary folder. */
export function defaultControlDir(uid: number = process.getuid?.() ?? 0): string {
  return join(tmpdir(), `corral-ssh-${uid}`);
}

/**
 * This process's own folder for master sockets, inside the user's (`corral-ssh-UID/PID`): a
 * corral that ends (`corral ls`, say) closes its own masters, never the connection a running
 * dashboard polls through. Folders of processes that are gone are removed on the way.
 */
export function processControlDir(base: string = defaultControlDir(), pid: number = process.pid): string {
  ensureControlDir(base);
  removeStaleControlDirs(base, pid);
  const own = join(base, String(pid));
  ensureControlDir(own);
  return own;
}

/**
 * Removes the folders that corral processes no longer running left in `base` (one killed by
 * SIGKILL cannot remove its own), after asking any master still listening there to exit: such a
 * master has no session left and would otherwise linger until its ControlPersist runs out.
 */
export function removeStaleControlDirs(base: string = defaultControlDir(), pid: number = process.pid, ssh: string = sshBinary()): void {
  let entries: string[];
  try {
    if (statSync(base).uid !== process.getuid?.()) return;
    entries = readdirSync(base);
  } catch {
    return; // no folder: nothing was left
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === pid || processAlive(Number(entry))) continue;
    const dir = join(base, entry);
    for (const socket of safeList(dir)) {
      try {
        execFileSync(ssh, ['-o', `ControlPath=${join(dir, socket)}`, '-O', 'exit', 'corral-stale-master'], { stdio: 'ignore', timeout: 3_000 });
      } catch {
        // no master listens there any more
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Removes this process's own folder of master sockets (its masters were asked to exit before). */
export function removeProcessControlDir(base: string = defaultControlDir(), pid: number = process.pid): void {
  rmSync(join(base, String(pid)), { recursive: true, force: true });
}


/** Creates the folder for master sockets, or checks an existing one: a folder of ours, mode 0700. */
export function ensureControlDir(path: string): void {
  if (Buffer.byteLength(path) > MAX_CONTROL_DIR) {
    throw new HostSpecError(`the ssh control folder ${path} is too long for a socket path (at most ${MAX_CONTROL_DIR} bytes)`);
  }
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = statSync(path);
  if (!stat.isDirectory()) throw new HostSpecError(`the ssh control folder ${path} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new HostSpecError(`the ssh control folder ${path} belongs to another user; remove it or choose another`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
}

export interface SshTransportOptions {
  readonly host: HostSpec;
  /** Where the master sockets live (created 0700). */
  readonly controlDir: string;
  /** The ssh program: $CORRAL_SSH_BIN, else `ssh`. */
  readonly ssh?: string;
  /** Seconds ssh waits for the connection and the server's greeting (default 5). */
  readonly connectTimeoutS?: number;
  /** Seconds an idle master stays up after its last session (default 10). */
  readonly persistS?: number;
  /** Seconds between keep-alives on the master; three unanswered ones end it (default 5). */
  readonly serverAliveS?: number;
  /** More ssh arguments, placed first so they win over corral's defaults (`-F FILE`, `-o Port=2222`). */
  readonly extraOptions?: readonly string[];
  /** The tmux program on the remote host (default `tmux`, found on its PATH). */
  readonly remoteTmux?: string;
}

/**
 * tmux on another machine through one multiplexed ssh connection: the first run becomes the master
 * (ControlMaster=auto), later runs reuse it, and it lingers `persistS` seconds after the last one.
 */
export function sshTransport(options: SshTransportOptions): TmuxTransport {
  const { host } = options;
  if (host.ssh === null) throw new HostSpecError(`host ${host.name} has no ssh destination`);
  const destination = host.ssh;
  checkSshDestination(destination);
  ensureControlDir(options.controlDir);
  const ssh = options.ssh ?? sshBinary();
  const shared = [
    ...(options.extraOptions ?? []),
    '-o',
    'BatchMode=yes',
    '-o',
    `ConnectTimeout=${options.connectTimeoutS ?? 5}`,
    '-o',
    'ControlMaster=auto',
    '-o',
    `ControlPersist=${options.persistS ?? 10}s`,
    '-o',
    `ControlPath=${join(options.controlDir, '%C')}`,
    '-o',
    `ServerAliveInterval=${options.serverAliveS ?? 5}`,
    '-o',
    'ServerAliveCountMax=3',
    // Errors only: warnings such as "Permanently added … to the list of known hosts" would mix with tmux's stderr.
    '-o',
    'LogLevel=ERROR',
  ];
  const tmux = [options.remoteTmux ?? 'tmux', ...socketArgs(host.socket)];
  let closing: Promise<void> | null = null;
  return {
    host: host.name,
    remote: true,
    command: (args) => ({
      file: ssh,
      args: [...shared, '-T', destination, '--', remoteCommandLine([...tmux, ...args])],
    }),
    program: (file, args) => ({ file: ssh, args: [...shared, '-T', destination, '--', remoteCommandLine([file, ...args])] }),
    // The remote shell runs the supervisor: when this ssh ends (corral closed it, or died and the
    // channel closed), the remote tmux client ends too.
    controlCommand: (args) => ({
      file: ssh,
      args: [...shared, '-T', destination, '--', remoteCommandLine(['sh', ...remoteSupervisorArgs(tmux[0] as string, [...tmux.slice(1), ...args])])],
      lifeline: false,
    }),
    classify: (exitCode, stderr) => classifySshFailure(host.name, exitCode, stderr),
    missingProgram: () => new SshMissingError(ssh),
    close() {
      // `-O exit` fails when no master is running; either way none is left. Calls made while one
      // runs share it; a later call (the transport was used again) asks again.
      closing ??= new Promise<void>((resolve) => {
        trackChild(execFile(ssh, [...shared, '-O', 'exit', destination], { timeout: 10_000 }, () => resolve()));
      }).finally(() => (closing = null));
      return closing;
    },
  };
}
