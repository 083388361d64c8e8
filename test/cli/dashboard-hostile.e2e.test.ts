// The built dashboard in a real tmux pane (the "outer terminal", with set-clipboard on) watching a
// server whose window names, pane titles, session names, folders, commands and screens are
// generated hostile strings (seeded; printed), plus a host whose ssh fails with a hostile error
// line. Walking every row (each preview drawn) and the help must leave the outer terminal as it
// was: its title and window name, its paste buffers (OSC 52), its alternate screen, no bell, and
// the dashboard's own header in place. Runs against every tmux build found (tmux-binaries.ts).

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { Rng, TERMINAL_ATTACKS, hostileFolderName, hostileName, screenLine, testSeed } from '../helpers/hostile-text.js';
import { tmuxBuilds } from '../helpers/tmux-binaries.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const seed = testSeed();
// One window per kind of terminal attack, each in the short folder name the row's cwd column shows.
const WINDOWS = TERMINAL_ATTACKS.length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const folder = mkdtempSync(join(tmpdir(), 'corral-hostile-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The screen line of the selected row (marked ›); -1 when none is. Its text is not used: the timer changes it. */
function selectedRow(screen: string): number {
  return screen.split('\n').findIndex((line) => line.startsWith('› '));
}

/** What the outer terminal looks like from tmux's side. */
async function outerState(outer: TestTmux, pane: string) {
  const [title, window, alternate, bell] = (
    await outer.tmux('display-message', '-p', '-t', pane, '#{pane_title}\t#{window_name}\t#{alternate_on}\t#{window_bell_flag}')
  )
    .replace(/\n$/, '')
    .split('\t');
  return { title, window, alternate, bell, buffers: (await outer.tmux('list-buffers', '-F', '#{buffer_name}')).trim() };
}

/** Windows on `inner` whose every name, title, folder, command and screen is hostile. */
async function hostileWindows(inner: TestTmux, rng: Rng, dir: string): Promise<void> {
  await inner.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'base', '-x', '120', '-y', '30', 'sleep 600');
  await inner.tmux('rename-session', '-t', 'base', hostileName(rng).replace(/[:.]/g, '_'));
  for (let i = 0; i < WINDOWS; i++) {
    const cwd = join(dir, `${i}-${TERMINAL_ATTACKS[i]}`);
    mkdirSync(cwd, { recursive: true });
    // The foreground command's name is its program's file name: a link to sleep with a hostile name.
    const program = join(cwd, hostileFolderName(rng).slice(0, 40));
    symlinkSync('/bin/sleep', program);
    const screen = join(cwd, '..', `screen-${i}.txt`);
    const lines = Array.from({ length: 12 }, () => `${screenLine(rng)}${rng.pick(TERMINAL_ATTACKS)}${screenLine(rng, 2)}`);
    writeFileSync(screen, `${lines.join('\n')}\n`);
    const script = join(dir, `window-${i}.sh`);
    writeFileSync(script, `cat ${shellQuote(screen)}\nexec ${shellQuote(program)} 600\n`);
    chmodSync(script, 0o755);
    const pane = (await inner.tmux('new-window', '-d', '-c', cwd, '-P', '-F', '#{pane_id}', '/bin/sh', script)).trim();
    await inner.tmux('rename-window', '-t', pane, hostileName(rng));
    try {
      await inner.tmux('select-pane', '-t', pane, '-T', hostileName(rng));
    } catch {
      // Some tmux versions refuse a title with control characters; the screen's OSC 2 tries too.
    }
  }
}

describe.each(tmuxBuilds())('the dashboard on hostile names and screens (tmux $version)', ({ binary }) => {
  it(`leaves the outer terminal untouched (seed ${seed})`, async () => {
    const rng = new Rng(seed);
    const dir = mkdtempSync(join(folder, 'w'));
    const inner = await startTestTmux({ binary });
    const outer = await startTestTmux();
    try {
      await hostileWindows(inner, rng, dir);
      // A host whose ssh fails, saying something hostile on its way out.
      const ssh = join(dir, 'ssh');
      writeFileSync(ssh, `#!/bin/sh\nprintf '%s\\n' ${shellQuote(`kex failed \x1b]52;c;UFdORUQ=\x07 ${hostileName(rng)}`)} >&2\nexit 255\n`);
      chmodSync(ssh, 0o755);
      const dash = await outer.spawn(
        `export CORRAL_SSH_BIN=${shellQuote(ssh)} CORRAL_TMUX_BIN=${shellQuote(binary)}; ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard -L ${inner.socketName} --host evil.example --poll-interval 200; sleep 600`,
        { width: 160, height: 45 },
      );
      await outer.tmux('set-option', '-g', 'set-clipboard', 'on');
      await outer.tmux('set-option', '-w', '-t', dash, 'allow-rename', 'on');
      await outer.tmux('set-option', '-w', '-t', dash, 'automatic-rename', 'off');
      await outer.tmux('rename-window', '-t', dash, 'outer-window');
      await outer.tmux('select-pane', '-t', dash, '-T', 'outer-title');
      const before = await outerState(outer, dash);
      expect(before).toMatchObject({ title: 'outer-title', window: 'outer-window', buffers: '' });
      await outer.waitForScreen(dash, (s) => s.includes(`${WINDOWS + 1} total`) && s.includes('evil.example'), 15_000);
      // Each check follows the frame that drew the row (its preview with it): tmux has read
      // everything the dashboard wrote before that frame, whatever escapes it held.
      const seen: string[] = [];
      let screen = await outer.capture(dash);
      for (let row = 0; row <= WINDOWS; row++) {
        seen.push(screen);
        expect(screen.split('\n')[0], `seed ${seed}: the header was overwritten`).toMatch(/^corral · /);
        expect(await outerState(outer, dash), `seed ${seed}, row ${row}`).toEqual({ ...before, alternate: '1', bell: '0' });
        if (row === WINDOWS) break;
        const drawn = selectedRow(screen);
        await outer.tmux('send-keys', '-t', dash, 'j');
        screen = await outer.waitForScreen(dash, (s) => selectedRow(s) !== drawn && selectedRow(s) !== -1, 10_000);
      }
      await outer.tmux('send-keys', '-t', dash, '?');
      await outer.waitForScreen(dash, (s) => s.includes('Keys (any key closes this help)'), 10_000);
      expect(await outerState(outer, dash)).toEqual({ ...before, alternate: '1', bell: '0' });
      // What the folders and the host's error held is shown, visibly: the escape character as ^[,
      // the bell as ^G (tmux 3.3 and 3.5 write a folder's controls as \033 themselves). The cwd
      // column's width follows the generated session name, so only the folder's start is sure to show.
      const attack = TERMINAL_ATTACKS.indexOf('\x1b[2J\x1b[H');
      expect(seen.join('\n')).toMatch(new RegExp(`/${attack}-(\\^\\[|\\\\033)\\[`));
      expect(seen.join('\n')).toContain('kex failed ^[]52;c;UFdORUQ=^G');
      await outer.tmux('send-keys', '-t', dash, '?');
      await outer.tmux('send-keys', '-t', dash, 'q');
      await outer.waitForScreen(dash, (s) => !s.includes('corral · '), 10_000);
      expect(await outerState(outer, dash)).toMatchObject({ title: before.title, window: before.window, buffers: '', bell: '0' });
    } finally {
      await outer.kill();
      await inner.kill();
      try {
        execFileSync('rm', ['-rf', dir]);
      } catch {
        // left for the folder's own cleanup
      }
    }
  }, 90_000);
});

