// The hook launcher agents run: real sh, real files. It runs the corral that wrote it, else
// `corral` on PATH, else lets the agent go on; a corral that serves hooks repoints it at itself.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookLauncherPath, installHookLauncher, launcherScript, refreshHookLauncher } from '../../src/cli/hook-launcher.js';
import { CLI } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-launcher-'));
  dirs.push(dir);
  return dir;
}

/** Runs the launcher as an agent would, with only `path` on PATH (plus the system's sh tools). */
function runLauncher(launcher: string, path: string, args: string[]) {
  return spawnSync(launcher, args, { encoding: 'utf8', env: { PATH: `${path}:/usr/bin:/bin` } });
}

describe('the hook launcher', () => {
  it('lives in the data folder, is executable, and runs this corral', () => {
    const data = folder();
    const path = installHookLauncher({ XDG_DATA_HOME: data });
    expect(path).toBe(join(data, 'corral', 'bin', 'corral'));
    expect(statSync(path).mode & 0o777).toBe(0o755);
    const version = execFileSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    const run = runLauncher(path, join(data, 'nothing'), ['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(version);
  });

  it('runs corral from PATH when the corral that wrote it moved away, and never itself', () => {
    const dir = folder();
    const launcher = join(dir, 'share', 'corral', 'bin', 'corral');
    mkdirSync(join(dir, 'share', 'corral', 'bin'), { recursive: true });
    writeFileSync(launcher, launcherScript(process.execPath, join(dir, 'moved-away', 'dist', 'bin', 'corral.js')), { mode: 0o755 });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'corral'), '#!/bin/sh\necho "corral on PATH: $*"\n');
    chmodSync(join(bin, 'corral'), 0o755);
    const run = runLauncher(launcher, bin, ['hook', '--agent', 'codex']);
    expect(run).toMatchObject({ status: 0, stdout: 'corral on PATH: hook --agent codex\n' });
    // With no corral anywhere (the launcher's own folder on PATH counts for nothing) the agent goes on.
    const alone = runLauncher(launcher, join(dir, 'share', 'corral', 'bin'), ['hook', '--agent', 'codex']);
    expect(alone.status).toBe(0);
    expect(alone.stderr).toContain('the hook found no corral (moved or removed?): run corral hooks install again');
  });

  it('is repointed at the corral that serves hooks, and never written where no hooks were installed', () => {
    const data = folder();
    expect(refreshHookLauncher({ XDG_DATA_HOME: data })).toBe(false);
    expect(existsSync(hookLauncherPath({ XDG_DATA_HOME: data }))).toBe(false);
    const path = installHookLauncher({ XDG_DATA_HOME: data });
    const current = readFileSync(path, 'utf8');
    expect(refreshHookLauncher({ XDG_DATA_HOME: data })).toBe(false);
    writeFileSync(path, launcherScript(process.execPath, '/old/checkout/dist/bin/corral.js'));
    expect(refreshHookLauncher({ XDG_DATA_HOME: data })).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(current);
  });
});
