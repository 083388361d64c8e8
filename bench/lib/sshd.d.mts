// Types of sshd.mjs, for the tests that use it.

import type { HostSpec, TmuxSocket } from '../../src/engine/types.js';

export interface TestSshd {
  readonly dir: string;
  readonly port: number;
  /** ssh_config for `ssh -F`: the aliases below. */
  readonly configFile: string;
  /** `['-F', configFile]`, for sshTransport's extraOptions / openTmux's sshOptions. */
  readonly sshOptions: readonly string[];
  /** Reaches this sshd with the accepted key. */
  readonly alias: string;
  /** The same server under another host name (a second machine, as far as ssh can tell). */
  readonly otherAlias: string;
  /** Reaches this sshd with a key it does not accept. */
  readonly wrongKeyAlias: string;
  /** A port that accepts TCP connections and never says a word (a hung host). */
  readonly silentAlias: string;
  /** A private folder for master sockets (short, for the socket path limit). */
  readonly controlDir: string;
  /** A HostSpec for this server's tmux on `socket`. */
  host(name: string, socket: TmuxSocket, alias?: string): HostSpec;
  /** Pids of the listener and every session process under it. */
  processes(): number[];
  /** Kills the server and all its sessions, as if the host went down. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** Throws a clear error when sshd, ssh or ssh-keygen is missing. */
export function requireSshd(): void;

export function startTestSshd(): Promise<TestSshd>;

/** Writes a `ssh` into `dir` that reads this server's config (for $CORRAL_SSH_BIN); returns its path. */
export function sshWrapper(sshd: TestSshd, dir: string): string;
