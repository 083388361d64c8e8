// The start plan without tmux: the argv of new-window, new-session and kill-pane, window names,
// and the worktree plan (branch checks, the path beside the repository, the git calls) against a
// scripted git. Hostile names come from a seeded generator (CORRAL_TEST_SEED replays one).

import { describe, expect, it } from 'vitest';
import { branchNameProblem, addWorktree, worktreePath, WorktreeError } from '../../src/engine/launch/worktree.js';
import { killPaneCommand, literalFormat, newSessionCommand, newWindowCommand, sessionNameProblem, windowNameFor } from '../../src/engine/tmux/launch.js';
import type { ProgramRunner } from '../../src/engine/tmux/runner.js';
import { escapeArg } from '../../src/engine/tmux/command-line.js';
import { Rng, hostileFolderName, hostileName, testSeed } from '../helpers/hostile-text.js';

const seed = testSeed();

/** A git that answers from a script and records every argv it was given. */
function scriptedGit(answers: (args: readonly string[]) => { exitCode: number; stdout?: string; stderr?: string }) {
  const calls: string[][] = [];
  const run: ProgramRunner = async (args) => {
    calls.push([...args]);
    const answer = answers(args);
    return { stdout: answer.stdout ?? '', stderr: answer.stderr ?? '', exitCode: answer.exitCode };
  };
  return { run, calls };
}

const absent: ProgramRunner = async () => ({ stdout: '', stderr: '', exitCode: 1 });

describe('new-window argv', () => {
  it('passes the command as one argument after --, and doubles # in the name and folder (tmux expands formats there)', () => {
    const rng = new Rng(seed);
    for (let i = 0; i < 200; i++) {
      const command = `${hostileName(rng)};`;
      const cwd = `/tmp/${hostileFolderName(rng)}`;
      const name = hostileName(rng);
      const args = newWindowCommand({ command, cwd, name }, { id: '$3' });
      const dashdash = args.indexOf('--');
      expect(args.slice(dashdash + 1), `seed ${seed}`).toHaveLength(1);
      // A trailing ';' would end the tmux command: it goes in as '\;', which tmux reads back as ';'.
      expect(args[dashdash + 1]).toBe(`${command.slice(0, -1)}\\;`);
      expect(args[args.indexOf('-n') + 1]).toBe(escapeArg(literalFormat(name)));
      expect(args[args.indexOf('-c') + 1]).toBe(escapeArg(literalFormat(cwd)));
      expect(args.slice(0, 4)).toEqual(['new-window', '-d', '-t', '$3:']);
    }
  });

  it('targets a session by exact name, none for the current one, and refuses what is not a session id', () => {
    expect(newWindowCommand({ command: 'x', cwd: null, name: 'x' }, { name: 'work' })).toContain('=work:');
    expect(newWindowCommand({ command: 'x', cwd: null, name: 'x' }, null)).not.toContain('-t');
    expect(() => newWindowCommand({ command: 'x', cwd: null, name: 'x' }, { id: '$1; kill-server' })).toThrow(/not a tmux session id/);
    expect(newSessionCommand({ command: 'x', cwd: '/a', name: 'n' }, 'work').slice(0, 4)).toEqual(['new-session', '-d', '-s', 'work']);
    expect(newSessionCommand({ command: 'x', cwd: '/a', name: 'n' }, 'x#(id)').slice(0, 4)).toEqual(['new-session', '-d', '-s', 'x##(id)']);
    expect(killPaneCommand('%12')).toEqual(['kill-pane', '-t', '%12']);
    expect(() => killPaneCommand('%1 ; kill-server')).toThrow(/not a tmux pane id/);
  });

  it('names the window after the program, printable and short', () => {
    expect(windowNameFor('claude --resume')).toBe('claude');
    expect(windowNameFor('FOO=1 BAR=2 /usr/local/bin/aider --model x')).toBe('aider');
    expect(windowNameFor('   ')).toBe('shell');
    expect(windowNameFor('\u001b]0;PWNED\u0007 x')).toBe(']0;PWNED');
    const rng = new Rng(seed + 1);
    for (let i = 0; i < 200; i++) {
      const name = windowNameFor(hostileName(rng));
      // eslint-disable-next-line no-control-regex
      expect(name, `seed ${seed}`).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect([...name].length).toBeLessThanOrEqual(24);
    }
    expect(literalFormat('#{pane_id}##')).toBe('##{pane_id}####');
    // A run of '#' before '[' is a style tmux leaves alone.
    expect(literalFormat('a#[fg=red]##[b]#')).toBe('a#[fg=red]##[b]##');
    expect(sessionNameProblem('a:b')).toMatch(/':', '.', '\$' or '\\'/);
    expect(sessionNameProblem('x$HOME')).not.toBeNull();
    expect(sessionNameProblem('a\\b')).not.toBeNull();
    expect(sessionNameProblem('work')).toBeNull();
  });
});

