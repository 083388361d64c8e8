// tmux over ssh against a real sshd on 127.0.0.1: commands, literal text, control-mode polls, one
// master per host, and what a lost host, a refused key, a hung host and a recovered host look like.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaneGoneError, type PollRunner } from '../../../src/engine/tmux/core.js';
import type { TmuxClient } from '../../../src/engine/tmux/client.js';
import { openTmux, type OpenedTmux } from '../../../src/engine/tmux/open.js';
import { createExecRunner, tmuxSpawnCountByHost } from '../../../src/engine/tmux/runner.js';
import {
  HostAuthError,
  HostUnreachableError,
  TmuxMissingError,
  removeStaleControlDirs,
  sshTransport,
  type TmuxTransport,
} from '../../../src/engine/tmux/transport.js';
import { processesMatching } from '../../helpers/processes.js';
import { startTestSshd, type TestSshd } from '../../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { realTmuxTime } from '../../helpers/real-time.js';

const execFileAsync = promisify(execFile);

let sshd: TestSshd;
let server: TestTmux;
const opened: OpenedTmux[] = [];
const transports: TmuxTransport[] = [];

beforeAll(async () => {
  sshd = await startTestSshd();
  server = await startTestTmux();
  await server.spawn('sleep 600');
}, 60_000);

afterEach(async () => {
  for (const tmux of opened.splice(0)) await tmux.close();
  for (const transport of transports.splice(0)) await transport.close();
  // Lost-host tests stop the server; the next test needs it back.
  if (sshd.processes().length === 0) await sshd.start();
});

afterAll(async () => {
  await server?.kill();
  await sshd?.dispose();
});

/** A fresh folder for master sockets, so each test sees only its own master. */
function controlDir(): string {
  return mkdtempSync(join(sshd.controlDir, 'c'));
}

function open(persistent: boolean, dir = controlDir(), alias = sshd.alias): OpenedTmux {
  const tmux = openTmux(sshd.host('box', server.socket, alias), { ...realTmuxTime, formats: TMUX_FORMATS,
    persistent,
    controlDir: dir,
    sshOptions: sshd.sshOptions,
    retryMs: 0,
  });
  opened.push(tmux);
  return tmux;
}

/** Whether the client's last poll went over its control-mode connection. */
function connected(client: TmuxClient): boolean | undefined {
  return (client.commandRunner as PollRunner).connected?.();
}

