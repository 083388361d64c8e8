// What is left after corral ends: runs the built `corral` (dashboard, serve or watch) from a shell
// in a pane of a tmux "terminal" server (as a person would: the shell stays when corral is gone), watching a local tmux server and, when asked, one more over a real
// sshd, with output flowing on its control clients (a printing pane; serve has a viewer on each
// host). Then it ends corral (SIGKILL, SIGHUP, SIGTERM, its terminal pane closed, or SIGKILL after
// it hung for half a second with output piling up for it: SIGSTOP first) and counts
// what outlives it: tmux control clients, processes, ssh master folders. Linux (/proc). Used by
// `npm run bench exits` (20 rounds of everything) and by test/cli/exit-paths.e2e.test.ts.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { sshWrapper, startTestSshd } from './sshd.mjs';

const CLI = fileURLToPath(new URL('../../dist/bin/corral.js', import.meta.url));
const TOKEN = 'exit-rig-token-0123456789';
const PRINTER = 'while :; do echo "tick $RANDOM $RANDOM $RANDOM"; sleep 0.02; done';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const COMMANDS = ['dashboard', 'serve', 'watch'];
export const ENDINGS = ['SIGKILL', 'SIGHUP', 'SIGTERM', 'terminal', 'hung-SIGKILL'];

function tmux(socket, ...args) {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** 'running', 'zombie' (ended, not reaped yet) or 'gone'. */
function state(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z' ? 'zombie' : 'running';
  } catch {
    return 'gone';
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return null;
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** The child of `parent` whose command line names `program` (0: none yet). */
function childRunning(parent, program) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent && (cmdline(Number(name)) ?? '').includes(program)) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return 0;
}

/** Pids of a server's control-mode clients. */
function controlClients(socket) {
  try {
    return tmux(socket, 'list-clients', '-F', '#{client_control_mode} #{client_pid}')
      .split('\n')
      .filter((line) => line.startsWith('1 '))
      .map((line) => Number(line.slice(2)));
  } catch {
    return [];
  }
}

/** A viewer of one pane over /attach (a stream control client on that pane's server). */
function viewer(port, path) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/attach/${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe' })));
    ws.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'replay') resolve(ws);
    });
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`attach refused: HTTP ${res.statusCode}`)));
  });
}

/**
 * Starts the servers (and sshd when `remote`); `run()` then starts and ends one corral and says
 * what it left. Call dispose() at the end.
 */
