// The command agents run for corral's hooks: a small launcher script at a fixed place
// ($XDG_DATA_HOME/corral/bin/corral), so the hooks in the agents' settings never name a checkout
// or an install prefix. It runs the corral that last wrote it, else `corral` on PATH; with neither
// it lets the agent go on. Every corral that serves hooks rewrites it when it points elsewhere, so
// a moved checkout or a new install takes over at its first start.

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { envValue } from '../engine/settings/env.js';
import { packageRoot } from './package-root.js';

/** Where the launcher lives: $XDG_DATA_HOME/corral/bin/corral (~/.local/share/...). */
export function hookLauncherPath(env: NodeJS.ProcessEnv): string {
  const base = envValue(env, 'XDG_DATA_HOME') ?? join(homedir(), '.local', 'share');
  return join(base, 'corral', 'bin', 'corral');
}

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The launcher's text for a corral run as `node main`. */
export function launcherScript(node: string, main: string): string {
  return [
    '#!/bin/sh',
    "# corral's agent hook launcher, written by `corral hooks install` and rewritten by every corral",
    '# that serves hooks: the corral below, else `corral` on PATH; with neither the agent goes on.',
    `node=${shellQuote(node)}`,
    `main=${shellQuote(main)}`,
    'if [ -x "$node" ] && [ -f "$main" ]; then exec "$node" "$main" "$@"; fi',
    'found=$(command -v corral 2>/dev/null)',
    'if [ -n "$found" ] && [ "$found" != "$0" ]; then exec "$found" "$@"; fi',
    "echo 'corral: the hook found no corral (moved or removed?): run corral hooks install again' >&2",
    'exit 0',
    '',
  ].join('\n');
}

/** The launcher for this corral (this node, this package's entry script). */
function thisLauncher(): string {
  return launcherScript(process.execPath, join(packageRoot(), 'dist', 'bin', 'corral.js'));
}

function writeLauncher(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o755 });
  chmodSync(temporary, 0o755);
  renameSync(temporary, path);
}

/** Writes the launcher for this corral; returns its path. */
export function installHookLauncher(env: NodeJS.ProcessEnv): string {
  const path = hookLauncherPath(env);
  writeLauncher(path, thisLauncher());
  return path;
}

/**
 * Points an installed launcher at this corral when it points elsewhere (a moved checkout, another
 * install). Does nothing when no hooks were installed; true when it rewrote the launcher.
 */
export function refreshHookLauncher(env: NodeJS.ProcessEnv): boolean {
  const path = hookLauncherPath(env);
  try {
    if (!existsSync(path) || readFileSync(path, 'utf8') === thisLauncher()) return false;
    writeLauncher(path, thisLauncher());
    return true;
  } catch {
    // A launcher corral may not write is left as it is; the hooks then say so when they run.
    return false;
  }
}
