// `corral check` through the built CLI (npm test builds dist/ first).

import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCREENS_DIR } from '../helpers/screen-fixtures.js';

const MAIN = new URL('../../dist/bin/corral.js', import.meta.url).pathname;
// An empty config folder, so a config file on the machine cannot change the results.
const home = mkdtempSync(join(tmpdir(), 'corral-check-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function corral(args: string[], options: { input?: string; env?: Record<string, string>; stdinFd?: number } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: [options.stdinFd ?? 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.input ?? '');
  });
}

function verdictOf(stdout: string): unknown {
  const lines = stdout.split('\n');
  expect(lines, 'exactly one JSON line').toHaveLength(2);
  expect(lines[1]).toBe('');
  return JSON.parse(lines[0]!);
}

// Each case starts the CLI; they run side by side.
describe.concurrent('corral check', () => {
  it('classifies a screen file and prints one JSON line with the keys in order', async () => {
    const { code, stdout, stderr } = await corral(['check', join(SCREENS_DIR, 'claude-code', 'permission--edit-file.txt')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Object.keys(verdictOf(stdout) as object)).toEqual(['prompt', 'reason', 'busy', 'tool', 'rule', 'line', 'answer']);
    expect(verdictOf(stdout)).toEqual({
      prompt: true,
      reason: 'permission',
      busy: false,
      tool: 'claude-code',
      rule: 'claude-code/permission-menu',
      line: 'Do you want to make this edit to total.ts?',
      answer: { kind: 'key', options: ['1', '2', '3', 'Enter'] },
    });
  });

  it('reads stdin without an argument and with -', async () => {
    const screen = 'dev@box:~/src$ ls\nMakefile  src\ndev@box:~/src$ \n\n';
    for (const args of [['check'], ['check', '-']]) {
      const { code, stdout } = await corral(args, { input: screen });
      expect(code).toBe(0);
      expect(verdictOf(stdout)).toEqual({ prompt: true, reason: 'stopped', busy: false, tool: 'shell', rule: 'shell/user-host', line: 'dev@box:~/src$', answer: { kind: 'line', options: [] } });
    }
  });

  it('reports a busy screen as no prompt with the busy line', async () => {
    const { stdout } = await corral(['check', join(SCREENS_DIR, 'codex', 'busy--working.txt')]);
    expect(verdictOf(stdout)).toEqual({ prompt: false, reason: null, busy: true, tool: 'codex', rule: 'codex/working', line: '• Working (14s • esc to interrupt)', answer: null });
  });

  it('uses --prompt-pack', async () => {
    expect(verdictOf((await corral(['check'], { input: 'Compiling:\n' })).stdout)).toMatchObject({ prompt: false, line: 'Compiling:' });
    expect(verdictOf((await corral(['check', '--prompt-pack', 'seed'], { input: 'Compiling:\n' })).stdout)).toMatchObject({ prompt: true, rule: 'seed/colon' });
  });

  it('uses --prompt-pattern and CORRAL_PROMPT_PATTERNS, with the permission: prefix', async () => {
    const input = 'Build finished.\nDeploy to production?\n';
    expect(verdictOf((await corral(['check'], { input })).stdout)).toMatchObject({ prompt: false });
    expect(verdictOf((await corral(['check', '--prompt-pattern', 'permission:^Deploy to production\\?$'], { input })).stdout)).toEqual({
      prompt: true,
      reason: 'permission',
      busy: false,
      tool: 'user',
      rule: 'user/^Deploy to production\\?$',
      line: 'Deploy to production?',
      answer: { kind: 'line', options: [] },
    });
    const env = { CORRAL_PROMPT_PATTERNS: 'nothing-here\n^Deploy' };
    expect(verdictOf((await corral(['check'], { input, env })).stdout)).toMatchObject({ prompt: true, reason: 'stopped', rule: 'user/^Deploy' });
  });

  it('exits 2 naming an invalid --prompt-pattern, printing no verdict', async () => {
    const { code, stdout, stderr } = await corral(['check', '--prompt-pattern', '('], { input: '$ \n' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('corral: invalid --prompt-pattern "(": Unterminated group\n');
  });

  it('exits 2 for a file it cannot read, or for two files', async () => {
    const missing = await corral(['check', join(home, 'no-such-screen.txt')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*no-such-screen\.txt: no such file/);
    const file = join(home, 'screen.txt');
    writeFileSync(file, '$ \n');
    expect((await corral(['check', file, file])).code).toBe(2);
  });

  it('reads at most 1 MiB: endless input on stdin or as a file gets a clear error, not a hang', async () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const endless = await corral(['check'], { stdinFd: zero });
      expect(endless.code).toBe(2);
      expect(endless.stdout).toBe('');
      expect(endless.stderr).toBe(
        'corral: cannot check stdin: the input is larger than 1 MiB, which no captured screen is; give one screen: tmux capture-pane -p -t %3 | corral check\n',
      );
    } finally {
      closeSync(zero);
    }
    const asFile = await corral(['check', '/dev/zero']);
    expect(asFile.code).toBe(2);
    expect(asFile.stderr).toMatch(/^corral: cannot check \/dev\/zero: the input is larger than 1 MiB/);
    const big = join(home, 'big.txt');
    writeFileSync(big, `${'x'.repeat(100)}\n`.repeat(11_000));
    expect((await corral(['check', big])).stderr).toMatch(/larger than 1 MiB/);
  });

  it('refuses binary input (NUL bytes) with a clear error', async () => {
    const file = join(home, 'binary.bin');
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x0a, 0x24, 0x20]));
    const { code, stdout, stderr } = await corral(['check', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`corral: cannot check ${file}: it holds NUL bytes, so it is binary data, not a captured screen\n`);
  });

  it('gives a verdict for a large screen under 1 MiB, and for text that is not UTF-8', async () => {
    const file = join(home, 'long.txt');
    writeFileSync(file, `${'build output line\n'.repeat(50_000)}Overwrite config.json? [y/N] \n`);
    expect(verdictOf((await corral(['check', file])).stdout)).toMatchObject({ prompt: true, reason: 'permission', rule: 'generic/yes-no' });
    const latin1 = join(home, 'latin1.txt');
    writeFileSync(latin1, Buffer.concat([Buffer.from('caf\xe9 ready\n', 'latin1'), Buffer.from('dev@box:~$ \n')]));
    expect(verdictOf((await corral(['check', latin1])).stdout)).toMatchObject({ prompt: true, rule: 'shell/user-host' });
  });

  it('explains in --help what it is for, with an example', async () => {
    const { code, stdout } = await corral(['check', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('See why a pane would (or would not) be counted as stuck');
    expect(stdout).toContain('tmux capture-pane -p -t %3 | corral check');
  });
});
