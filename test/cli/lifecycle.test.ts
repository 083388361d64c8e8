// The one owner of signals and the shutdown order, against a stand-in process.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLifecycle, isTerminalGone, signalExitCode } from '../../src/cli/lifecycle.js';

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    proc: Object.assign(emitter, { exit: (code: number) => void exits.push(code) }),
    exits,
    listeners: () =>
      ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection'].reduce(
        (n, event) => n + emitter.listenerCount(event),
        0,
      ),
  };
}

function sink() {
  let text = '';
  return { stream: { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream, text: () => text };
}

function goneError(code: string): Error {
  return Object.assign(new Error(`write ${code}`), { code });
}

describe('lifecycle', () => {
  it('stops, and then says nothing, when a write to the terminal fails because it is gone', async () => {
    const f = fakeProcess();
    const stdout = new EventEmitter() as unknown as NodeJS.WritableStream;
    let written = 0;
    const stderr = { write: () => ((written += 1), true) } as unknown as NodeJS.WritableStream;
    const lifecycle = createLifecycle({ process: f.proc, stderr, stdio: [stdout] });
    const stopped = lifecycle.untilStopped();
    (stdout as unknown as EventEmitter).emit('error', goneError('EIO'));
    expect(await stopped).toEqual({ kind: 'terminal-gone' });
    // Errors that follow (every repaint that fails) neither crash nor print: no loop of messages.
    f.proc.emit('uncaughtException', goneError('EPIPE'));
    f.proc.emit('uncaughtException', new Error('something else while stopping'));
    expect(lifecycle.reason).toEqual({ kind: 'terminal-gone' });
    expect(written).toBe(0);
    lifecycle.dispose();
    expect((stdout as unknown as EventEmitter).listenerCount('error')).toBe(0);
  });

  it('reads a crash whose error says the terminal is gone as that stop', async () => {
    const f = fakeProcess();
    const lifecycle = createLifecycle({ process: f.proc });
    const stopped = lifecycle.untilStopped();
    f.proc.emit('uncaughtException', goneError('EPIPE'));
    expect(await stopped).toEqual({ kind: 'terminal-gone' });
    expect(isTerminalGone(goneError('ENOENT'))).toBe(false);
    expect(isTerminalGone(new Error('EIO'))).toBe(false);
    lifecycle.dispose();
  });

  it('listens for signals only once a command waits to be stopped, and stops on the first one', async () => {
    const f = fakeProcess();
    const lifecycle = createLifecycle({ process: f.proc });
    expect(f.listeners()).toBe(0);
    const stopped = lifecycle.untilStopped();
    expect(f.listeners()).toBe(5);
    f.proc.emit('SIGTERM', 'SIGTERM');
    expect(await stopped).toEqual({ kind: 'signal', signal: 'SIGTERM' });
    expect(lifecycle.reason).toEqual({ kind: 'signal', signal: 'SIGTERM' });
    expect(f.exits).toEqual([]);
    // A second signal while stopping: out at once, with the shell's code for it, after the exit steps.
    const ran: string[] = [];
    lifecycle.atExit('folder', () => ran.push('folder'));
    lifecycle.atExit('broken', () => {
      throw new Error('no');
    });
    lifecycle.atExit('after', () => ran.push('after'));
    f.proc.emit('SIGINT', 'SIGINT');
    expect(f.exits).toEqual([130]);
    expect(ran).toEqual(['folder', 'after']);
    lifecycle.dispose();
    expect(ran).toEqual(['folder', 'after']); // once
    expect(f.listeners()).toBe(0);
  });

  it('does not take a repeated SIGHUP for "now": a closing terminal hangs up twice', async () => {
    const f = fakeProcess();
    const lifecycle = createLifecycle({ process: f.proc });
    const stopped = lifecycle.untilStopped();
    f.proc.emit('SIGHUP', 'SIGHUP');
    expect(await stopped).toEqual({ kind: 'signal', signal: 'SIGHUP' });
    f.proc.emit('SIGHUP', 'SIGHUP');
    expect(f.exits).toEqual([]);
    let ran = 0;
    lifecycle.atExit('folder', () => (ran += 1));
    await lifecycle.shutdown();
    lifecycle.dispose();
    expect(ran).toBe(1);
  });

  it('runs the shutdown steps newest first, once', async () => {
    const lifecycle = createLifecycle({ process: fakeProcess().proc });
    const order: string[] = [];
    lifecycle.onShutdown('engine', () => order.push('engine'));
    const remove = lifecycle.onShutdown('gone', () => order.push('gone'));
    lifecycle.onShutdown('servers', async () => {
      // A step that takes a while (a timer, not a promise already settled): the next one waits for it.
      await new Promise((r) => setTimeout(r, 5));
      order.push('servers');
    });
    remove();
    await Promise.all([lifecycle.shutdown(), lifecycle.shutdown()]);
    await lifecycle.shutdown();
    expect(order).toEqual(['servers', 'engine']);
  });

  it('goes on past a step that fails or hangs, and says so', async () => {
    const err = sink();
    const lifecycle = createLifecycle({ process: fakeProcess().proc, stepTimeoutMs: 20, stderr: err.stream });
    const order: string[] = [];
    lifecycle.onShutdown('first', () => order.push('first'));
    lifecycle.onShutdown('stuck thing', () => new Promise(() => {}));
    lifecycle.onShutdown('broken thing', () => {
      throw new Error('boom');
    });
    await lifecycle.shutdown();
    expect(order).toEqual(['first']);
    expect(err.text()).toContain('stopping broken thing failed: boom');
    expect(err.text()).toContain('stopping stuck thing took longer than 0.02 s; going on');
  });

  it('turns a crash into an orderly stop', async () => {
    const f = fakeProcess();
    const lifecycle = createLifecycle({ process: f.proc });
    const stopped = lifecycle.untilStopped();
    const error = new Error('unexpected');
    f.proc.emit('uncaughtException', error);
    expect(await stopped).toEqual({ kind: 'crash', error });
    lifecycle.dispose();
  });

  it('stops on request (the dashboard quits) without a signal', async () => {
    const lifecycle = createLifecycle({ process: fakeProcess().proc });
    const stopped = lifecycle.untilStopped();
    lifecycle.stop();
    expect(await stopped).toEqual({ kind: 'request' });
    lifecycle.dispose();
  });

  it('maps signals to shell exit codes', () => {
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGTERM')).toBe(143);
    expect(signalExitCode('SIGHUP')).toBe(129);
  });
});