/** Live ssh processes (masters and clients) using master sockets in `dir`. */
function sshProcesses(dir: string): number[] {
  return processesMatching(dir).filter((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('node'));
}

function masters(dir: string): number[] {
  return processesMatching(dir).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('[mux]'));
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('tmux over ssh', () => {
  it('lists panes and captures screens like the local tmux does', { timeout: 60_000 }, async () => {
    const pane = await server.spawn(`printf 'over ssh: ok ü\\n'; sleep 600`);
    await server.waitForScreen(pane, (s) => s.includes('over ssh'));
    const before = tmuxSpawnCountByHost().get('box') ?? 0;
    const { client, transport } = open(false);
    expect(transport.remote).toBe(true);
    const panes = await client.panes.listPanes();
    expect(panes.map((p) => p.paneId)).toEqual((await server.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n'));
    expect(await client.io.capture(pane)).toContain('over ssh: ok ü');
    expect(tmuxSpawnCountByHost().get('box')).toBe(before + 2);
    await expect(client.io.capture('%9999')).rejects.toBeInstanceOf(PaneGoneError);
    expect(client.serverLabel).toBe(`-L ${server.socketName} on box`);
  });

  it('types and pastes quotes, $(), ; and newlines literally: nothing reaches a remote shell', { timeout: 60_000 }, async () => {
    const marker = join(sshd.dir, `pwned-${process.pid}`);
    const typedFile = join(sshd.dir, 'typed.txt');
    const pastedFile = join(sshd.dir, 'pasted.txt');
    const text = `it's "q" $(touch ${marker}) ; touch ${marker} \`touch ${marker}\` \\ %1 #{pane_id}\nsecond line\n`;
    const typed = await server.spawn(`stty -echo; cat > ${typedFile}`);
    const pasted = await server.spawn(`stty -echo; cat > ${pastedFile}`);
    const { client } = open(false);
    await client.io.send(typed, [{ kind: 'text', text }]);
    await client.io.paste(pasted, text);
    await waitUntil(() => existsSync(typedFile) && readFileSync(typedFile, 'utf8') === text, 10_000, 'the typed text');
    await waitUntil(() => existsSync(pastedFile) && readFileSync(pastedFile, 'utf8') === text, 10_000, 'the pasted text');
    expect(existsSync(marker)).toBe(false);
  });

  it('polls over one control-mode connection through ssh', { timeout: 60_000 }, async () => {
    const pane = await server.spawn(`printf 'polled\\n'; sleep 600`);
    await server.waitForScreen(pane, (s) => s.includes('polled'));
    const { client } = open(true);
    const first = await client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId));
    expect(first.panes.map((p) => p.paneId)).toContain(pane);
    const cycle = await client.panes.pollCycle([pane], () => [pane]);
    expect(client.commandRunner).not.toBe(client.runner);
    expect(connected(client)).toBe(true);
    expect(cycle.screens.get(pane)).toContain('polled');
    // The control client tmux sees is a process of an sshd session.
    const controlClients = (await server.tmux('list-clients', '-F', '#{client_control_mode} #{client_pid}'))
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('1 '))
      .map((line) => Number(line.split(' ')[1]));
    expect(controlClients).toHaveLength(1);
    expect(sshd.processes()).toContain(controlClients[0]);
  });

  it('keeps exactly one ssh master per host, and close() ends it with no ssh process left', { timeout: 60_000 }, async () => {
    const dir = controlDir();
    const tmux = open(true, dir);
    await tmux.client.panes.listPanes();
    await Promise.all([tmux.client.panes.listPanes(), tmux.client.panes.hasServer(), tmux.client.panes.socketPath()]);
    await tmux.client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId));
    const sockets = readdirSync(dir);
    expect(sockets).toHaveLength(1);
    await execFileAsync('ssh', [...sshd.sshOptions, '-o', `ControlPath=${join(dir, '%C')}`, '-O', 'check', sshd.alias]);
    expect(masters(dir)).toHaveLength(1);
    await tmux.close();
    // `-O exit` returns once the master has agreed to end; it unlinks its socket as it exits.
    await waitUntil(() => !existsSync(join(dir, sockets[0]!)), 5_000, 'the master to remove its socket');
    await waitUntil(() => sshProcesses(dir).length === 0, 5_000, 'every ssh process to end');
    // The session processes end too: only the listener is left.
    await waitUntil(() => sshd.processes().length === 1, 5_000, 'the sshd sessions to end');
    expect(
      (await server.tmux('list-clients', '-F', '#{client_control_mode}')).split('\n').filter((mode) => mode === '1'),
    ).toEqual([]);
    await tmux.close();
  });

  it('a master that a killed corral left is ended, and its folder removed, by the next corral', { timeout: 60_000 }, async () => {
    const base = controlDir();
    const dead = join(base, '999999999'); // no such process
    const live = join(base, String(process.pid));
    mkdirSync(dead, { mode: 0o700 });
    mkdirSync(live, { mode: 0o700 });
    for (const dir of [dead, live])
      await execFileAsync('ssh', [...sshd.sshOptions, '-o', 'ControlMaster=auto', '-o', 'ControlPersist=60s', '-o', `ControlPath=${join(dir, '%C')}`, sshd.alias, 'true']);
    expect(masters(dead)).toHaveLength(1);
    removeStaleControlDirs(base, process.pid, 'ssh');
    await waitUntil(() => masters(dead).length === 0, 5_000, 'the stale master to exit');
    expect(existsSync(dead)).toBe(false);
    // A folder of a process that still runs is left alone, master and all.
    expect(masters(live)).toHaveLength(1);
    expect(readdirSync(live)).toHaveLength(1);
    await execFileAsync('ssh', ['-o', `ControlPath=${join(live, readdirSync(live)[0]!)}`, '-O', 'exit', 'x']);
  });

  it('a host whose sshd is gone fails fast with HostUnreachableError, then works again once it is back', { timeout: 90_000 }, async () => {
    const dir = controlDir();
    const { client } = open(true, dir);
    await client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId));
    expect(connected(client)).toBe(true);
    await sshd.stop();
    // The master saw its connection drop.
    await waitUntil(() => masters(dir).length === 0, 10_000, 'the master to end');
    const started = Date.now();
    const error = await client.panes.listPanes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostUnreachableError);
    expect((error as HostUnreachableError).host).toBe('box');
    expect((error as HostUnreachableError).sshMessage).toMatch(/Connection refused/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The poll, which had a live connection, fails the same way instead of hanging.
    await expect(client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId))).rejects.toBeInstanceOf(HostUnreachableError);

    await sshd.start();
    expect((await client.panes.listPanes()).length).toBeGreaterThan(0);
    await client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId));
    await client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId));
    expect(connected(client)).toBe(true);
    expect(masters(dir)).toHaveLength(1);
  });

  it('a refused key is HostAuthError with ssh’s own line', { timeout: 60_000 }, async () => {
    const { client } = open(true, controlDir(), sshd.wrongKeyAlias);
    const error = await client.panes.listPanes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostAuthError);
    expect((error as HostAuthError).sshMessage).toMatch(/Permission denied \(publickey\)/);
    expect((error as HostAuthError).message).toBe(`box: ${(error as HostAuthError).sshMessage}`);
    // A persistent poll reports it too, rather than a vague attach failure.
    await expect(client.panes.pollCycle([], (panes) => panes.map((p) => p.paneId))).rejects.toBeInstanceOf(HostAuthError);
  });

  it('a host that accepts TCP and never answers fails after ConnectTimeout, not later', { timeout: 60_000 }, async () => {
    const transport = sshTransport({
      host: sshd.host('hung', server.socket, sshd.silentAlias),
      controlDir: controlDir(),
      extraOptions: sshd.sshOptions,
      connectTimeoutS: 1,
    });
    transports.push(transport);
    const started = Date.now();
    const error = await createExecRunner(transport)(['list-panes', '-a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostUnreachableError);
    expect((error as HostUnreachableError).message).toMatch(/^hung: .*timed out/i);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('a host without tmux says so, naming the host', { timeout: 60_000 }, async () => {
    const transport = sshTransport({
      host: sshd.host('bare', server.socket),
      controlDir: controlDir(),
      extraOptions: sshd.sshOptions,
      remoteTmux: 'tmux-not-installed-here',
    });
    transports.push(transport);
    const error = await createExecRunner(transport)(['-V']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TmuxMissingError);
    expect((error as Error).message).toContain('not installed on bare');
  });
});

afterAll(() => {
  // Belt and braces: nothing of this file's masters may outlive it.
  if (sshd) rmSync(sshd.controlDir, { recursive: true, force: true });
});
