// The matcher on screens captured from real programs in a private tmux server (`capture-pane -p`,
// as the poller captures them), not only on hand-written fixtures.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRules, classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { git, makeRepo } from '../../helpers/git-repo.js';
import { SCREENS_DIR } from '../../helpers/screen-fixtures.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';

let tmux: TestTmux;
beforeAll(async () => {
  tmux = await startTestTmux();
});
afterAll(async () => {
  await tmux.kill();
});

async function screenOf(command: string, ready: (screen: string) => boolean): Promise<string[]> {
  const pane = await tmux.spawn(command, { width: 100, height: 30 });
  return (await tmux.waitForScreen(pane, ready, 10_000)).split('\n');
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe('real screens through tmux', () => {
  it('bash at a user@host prompt is stopped', async () => {
    const lines = await screenOf(`PS1='\\u@\\h:\\w\\$ ' exec bash --norc --noprofile -i`, (s) => /[$#]$/.test(s.trimEnd()));
    expect(classifyScreen(lines)).toMatchObject({ prompt: true, reason: 'stopped', tool: 'shell', rule: 'shell/user-host' });
  });

  it('fish and bash with their git prompts are stopped on a branch and on a detached HEAD', async () => {
    const repo = makeRepo(mkdtempSync(join(tmpdir(), 'corral-git-prompt-')));
    try {
      const gitPs1 = '/usr/lib/git-core/git-sh-prompt';
      for (const detached of [false, true]) {
        if (detached) git(repo, 'checkout', '-q', '--detach');
        // fish draws the git part itself; bash through git's own __git_ps1 (shipped with git).
        const fish = await screenOf(`cd ${sh(repo)} && exec fish --no-config`, (s) => /\)[>#]\s*$/.test(s.trimEnd()));
        expect(classifyScreen(fish), fish.join('\n')).toMatchObject({ prompt: true, reason: 'stopped', tool: 'shell' });
        const rc = join(repo, '..', `${basename(repo)}.bashrc`);
        writeFileSync(rc, `source ${gitPs1}\nPS1='\\u@\\h:\\w$(__git_ps1)\\$ '\n`);
        const bash = await screenOf(`cd ${sh(repo)} && exec bash --noprofile --rcfile ${sh(rc)} -i`, (s) => /\)[$#]\s*$/.test(s.trimEnd()));
        expect(classifyScreen(bash), bash.join('\n')).toMatchObject({ prompt: true, reason: 'stopped', tool: 'shell', rule: 'shell/user-host' });
        if (detached) expect(fish.join('\n') + bash.join('\n')).toMatch(/\(\([0-9a-f]{7}/);
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(`${repo}.bashrc`, { force: true });
    }
  });

  it('the Node REPL is stopped', async () => {
    const lines = await screenOf('exec node', (s) => s.includes('Welcome to Node.js') && /^>\s*$/m.test(s));
    expect(classifyScreen(lines)).toMatchObject({ prompt: true, reason: 'stopped', tool: 'repl', rule: 'repl/node' });
  });

  it('a [y/N] question and a password prompt wait for permission', async () => {
    const question = await screenOf(`read -p 'Overwrite config.json? [y/N] ' answer`, (s) => s.includes('[y/N]'));
    expect(classifyScreen(question)).toMatchObject({ prompt: true, reason: 'permission', rule: 'generic/yes-no', line: 'Overwrite config.json? [y/N]' });
    const secret = await screenOf(`read -s -p 'Password: ' pw`, (s) => s.includes('Password:'));
    expect(classifyScreen(secret)).toMatchObject({ prompt: true, reason: 'permission', rule: 'generic/secret' });
  });

  it('quiet build output is no prompt for the default pack, but is one for the seed pack', async () => {
    const lines = await screenOf(`printf 'Compiling:\\nDownloading...\\n'; exec sleep 60`, (s) => s.includes('Downloading...'));
    expect(classifyScreen(lines)).toMatchObject({ prompt: false, busy: false });
    expect(classifyScreen(lines, buildRules({ pack: 'seed', patterns: [] }))).toMatchObject({ prompt: true, rule: 'seed/ellipsis' });
  });

  it('agent screens drawn by tmux keep their verdicts (box drawing, wide glyphs)', async () => {
    const cases = [
      ['claude-code/busy--thinking.txt', { busy: true, prompt: false, rule: 'claude-code/spinner' }],
      ['claude-code/permission--bash-command-boxed.txt', { prompt: true, reason: 'permission', rule: 'claude-code/permission-menu' }],
      ['gemini-cli/permission--shell.txt', { prompt: true, reason: 'permission', rule: 'gemini-cli/confirmation' }],
      ['codex/stopped--composer-placeholder.txt', { prompt: true, reason: 'stopped', rule: 'codex/composer' }],
    ] as const;
    for (const [file, expected] of cases) {
      const lines = await screenOf(`cat ${sh(join(SCREENS_DIR, file))}; exec sleep 60`, (s) => s.trim() !== '');
      expect(classifyScreen(lines), file).toMatchObject(expected);
    }
  });
});
