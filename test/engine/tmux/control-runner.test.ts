// The control-mode poll runner on a real private tmux server: same answers as the exec runner,
// falls back when its connection goes, and leaves no client behind.

import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createControlRunner, type ControlRunner } from '../../../src/engine/tmux/control-runner.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { createExecRunner } from '../../../src/engine/tmux/runner.js';
import { localTransport } from '../../../src/engine/tmux/transport.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { realClock, realTmuxTime } from '../../helpers/real-time.js';

let server: TestTmux;
let control: ControlRunner | null = null;

beforeEach(async () => {
  server = await startTestTmux();
});

afterEach(async () => {
  await control?.close();
  control = null;
  await server.kill();
});

function clients(): Promise<string> {
  return server.tmux('list-clients', '-F', '#{client_control_mode}').then((s) => s.trim());
}

describe('control-mode poll runner', () => {
  it('answers poll cycles like the exec runner, over one connection', async () => {
    const a = await server.spawn(`printf 'alpha; "q" #{x} %%5 \\\\ end\\n'; sleep 60`, { title: 'a;b #{t}' });
    const b = await server.spawn(`printf 'ü 🚀 second\\n'; sleep 60`);
    await server.waitForScreen(b, (s) => s.includes('second'));
    // Fixed window names: tmux's automatic rename turns "bash" into "sleep" at a moment of its own,
    // which could fall between the two polls compared here.
    await server.tmux('rename-window', '-t', a, 'win a;b');
    await server.tmux('rename-window', '-t', b, 'win b');
    const exec = createExecRunner(localTransport(server.socket));
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec, retryMs: 0 });
    const viaExec = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, nonce: 'n1' });
    const viaControl = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, pollRunner: control, nonce: 'n1' });
    const expected = await viaExec.panes.pollCycle([a, b]);
    const got = await viaControl.panes.pollCycle([a, b]);
    expect(control.connected()).toBe(true);
    expect(got.panes.map((p) => [p.paneId, p.title, p.windowName])).toEqual(expected.panes.map((p) => [p.paneId, p.title, p.windowName]));
    expect(got.panes.map((p) => p.windowName)).toEqual(['win a;b', 'win b']);
    expect(got.screens).toEqual(expected.screens);
    expect(got.screens.get(a)).toContain('alpha; "q" #{x} %5 \\ end');
    expect(await clients()).toBe('1');
  });

  it('captures chosen panes through a paste buffer, with the same screens as exec, and leaves no buffer', async () => {
    const a = await server.spawn(`printf 'back\\\\slash \\\\033 and \\\\t tab\\tend %%5 ü 🚀\\n'; sleep 60`);
    const b = await server.spawn(`printf 'second\\n\\n\\nthird\\n'; sleep 60`);
    await server.waitForScreen(a, (s) => s.includes('end'));
    await server.waitForScreen(b, (s) => s.includes('third'));
    const exec = createExecRunner(localTransport(server.socket));
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec, retryMs: 0 });
    const viaExec = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, nonce: 'n2' });
    const viaControl = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, pollRunner: control, nonce: 'n2' });
    await viaControl.panes.pollCycle([]); // connects
    const calls: string[][] = [];
    const all = (panes: readonly { paneId: string }[]) => panes.map((p) => p.paneId);
    const expected = await viaExec.panes.pollCycle([a, b]);
    const got = await viaControl.panes.pollCycle([a, b], (panes) => {
      calls.push(all(panes));
      return all(panes);
    });
    expect(control.connected()).toBe(true);
    expect(calls).toEqual([[a, b]]);
    expect(got.screens).toEqual(expected.screens);
    expect(got.screens.get(a)).toContain('back\\slash \\033 and \\t tab');
    expect(got.screens.get(a)).toContain('ü 🚀');
    expect((await server.tmux('list-buffers')).trim()).toBe('');
  });

  it('polls a full screen 300 times over the connection without growing the tmux server', async () => {
    // 50 rows of 199 characters, about 10 KB a screen: a printed capture kept by tmux (3.2 to 3.5)
    // would grow the server by 3 MB here.
    const pane = await server.spawn('for i in $(seq 1 50); do printf "%0199d" $i; done; read -r _', { width: 200, height: 50 });
    await server.waitForScreen(pane, (s) => s.includes('00050'));
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec: createExecRunner(localTransport(server.socket)), retryMs: 0 });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, pollRunner: control });
    const pid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
    const rssKb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    const everything = (panes: readonly { paneId: string }[]) => panes.map((p) => p.paneId);
    for (let i = 0; i < 20; i++) await client.panes.pollCycle([pane], everything); // warm up tmux's allocator
    const before = rssKb();
    let last = '';
    for (let i = 0; i < 300; i++) last = (await client.panes.pollCycle([pane], everything)).screens.get(pane) ?? '';
    expect(control.connected()).toBe(true);
    expect(last).toContain('0'.repeat(190));
    expect(last.split('\n').filter((line) => line.length === 200)).toHaveLength(49);
    expect(rssKb() - before).toBeLessThan(1024);
  });

  it('reports a vanished pane like exec does: the list complete, captures before it kept', async () => {
    const a = await server.spawn('echo one; sleep 60');
    const gone = await server.spawn('sleep 60');
    const c = await server.spawn('echo three; sleep 60');
    await server.waitForScreen(a, (s) => s.includes('one'));
    await server.tmux('kill-pane', '-t', gone);
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec: createExecRunner(localTransport(server.socket)), retryMs: 0 });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, pollRunner: control });
    const out = await client.panes.pollCycle([a, gone, c]);
    expect(control.connected()).toBe(true);
    expect(out.panes.map((p) => p.paneId)).toEqual([a, c]);
    expect(out.screens.get(a)).toContain('one');
    expect(out.screens.has(gone)).toBe(false);
  });

  it('keeps the screens before a pane that vanished after the listing, and leaves no buffer', async () => {
    const a = await server.spawn('echo one; sleep 60');
    const gone = await server.spawn('sleep 60');
    const c = await server.spawn('echo three; sleep 60');
    await server.waitForScreen(a, (s) => s.includes('one'));
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec: createExecRunner(localTransport(server.socket)), retryMs: 0 });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, pollRunner: control });
    await client.panes.pollCycle([]); // connects
    await server.tmux('kill-pane', '-t', gone);
    // The pane is chosen as if the listing still had it.
    const out = await client.panes.pollCycle([a, gone, c], () => [a, gone, c]);
    expect(control.connected()).toBe(true);
    expect(out.screens.get(a)).toContain('one');
    expect(out.screens.has(gone)).toBe(false);
    expect(out.screens.has(c)).toBe(false);
    expect((await server.tmux('list-buffers')).trim()).toBe('');
  });

  it('falls back to exec when its session closes, then reconnects to another one', async () => {
    const first = await server.spawn('sleep 60', { session: 'first' });
    const second = await server.spawn('sleep 60', { session: 'second' });
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec: createExecRunner(localTransport(server.socket)), retryMs: 0 });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, pollRunner: control });
    await client.panes.pollCycle([]);
    expect(control.connected()).toBe(true);
    await server.tmux('kill-session', '-t', 'first');
    let out = await client.panes.pollCycle([second]);
    for (let i = 0; i < 20 && !control.connected(); i++) out = await client.panes.pollCycle([second]);
    expect(out.panes.map((p) => p.paneId)).toEqual([second]);
    expect(out.panes.some((p) => p.paneId === first)).toBe(false);
    expect(control.connected()).toBe(true);
  });

  it('leaves no control client after close', async () => {
    await server.spawn('sleep 60');
    control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec: createExecRunner(localTransport(server.socket)), retryMs: 0 });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, pollRunner: control });
    await client.panes.pollCycle([]);
    expect(await clients()).toBe('1');
    await client.close();
    expect(await clients()).toBe('');
  });
});
