// `corral hooks install|uninstall|print --agent NAME`: writes, removes or shows corral's entries in
// an agent's hook settings. Installing is idempotent, keeps a backup of the file it changes, and
// leaves the user's other hooks and settings alone.

import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_HOOKS, isAgent } from '../../engine/hooks/agent-hooks.js';
import { envValue } from '../../engine/settings/env.js';
import { AGENTS, type AgentName } from '../../engine/types.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { configDir } from '../config-file.js';
import { corralHooks, installInto, uninstallFrom } from '../hooks-config.js';
import { hookLauncherPath, installHookLauncher, shellQuote } from '../hook-launcher.js';
import { resolveToken } from '../token.js';
import type { Settings } from '../../engine/settings/config.js';
import { settingsOf } from '../command-settings.js';
import { clientToken, runningServer, serverBase } from './attach.js';
import { runningServers } from '../../engine/records/server-record.js';
import { corralCommands } from '../hooks-doctor.js';

/** The user-level settings file each agent reads its hooks from. */
export function agentSettingsPath(agent: AgentName, env: NodeJS.ProcessEnv): string {
  switch (agent) {
    case 'claude-code':
      return join(envValue(env, 'CLAUDE_CONFIG_DIR') ?? join(homedir(), '.claude'), 'settings.json');
    case 'codex':
      return join(envValue(env, 'CODEX_HOME') ?? join(homedir(), '.codex'), 'hooks.json');
    case 'gemini-cli':
      return join(homedir(), '.gemini', 'settings.json');
  }
}

/**
 * corral's hook launcher by its absolute path (hook-launcher.ts), so the hook works whatever PATH
 * the agent has and wherever corral is installed or moved to.
 */
export function defaultHookCommand(agent: AgentName, env: NodeJS.ProcessEnv): string {
  return `${shellQuote(hookLauncherPath(env))} hook --agent ${agent}`;
}

function readSettings(path: string): unknown {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON (${(error as Error).message}); fix it first, corral leaves it alone`);
  }
}

/** Writes through a temporary file and a rename, keeping the file's mode. */
function writeSettings(path: string, settings: unknown): void {
  let mode = 0o600;
  if (existsSync(path)) mode = statSync(path).mode & 0o777;
  else mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.corral-${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

const backupOf = (path: string): string => `${path}.corral-backup`;

/**
 * Before the first install into a file: its bytes as the user left them, in FILE.corral-backup (a
 * file that already holds corral's entries keeps the backup made before them).
 */
function keepOriginal(path: string, current: unknown): string | null {
  if (!existsSync(path)) return null;
  if (corralCommands(current).length === 0) copyFileSync(path, backupOf(path));
  return existsSync(backupOf(path)) ? backupOf(path) : null;
}

/** A JSON value with its object keys sorted, so two documents compare by content. */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sort(x)])) : v;
  return JSON.stringify(sort(value));
}

/**
 * The backup is the file as it was, when taking corral's entries out of the file leaves what taking
 * them out of the backup with the hooks installed leaves (the same tidying on both sides).
 */
function backupRestores(path: string, withoutCorral: unknown, agent: AgentName, command: string): boolean {
  if (!existsSync(backupOf(path))) return false;
  try {
    const installed = installInto(readSettings(backupOf(path)), agent, command).settings;
    return canonical(uninstallFrom(installed).settings) === canonical(withoutCorral);
  } catch {
    return false;
  }
}

/** The marker that says install made the token file (uninstall takes it away with the last hooks). */
const tokenMarker = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'token.made-by-hooks');

/**
 * After an uninstall: once no agent's settings hold corral's hooks, the launcher goes, and so does
 * the token file when install made it and no corral server runs.
 */
function removeWhatInstallAdded(env: NodeJS.ProcessEnv): string[] {
  const hooked = AGENTS.some((agent) => {
    try {
      const path = agentSettingsPath(agent, env);
      return existsSync(path) && corralCommands(readSettings(path)).length > 0;
    } catch {
      return true;
    }
  });
  if (hooked) return [];
  const removed: string[] = [];
  const launcher = hookLauncherPath(env);
  if (existsSync(launcher)) {
    rmSync(launcher, { force: true });
    removed.push(launcher);
  }
  if (existsSync(tokenMarker(env)) && runningServers(configDir(env)).length === 0) {
    const token = join(configDir(env), 'token');
    rmSync(token, { force: true });
    rmSync(tokenMarker(env), { force: true });
    removed.push(token);
  }
  return removed;
}

/** Takes corral's entries out of the file: the user's own file back, byte for byte, when it can be. */
function uninstallFile(path: string, withoutCorral: unknown, agent: AgentName, command: string): string {
  if (backupRestores(path, withoutCorral, agent, command)) {
    renameSync(backupOf(path), path);
    return `${path} is back as it was before corral's hooks`;
  }
  const stale = existsSync(backupOf(path)) ? ` (the file before the hooks is still in ${backupOf(path)}: it was changed since)` : '';
  if (isEmptyObject(withoutCorral)) {
    // Nothing but corral's entries was in it: install made it, and it goes.
    rmSync(path, { force: true });
    return `nothing else was in ${path}, so it is removed${stale}`;
  }
  writeSettings(path, withoutCorral);
  return `the rest of ${path} stays${stale}`;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

