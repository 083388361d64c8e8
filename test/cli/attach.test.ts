// `corral attach` run for real: the built CLI in a tmux pane mirrors another pane through a live
// attach server, types only with --write, and detaches on C-].
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, runCli } from '../helpers/cli.js';
import { TOKEN, startHarness, type Harness } from '../helpers/attach-harness.js';
import { paneView } from '../helpers/fake-engine.js';

let h: Harness;
let target: string;

beforeAll(async () => {
  h = await startHarness();
  target = await h.tmux.spawn('bash --norc', { session: 'work' });
  await h.tmux.waitForScreen(target, (s) => s.trim().length > 0);
});
afterAll(async () => {
  await h?.close();
});

function attachIn(extra: string): Promise<string> {
  const url = `http://127.0.0.1:${h.server.port}`;
  return h.tmux.spawn(
    `CORRAL_TOKEN=${TOKEN} '${process.execPath}' '${CLI}' attach ${target} --url ${url} ${extra}; echo ATTACH-EXIT=$?; sleep 60`,
    {
      session: 'viewer',
    },
  );
}

describe('corral attach', () => {
  it('mirrors the pane read-only and detaches on C-]', async () => {
    const viewer = await attachIn('');
    await h.tmux.tmux('send-keys', '-t', target, 'echo mirrored-$((6*7))', 'Enter');
    await h.tmux.waitForScreen(viewer, (s) => s.includes('mirrored-42'), 10_000);
    await h.tmux.tmux('send-keys', '-t', viewer, 'echo should-not-arrive', 'Enter');
    await h.tmux.tmux('send-keys', '-t', target, 'echo marker-$((1+1))', 'Enter');
    await h.tmux.waitForScreen(viewer, (s) => s.includes('marker-2'), 10_000);
    expect(await h.tmux.capture(target)).not.toContain('should-not-arrive');
    await h.tmux.tmux('send-keys', '-t', viewer, 'C-]');
    const screen = await h.tmux.waitForScreen(viewer, (s) => s.includes('ATTACH-EXIT='), 10_000);
    expect(screen).toContain('ATTACH-EXIT=0');
    expect(screen).toContain(`detached from ${target}`);
  });

  it('types into the pane with --write', async () => {
    const viewer = await attachIn('--write');
    await h.tmux.waitForScreen(viewer, (s) => s.includes('marker-2'), 10_000);
    await h.tmux.tmux('send-keys', '-t', viewer, 'echo via-attach-$((2*5))', 'Enter');
    await h.tmux.waitForScreen(target, (s) => s.includes('via-attach-10'), 10_000);
    await h.tmux.tmux('send-keys', '-t', viewer, 'C-]');
    expect(await h.tmux.waitForScreen(viewer, (s) => s.includes('ATTACH-EXIT='), 10_000)).toContain('ATTACH-EXIT=0');
  });

  it('says from the first frame how to see a pane larger than the terminal', async () => {
    const big = await h.tmux.spawn('bash --norc', { session: 'big', width: 150, height: 39 });
    await h.tmux.tmux('send-keys', '-t', big, 'echo big-pane-ready', 'Enter');
    await h.tmux.waitForScreen(big, (s) => s.includes('big-pane-ready'));
    // The server lists the pane with its size (the harness's engine is driven by hand).
    h.engine.setPanes([paneView({ pane: { paneId: big, width: 150, height: 39 } })]);
    const url = `http://127.0.0.1:${h.server.port}`;
    const viewer = await h.tmux.spawn(`CORRAL_TOKEN=${TOKEN} '${process.execPath}' '${CLI}' attach ${big} --url ${url}; echo ATTACH-EXIT=$?; sleep 60`, {
      session: 'small',
      width: 120,
      height: 30,
    });
    // Said before the first frame, and on the last row over the mirrored screen once it is drawn.
    const screen = await h.tmux.waitForScreen(viewer, (s) => (s.split('\n')[29] ?? '').includes('is 150x39 and this terminal 120x30'), 10_000);
    expect(screen.split('\n')[29]).toContain(`${big} is 150x39 and this terminal 120x30: what does not fit is cut off`);
    await h.tmux.tmux('send-keys', '-t', viewer, 'C-]');
    await h.tmux.waitForScreen(viewer, (s) => s.includes('ATTACH-EXIT=0'), 10_000);
    // A pane that fits gets no such line.
    const fits = await attachIn('');
    await h.tmux.waitForScreen(fits, (s) => s.includes('marker-2'), 10_000);
    expect(await h.tmux.capture(fits)).not.toContain('does not fit');
    await h.tmux.tmux('send-keys', '-t', fits, 'C-]');
  });

  it('explains a wrong token, a server that is not running, and a bad pane id', async () => {
    const url = `http://127.0.0.1:${h.server.port}`;
    const wrong = await runCli(['attach', target, '--url', url, '--token', 'not-the-token-at-all'], {
      env: cliEnv({ CORRAL_TOKEN: '' }),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the token');
    const missing = await runCli(['attach', '9999', '--url', url, '--token', TOKEN]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no pane %9999');
    const down = await runCli(['attach', target, '--url', 'http://127.0.0.1:9', '--token', TOKEN]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('start it with corral serve --attach');
    const bad = await runCli(['attach', 'not-a-pane', '--token', TOKEN]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a pane id');
  });
});
