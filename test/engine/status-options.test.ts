// The tmux status options: which values a host's views call for, the commands that write only what
// changed, and the writer that keeps them (scripted tmux, manual clock and timers).

import { describe, expect, it } from 'vitest';
import { desiredOptions, nextQuietAt, optionCommands, parseOptionPanes, slotKey, waitingInOrder } from '../../src/engine/records/status-options.js';
import { liveWriters, startStatusWriter, writerOption } from '../../src/engine/records/status-writer.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { TmuxRunner } from '../../src/engine/tmux/runner.js';
import type { PaneView } from '../../src/engine/types.js';
import { fakeEngine, paneView } from '../helpers/fake-engine.js';
import { ManualTime } from '../helpers/manual-time.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

const NOW = 1_000_000;
const stuck = (reason: 'permission' | 'stopped', over: Parameters<typeof paneView>[0] = {}) =>
  paneView({ state: 'stuck', reason, stuckSince: NOW - 60_000, quietSince: NOW - 90_000, ...over });
const quiet = (over: Parameters<typeof paneView>[0] = {}) => paneView({ state: 'monitoring', quietSince: NOW - 60_000, ...over });
const active = (over: Parameters<typeof paneView>[0] = {}) => paneView({ state: 'monitoring', quietSince: NOW - 1_000, ...over });
const get = (options: ReadonlyMap<string, string>, scope: string, target: string, name: string) => options.get(slotKey({ scope: scope as 'pane', target, name }));

describe('status options', () => {
  const views: PaneView[] = [
    stuck('stopped', { pane: { paneId: '%1', windowId: '@1', sessionId: '$1' } }),
    active({ pane: { paneId: '%2', windowId: '@1', sessionId: '$1' } }),
    stuck('permission', { pane: { paneId: '%3', windowId: '@2', sessionId: '$1' } }),
    stuck('permission', { acknowledged: true, pane: { paneId: '%4', windowId: '@3', sessionId: '$2' } }),
    quiet({ pane: { paneId: '%5', windowId: '@3', sessionId: '$2' } }),
    stuck('permission', { online: false, pane: { paneId: '%6', windowId: '@4', sessionId: '$3' } }),
  ];
  const options = desiredOptions(views, NOW);

  it('give each pane its state word, and a waiting pane the time it began to wait', () => {
    expect([1, 2, 3, 4, 5].map((n) => get(options, 'pane', `%${n}`, '@corral_state'))).toEqual(['stopped', 'active', 'permission', 'snoozed', 'quiet']);
    expect(get(options, 'pane', '%1', '@corral_since')).toBe(String(NOW - 60_000));
    expect(get(options, 'pane', '%4', '@corral_since')).toBe('');
    // A pane whose host is down is not told about: its last state may no longer be true.
    expect(get(options, 'pane', '%6', '@corral_state')).toBeUndefined();
  });

  it('give a window its most urgent pane, a session and the server their counts of waiting panes', () => {
    expect(['@1', '@2', '@3'].map((w) => get(options, 'window', w, '@corral_state'))).toEqual(['stopped', 'permission', 'snoozed']);
    expect([get(options, 'session', '$1', '@corral_session_waiting'), get(options, 'session', '$1', '@corral_session_waiting_reason')]).toEqual(['2', 'permission']);
    expect([get(options, 'session', '$2', '@corral_session_waiting'), get(options, 'session', '$2', '@corral_session_waiting_reason')]).toEqual(['0', '']);
    expect([get(options, 'global', '-', '@corral_waiting'), get(options, 'global', '-', '@corral_waiting_reason')]).toEqual(['2', 'permission']);
  });

  it('are written only where they changed; options of closed panes are not unset', () => {
    expect(optionCommands(options, options)).toEqual([]);
    const later = desiredOptions(views.map((v) => (v.pane.paneId === '%2' ? { ...v, quietSince: NOW - 10_000 } : v)), NOW);
    // Turned quiet: its state, and its quiet record (since when, on which screen) for the next corral.
    expect(optionCommands(options, later)).toEqual([
      ['set-option', '-q', '-p', '-t', '%2', '@corral_state', 'quiet'],
      ['set-option', '-q', '-p', '-t', '%2', '@corral_quiet', `${NOW - 10_000}.h%2`],
    ]);
    const fewer = desiredOptions(views.filter((v) => v.pane.paneId !== '%5'), NOW);
    expect(optionCommands(options, fewer, (slot) => slot.target === '%5')).toEqual([]);
    expect(optionCommands(options, fewer)).toEqual([
      ['set-option', '-q', '-u', '-p', '-t', '%5', '@corral_state'],
      ['set-option', '-q', '-u', '-p', '-t', '%5', '@corral_since'],
      ['set-option', '-q', '-u', '-p', '-t', '%5', '@corral_quiet'],
    ]);
  });

  it('know when an active pane turns quiet by time alone', () => {
    expect(nextQuietAt(views, NOW, 5_000)).toBe(NOW - 1_000 + 5_000);
    expect(nextQuietAt([quiet()], NOW, 5_000)).toBeNull();
  });

  it('read back as the waiting panes in the dashboard order, whatever else the values hold', () => {
    const read = parseOptionPanes(['%1 stopped 500', '%2 permission 900', '%3 quiet ', '%4 permission 100', '%5 x 1', 'garbage', '%6  '].join('\n'));
    expect(waitingInOrder(read).map((p) => p.paneId)).toEqual(['%4', '%2', '%1']);
  });
});

