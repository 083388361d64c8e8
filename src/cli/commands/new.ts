// `corral new -- COMMAND...`: starts a command or agent in a new tmux window, here or on a watched
// host, in a folder or a new git worktree, and prints the new pane's key (what `corral send`,
// `corral end` and the dashboard name it by). The engine's pane-launch.ts does the work.

import { resolve } from 'node:path';
import { startPane, type StartRequest, type StartedPane } from '../../engine/launch/pane-launch.js';
import { paneKey } from '../../engine/pane/pane-key.js';
import { parseHostText } from '../../engine/hosts/hosts-config.js';
import { terminalSafe, terminalSafeJson } from '../../engine/text/terminal-text.js';
import { localHost, openTmux } from '../../engine/tmux/open.js';
import { paneTarget } from '../../engine/tmux/command-line.js';
import { quoteShellWord } from '../../engine/tmux/transport.js';
import { LOCAL_HOST, type HostSpec } from '../../engine/types.js';
import { UsageError } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { checkTmux, socketFromSettings } from '../setup.js';
import { TMUX_FORMATS } from '../../engine/records/tmux-formats.js';
import { clock, controlTimers } from '../time.js';

/** `--on NAME`: a watched host by its name, else an ssh destination (`DEST[=NAME][,-L SOCKET]`); none: this machine. */
export function hostToStartOn(ctx: Pick<CommandContext, 'settings' | 'env'>, on: string | undefined): HostSpec {
  if (on === undefined || on === LOCAL_HOST) return localHost(socketFromSettings(ctx.settings, ctx.env));
  return ctx.settings.hosts.find((host) => host.name === on) ?? parseHostText(on, '--on');
}

/**
 * The command line from the words after `--`: one word is a shell command line as typed (`'npm
 * run dev && open'`); several are a program and its arguments, each kept as one word.
 */
export function commandLineOf(words: readonly string[]): string {
  return words.length === 1 ? (words[0] as string) : words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : quoteShellWord(word))).join(' ');
}

const text = (flags: CommandContext['flags'], name: string): string | undefined => (typeof flags[name] === 'string' ? flags[name] : undefined);

function requestOf({ flags, positionals }: Pick<CommandContext, 'flags' | 'positionals'>, host: HostSpec): StartRequest {
  if (positionals.length === 0 || positionals.every((word) => word.trim() === '')) {
    throw new UsageError('no command to start: corral new [OPTIONS] -- COMMAND... (e.g. corral new -- claude)');
  }
  const cwd = text(flags, 'cwd');
  const session = text(flags, 'session');
  return {
    command: commandLineOf(positionals),
    // Here: this shell's folder unless told; elsewhere the folder must be absolute on that host.
    cwd: host.ssh === null ? resolve(cwd ?? process.cwd()) : (cwd ?? null),
    worktree: text(flags, 'worktree') ?? null,
    session: session === undefined ? null : { name: session },
    name: text(flags, 'name') ?? null,
  };
}

function printStarted(ctx: Pick<CommandContext, 'flags' | 'stdout'>, host: HostSpec, started: StartedPane, target: string | null): void {
  const key = paneKey(host.name, started.paneId);
  if (ctx.flags.json !== true) {
    ctx.stdout.write(`${terminalSafe(key)}\n`);
    return;
  }
  const { paneId, name, cwd, worktree, newSession } = started;
  ctx.stdout.write(`${terminalSafeJson({ key, host: host.name, paneId, target, window: name, cwd, worktree, newSession })}\n`);
}

export const newCommand: Command = {
  name: 'new',
  summary: 'start a command or agent in a new tmux window (optionally in a new git worktree)',
  usage: 'new [--on HOST] [--cwd DIR] [--worktree BRANCH] [--session NAME] [--name NAME] [--json] -- COMMAND...',
  details: [
    'Starts COMMAND in a new window, beside the windows you have (your terminal stays where it is),',
    'and prints the new pane\'s key (%5, or build-box/%5 on another host) for corral send and corral end.',
    'One word after -- is a shell command line as typed; several are a program and its arguments.',
    'It starts in this folder (--cwd: another), in the current tmux session (--session: that one, made',
    'when there is none; a server with no session gets one). The window is named after the program.',
    '--worktree BRANCH makes a new git worktree on a new branch beside the repository the folder is in',
    '(<repo>-<branch>, from its HEAD) and starts there; it refuses a folder outside a repository, a',
    'branch that exists or a name git would not take. --on HOST starts on a watched host (its name) or',
    'on an ssh destination; there --cwd must be an absolute folder of that host.',
    'Exit code 0 started, 1 refused or failed (the reason on stderr), 2 usage.',
    "Example: corral new --worktree fix-login -- claude",
  ].join('\n'),
  settings: settingsOf('servers'),
  flags: [
    { name: 'on', type: 'string', valueName: 'HOST', description: 'a watched host (its name) or an ssh destination; default this machine' },
    { name: 'cwd', type: 'string', valueName: 'DIR', description: 'the folder it starts in (default: this one here, the session\'s on another host)' },
    { name: 'worktree', type: 'string', valueName: 'BRANCH', description: 'start in a new git worktree <repo>-<BRANCH> on the new branch BRANCH' },
    { name: 'session', type: 'string', valueName: 'NAME', description: 'the tmux session (made when missing; default the current one)' },
    { name: 'name', type: 'string', valueName: 'NAME', description: 'the window name (default the program\'s name)' },
    { name: 'json', type: 'boolean', description: 'print the new pane as JSON (key, target, window, cwd, worktree)' },
  ],
  async run(ctx) {
    const host = hostToStartOn(ctx, text(ctx.flags, 'on'));
    const request = requestOf(ctx, host);
    const opened = openTmux(host, { formats: TMUX_FORMATS, persistent: false, clock, timers: controlTimers });
    try {
      if (host.ssh === null) await checkTmux(opened.client, ctx.stderr);
      const started = await startPane(opened.client, request);
      const pane = await opened.client.panes.findPane(started.paneId).catch(() => null);
      printStarted(ctx, host, started, pane ? paneTarget(pane) : null);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
