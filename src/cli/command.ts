// What a corral subcommand looks like. The table of commands lives in commands/index.ts.

import type { Settings } from '../engine/settings/config.js';
import type { FlagSpec } from './args.js';
import type { SettingKey } from './command-settings.js';
import type { Lifecycle } from './lifecycle.js';

export interface CommandContext {
  readonly settings: Settings;
  readonly flags: Record<string, string | boolean | string[]>;
  readonly positionals: readonly string[];
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** Signals and the shutdown order: long-running commands await untilStopped(). */
  readonly lifecycle: Lifecycle;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Usage line after "corral ", e.g. "send [-l] PANE ITEM...". */
  readonly usage: string;
  readonly details?: string;
  readonly flags: readonly FlagSpec[];
  /**
   * The settings it reads: their flags are its options (see command-settings.ts); the flag of any
   * other setting is refused.
   */
  readonly settings: readonly SettingKey[];
  /** What its positional arguments are, for the shell completions: fixed words, or file names. */
  readonly args?: { readonly words?: readonly string[]; readonly files?: boolean };
  /** Resolves to the process exit code. */
  run(ctx: CommandContext): Promise<number>;
}
