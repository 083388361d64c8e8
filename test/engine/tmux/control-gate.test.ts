// Control clients attach and detach one at a time per tmux server: the gate alone, then real
// control clients asked for all at once on a private tmux server.
import { afterEach, describe, expect, it } from 'vitest';
import { ControlGate, controlGate } from '../../../src/engine/tmux/control-gate.js';
import { ControlClient, openControlClientCount } from '../../../src/engine/tmux/control-client.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { realTmuxTime } from '../../helpers/real-time.js';

let tmux: TestTmux | null = null;
afterEach(async () => {
  await tmux?.kill();
  tmux = null;
});

describe('ControlGate', () => {
  it('runs steps one at a time, in the order asked, and a failing step does not block the next', async () => {
    const gate = new ControlGate();
    const log: string[] = [];
    const release: Array<() => void> = [];
    const step = (name: string, fail = false) =>
      gate.run(async () => {
        log.push(`start ${name}`);
        await new Promise<void>((resolve) => release.push(resolve));
        log.push(`end ${name}`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const a = step('a', true);
    const b = step('b');
    const c = step('c');
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      expect(release).toHaveLength(i + 1);
      release[i]!();
    }
    await expect(a).rejects.toThrow('a failed');
    expect(await b).toBe('b');
    expect(await c).toBe('c');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(gate.stats()).toEqual({ passed: 3, waiting: 0, mostInside: 1 });
  });

  it('is one gate per server, whatever names the socket', () => {
    const gate = controlGate({ kind: 'name', name: 'corral-gate-x' });
    expect(controlGate({ kind: 'name', name: 'corral-gate-x' })).toBe(gate);
    expect(controlGate({ kind: 'name', name: 'corral-gate-y' })).not.toBe(gate);
  });
});

describe('control clients asked for all at once (real tmux)', () => {
  it('attach and detach one at a time: the server lives and no client is left', async () => {
    tmux = await startTestTmux();
    await tmux.spawn('bash --norc');
    const gate = controlGate(tmux.socket);
    const before = gate.stats().passed;
    // Eight clients each attaching and detaching in a loop: without the gate tmux 3.3a crashes
    // within a few rounds, when one client's detach meets another's attach.
    const churn = async () => {
      for (let round = 0; round < 10; round++) {
        const client = await ControlClient.open({ timers: realTmuxTime.timers, socket: tmux!.socket, session: 'main' });
        await client.close();
      }
    };
    await Promise.all(Array.from({ length: 8 }, churn));
    expect((await tmux.tmux('list-sessions', '-F', '#{session_name}')).trim()).toBe('main');
    expect(gate.stats().mostInside).toBe(1);
    expect(gate.stats().passed - before).toBe(160);
    expect(openControlClientCount()).toBe(0);
    expect((await tmux.tmux('list-clients')).trim()).toBe('');
  });
});