const NOTES: Readonly<Record<AgentName, readonly string[]>> = {
  'claude-code': ['Claude Code runs the hooks silently from its next start.'],
  codex: [
    'Codex asks you to review the new hooks on its next start: choose "Trust all and continue" (it asks again after any change to them).',
    'Codex runs hooks in a background daemon whose $TMUX_PANE is the pane that started it; corral then finds the pane by session and',
    'folder, which is ambiguous when two codex panes share a folder. Start codex with --no-daemon to give corral the exact pane.',
  ],
  'gemini-cli': [
    'Gemini CLI runs no hook at all in a folder it did not trust when it started: trust the folder, then restart it.',
    'Gemini CLI shows "Executing Hook: corral" while a hook runs; --hide-notifications sets hooksConfig.notifications',
    'to false (that hides the line for all hooks).',
  ],
};

/** `hooks doctor`: one line per check, ✓ or ✗; 1 when any check failed. */
async function doctor(agents: readonly unknown[], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, settings: Settings): Promise<number> {
  if (!agents.every(isAgent)) throw new UsageError(`--agent must be one of ${AGENTS.join(', ')}`);
  const { checkAgent, checkServer } = await import('../hooks-doctor.js');
  const lines = agents.flatMap((agent) => {
    const path = agentSettingsPath(agent, env);
    try {
      return checkAgent(agent, path, existsSync(path) ? readSettings(path) : null, env);
    } catch (error) {
      return [{ ok: false, text: `${AGENT_HOOKS[agent].displayName}: ${(error as Error).message}` }];
    }
  });
  // The running corral (its record), or the address the settings name when --port or --listen was given.
  const running = runningServer(settings, {}, env);
  const explicit = settings.port !== 7878 || settings.listen !== '127.0.0.1' ? serverBase(settings, { url: undefined }, env) : null;
  const at = running !== null ? `${running.url}/hooks` : explicit === null ? null : `${explicit}/hooks`;
  lines.push(await checkServer(env, clientToken({}, env, running)?.token ?? null, 2_000, at));
  for (const line of lines) stdout.write(`${line.ok ? '✓' : '✗'} ${line.text}\n`);
  return lines.every((line) => line.ok) ? 0 : 1;
}

