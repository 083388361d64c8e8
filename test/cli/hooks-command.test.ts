// `corral hooks install|uninstall|print` as a real process on real files.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-hooks-cli-'));
  dirs.push(dir);
  return dir;
}

describe('corral hooks', () => {
  it('installs into the agent\'s settings with a backup, is idempotent, and uninstalls', async () => {
    const dir = home();
    const claude = join(dir, 'claude');
    const env = cliEnv({ CLAUDE_CONFIG_DIR: claude, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), CORRAL_TOKEN: '' });
    const original = { theme: 'dark', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } };
    mkdirSync(claude, { recursive: true });
    writeFileSync(join(claude, 'settings.json'), JSON.stringify(original), { mode: 0o644 });

    const first = await runCli(['hooks', 'install', '--agent', 'claude-code'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Claude Code hooks installed in ${join(claude, 'settings.json')} (the file as it was is kept in ${join(claude, 'settings.json.corral-backup')})`);
    expect(JSON.parse(readFileSync(join(claude, 'settings.json.corral-backup'), 'utf8'))).toEqual(original);
    const installed = JSON.parse(readFileSync(join(claude, 'settings.json'), 'utf8')) as { theme: string; hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(installed.theme).toBe('dark');
    expect(installed.hooks.Stop![0]).toEqual(original.hooks.Stop[0]);
    // The hooks run corral's launcher, which names no checkout: it runs this corral.
    const launcher = join(dir, 'share', 'corral', 'bin', 'corral');
    expect(installed.hooks.PermissionRequest![0]!.hooks[0]!.command).toBe(`${launcher} hook --agent claude-code`);
    expect(readFileSync(launcher, 'utf8')).toContain(join(process.cwd(), 'dist', 'bin', 'corral.js'));
    expect(statSync(join(claude, 'settings.json')).mode & 0o777).toBe(0o644);
    // The hook's token file exists now, private.
    expect(statSync(join(dir, 'config', 'corral', 'token')).mode & 0o777).toBe(0o600);

    const second = await runCli(['hooks', 'install', '--agent', 'claude-code'], { env });
    expect(second.stdout).toContain('already installed');

    const printed = await runCli(['hooks', 'print', '--agent', 'claude-code'], { env });
    expect(Object.keys((JSON.parse(printed.stdout) as { hooks: object }).hooks)).toHaveLength(6);

    const removed = await runCli(['hooks', 'uninstall', '--agent', 'claude-code'], { env });
    expect(removed.stdout).toContain('removed 6 corral hook entries');
    expect(JSON.parse(readFileSync(join(claude, 'settings.json'), 'utf8'))).toEqual(original);
  });

  it('creates a missing settings file, and refuses to touch one that is not JSON', async () => {
    const dir = home();
    const env = cliEnv({ CODEX_HOME: join(dir, 'codex'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), CORRAL_TOKEN: '' });
    const made = await runCli(['hooks', 'install', '--agent', 'codex'], { env });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Trust all and continue');
    expect(existsSync(join(dir, 'codex', 'hooks.json.corral-backup'))).toBe(false);
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "hooks": ');
    const refused = await runCli(['hooks', 'install', '--agent', 'gemini-cli', '--file', file], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/broken\.json is not valid JSON .*corral leaves it alone/);
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": ');
    const usage = await runCli(['hooks', 'install', '--agent', 'cursor'], { env });
    expect(usage).toMatchObject({ code: 2, stderr: 'corral: --agent must be one of claude-code, codex, gemini-cli\n' });
  });

  it('uninstalling removes a file that install made, and what install added with it', async () => {
    const dir = home();
    const env = cliEnv({ CODEX_HOME: join(dir, 'codex'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), CORRAL_TOKEN: '' });
    const file = join(dir, 'codex', 'hooks.json');
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], { env })).code).toBe(0);
    const removed = await runCli(['hooks', 'uninstall', '--agent', 'codex'], { env });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`nothing else was in ${file}, so it is removed`);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.corral-backup`)).toBe(false);
    expect(existsSync(join(dir, 'share', 'corral', 'bin', 'corral'))).toBe(false);
    expect(existsSync(join(dir, 'config', 'corral', 'token'))).toBe(false);
    // A file with the user's own settings stays, without corral's entries.
    writeFileSync(file, JSON.stringify({ theme: 'dark' }));
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], { env })).code).toBe(0);
    expect((await runCli(['hooks', 'uninstall', '--agent', 'codex'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'dark' });
  });
});

describe('corral hooks uninstall puts generated user files back', () => {
  // Files a person may have: any key order, spacing, CRLF, no final newline, unicode, their own hooks.
  function userFile(rng: SeededRandom): string | null {
    if (rng.chance(0.15)) return null;
    if (rng.chance(0.1)) return rng.pick(['', '{}', '  {}  \n', '{}\r\n']);
    const value: Record<string, unknown> = {};
    for (let i = rng.int(0, 5); i > 0; i--) value[rng.pick(['theme', 'model', 'zeta', 'é-ü', '"q"', 'a\\b', 'env', 'permissions'])] = rng.pick([true, 1.5, 'dark', '😀 \u2028', null, [1, 'x'], { deep: { x: '#{pane_id}' } }]);
    if (rng.chance(0.5)) value.hooks = { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }], ...(rng.chance(0.5) ? { PreToolUse: [] } : {}) };
    const indent = rng.pick([0, 2, 4, '\t']);
    let text = JSON.stringify(value, null, indent);
    if (rng.chance(0.3)) text = text.replace(/\n/g, '\r\n');
    return text + rng.pick(['', '\n', '\n\n', ' ']);
  }

  for (const seed of testSeeds(41_006)) {
    it(`byte for byte, and removes the backup, the launcher and a token install made (seed ${seed}, 6 files)`, async () => {
      const rng = new SeededRandom(seed);
      for (let n = 0; n < 6; n++) {
        const dir = home();
        const agent = rng.pick(['claude-code', 'codex', 'gemini-cli'] as const);
        const env = cliEnv({ HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), CORRAL_TOKEN: '' });
        const file = { 'claude-code': join(dir, 'claude', 'settings.json'), codex: join(dir, 'codex', 'hooks.json'), 'gemini-cli': join(dir, '.gemini', 'settings.json') }[agent];
        const original = userFile(rng);
        const mode = rng.pick([0o600, 0o644]);
        if (original !== null) {
          mkdirSync(join(file, '..'), { recursive: true });
          writeFileSync(file, original, { mode });
        }
        const where = `seed ${seed} #${n} ${agent}: ${JSON.stringify(original)}`;
        // Installed once or twice (the second changes nothing).
        for (let i = rng.int(1, 2); i > 0; i--) expect((await runCli(['hooks', 'install', '--agent', agent], { env })).code, where).toBe(0);
        expect(readFileSync(file, 'utf8'), where).toContain('hook --agent');
        const removed = await runCli(['hooks', 'uninstall', '--agent', agent], { env });
        expect(removed.code, `${where}: ${removed.stderr}`).toBe(0);
        if (original === null) expect(existsSync(file), where).toBe(false);
        else {
          expect(readFileSync(file, 'utf8'), where).toBe(original);
          expect(statSync(file).mode & 0o777, where).toBe(mode);
        }
        expect(existsSync(`${file}.corral-backup`), where).toBe(false);
        expect(existsSync(join(dir, 'share', 'corral', 'bin', 'corral')), where).toBe(false);
        expect(existsSync(join(dir, 'config', 'corral', 'token')), where).toBe(false);
      }
    });
  }
});
