// A small fleet, for real: three hosts of ten panes each (this machine, and two "remote" tmux
// servers each behind its own sshd on 127.0.0.1), watched at once by `corral watch` and by the
// dashboard in a tmux pane. One host's sshd is killed (with every session it held) and started
// again: its panes go offline and come back, the other hosts are served throughout, and at the end
// no ssh process and no tmux control client is left. Behaviour only, never timing.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { processesMatching } from '../helpers/processes.js';
import { startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

const PANES = 10;
const BOXES = ['box-a', 'box-b'] as const;
const fast = ['--quiet-threshold', '1000', '--poll-interval', '300'];

/** Pane i: every third waits at a [y/N] prompt from the start; the others run `cat` (quiet). */
const program = (i: number) => (i % 3 === 0 ? `read -p "Deploy build ${i}? [y/N] " a; sleep 600` : 'exec cat');

describe('a fleet of three hosts, one lost and back', () => {
  let dir = '';
  let sshBin = '';
  const sshds: TestSshd[] = [];
  const servers: TestTmux[] = [];
  const panes: string[][] = [];
  let view: TestTmux;
  let dash = '';
  let watch: LiveCli | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-fleet-'));
    for (let k = 0; k < 3; k++) {
      const server = await startTestTmux();
      servers.push(server);
      const ids: string[] = [];
      for (let i = 0; i < PANES; i++) ids.push(await server.spawn(program(i)));
      panes.push(ids);
    }
    for (const _ of BOXES) sshds.push(await startTestSshd());
    // One ssh config naming both boxes, each through its own sshd (as two machines).
    const blocks = sshds.map((sshd, j) => readFileSync(sshd.configFile, 'utf8').split('\n\n')[0]!.replace(/^Host \S+/, `Host ${BOXES[j]}`));
    writeFileSync(join(dir, 'ssh_config'), `${blocks.join('\n\n')}\n`);
    sshBin = join(dir, 'ssh');
    writeFileSync(sshBin, `#!/bin/sh\nexec ssh -F ${join(dir, 'ssh_config')} "$@"\n`, { mode: 0o755 });
    view = await startTestTmux();
  }, 120_000);

  afterAll(async () => {
    await watch?.stop('SIGKILL');
    await view?.kill();
    for (const server of servers) await server.kill();
    for (const sshd of sshds) await sshd.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const hostArgs = () => ['-L', servers[0]!.socketName, ...BOXES.flatMap((box, j) => ['--host', `${box}=${box},-L ${servers[j + 1]!.socketName}`])];
  const keyOf = (k: number, paneId: string) => (k === 0 ? paneId : `${BOXES[k - 1]}/${paneId}`);
  const events = (type: string, host?: string) =>
    (watch?.stdoutLines ?? [])
      .map((line) => JSON.parse(line) as { type: string; host: string; key: string; why?: string })
      .filter((e) => e.type === type && (host === undefined || e.host === host));
  const dashShows = (test: (s: string) => boolean, timeoutMs = 60_000) => view.waitForScreen(dash, test, timeoutMs);

  it('watches all 30 panes, loses box-b and serves the others meanwhile, and gets box-b back', async () => {
    const env = cliEnv({ CORRAL_SSH_BIN: sshBin, TMPDIR: dir });
    watch = startCli(['watch', ...hostArgs(), ...fast], env);
    const shellArgs = ['dashboard', ...hostArgs(), ...fast].map(shellQuote).join(' ');
    dash = await view.spawn(`export CORRAL_SSH_BIN=${shellQuote(sshBin)} TMPDIR=${shellQuote(dir)}; exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} ${shellArgs}`, {
      session: 'dash',
      width: 120,
      height: 50,
    });

    // Every pane registered once, under its key; the prompts of every host wait.
    await waitUntil(() => events('registered').length >= 3 * PANES, 60_000, 'all 30 panes registered');
    expect(new Set(events('registered').map((e) => e.key))).toEqual(new Set(panes.flatMap((ids, k) => ids.map((id) => keyOf(k, id)))));
    await waitUntil(() => events('stuck').length >= 3 * 4, 60_000, 'the twelve prompts stuck');
    await dashShows((s) => s.includes('waiting · 12 panes on 3 hosts') && s.includes('30 total'));

    await sshds[1]!.stop();
    // box-b's ten panes end, and nothing else does.
    await waitUntil(() => events('ended', 'box-b').length >= PANES, 60_000, "box-b's panes ended");
    expect(events('ended', 'box-b').every((e) => e.why === 'host-gone')).toBe(true);
    expect(events('ended').filter((e) => e.host !== 'box-b')).toEqual([]);
    await watch.waitForStderr(/corral: box-b is unreachable/, 30_000);
    const down = await dashShows((s) => /^box-b · unreachable since/m.test(s));
    expect(down).toContain('waiting · 8 panes on 2 hosts');
    // Collapsed, box-b's line counts its panes as offline; the others' lines are whole.
    await view.tmux('send-keys', '-t', dash, 'H');
    const collapsed = await dashShows((s) => /^box-b ▸ 10 panes · 0 waiting · 10 offline · unreachable/m.test(s));
    expect(collapsed).toMatch(/^local ▸ 10 panes · 4 waiting · 0 offline · connected/m);
    expect(collapsed).toMatch(/^box-a ▸ 10 panes · 4 waiting · 0 offline · connected/m);
    await view.tmux('send-keys', '-t', dash, 'H');

    // The other hosts are served meanwhile: a new prompt on each is seen by both.
    const fresh = [servers[0]!, servers[1]!].map((server, k) => ({ server, k, pane: panes[k]![1]! }));
    for (const { server, pane } of fresh) await server.tmux('send-keys', '-t', pane, '-l', 'Apply the migration? [y/N] ');
    for (const { k, pane } of fresh) {
      await waitUntil(() => events('stuck').some((e) => e.key === keyOf(k, pane)), 30_000, `a new prompt stuck on host ${k}`);
    }
    await dashShows((s) => s.includes('waiting · 10 panes on 2 hosts'));

    await sshds[1]!.start();
    await watch.waitForStderr(/corral: box-b is connected/, 120_000);
    // The same ten panes come back (a second registration each), and their prompts wait again.
    const boxB = new Set(panes[2]!.map((id) => keyOf(2, id)));
    await waitUntil(() => events('registered', 'box-b').length >= 2 * PANES, 60_000, "box-b's panes registered again");
    expect(events('registered', 'box-b').every((e) => boxB.has(e.key))).toBe(true);
    const back = await dashShows((s) => /^box-b · connected · 10 panes/m.test(s) && s.includes('waiting · 14 panes on 3 hosts'));
    expect(back).not.toMatch(/offline/);
  }, 300_000);

  it('leaves no ssh process and no tmux control client behind once corral has stopped', async () => {
    expect(watch).not.toBeNull();
    // While corral runs, both checks below see what it holds: ssh masters, one control client per server.
    expect(processesMatching(dir).length).toBeGreaterThan(0);
    // A host back from a loss is polled over one command a round trip until its control connection
    // is opened again (after the retry pause): wait for it.
    for (const [k, server] of servers.entries()) {
      await waitUntil(async () => (await server.tmux('list-clients', '-F', '#{client_name}')).trim() !== '', 30_000, `a control client on host ${k}`);
    }
    await view.tmux('send-keys', '-t', dash, 'q');
    await watch!.stop('SIGTERM');
    watch = null;
    // ssh runs with its ControlPath in TMPDIR (this folder): the wrapper, masters and sessions.
    await waitUntil(() => processesMatching(dir).length === 0, 30_000, `no process left naming ${dir}`);
    for (const server of servers) {
      await waitUntil(async () => (await server.tmux('list-clients', '-F', '#{client_name}')).trim() === '', 30_000, 'no control client left');
    }
  }, 120_000);
});
