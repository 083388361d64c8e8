// Parses the command line, resolves settings and runs one command, mapping expected errors to
// one-line messages and exit codes (2 usage/config, 127 tmux missing, 1 other).

import { hostname } from 'node:os';
import { ConfigError, SETTINGS, resolveSettings, type SettingSpec } from '../engine/settings/config.js';
import { TmuxMissingError } from '../engine/tmux/runner.js';
import { removeProcessControlDir } from '../engine/tmux/transport.js';
import { InvalidPaneIdError } from '../engine/tmux/pane-id.js';
import { UnknownKeyError } from '../engine/typing/keys.js';
import { UsageError, formatFlags, parseArgv } from './args.js';
import { COMMANDS, DEFAULT_COMMAND } from './commands/index.js';
import { defaultConfigPath, loadConfigFile } from './config-file.js';
import { GLOBAL_FLAGS, OWN_FLAGS, settingFlags } from './global-flags.js';
import { refuseUnusedSettings } from './setting-flags.js';
import { createLifecycle, isTerminalGone, type Lifecycle } from './lifecycle.js';
import { corralVersion } from './package-root.js';
import { terminalSafeStream } from './terminal-output.js';


function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'corral: watch many tmux panes, see which ones wait for you, and answer them.',
    '',
    'Usage: corral [COMMAND] [OPTIONS]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}${c.name === DEFAULT_COMMAND ? ' (default)' : ''}`),
    '',
    'Options of every command (before or after the command):',
    formatFlags(OWN_FLAGS),
    '',
    'Run corral COMMAND --help for the options and settings of one command (corral dashboard --help',
    'for every setting: the dashboard uses them all).',
  ].join('\n');
}

function commandHelp(name: string): string {
  const command = COMMANDS.find((c) => c.name === name)!;
  return [
    `corral ${command.name}: ${command.summary}`,
    '',
    `Usage: corral ${command.usage}`,
    ...(command.details ? ['', command.details] : []),
    ...(command.flags.length ? ['', 'Options:', formatFlags(command.flags)] : []),
    ...(command.settings.length ? ['', 'Settings (also from the environment or the config file; see the README):', formatFlags(settingFlags(command.settings))] : []),
    '',
    'Options of every command:',
    formatFlags(OWN_FLAGS),
  ].join('\n');
}

/** Maps flag values (by flag name) to setting keys. */
function flagsToSettings(flags: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS as readonly SettingSpec[]) {
    if (spec.flag !== undefined && flags[spec.flag] !== undefined) out[spec.key] = flags[spec.flag];
  }
  return out;
}

export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  lifecycle: Lifecycle = createLifecycle({ stderr: terminalSafeStream(process.stderr), stdio: [process.stdout, process.stderr] }),
): Promise<number> {
  const stderr = terminalSafeStream(process.stderr);
  try {
    return await runCommand(argv, env, lifecycle);
  } catch (error) {
    // With the terminal gone there is no one to tell, and writing would fail again.
    if (lifecycle.reason?.kind === 'terminal-gone' || isTerminalGone(error)) return 1;
    return reportError(error, stderr);
  } finally {
    // Whatever a command left on the shutdown stack (an error on the way) stops here, in order.
    await lifecycle.shutdown();
    lifecycle.dispose();
  }
}

async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv, lifecycle: Lifecycle): Promise<number> {
  // Every command writes through these: nothing a pane or a host controls reaches the terminal raw.
  const stdout = terminalSafeStream(process.stdout);
  const stderr = terminalSafeStream(process.stderr);
  const parsed = parseArgv(argv, GLOBAL_FLAGS, (name) => COMMANDS.find((c) => c.name === name)?.flags ?? null);
  if (parsed.flags.version) {
    stdout.write(`${corralVersion()}\n`);
    return 0;
  }
  if (parsed.flags.help) {
    stdout.write(`${parsed.command ? commandHelp(parsed.command) : mainHelp()}\n`);
    return 0;
  }
  const configFlag = parsed.flags.config;
  const configPath = typeof configFlag === 'string' ? configFlag : defaultConfigPath(env);
  const file = loadConfigFile(configPath, typeof configFlag === 'string');
  const settings = resolveSettings({ flags: flagsToSettings(parsed.flags), env, file, fileName: configPath, machineName: hostname() });
  const name = parsed.command ?? DEFAULT_COMMAND;
  const command = COMMANDS.find((c) => c.name === name)!;
  refuseUnusedSettings(command, parsed.flags, COMMANDS);
  // Closing the hosts removes this process's ssh folder; an exit that cannot wait for that (a
  // second signal, a shutdown step that timed out) still leaves no folder behind.
  lifecycle.atExit('removing the ssh master folder', () => removeProcessControlDir());
  const code = await command.run({ settings, flags: parsed.flags, positionals: parsed.positionals, stdout, stderr, env, lifecycle });
  await lifecycle.shutdown();
  const reason = lifecycle.reason;
  if (reason?.kind === 'crash') throw reason.error;
  return code;
}

function reportError(error: unknown, stderr: NodeJS.WritableStream): number {
  if (error instanceof TmuxMissingError) {
    stderr.write(`corral: ${error.message}\n`);
    return 127;
  }
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof InvalidPaneIdError || error instanceof UnknownKeyError) {
    stderr.write(`corral: ${error.message}\n`);
    return 2;
  }
  stderr.write(`corral: ${(error as Error)?.message ?? String(error)}\n`);
  if (process.env.CORRAL_DEBUG) stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
}

