import { describe, expect, it } from 'vitest';
import { DETAILS_MS } from '../../../src/engine/tmux/pane-list.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import type { TmuxResult, TmuxRunner } from '../../../src/engine/tmux/runner.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';

interface FakePane {
  id: string;
  pid: number;
  cwd: string;
  command: string;
  title?: string;
  windowId?: string;
  activity?: number;
}

/** A scripted server that expands list-panes formats field by field, as tmux would. */
function scripted(panes: FakePane[]) {
  const formats: string[] = [];
  const runner: TmuxRunner = async (args): Promise<TmuxResult> => {
    if (args[0] !== 'list-panes') return { stdout: '', stderr: `unexpected ${args[0]}\n`, exitCode: 1 };
    const format = args[3]!;
    formats.push(format);
    const stdout = panes
      .map((p) =>
        format
          .replace('#{pane_id}', p.id)
          .replace('#{pane_pid}', String(p.pid))
          .replace('#{pane_current_path}', p.cwd)
          .replace('#{pane_current_command}', p.command)
          .replace('#{pane_title}', p.title ?? 'title')
          .replace('#{window_id}', p.windowId ?? '@1')
          .replace('#{window_activity}', String(p.activity ?? 1))
          .replace(/#\{pane_dead\}|#\{pane_in_mode\}|#\{alternate_on\}/g, '0')
          .replace(/#\{[a-z_]+\}/g, '1'),
      )
      .join('\n');
    return { stdout: `${stdout}\n`, stderr: '', exitCode: 0 };
  };
  return { runner, formats };
}

function setup(panes: FakePane[]) {
  const fake = scripted(panes);
  let now = 1_000_000;
  // A poll runner of its own stands for a control-mode connection: the client lists first.
  const pollRunner: TmuxRunner = (args, options) => fake.runner(args, options);
  const client = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: 't' }, runner: fake.runner, pollRunner, nonce: 'n', clock: { now: () => now } });
  const poll = async () => (await client.panes.pollCycle(['%1'], () => [])).panes;
  return { fake, poll, advance: (ms: number) => (now += ms) };
}

const full = (format: string) => format.includes('#{pane_current_path}') && format.includes('#{pane_current_command}');
/** Format variables that a program or a person can set (names, titles, paths, commands). */
const CHOSEN = ['pane_title', 'window_name', 'session_name', 'pane_current_path', 'pane_current_command'];

describe('poll listing over a persistent connection', () => {
  it('lists folders and commands at most DETAILS_MS apart and keeps them in between', async () => {
    const pane = { id: '%1', pid: 10, cwd: '/a', command: 'bash' };
    const { fake, poll, advance } = setup([pane]);
    expect((await poll())[0]).toMatchObject({ cwd: '/a', command: 'bash' });
    pane.cwd = '/b';
    pane.command = 'vim';
    advance(500);
    expect((await poll())[0]).toMatchObject({ cwd: '/a', command: 'bash' });
    expect(full(fake.formats.at(-1)!)).toBe(false);
    advance(DETAILS_MS - 500);
    expect((await poll())[0]).toMatchObject({ cwd: '/b', command: 'vim' });
    expect(fake.formats.map(full)).toEqual([true, false, true]);
  });

  it('lists in full at once when a pane is new or respawned', async () => {
    const panes = [{ id: '%1', pid: 10, cwd: '/a', command: 'bash' }];
    const { fake, poll, advance } = setup(panes);
    await poll();
    advance(100);
    panes.push({ id: '%2', pid: 20, cwd: '/c', command: 'top' });
    expect((await poll()).map((p) => p.cwd)).toEqual(['/a', '/c']);
    advance(100);
    panes[0] = { id: '%1', pid: 11, cwd: '/d', command: 'sh' };
    expect((await poll())[0]).toMatchObject({ cwd: '/d', command: 'sh' });
    // Brief, then in full, for each change.
    expect(fake.formats.map(full)).toEqual([true, false, true, false, true]);
  });

  it('lists in full when the clock went back', async () => {
    const pane = { id: '%1', pid: 10, cwd: '/a', command: 'bash' };
    const { fake, poll, advance } = setup([pane]);
    await poll();
    advance(-1000);
    await poll();
    expect(fake.formats.map(full)).toEqual([true, true]);
  });

  it('between full listings asks only for what tmux generates, and keeps the names and titles', async () => {
    const pane: FakePane = { id: '%1', pid: 10, cwd: '/a', command: 'bash', title: 'build' };
    const { fake, poll, advance } = setup([pane]);
    await poll();
    pane.title = 'tests';
    advance(500);
    expect((await poll())[0]).toMatchObject({ title: 'build', cwd: '/a' });
    const between = fake.formats.at(-1)!;
    for (const name of CHOSEN) expect(between).not.toContain(`#{${name}}`);
    // Nothing that could hold a space, so the records need no framing.
    expect(between).not.toContain('<~');
    advance(DETAILS_MS);
    expect((await poll())[0]).toMatchObject({ title: 'tests' });
  });

  it('lists in full at once when a pane moved to another window', async () => {
    const pane: FakePane = { id: '%1', pid: 10, cwd: '/a', command: 'bash', windowId: '@1' };
    const { fake, poll, advance } = setup([pane]);
    await poll();
    advance(100);
    pane.windowId = '@7';
    pane.cwd = '/moved';
    expect((await poll())[0]).toMatchObject({ windowId: '@7', cwd: '/moved' });
    expect(fake.formats.map(full)).toEqual([true, false, true]);
  });

  it('gives back the same PaneInfo object for a pane listed as before, a new one when it changed', async () => {
    const pane: FakePane = { id: '%1', pid: 10, cwd: '/a', command: 'bash', activity: 100 };
    const { poll, advance } = setup([pane]);
    const first = (await poll())[0];
    advance(100);
    expect((await poll())[0]).toBe(first);
    advance(100);
    pane.activity = 101;
    const printed = (await poll())[0];
    expect(printed).not.toBe(first);
    expect(printed).toMatchObject({ windowActivity: 101_000, cwd: '/a' });
    advance(DETAILS_MS);
    // A full listing that says the same keeps the object too.
    expect((await poll())[0]).toBe(printed);
  });
});
