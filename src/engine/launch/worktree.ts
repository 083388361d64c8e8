// A new git worktree on a new branch for a pane to start in: the branch name is checked (here,
// then by git itself), the worktree goes beside the repository as `<repo>-<branch>`, and git runs
// with argv on the pane's host (over ssh for another host), never through a shell on this side.

import { posix } from 'node:path';
import type { ProgramRunner } from '../tmux/runner.js';

/** The worktree cannot be made: the folder is no repository, the branch is taken or malformed, the path is used. */
export class WorktreeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorktreeError';
  }
}

export interface Worktree {
  readonly branch: string;
  /** The new worktree's folder (its top). */
  readonly path: string;
  /** The repository it was added to (the top of the folder's working tree). */
  readonly repo: string;
}

/**
 * Why a branch name is refused before git is asked, or null. git's own check follows; this one
 * keeps out what `check-ref-format --branch` would read as something else (`-x` an option,
 * `@{-1}` the previous branch) and what no terminal should print.
 */
export function branchNameProblem(branch: string): string | null {
  if (branch === '') return 'the branch name is empty';
  if (branch.startsWith('-')) return `branch name ${JSON.stringify(branch)} starts with "-"`;
  if (branch.includes('@{')) return `branch name ${JSON.stringify(branch)} holds "@{"`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(branch)) return `branch name ${JSON.stringify(branch)} holds blanks or control characters`;
  return null;
}

/** `/src/app` + `feat/login` -> `/src/app-feat-login`: beside the repository, one folder per branch. */
export function worktreePath(repo: string, branch: string): string {
  const top = posix.normalize(repo).replace(/\/+$/, '') || '/';
  if (top === '/') throw new WorktreeError('the repository is the root folder: there is no folder beside it for a worktree');
  return posix.join(posix.dirname(top), `${posix.basename(top)}-${branch.replaceAll('/', '-')}`);
}

const firstLine = (text: string): string => text.trim().split('\n')[0] ?? '';

/** The top of the working tree `dir` is in; WorktreeError when it is in none. */
async function repositoryTop(git: ProgramRunner, dir: string): Promise<string> {
  const top = await git(['-C', dir, 'rev-parse', '--show-toplevel']);
  if (top.exitCode !== 0 || top.stdout.trim() === '') {
    throw new WorktreeError(`${dir} is not in a git repository, so no worktree can be made there (${firstLine(top.stderr) || 'git said nothing'})`);
  }
  return top.stdout.replace(/\n$/, '');
}

async function checkBranch(git: ProgramRunner, repo: string, branch: string): Promise<void> {
  const problem = branchNameProblem(branch);
  if (problem !== null) throw new WorktreeError(`${problem}: not a valid branch name`);
  const format = await git(['check-ref-format', '--branch', branch]);
  if (format.exitCode !== 0 || format.stdout.trim() !== branch) throw new WorktreeError(`${JSON.stringify(branch)} is not a valid branch name for git`);
  const taken = await git(['-C', repo, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (taken.exitCode === 0) throw new WorktreeError(`branch ${branch} already exists in ${repo}: choose a new name`);
}

/** Makes `<repo>-<branch>` a worktree of the repository `dir` is in, on a new branch from its HEAD. */
export async function addWorktree(git: ProgramRunner, test: ProgramRunner, dir: string, branch: string): Promise<Worktree> {
  const repo = await repositoryTop(git, dir);
  await checkBranch(git, repo, branch);
  const path = worktreePath(repo, branch);
  if ((await test(['-e', path])).exitCode === 0) throw new WorktreeError(`${path} already exists: remove it or choose another branch name`);
  const added = await git(['-C', repo, 'worktree', 'add', '-b', branch, '--', path]);
  if (added.exitCode !== 0) throw new WorktreeError(`git worktree add failed: ${firstLine(added.stderr.replace(/^Preparing worktree.*\n/m, '')) || `exit ${added.exitCode}`}`);
  return { branch, path, repo };
}