/** A tmux that keeps options and counts the commands that set them. */
function optionServer() {
  const options = new Map<string, string>();
  const commands: string[][] = [];
  const runner: TmuxRunner = async (args) => {
    const cmds: string[][] = [[]];
    for (const a of args) {
      if (a === ';') cmds.push([]);
      else cmds[cmds.length - 1]!.push(a);
    }
    let stdout = '';
    for (const cmd of cmds) {
      commands.push(cmd);
      if (cmd[0] === 'show-options') stdout += [...options].filter(([k]) => k.startsWith('g ')).map(([k, v]) => `${k.slice(2)} ${v}\n`).join('');
      if (cmd[0] !== 'set-option') continue;
      const unset = cmd.includes('-u');
      const scope = cmd.includes('-g') ? 'g' : (cmd[cmd.indexOf('-t') + 1] ?? '');
      const name = cmd.at(unset ? -1 : -2)!;
      if (unset) options.delete(`${scope} ${name}`);
      else options.set(`${scope} ${name}`, cmd.at(-1)!);
    }
    return { stdout, stderr: '', exitCode: 0 };
  };
  return { options, commands, tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'x' }, runner }) };
}

describe('status writer', () => {
  function setup(panes: PaneView[], alive: (pid: number) => boolean = () => true) {
    const time = new ManualTime(NOW);
    const server = optionServer();
    const engine = fakeEngine(panes);
    const writer = startStatusWriter({ engine, tmux: server.tmux, machine: 'box', pid: 4242, alive, clock: time, timers: time });
    return { time, server, engine, writer };
  }

  it('writes once, then nothing while nothing changes, then only the value that changed', async () => {
    const at = (paneId: string) => ({ paneId, windowId: `@${paneId.slice(1)}`, sessionId: '$0' });
    const { server, engine, writer } = setup([stuck('permission', { pane: at('%1') }), quiet({ pane: at('%2') })]);
    await writer.flush();
    expect(server.options.get('g @corral_waiting')).toBe('1');
    expect(server.options.get('g @corral_writer_box_4242')).toBe('1');
    const first = writer.writes;
    for (let i = 0; i < 5; i++) {
      engine.setPanes([...engine.getSnapshot().panes]);
      await writer.flush();
    }
    expect(writer.writes).toBe(first);
    const sent = server.commands.length;
    engine.setPanes([stuck('permission', { pane: at('%1') }), stuck('stopped', { pane: at('%2') })]);
    await writer.flush();
    expect(server.options.get('%2 @corral_state')).toBe('stopped');
    expect(server.options.get('g @corral_waiting')).toBe('2');
    // The pane's state, since and quiet record (its quiet time is another), its window's state, its
    // session's and the server's counts: nothing else.
    expect(server.commands.slice(sent).map((c) => `${c.includes('-g') ? 'g' : c[c.indexOf('-t') + 1]} ${c.at(-2)}`).sort()).toEqual(
      ['%2 @corral_quiet', '%2 @corral_since', '%2 @corral_state', '$0 @corral_session_waiting', '@2 @corral_state', 'g @corral_waiting'].sort(),
    );
    expect(writer.writes - first).toBe(6);
  });

  it('turns an active pane quiet when its time comes, with no new snapshot', async () => {
    const { time, server, writer } = setup([active({ pane: { paneId: '%1' } })]);
    await writer.flush();
    expect(server.options.get('%1 @corral_state')).toBe('active');
    await time.advance(3_999);
    expect(server.options.get('%1 @corral_state')).toBe('active');
    await time.advance(10);
    await writer.flush();
    expect(server.options.get('%1 @corral_state')).toBe('quiet');
  });

  it('removes the options when the last writer stops, and leaves them while another still writes', async () => {
    const { server, writer } = setup([stuck('permission', { pane: { paneId: '%1' } })]);
    await writer.flush();
    server.options.set(`g ${writerOption('other-box', 77)}`, '1');
    await writer.stop();
    expect(server.options.get('g @corral_waiting')).toBe('1');
    expect(server.options.has('g @corral_writer_box_4242')).toBe(false);

    // A writer of this machine that died (SIGKILL) does not count.
    const alive = (pid: number) => pid !== 99;
    const again = setup([stuck('permission', { pane: { paneId: '%1' } })], alive);
    await again.writer.flush();
    again.server.options.set(`g ${writerOption('box', 99)}`, '1');
    expect(liveWriters('@corral_writer_box_99 1\n@corral_writer_box_4242 1\n', 'box', alive, writerOption('box', 4242))).toEqual([]);
    await again.writer.stop();
    // Only the quiet record stays, for the corral that comes next.
    expect([...again.server.options.keys()].filter((k) => !k.includes('writer_box_99'))).toEqual(['%1 @corral_quiet']);
  });
});
