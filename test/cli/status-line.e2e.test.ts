// corral where people already look: a running corral keeps tmux status options that a real tmux
// status line draws (captured from a real attached client), `corral status` says the same once,
// and `corral next` switches that client to the most urgent waiting pane, with and without a
// running corral. The options go when the last corral stops.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickNext } from '../../src/cli/next-fast.js';
import { runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

// The README's snippets, as a person would paste them.
const STATUS_RIGHT = "#{?#{&&:#{@corral_waiting},#{!=:#{@corral_waiting},0}},#[fg=red]!#{@corral_waiting} #{@corral_waiting_reason}#[default],}";
const WINDOW_FORMAT = '#I:#W#{?#{==:#{@corral_state},permission}, !,}#{?#{==:#{@corral_state},stopped}, ?,}';

describe('status line, corral status and corral next', () => {
  let server: TestTmux;
  let viewer: TestTmux;
  let watch: LiveCli | null = null;
  let asking = '';
  let client = '';
  const common = () => ['-L', server.socketName, '--quiet-threshold', '500'];
  /** The attached client's whole screen, its status line last. */
  const clientScreen = () => viewer.capture(viewerPane);
  let viewerPane = '';
  const option = async (name: string) => (await server.tmux('show-options', '-gqv', name)).trim();

  beforeAll(async () => {
    server = await startTestTmux();
    viewer = await startTestTmux();
    asking = await server.spawn(`read -p 'Deploy to production? [y/N] ' a; sleep 600`, { session: 'work' });
    await server.spawn('sleep 600', { session: 'work' });
    await server.spawn('sleep 600', { session: 'api' });
    await server.tmux('set-option', '-g', 'status-right', STATUS_RIGHT);
    await server.tmux('set-option', '-g', 'window-status-format', WINDOW_FORMAT);
    await server.tmux('set-option', '-g', 'window-status-current-format', `${WINDOW_FORMAT}*`);
    await server.tmux('set-option', '-g', 'status-interval', '1');
    // A real client, through a pseudo-terminal, looking at the api session.
    viewerPane = await viewer.spawn(`env -u TMUX tmux -L ${server.socketName} attach -t api`, { width: 100, height: 20 });
    for (const deadline = Date.now() + 10_000; client === '' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      client = (await server.tmux('list-clients', '-F', '#{client_name}')).trim().split('\n')[0] ?? '';
    }
    if (client === '') throw new Error('the viewer did not attach');
  });
  afterAll(async () => {
    await watch?.stop();
    await viewer?.kill();
    await server?.kill();
  });

  it('a running corral writes the options, and the client\'s status line draws them', async () => {
    watch = startCli(['watch', ...common(), '--poll-interval', '200']);
    await expect.poll(() => option('@corral_waiting'), { timeout: 10_000 }).toBe('1');
    expect(await option('@corral_waiting_reason')).toBe('permission');
    expect((await server.tmux('show-options', '-pqv', '-t', asking, '@corral_state')).trim()).toBe('permission');
    expect((await server.tmux('show-options', '-wqv', '-t', asking, '@corral_state')).trim()).toBe('permission');
    expect((await server.tmux('show-options', '-qv', '-t', 'work', '@corral_session_waiting')).trim()).toBe('1');
    expect((await server.tmux('show-options', '-qv', '-t', 'api', '@corral_session_waiting')).trim()).toBe('0');
    await expect.poll(async () => (await clientScreen()).trimEnd().split('\n').at(-1), { timeout: 5_000 }).toMatch(/!1 permission\s*$/);
  });

  it('corral status says the same, once, and its exit code tells whether anything waits', async () => {
    const text = await runCli(['status', ...common()]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^1 pane waits for you \(1 permission; 3 watched\)\n {2}permission {2}work:0\.0 {2}%\d+ {2}waiting \d+s\n$/);
    expect(await runCli(['status', ...common(), '--short'])).toMatchObject({ code: 0, stdout: '!1 permission\n' });
    const json = JSON.parse((await runCli(['status', ...common(), '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ waiting: 1, reason: 'permission', total: 3, source: 'options', panes: [{ paneId: asking, target: 'work:0.0' }] });
  });

  it('corral next switches the client to the waiting pane, across sessions, and says so in its message line', async () => {
    // Read from the running corral's options, by the short way (no engine): it answers, not null.
    const lines: string[] = [];
    expect(await quickNext(['-L', server.socketName, '--client', client], { ...process.env, TMUX: '' }, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual([]);
    expect((await server.tmux('display-message', '-p', '-c', client, '#{pane_id}')).trim()).toBe(asking);
    await server.tmux('switch-client', '-c', client, '-t', 'api');
    const next = await runCli(['next', '-L', server.socketName, '--client', client]);
    expect(next).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await server.tmux('display-message', '-p', '-c', client, '#{session_name} #{pane_id}')).trim()).toBe(`work ${asking}`);
    // Now on the work session: its window list shows the waiting window's mark.
    await expect.poll(async () => (await clientScreen()).trimEnd().split('\n').at(-1), { timeout: 5_000 }).toMatch(/0:bash !\*/);
  });

  it('the options go when the last corral stops; corral next then looks by itself', async () => {
    await server.tmux('switch-client', '-c', client, '-t', 'api');
    await watch!.stop();
    watch = null;
    expect(await option('@corral_waiting')).toBe('');
    expect((await server.tmux('show-options', '-pqv', '-t', asking, '@corral_state')).trim()).toBe('');
    await expect.poll(async () => (await clientScreen()).trimEnd().split('\n').at(-1), { timeout: 5_000 }).not.toMatch(/!1/);
    // No corral keeps the options: the short way steps aside, and the full one looks itself.
    expect(await quickNext(['-L', server.socketName], { ...process.env, TMUX: '' }, () => undefined)).toBeNull();
    const next = await runCli(['next', ...common()], { env: { ...process.env, TMUX: '', TMUX_PANE: '' } });
    expect(next.code).toBe(0);
    expect(next.stdout).toBe('corral: work:0.0: permission\n');
    expect((await server.tmux('display-message', '-p', '-c', client, '#{pane_id}')).trim()).toBe(asking);
    // --answer: only an answer the prompt offers, typed into that pane, where the client is not.
    await server.tmux('switch-client', '-c', client, '-t', 'api');
    const refused = await runCli(['next', ...common(), '--answer', 'maybe', '--yes']);
    expect(refused).toMatchObject({ code: 3, stderr: 'corral: "maybe" is not an answer work:0.0 offers; offered: y, n, Enter\n' });
    // A --client that is not there (tmux would take the message silently): the reason goes to stderr.
    const nowhere = await runCli(['next', ...common(), '--client', '/dev/pts/9999', '--answer', 'maybe', '--yes']);
    expect(nowhere).toMatchObject({ code: 3, stderr: 'corral: "maybe" is not an answer work:0.0 offers; offered: y, n, Enter (no tmux client /dev/pts/9999 to tell)\n' });
    // Named by its screen: a dry run says which prompt and gives the token; the token answers it.
    const dry = await runCli(['next', ...common(), '--answer', 'n']);
    expect(dry.code).toBe(3);
    const token = /--screen (\w+)$/m.exec(dry.stderr)?.[1] ?? '';
    expect(dry.stderr).toMatch(/^corral: would answer work:0\.0 \(Deploy to production\? \[y\/N\]\) with n; nothing was typed/);
    const answered = await runCli(['next', ...common(), '--answer', 'n', '--screen', token]);
    expect(answered).toMatchObject({ code: 0, stdout: 'corral: answered work:0.0 (permission): sent n, then Enter\n' });
    expect((await server.tmux('display-message', '-p', '-c', client, '#{session_name}')).trim()).toBe('api');
    await server.waitForScreen(asking, (s) => /Deploy to production\? \[y\/N\] n$/m.test(s));
    const none = await runCli(['next', ...common()]);
    expect(none).toMatchObject({ code: 1, stderr: 'corral: no pane waits for you (3 watched)\n' });
    expect((await runCli(['status', ...common()])).code).toBe(1);
  });
});
