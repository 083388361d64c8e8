// Types of exit-rig.mjs, for the test that uses it.

export type ExitCommand = 'dashboard' | 'serve' | 'watch';
export type Ending = 'SIGKILL' | 'SIGHUP' | 'SIGTERM' | 'terminal' | 'hung-SIGKILL';

export const COMMANDS: readonly ExitCommand[];
export const ENDINGS: readonly Ending[];

export interface ExitResult {
  readonly command: ExitCommand;
  readonly ending: Ending;
  /** From the ending to corral's process being gone. */
  readonly exitMs: number;
  /** From the ending to nothing of ours left (an idle ssh master aside); null: not within 5 s. */
  readonly cleanMs: number | null;
  /** Control clients still attached to the watched servers. */
  readonly clients: number;
  /** Command lines of processes of ours still running (idle ssh masters aside). */
  readonly processes: readonly string[];
  /** Idle ssh masters still running (after a SIGKILL, until ControlPersist or the next corral). */
  readonly masters: number;
  /** sshd processes besides the listener. */
  readonly sessions: number;
  /** Whether this corral's ssh master folder is still there. */
  readonly ownFolder: boolean;
  /** What earlier corrals left, as seen once this one ran: folders of dead processes, their masters. */
  readonly staleAtStart: { readonly folders: readonly string[]; readonly masters: number };
}

export interface ExitRig {
  readonly tag: string;
  readonly dir: string;
  readonly remote: boolean;
  run(command: ExitCommand, ending: Ending): Promise<ExitResult>;
  residue(): { clients: number; processes: string[]; sessions: number; folders: string[] };
  sweep(): void;
  dispose(): Promise<void>;
}

export function startExitRig(options?: { remote?: boolean }): Promise<ExitRig>;
