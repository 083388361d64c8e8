// A real git repository for tests that make worktrees: `git init` and one empty commit (a branch
// needs a HEAD to start from), and git run with argv for reading back what corral did.

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/** Runs git in `cwd` and returns its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes `path` a repository with one commit on its first branch. */
export function makeRepo(path: string): string {
  mkdirSync(path, { recursive: true });
  git(path, 'init', '-q');
  git(path, '-c', 'user.name=corral-test', '-c', 'user.email=test@corral.invalid', 'commit', '-q', '--allow-empty', '-m', 'init');
  return path;
}