export const hooksCommand: Command = {
  name: 'hooks',
  summary: 'install, remove or print agent hooks that tell corral at once when an agent asks for permission or finishes',
  usage: 'hooks install|uninstall|print --agent claude-code|codex|gemini-cli [--file PATH] [--command CMD] | hooks doctor [--agent NAME]',
  details: [
    'Agent hooks are a second signal beside the screen: a permission request makes the pane stuck at once,',
    'and a running turn is never taken for an idle agent. They reach corral while `corral serve` or the',
    'dashboard runs. Events registered (only these, each hook call costs the agent a little time):',
    ...AGENTS.map((agent) => `  ${agent}: ${Object.keys(AGENT_HOOKS[agent].events).join(', ')}`),
    'Files: ~/.claude/settings.json ($CLAUDE_CONFIG_DIR), ~/.codex/hooks.json ($CODEX_HOME), ~/.gemini/settings.json.',
    'install keeps the file as it was in FILE.corral-backup and replaces only corral\'s own entries; running it',
    'twice changes nothing. uninstall puts the file back byte for byte (or, when it was changed since, takes',
    'only corral\'s entries out), removes a file install made, and with the last hooks the launcher (and the',
    'token file, if install made it and no server runs). print shows them without writing. doctor tells, per',
    'agent (all by default), whether its hooks reach a running corral, and exits 1 when one does not.',
  ].join('\n'),
  args: { words: ['install', 'uninstall', 'print', 'doctor'] },
  // doctor asks the running corral: the one on this port, or serving this tmux server.
  settings: [...settingsOf('address'), 'socketName', 'socketPath'],
  flags: [
    { name: 'agent', type: 'string', valueName: 'NAME', choices: AGENTS, description: 'claude-code, codex or gemini-cli' },
    { name: 'file', type: 'string', valueName: 'PATH', description: 'the settings file to change (default: the agent\'s user settings)' },
    { name: 'command', type: 'string', valueName: 'CMD', description: 'the hook command (default: corral\'s hook launcher, $XDG_DATA_HOME/corral/bin/corral, then hook --agent NAME)' },
    { name: 'hide-notifications', type: 'boolean', description: 'gemini-cli: hide "Executing Hook" lines (hooksConfig.notifications false)' },
  ],
  async run({ positionals, flags, env, stdout, settings }) {
    const action = positionals[0];
    if (action !== 'install' && action !== 'uninstall' && action !== 'print' && action !== 'doctor') {
      throw new UsageError('corral hooks needs install, uninstall, print or doctor (see corral hooks --help)');
    }
    if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
    const agent = flags.agent;
    if (action === 'doctor') return doctor(agent === undefined ? AGENTS : [agent], env, stdout, settings);
    if (!isAgent(agent)) throw new UsageError(`--agent must be one of ${AGENTS.join(', ')}`);
    const command = typeof flags.command === 'string' ? flags.command : defaultHookCommand(agent, env);
    if (!command.includes(' hook --agent ')) throw new UsageError('--command must run corral hook --agent NAME (so corral can find its entries again)');
    const path = typeof flags.file === 'string' ? flags.file : agentSettingsPath(agent, env);

    if (action === 'print') {
      stdout.write(`${JSON.stringify(corralHooks(agent, command), null, 2)}\n`);
      return 0;
    }
    const current = readSettings(path);
    // The launcher the default command runs: written (or pointed at this corral) on every install.
    if (action === 'install' && typeof flags.command !== 'string') installHookLauncher(env);
    const change = action === 'install' ? installInto(current, agent, command, { hideNotifications: flags['hide-notifications'] === true }) : uninstallFrom(current);
    const name = AGENT_HOOKS[agent].displayName;
    if (!change.changed) {
      stdout.write(action === 'install' ? `corral: ${name} hooks are already installed in ${path}\n` : `corral: no corral hooks in ${path}\n`);
      return 0;
    }
    if (action === 'uninstall') {
      stdout.write(`corral: removed ${change.removed} corral hook entries; ${uninstallFile(path, change.settings, agent, command)}\n`);
      for (const removed of removeWhatInstallAdded(env)) stdout.write(`corral: removed ${removed}, which install added\n`);
      return 0;
    }
    const backup = keepOriginal(path, current);
    writeSettings(path, change.settings);
    const kept = backup ? ` (the file as it was is kept in ${backup})` : '';
    // The hook authenticates with the token file: make sure there is one.
    const token = resolveToken({ env, configDir: configDir(env) });
    if (token.source === 'generated') writeFileSync(tokenMarker(env), '', { mode: 0o600 });
    stdout.write(`corral: ${name} hooks installed in ${path}${kept}\n`);
    stdout.write(`corral: events: ${Object.keys(AGENT_HOOKS[agent].events).join(', ')}\n`);
    stdout.write(`corral: the hook authenticates with ${token.path ? `the token in ${token.path}` : 'CORRAL_TOKEN'}; calls arrive while corral serve or the dashboard runs\n`);
    for (const line of NOTES[agent]) stdout.write(`corral: ${line}\n`);
    return 0;
  },
};