export async function startExitRig({ remote = false } = {}) {
  const tag = `cx${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `${tag}-`));
  const terminal = `${tag}-term`;
  const local = `${tag}-local`;
  const far = `${tag}-far`;
  const sshd = remote ? await startTestSshd() : null;
  const env = {
    ...process.env,
    TMPDIR: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    CORRAL_TOKEN: TOKEN,
    ...(sshd ? { CORRAL_SSH_BIN: sshWrapper(sshd, dir) } : {}),
  };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const serverPids = new Set();
  const startServer = (socket) => {
    tmux(socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', PRINTER);
    serverPids.add(Number(tmux(socket, 'display-message', '-p', '#{pid}').trim()));
    return tmux(socket, 'list-panes', '-F', '#{pane_id}').trim();
  };
  tmux(terminal, '-f', '/dev/null', 'new-session', '-d', '-s', 'term', '-x', '120', '-y', '40');
  serverPids.add(Number(tmux(terminal, 'display-message', '-p', '#{pid}').trim()));
  const localPane = startServer(local);
  const farPane = sshd ? startServer(far) : null;
  const sshBase = join(dir, `corral-ssh-${process.getuid()}`);

  /** Processes of ours besides the tmux servers: supervisors, tmux and ssh clients, masters, sessions. */
  const leftovers = () => {
    const found = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || serverPids.has(Number(name)) || Number(name) === process.pid) continue;
      const line = cmdline(Number(name));
      // A tmux server's own forks (a pane on its way to exec) carry its command line: not ours.
      if (line && (line.includes(tag) || line.includes(dir)) && !line.includes('new-session -d -s')) found.push({ pid: Number(name), line });
    }
    // sshd sessions (notty) carry no tag: count what runs under the listener.
    const sessions = sshd ? sshd.processes().length - 1 : 0;
    return { processes: found, sessions };
  };
  const folders = () => (existsSync(sshBase) ? readdirSync(sshBase) : []);
  const clients = () => [...controlClients(local), ...(sshd ? controlClients(far) : [])];

  async function start(command) {
    const port = await freePort();
    const words = [
      ...Object.entries(env)
        .filter(([key]) => ['TMPDIR', 'XDG_CONFIG_HOME', 'CORRAL_TOKEN', 'CORRAL_SSH_BIN', 'PATH', 'HOME'].includes(key))
        .map(([key, value]) => `${key}=${value}`),
      process.execPath,
      CLI,
      command === 'serve' ? ['serve', '--attach'] : [command],
      '-L',
      local,
      '--port',
      String(port),
      ...(sshd ? ['--host', `${sshd.alias}=box,-L ${far}`] : []),
    ].flat();
    const quoted = words.map((w) => `'${String(w).replaceAll("'", `'\\''`)}'`).join(' ');
    // corral runs under the pane's shell, which outlives it (so the terminal stays open when corral
    // is killed, and nothing hangs up what corral left); closing the pane hangs up both.
    const [pane, shell] = tmux(terminal, 'new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', `env ${quoted}; exec sleep 1000000`).trim().split(' ');
    let pid = 0;
    await until(() => (pid = childRunning(Number(shell), CLI)) !== 0, 10_000, 'corral to start in its pane');
    const wanted = { local: command === 'serve' ? 2 : 1, far: command === 'serve' ? 2 : 1 };
    const viewers = [];
    await until(() => controlClients(local).length >= 1 && (!sshd || controlClients(far).length >= 1), 30_000, `${command} to attach its poll connections`);
    if (command === 'serve') {
      await until(async () => {
        try {
          viewers.push(await viewer(port, localPane.slice(1)));
          return true;
        } catch {
          return false;
        }
      }, 15_000, 'a viewer of the local pane');
      if (sshd) viewers.push(await viewer(port, `box/${farPane.slice(1)}`));
    }
    await until(() => controlClients(local).length >= wanted.local && (!sshd || controlClients(far).length >= wanted.far), 15_000, 'every control client');
    return { pane, pid, viewers };
  }

  return {
    tag,
    dir,
    remote: sshd !== null,
    /** Starts `command`, ends it by `ending`, and reports what was left and for how long. */
    async run(command, ending) {
      const started = await start(command);
      // What earlier runs left (a SIGKILLed corral's folder and idle master) is gone once this one runs.
      const staleAtStart = { folders: folders().filter((f) => f !== String(started.pid)), masters: leftovers().processes.filter((p) => p.line.includes('[mux]') && !p.line.includes(`/${started.pid}/`)).length };
      await sleep(300); // output keeps flowing into every control client
      const t0 = Date.now();
      if (ending === 'terminal') tmux(terminal, 'kill-pane', '-t', started.pane);
      else if (ending === 'hung-SIGKILL') {
        // A corral that stopped reading (hung, or stopped) is what people kill with -9.
        process.kill(started.pid, 'SIGSTOP');
        await sleep(500);
        process.kill(started.pid, 'SIGKILL');
      } else process.kill(started.pid, ending);
      // A process that has exited but is not reaped yet (its parent, the terminal server, waits for
      // it later) counts as ended; how often that is seen is reported.
      await until(() => state(started.pid) !== 'running', 20_000, `corral to end on ${ending}`);
      const zombie = state(started.pid) === 'zombie';
      const exitMs = Date.now() - t0;
      // Clean: no control client, and nothing of ours running but (after a SIGKILL) an idle master.
      const clean = () => {
        const { processes, sessions } = leftovers();
        const busy = processes.filter((p) => !p.line.includes('[mux]'));
        // An idle master keeps its own sshd connection; without one, no sshd session may be left.
        return clients().length === 0 && busy.length === 0 && (busy.length < processes.length || sessions === 0);
      };
      let cleanMs = null;
      try {
        await until(clean, 5_000, 'nothing left');
        cleanMs = Date.now() - t0;
      } catch {
        // reported below
      }
      for (const ws of started.viewers) ws.terminate();
      const left = leftovers();
      // The shell's turn to go (closing its pane hangs up whatever it still holds).
      if (ending !== 'terminal') tmux(terminal, 'kill-pane', '-t', started.pane);
      return {
        command,
        ending,
        exitMs,
        zombie,
        cleanMs,
        clients: clients().length,
        processes: left.processes.filter((p) => !p.line.includes('[mux]')).map((p) => p.line),
        masters: left.processes.filter((p) => p.line.includes('[mux]')).length,
        sessions: left.sessions,
        ownFolder: folders().includes(String(started.pid)),
        staleAtStart,
      };
    },
    /** What is there now, with no corral running: clients, processes, folders. */
    residue() {
      const left = leftovers();
      return { clients: clients().length, processes: left.processes.map((p) => p.line), sessions: left.sessions, folders: folders() };
    },
    /** Runs `corral ls` once: a starting corral's clean-up of what killed ones left. */
    sweep() {
      execFileSync(process.execPath, [CLI, 'ls', '-L', local, ...(sshd ? ['--host', `${sshd.alias}=box,-L ${far}`] : [])], { env, stdio: 'ignore' });
    },
    async dispose() {
      for (const socket of [terminal, local, ...(sshd ? [far] : [])]) {
        try {
          tmux(socket, 'kill-server');
        } catch {
          // gone already
        }
      }
      await sshd?.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
