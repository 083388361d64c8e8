// A private tmux server for the screen recorder (`tmux -L corral-rec-<random>`, never the user's
// server): start programs in fixed-size windows, type into them with send-keys, capture their
// screens, wait for a screen to show something, and kill the server at the end.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ env: Record<string, string>, configFile: string }} options  the environment the server
 *   (and so every program it starts) gets, nothing of the caller's leaks in; and where to write
 *   the server's config file.
 */
export async function startTmux({ env, configFile }) {
  const name = `corral-rec-${randomBytes(4).toString('hex')}`;
  // Read when a server starts: the server ends with its last session, and the next spawn starts
  // a new one, which must keep dead panes too (so a program that exits leaves its last screen).
  writeFileSync(configFile, 'set-option -g remain-on-exit on\n');
  const tmux = async (...args) => (await run('tmux', ['-L', name, ...args], { env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  // Once killed, no walk still in flight may start a new server with its next session.
  let killed = false;

  return {
    name,
    tmux,
    /**
     * Starts `argv` (no shell) in a new session of cols x rows, in `cwd`, with `vars` added to the
     * server's environment. Returns the pane id.
     */
    async spawn({ session, cols, rows, cwd, vars = {}, argv }) {
      if (killed) throw new Error('the recording is ending');
      const extra = Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      const pane = (
        await tmux('-f', configFile, 'new-session', '-d', '-s', session, '-x', String(cols), '-y', String(rows), '-c', cwd, ...extra, '-P', '-F', '#{pane_id}', ...argv)
      ).trim();
      return pane;
    },
    /** Types text literally, waits a moment (full-screen programs can drop an Enter sent with the text), then Enter. */
    async type(pane, text, { enter = true } = {}) {
      await sleep(300);
      await tmux('send-keys', '-t', pane, '-l', text);
      if (enter) {
        await sleep(250);
        await tmux('send-keys', '-t', pane, 'Enter');
      }
    },
    /** Presses keys one by one; a dialog that has just been drawn may not take keys yet, so wait a moment first. */
    async keys(pane, ...keys) {
      await sleep(400);
      for (const key of keys) {
        await tmux('send-keys', '-t', pane, key);
        await sleep(150);
      }
    },
    capture: (pane) => tmux('capture-pane', '-p', '-t', pane),
    async dead(pane) {
      return (await tmux('display-message', '-p', '-t', pane, '#{pane_dead}')).trim() === '1';
    },
    /** Polls the screen until `test` holds; returns it, or null after timeoutMs. */
    async waitFor(pane, test, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const screen = await tmux('capture-pane', '-p', '-t', pane);
        if (test(screen)) return screen;
        if (Date.now() > deadline) return null;
        await sleep(150);
      }
    },
    /** Waits until two captures `quietMs` apart are the same (or timeoutMs passes); returns the last. */
    async settle(pane, quietMs = 600, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      let last = await tmux('capture-pane', '-p', '-t', pane);
      for (;;) {
        await sleep(quietMs);
        const now = await tmux('capture-pane', '-p', '-t', pane);
        if (now === last || Date.now() > deadline) return now;
        last = now;
      }
    },
    /** The server's pid (in a list, empty when no server runs). */
    async serverPid() {
      try {
        return [Number((await tmux('display-message', '-p', '#{pid}')).trim())];
      } catch {
        return [];
      }
    },
    async killSession(session) {
      try {
        await tmux('kill-session', '-t', session);
      } catch {
        // already gone
      }
    },
    async kill() {
      killed = true;
      try {
        await tmux('kill-server');
      } catch {
        // already gone
      }
      const dir = env.TMUX_TMPDIR || '/tmp';
      rmSync(`${dir}/tmux-${process.getuid?.() ?? 0}/${name}`, { force: true });
    },
  };
}