describe('worktree plan', () => {
  it('puts the worktree beside the repository, one folder per branch', () => {
    expect(worktreePath('/home/me/src/app', 'feat/login')).toBe('/home/me/src/app-feat-login');
    expect(worktreePath('/home/me/src/app/', 'x')).toBe('/home/me/src/app-x');
    expect(() => worktreePath('/', 'x')).toThrow(WorktreeError);
  });

  it('refuses before git what git would read as something else, for hostile names too', () => {
    expect(branchNameProblem('')).toMatch(/empty/);
    expect(branchNameProblem('-f')).toMatch(/starts with "-"/);
    expect(branchNameProblem('@{-1}')).toMatch(/@\{/);
    expect(branchNameProblem('a b')).toMatch(/blanks/);
    expect(branchNameProblem('feat/login')).toBeNull();
    const rng = new Rng(seed + 2);
    for (let i = 0; i < 300; i++) {
      const name = hostileName(rng);
      // A name this check lets through holds no control character, blank, leading '-' or '@{'.
      // eslint-disable-next-line no-control-regex
      if (branchNameProblem(name) === null) expect(name, `seed ${seed}`).not.toMatch(/^-|@\{|[\u0000-\u0020\u007f]/);
    }
  });

  it('asks git in order with argv: the repository, the name, the branch; then adds the worktree', async () => {
    const git = scriptedGit((args) => {
      if (args.includes('--show-toplevel')) return { exitCode: 0, stdout: '/home/me/src/app\n' };
      if (args[0] === 'check-ref-format') return { exitCode: 0, stdout: `${args[2]}\n` };
      if (args.includes('--verify')) return { exitCode: 1 };
      return { exitCode: 0 };
    });
    const made = await addWorktree(git.run, absent, '/home/me/src/app/lib', 'feat/x');
    expect(made).toEqual({ branch: 'feat/x', path: '/home/me/src/app-feat-x', repo: '/home/me/src/app' });
    expect(git.calls).toEqual([
      ['-C', '/home/me/src/app/lib', 'rev-parse', '--show-toplevel'],
      ['check-ref-format', '--branch', 'feat/x'],
      ['-C', '/home/me/src/app', 'rev-parse', '--verify', '--quiet', 'refs/heads/feat/x'],
      ['-C', '/home/me/src/app', 'worktree', 'add', '-b', 'feat/x', '--', '/home/me/src/app-feat-x'],
    ]);
  });

  it('refuses a folder outside a repository, a name git refuses, a branch that exists, a path in use; nothing is added', async () => {
    const cases: Array<[string, (args: readonly string[]) => { exitCode: number; stdout?: string; stderr?: string }, ProgramRunner, RegExp]> = [
      ['no repo', () => ({ exitCode: 128, stderr: 'fatal: not a git repository\n' }), absent, /is not in a git repository/],
      ['bad name', (a) => (a.includes('--show-toplevel') ? { exitCode: 0, stdout: '/r\n' } : { exitCode: 128 }), absent, /not a valid branch name/],
      ['taken', (a) => (a.includes('--show-toplevel') ? { exitCode: 0, stdout: '/r\n' } : a[0] === 'check-ref-format' ? { exitCode: 0, stdout: 'b\n' } : { exitCode: 0 }), absent, /already exists in \/r/],
      ['path used', (a) => (a.includes('--show-toplevel') ? { exitCode: 0, stdout: '/r\n' } : a[0] === 'check-ref-format' ? { exitCode: 0, stdout: 'b\n' } : { exitCode: 1 }), async () => ({ stdout: '', stderr: '', exitCode: 0 }), /\/r-b already exists/],
    ];
    for (const [what, answers, test, message] of cases) {
      const git = scriptedGit(answers);
      await expect(addWorktree(git.run, test, '/r', 'b'), what).rejects.toThrow(message);
      expect(git.calls.some((args) => args.includes('worktree')), what).toBe(false);
    }
  });
});
