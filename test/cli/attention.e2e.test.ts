// "Waiting" as a person means it, on a real tmux server with everyday programs (bash, zsh, fish, a
// `❯` prompt, sh, Python, less, `git add -p`, vim, top and a real `[y/N]` question): shells that
// finished something wait until the person, at a real attached client, has looked at them; then
// only the real questions count, in `corral status`, in the README's status-line snippet drawn by
// that client, and in every other corral process, whose clocks all say the same wait age. `next
// --answer` answers only a prompt it names, never two in one burst. A program that draws its
// screen again for a new size has not done anything.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAttention } from '../../src/engine/attention/record.js';
import { writerOption } from '../../src/engine/records/status-writer.js';
import { runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { git, makeRepo } from '../helpers/git-repo.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const STATUS_RIGHT = "#{?#{&&:#{@corral_waiting},#{!=:#{@corral_waiting},0}},#[fg=red]!#{@corral_waiting} #{@corral_waiting_reason}#[default],}";

interface Listed {
  paneId: string;
  status: string;
  waiting: boolean;
  waitSince: number | null;
  screen: string;
  ask: string | null;
  name: string;
}

describe('what needs the person, on fourteen everyday panes', () => {
  let server: TestTmux;
  let viewer: TestTmux;
  const watchers: LiveCli[] = [];
  const panes: Record<string, string> = {};
  /** When each question was first on screen, as the test saw it (epoch ms: between these two). */
  const drawn: Record<string, { after: number; before: number }> = {};
  let viewerPane = '';
  const common = () => ['-L', server.socketName, '--quiet-threshold', '1500'];
  const status = async () => JSON.parse((await runCli(['status', ...common(), '--json'])).stdout) as { waiting: number; panes: { paneId: string; reason: string; since: number }[] };
  const listed = async () => JSON.parse((await runCli(['ls', ...common(), '--json'])).stdout) as Listed[];
  const record = async (paneId: string) => decodeAttention((await server.tmux('show-options', '-pqv', '-t', paneId, '@corral_attention')).trim());

  beforeAll(async () => {
    server = await startTestTmux();
    viewer = await startTestTmux();
    const repo = makeRepo(mkdtempSync(join(tmpdir(), 'corral-attention-')));
    writeFileSync(join(repo, 'notes.txt'), 'one\n');
    git(repo, 'add', 'notes.txt');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@corral.invalid', 'commit', '-qm', 'notes');
    writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\n');
    const programs: [string, string][] = [
      ['bash', 'exec bash --norc --noprofile'],
      ['zsh', 'exec zsh -f'],
      ['fish', 'exec fish --no-config'],
      ['arrow', "PS1='❯ ' exec bash --norc --noprofile"],
      ['sh', 'exec sh'],
      ['python', 'exec python3 -q'],
      ['less', 'exec less /etc/services'],
      ['addp', `cd ${repo} && exec git -c core.pager=cat add -p`],
      ['vim', 'exec vim -u NONE -N'],
      ['top', 'exec top -d 1'],
      ['deploy', "read -p 'Deploy to prod? [y/N] ' a; exec sleep 600"],
      ['bash2', 'exec bash --norc --noprofile'],
      ['bash3', 'exec bash --norc --noprofile'],
      ['bash4', 'exec bash --norc --noprofile'],
    ];
    for (const [name, command] of programs) {
      const after = Date.now();
      panes[name] = await server.spawn(command, { session: 'main', width: 100, height: 30 });
      if (name === 'deploy') {
        await server.waitForScreen(panes[name]!, (s) => s.includes('Deploy to prod?'));
        drawn[name] = { after, before: Date.now() };
      }
    }
    await server.waitForScreen(panes.addp!, (s) => s.includes('Stage this hunk'));
    await server.tmux('set-option', '-g', 'status-right', STATUS_RIGHT);
    await server.tmux('set-option', '-g', 'status-interval', '1');
    watchers.push(startCli(['watch', ...common(), '--poll-interval', '300']));
  }, 60_000);

  afterAll(async () => {
    for (const w of watchers) await w.stop();
    await viewer?.kill();
    await server?.kill();
  });

  it('counts the questions and the shells that finished something, until the person has looked at each', async () => {
    // Found at their prompts on corral's first look: idle. The two questions wait.
    await expect.poll(async () => (await status()).waiting, { timeout: 15_000, interval: 300 }).toBe(2);
    // The shells and the REPL do something while corral watches, and stop.
    const shells = ['bash', 'zsh', 'fish', 'arrow', 'sh', 'bash2', 'bash3', 'bash4'];
    for (const name of shells) await server.tmux('send-keys', '-t', panes[name]!, 'echo done-here', 'Enter');
    await server.tmux('send-keys', '-t', panes.python!, 'print(6 * 7)', 'Enter');
    const worked = [...shells, 'python'].map((name) => panes[name]!);
    // Which panes wait, named (a failure shows the one missing, and what corral's listing says of it).
    const waitingNames = async () => {
      const { panes: waiting } = await status();
      return waiting.map((p) => Object.keys(panes).find((name) => panes[name] === p.paneId) ?? p.paneId).sort();
    };
    const expected = [...shells, 'python', 'deploy', 'addp'].sort();
    try {
      await expect.poll(waitingNames, { timeout: 20_000, interval: 300 }).toEqual(expected);
    } catch (error) {
      const rows = (await listed()).filter((row) => worked.includes(row.paneId));
      throw new Error(`${(error as Error).message}\ncorral ls of the panes that worked: ${JSON.stringify(rows, null, 1)}`);
    }
    const before = await status();
    expect(before.waiting).toBe(2 + worked.length);

    // A second corral, started now, counts every wait from when it began: the options do not move.
    const sinceBefore = (await server.tmux('show-options', '-pqv', '-t', panes.deploy!, '@corral_since')).trim();
    const second = startCli(['watch', ...common(), '--poll-interval', '300']);
    watchers.push(second);
    // Once it has found the question waiting and written its status options (its writer's mark goes
    // in with its first write), it has had its chance to move them.
    await second.waitForLine((l) => l.includes('"type":"stuck"') && l.includes(`"paneId":"${panes.deploy!}"`), 15_000);
    const mark = writerOption(hostname(), second.child.pid!);
    await expect.poll(async () => (await server.tmux('show-options', '-gqv', mark)).trim(), { timeout: 15_000, interval: 100 }).toBe('1');
    expect((await server.tmux('show-options', '-pqv', '-t', panes.deploy!, '@corral_since')).trim()).toBe(sinceBefore);

    // The person attaches a real client and walks through every window with prefix n.
    viewerPane = await viewer.spawn(`env -u TMUX tmux -L ${server.socketName} attach -t main:0`, { width: 120, height: 30 });
    for (let window = 0; window < 14; window++) {
      const paneId = (await server.tmux('display-message', '-p', '-t', `main:${window}`, '#{pane_id}')).trim();
      const pressed = Date.now();
      await viewer.tmux('send-keys', '-t', viewerPane, 'C-b', window === 0 ? '0' : 'n');
      // The look is read at the next cycle that asks tmux (within the poll interval of a change);
      // the bound leaves room for a loaded machine.
      await expect.poll(async () => (await record(paneId))?.seenAt ?? 0, { timeout: 25_000, interval: 200 }).toBeGreaterThanOrEqual(pressed - 1_000);
    }
    const after = await status();
    expect(after.panes.map((p) => [p.paneId, p.reason]).sort()).toEqual(
      [
        [panes.deploy!, 'permission'],
        [panes.addp!, 'permission'],
      ].sort(),
    );
    // The README's status-line snippet, drawn by that client.
    await expect.poll(async () => (await viewer.capture(viewerPane)).trimEnd().split('\n').at(-1), { timeout: 5_000 }).toMatch(/!2 permission\s*$/);
    // Every surface says the same: ls (any process), both watchers' options, idle shells listed.
    const rows = await listed();
    expect(rows.filter((r) => r.waiting).map((r) => r.paneId).sort()).toEqual([panes.deploy!, panes.addp!].sort());
    for (const paneId of worked) expect(rows.find((r) => r.paneId === paneId)?.status).toBe('idle');
    expect(rows.find((r) => r.paneId === panes.deploy)?.ask).toBe('Deploy to prod? [y/N]');
    // One wait age everywhere, and true to when the question was drawn (tmux stamps whole seconds).
    const since = [rows.find((r) => r.paneId === panes.deploy)!.waitSince!, after.panes.find((p) => p.paneId === panes.deploy)!.since, Number(sinceBefore)];
    expect(new Set(since).size).toBe(1);
    expect(since[0]).toBeGreaterThanOrEqual(Math.floor(drawn.deploy!.after / 1000) * 1000);
    expect(since[0]).toBeLessThanOrEqual(drawn.deploy!.before + 1_000);
    console.log(`waiting: ${before.waiting} before the person looked, ${after.waiting} after; wait age off by at most ${Math.max(...since.map((s) => Math.abs(s - drawn.deploy!.after)))} ms`);
  }, 120_000);

  it('next --answer names the prompt it answers, and never answers two in one burst', async () => {
    // Alone: nothing typed, the pane and the token that names its screen.
    const dry = await runCli(['next', ...common(), '--answer', 'n']);
    expect(dry.code).toBe(3);
    const token = /--screen (\w+)/.exec(dry.stderr)?.[1];
    expect(dry.stderr).toMatch(/would answer main:\d+\.0 \((Deploy to prod\? \[y\/N\]|\(1\/1\) Stage this hunk.*)\) with n; nothing was typed/);
    expect(token).toBeDefined();
    // --yes twice in a row: the first answers, the second (another pane) is refused.
    const first = await runCli(['next', ...common(), '--answer', 'n', '--yes']);
    expect(first).toMatchObject({ code: 0 });
    const second = await runCli(['next', ...common(), '--answer', 'n', '--yes']);
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(/was answered a moment ago; not answering main:\d+\.0 .* in the same burst; nothing was typed/);
    const answered = /answered (main:\d+\.0)/.exec(first.stdout)?.[1];
    const other = answered === `main:${Object.keys(panes).indexOf('deploy')}.0` ? panes.addp! : panes.deploy!;
    expect(await server.capture(other)).not.toMatch(/\]\s*n\s*$/m);
    // A token of a screen no pane shows answers nothing.
    expect(await runCli(['next', ...common(), '--answer', 'y', '--screen', 'ffffffffffffffff'])).toMatchObject({ code: 3 });
  }, 60_000);

  it('takes a pager laid out again for a new size (a client viewing its window) as the wait it was, not as work', async () => {
    expect((await listed()).find((r) => r.paneId === panes.less)).toMatchObject({ waiting: false });
    await server.tmux('resize-window', '-t', panes.less!, '-x', '90', '-y', '24');
    await server.waitForScreen(panes.less!, (screen) => screen.trimEnd().split('\n').length <= 24);
    // Output after the redraw, in the shell the person saw first (its window resized for the client
    // longer ago than a redraw takes): once corral counts it as new work waiting, the pager's
    // redraw is older than the quiet threshold too, and has been captured.
    await server.tmux('send-keys', '-t', panes.bash!, 'echo after-the-resize', 'Enter');
    try {
      await expect.poll(async () => (await listed()).find((r) => r.paneId === panes.bash)?.waiting, { timeout: 20_000, interval: 300 }).toBe(true);
    } catch (error) {
      const row = (await listed()).find((r) => r.paneId === panes.bash);
      throw new Error(`${(error as Error).message}\ncorral ls of the shell: ${JSON.stringify(row)}\nits record: ${JSON.stringify(await record(panes.bash!))}`);
    }
    const rows = await listed();
    expect(rows.find((r) => r.paneId === panes.less)).toMatchObject({ waiting: false });
    expect((await status()).panes.map((p) => p.paneId)).not.toContain(panes.less);
  }, 60_000);
});
