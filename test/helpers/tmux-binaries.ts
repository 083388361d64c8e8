// Every tmux program the version-spanning tests run against: $CORRAL_TMUX_BINARIES (paths joined
// with ':') when set, else `tmux` from PATH plus each build in the cache that scripts/tmux-builds.sh
// fills (~/.cache/corral/tmux/VERSION/bin/tmux, or $CORRAL_TMUX_CACHE). Where skips are refused
// (CI), at least two versions, one of them 3.4 or later.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mustNotSkip } from './skips.js';

export interface TmuxBuild {
  /** The program to run: a path, or `tmux` from PATH. */
  readonly binary: string;
  /** What `tmux -V` says: `3.3a`. */
  readonly version: string;
}

function versionOf(binary: string): string {
  let said: string;
  try {
    said = execFileSync(binary, ['-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    throw new Error(`cannot run the tmux at ${binary}: ${(error as Error).message}`);
  }
  const match = /^tmux (?:next-)?(\S+)$/.exec(said);
  if (!match) throw new Error(`${binary} -V said "${said}", not a tmux version`);
  return match[1] as string;
}

function cachedBuilds(env: NodeJS.ProcessEnv): string[] {
  const cache = env.CORRAL_TMUX_CACHE || join(homedir(), '.cache', 'corral', 'tmux');
  if (!existsSync(cache)) return [];
  return readdirSync(cache)
    .map((version) => join(cache, version, 'bin', 'tmux'))
    .filter((path) => existsSync(path));
}

/** The tmux programs to test, oldest version first; one per version. */
export function tmuxBuilds(env: NodeJS.ProcessEnv = process.env): TmuxBuild[] {
  const listed = env.CORRAL_TMUX_BINARIES?.split(':').filter((path) => path !== '');
  const binaries = listed && listed.length > 0 ? listed : ['tmux', ...cachedBuilds(env)];
  const byVersion = new Map<string, TmuxBuild>();
  for (const binary of binaries) {
    const version = versionOf(binary);
    if (!byVersion.has(version)) byVersion.set(version, { binary, version });
  }
  const builds = [...byVersion.values()].sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
  // Where skips are refused (CI) at least two versions, one of them 3.4 or later (which prints
  // control-mode text differently); 3.2 joins them wherever its source is at hand (see .ci/run).
  if (mustNotSkip(env) && (builds.length < 2 || !builds.some((build) => build.version.localeCompare('3.4', 'en', { numeric: true }) >= 0))) {
    throw new Error(
      `only tmux ${builds.map((b) => b.version).join(', ')} to test against: run scripts/tmux-builds.sh 3.5a (and 3.2a), ` +
        'or list the programs in CORRAL_TMUX_BINARIES',
    );
  }
  return builds;
}
