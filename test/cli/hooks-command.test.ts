// `corral hooks install|uninstall|print` as a real process on real files.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../helpers/cli.js';

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
    expect(first.stdout).toContain(`Claude Code hooks installed in ${join(claude, 'settings.json')} (the previous file is ${join(claude, 'settings.json.corral-backup')})`);
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

  it('uninstalling removes a file that held nothing but corral\'s entries, keeping its last content as the backup', async () => {
    const dir = home();
    const env = cliEnv({ CODEX_HOME: join(dir, 'codex'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'share'), CORRAL_TOKEN: '' });
    const file = join(dir, 'codex', 'hooks.json');
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], { env })).code).toBe(0);
    const installed = readFileSync(file, 'utf8');
    const removed = await runCli(['hooks', 'uninstall', '--agent', 'codex'], { env });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`nothing else was in ${file}, so it is removed (its last content is ${file}.corral-backup)`);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}.corral-backup`, 'utf8')).toBe(installed);
    // A file with the user's own settings stays, without corral's entries.
    writeFileSync(file, JSON.stringify({ theme: 'dark' }));
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], { env })).code).toBe(0);
    expect((await runCli(['hooks', 'uninstall', '--agent', 'codex'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'dark' });
  });
});
