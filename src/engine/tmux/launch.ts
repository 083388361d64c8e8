// Starting and ending panes (`client.launch`): a new window or session running a command line,
// whether a session exists, killing a pane, and other programs run on the same host. The command
// line the person typed is one argument (tmux hands it to the pane's shell); every value that ends
// in ';' is escaped, or tmux would end the command there. The builders below are pure.

import { escapeArg, type TmuxCommand } from './command-line.js';
import type { TmuxCore } from './core.js';
import { assertPaneId } from './pane-id.js';
import { TmuxCommandError, createProgramRunner, type ProgramRunner } from './runner.js';

export class PaneLaunch {
  constructor(private readonly core: TmuxCore) {}

  /**
   * Starts the command in a new window (a new session when `newSession` is set), not made current;
   * resolves to the new pane's id. The command line is one argument, run by the pane's shell.
   */
  async newPane(spec: WindowSpec, where: { readonly session: SessionTarget } | { readonly newSession: string | null }): Promise<string> {
    const args = 'session' in where ? newWindowCommand(spec, where.session) : newSessionCommand(spec, where.newSession);
    const result = await this.core.runner(args);
    if (result.exitCode !== 0) {
      this.core.throwIfNoServer(result);
      throw new TmuxCommandError(args, result);
    }
    const paneId = result.stdout.trim();
    return assertPaneId(paneId);
  }

  /** True when the server has a session of exactly this name. */
  async hasSession(name: string): Promise<boolean> {
    return (await this.core.runner(['has-session', '-t', escapeArg(`=${name}`)])).exitCode === 0;
  }

  /** Ends the pane and its processes (tmux sends SIGHUP); PaneGoneError when it is no longer there. */
  async killPane(paneId: string): Promise<void> {
    await this.core.checked(paneId, killPaneCommand(paneId));
  }

  /** Runs another program (git, test) on this client's host, with argv. */
  program(file: string): ProgramRunner {
    return createProgramRunner(this.core.transport, file);
  }
}

/** Where a new pane goes: a session by id (`$3`) or exact name, or null for tmux's current session. */
export type SessionTarget = { readonly id: string } | { readonly name: string } | null;

export interface WindowSpec {
  /** A shell command line, as typed; the pane's shell runs it. */
  readonly command: string;
  /** The folder the pane starts in; null: tmux's default. */
  readonly cwd: string | null;
  /** The window's name. */
  readonly name: string;
}

/** What new-window and new-session print: the new pane's id. */
export const NEW_PANE_FORMAT = '#{pane_id}';

/**
 * tmux expands formats in -s, -n and -c (`-s 'x#(cmd)'` runs cmd); targets (-t) it takes as they are: a '#' there is doubled to stay what was typed, except in a
 * run of '#' right before '[', which tmux keeps as it is (measured on 3.3a: `#[x` and `##[x` both
 * come out unchanged).
 */
export function literalFormat(value: string): string {
  return value.replace(/#+/g, (run, at: number) => (value[at + run.length] === '[' ? run : run + run));
}

function windowArgs(spec: WindowSpec): string[] {
  return [
    '-P',
    '-F',
    NEW_PANE_FORMAT,
    '-n',
    escapeArg(literalFormat(spec.name)),
    ...(spec.cwd === null ? [] : ['-c', escapeArg(literalFormat(spec.cwd))]),
    '--',
    escapeArg(spec.command),
  ];
}

/** A window of its own for the command, not made current (the person stays where they are). */
export function newWindowCommand(spec: WindowSpec, session: SessionTarget): TmuxCommand {
  if (session !== null && 'id' in session && !/^\$\d{1,9}$/.test(session.id)) throw new Error(`not a tmux session id: ${JSON.stringify(session.id)}`);
  const target = session === null ? [] : ['-t', 'id' in session ? `${session.id}:` : escapeArg(`=${session.name}:`)];
  return ['new-window', '-d', ...target, ...windowArgs(spec)];
}

/** A detached session named `name` (tmux's own name when null) whose first window runs the command. */
export function newSessionCommand(spec: WindowSpec, name: string | null): TmuxCommand {
  return ['new-session', '-d', ...(name === null ? [] : ['-s', escapeArg(literalFormat(name))]), ...windowArgs(spec)];
}

export function killPaneCommand(paneId: string): TmuxCommand {
  assertPaneId(paneId);
  return ['kill-pane', '-t', paneId];
}

/**
 * The window's name for a command line: its program's base name (after any `VAR=value` words),
 * printable characters only, at most 24 of them; `shell` when nothing is left.
 */
export function windowNameFor(command: string): string {
  const words = command.trim().split(/\s+/);
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
  const base = program.replace(/^['"]|['"]$/g, '').split('/').filter((part) => part !== '').pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const printable = [...base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')].slice(0, 24).join('');
  return printable === '' ? 'shell' : printable;
}

/**
 * A session name tmux keeps as given: no ':' or '.' (tmux changes them), no backslash or '$' (tmux
 * stores a session name escaped, a backslash doubled and `$HOME` as `\$HOME`, and reads a leading
 * '$' as an id, so such a name could not be found again), no control characters.
 */
export function sessionNameProblem(name: string): string | null {
  if (name === '') return 'a session name cannot be empty';
  if (/[:.\\$]/.test(name)) return `session name ${JSON.stringify(name)} holds ':', '.', '$' or '\\', which tmux does not keep in names`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return `session name ${JSON.stringify(name)} holds control characters`;
  return null;
}