describe('corral ls and watch on hostile names and screens', () => {
  // eslint-disable-next-line no-control-regex
  const ACTS_ON_TERMINAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

  it(`print nothing a terminal acts on, on stdout or stderr (seed ${seed})`, async () => {
    const rng = new Rng(seed);
    const dir = mkdtempSync(join(folder, 'l'));
    const inner = await startTestTmux();
    try {
      await hostileWindows(inner, rng, dir);
      const ssh = join(dir, 'ssh');
      writeFileSync(ssh, `#!/bin/sh\nprintf '%s\\n' ${shellQuote(`kex failed \x1b]52;c;UFdORUQ=\x07 \x9b2J ${hostileName(rng)}`)} >&2\nexit 255\n`);
      chmodSync(ssh, 0o755);
      const run = (...args: string[]) => {
        const done = spawnSync(process.execPath, [MAIN_JS, ...args, '-L', inner.socketName], {
          env: { ...process.env, CORRAL_SSH_BIN: ssh, TMUX: '', TMUX_PANE: '' },
          encoding: 'utf8',
          timeout: 30_000,
        });
        return { stdout: done.stdout, stderr: done.stderr };
      };
      const table = run('ls', '--host', 'evil.example');
      expect(table.stdout).toContain('sleep');
      expect(table.stderr).toContain('kex failed ^[]52;c;UFdORUQ=^G \\x9b2J');
      expect(ACTS_ON_TERMINAL.test(table.stdout), table.stdout).toBe(false);
      expect(ACTS_ON_TERMINAL.test(table.stderr), table.stderr).toBe(false);
      const json = run('ls', '--json');
      expect(ACTS_ON_TERMINAL.test(json.stdout)).toBe(false);
      // The JSON keeps every byte of what tmux said, escaped as JSON: the raw folder names come back.
      const listed = JSON.parse(json.stdout) as { cwd: string }[];
      expect(listed.some((pane) => pane.cwd.endsWith(`-${TERMINAL_ATTACKS[2]}`) || pane.cwd.includes('\\033]52'))).toBe(true);
      // watch: one JSON event a line, as it registers every pane.
      const watch = spawn(process.execPath, [MAIN_JS, 'watch', '-L', inner.socketName], { env: { ...process.env, TMUX: '', TMUX_PANE: '' } });
      let events = '';
      watch.stdout.on('data', (chunk: Buffer) => (events += chunk.toString('utf8')));
      for (let i = 0; i < 200 && (events.match(/"registered"/g) ?? []).length < WINDOWS + 1; i++) await sleep(50);
      watch.kill();
      expect((events.match(/"registered"/g) ?? []).length).toBe(WINDOWS + 1);
      expect(ACTS_ON_TERMINAL.test(events), events).toBe(false);
      for (const line of events.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await inner.kill();
    }
  }, 60_000);
});
