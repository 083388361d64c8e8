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
import { killServer } from './tmux-fixture.mjs';

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

const isMaster = (p) => p.line.includes('[mux]');

/** The servers, the sshd and the counting; one corral at a time runs in its terminal. */
class ExitRig {
  constructor(sshd) {
    this.tag = `cx${randomBytes(3).toString('hex')}`;
    this.dir = mkdtempSync(join(tmpdir(), `${this.tag}-`));
    this.sshd = sshd;
    this.remote = sshd !== null;
    this.terminal = `${this.tag}-term`;
    this.local = `${this.tag}-local`;
    this.far = `${this.tag}-far`;
    this.env = { ...process.env, TMPDIR: this.dir, XDG_CONFIG_HOME: join(this.dir, 'config'), CORRAL_TOKEN: TOKEN };
    if (sshd) this.env.CORRAL_SSH_BIN = sshWrapper(sshd, this.dir);
    delete this.env.TMUX;
    delete this.env.TMUX_PANE;
    this.serverPids = new Set();
    this.sshBase = join(this.dir, `corral-ssh-${process.getuid()}`);
    tmux(this.terminal, '-f', '/dev/null', 'new-session', '-d', '-s', 'term', '-x', '120', '-y', '40');
    this.serverPids.add(Number(tmux(this.terminal, 'display-message', '-p', '#{pid}').trim()));
    this.localPane = this.startServer(this.local);
    this.farPane = sshd ? this.startServer(this.far) : null;
  }

  /** A watched server with one printing pane; returns the pane's id. */
  startServer(socket) {
    tmux(socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', PRINTER);
    this.serverPids.add(Number(tmux(socket, 'display-message', '-p', '#{pid}').trim()));
    return tmux(socket, 'list-panes', '-F', '#{pane_id}').trim();
  }

  hostArgs() {
    return this.sshd ? ['--host', `${this.sshd.alias}=box,-L ${this.far}`] : [];
  }

  /** Processes of ours besides the tmux servers: supervisors, tmux and ssh clients, masters; and sshd sessions. */
  leftovers() {
    const processes = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || this.serverPids.has(Number(name)) || Number(name) === process.pid) continue;
      const line = cmdline(Number(name));
      // A tmux server's own forks (a pane on its way to exec) carry its command line: not ours.
      if (line && (line.includes(this.tag) || line.includes(this.dir)) && !line.includes('new-session -d -s')) processes.push({ pid: Number(name), line });
    }
    // sshd sessions (notty) carry no tag: count what runs under the listener.
    return { processes, sessions: this.sshd ? this.sshd.processes().length - 1 : 0 };
  }

  folders() {
    return existsSync(this.sshBase) ? readdirSync(this.sshBase) : [];
  }

  clients() {
    return [...controlClients(this.local), ...(this.sshd ? controlClients(this.far) : [])];
  }

  /** Clean: no control client, and nothing of ours running but (after a SIGKILL) an idle master. */
  clean() {
    const { processes, sessions } = this.leftovers();
    const busy = processes.filter((p) => !isMaster(p));
    // An idle master keeps its own sshd connection; without one, no sshd session may be left.
    return this.clients().length === 0 && busy.length === 0 && (busy.length < processes.length || sessions === 0);
  }

  /** Starts `command` from a shell in a new terminal pane; resolves once all its clients are attached. */
  async start(command) {
    const port = await freePort();
    const passed = ['TMPDIR', 'XDG_CONFIG_HOME', 'CORRAL_TOKEN', 'CORRAL_SSH_BIN', 'PATH', 'HOME'];
    const words = [
      ...Object.entries(this.env).filter(([key]) => passed.includes(key)).map(([key, value]) => `${key}=${value}`),
      process.execPath,
      CLI,
      ...(command === 'serve' ? ['serve', '--attach'] : [command]),
      // watch serves nothing, so it takes no port.
      ...['-L', this.local, ...(command === 'watch' ? [] : ['--port', String(port)]), ...this.hostArgs()],
    ];
    const quoted = words.map((w) => `'${String(w).replaceAll("'", `'\\''`)}'`).join(' ');
    // corral runs under the pane's shell, which outlives it (so the terminal stays open when corral
    // is killed, and nothing hangs up what corral left); closing the pane hangs up both.
    const [pane, shell] = tmux(this.terminal, 'new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', `env ${quoted}; exec sleep 1000000`).trim().split(' ');
    let pid = 0;
    await until(() => (pid = childRunning(Number(shell), CLI)) !== 0, 10_000, 'corral to start in its pane');
    const attached = (n) => controlClients(this.local).length >= n && (!this.sshd || controlClients(this.far).length >= n);
    await until(() => attached(1), 30_000, `${command} to attach its poll connections`);
    const viewers = [];
    if (command === 'serve') {
      await until(
        () => viewer(port, this.localPane.slice(1)).then((ws) => viewers.push(ws), () => false),
        15_000,
        'a viewer of the local pane',
      );
      if (this.sshd) viewers.push(await viewer(port, `box/${this.farPane.slice(1)}`));
    }
    await until(() => attached(command === 'serve' ? 2 : 1), 15_000, 'every control client');
    return { pane, pid, viewers };
  }

  /** Ends corral the way named. */
  async end(started, ending) {
    if (ending === 'terminal') tmux(this.terminal, 'kill-pane', '-t', started.pane);
    else if (ending === 'hung-SIGKILL') {
      // A corral that stopped reading (hung, or stopped) is what people kill with -9.
      process.kill(started.pid, 'SIGSTOP');
      await sleep(500);
      process.kill(started.pid, 'SIGKILL');
    } else process.kill(started.pid, ending);
  }

  /** Starts `command`, ends it by `ending`, and reports what was left and for how long. */
  async run(command, ending) {
    const started = await this.start(command);
    // What earlier runs left (a SIGKILLed corral's folder and idle master) is gone once this one runs.
    const staleAtStart = {
      folders: this.folders().filter((f) => f !== String(started.pid)),
      masters: this.leftovers().processes.filter((p) => isMaster(p) && !p.line.includes(`/${started.pid}/`)).length,
    };
    await sleep(300); // output keeps flowing into every control client
    const t0 = Date.now();
    await this.end(started, ending);
    // A process that has exited but is not reaped yet (its parent waits for it later) has ended.
    await until(() => state(started.pid) !== 'running', 20_000, `corral to end on ${ending}`);
    const exitMs = Date.now() - t0;
    const cleanMs = await until(() => this.clean(), 5_000, 'nothing left').then(() => Date.now() - t0, () => null);
    for (const ws of started.viewers) ws.terminate();
    const left = this.leftovers();
    // The shell's turn to go (closing its pane hangs up whatever it still holds).
    if (ending !== 'terminal') tmux(this.terminal, 'kill-pane', '-t', started.pane);
    return {
      command,
      ending,
      exitMs,
      cleanMs,
      clients: this.clients().length,
      processes: left.processes.filter((p) => !isMaster(p)).map((p) => p.line),
      masters: left.processes.filter(isMaster).length,
      sessions: left.sessions,
      ownFolder: this.folders().includes(String(started.pid)),
      staleAtStart,
    };
  }

  /** What is there now, with no corral running: clients, processes, folders. */
  residue() {
    const left = this.leftovers();
    return { clients: this.clients().length, processes: left.processes.map((p) => p.line), sessions: left.sessions, folders: this.folders() };
  }

  /** Runs `corral ls` once: a starting corral's clean-up of what killed ones left. */
  sweep() {
    execFileSync(process.execPath, [CLI, 'ls', '-L', this.local, ...this.hostArgs()], { env: this.env, stdio: 'ignore' });
  }

  async dispose() {
    for (const socket of [this.terminal, this.local, ...(this.sshd ? [this.far] : [])]) killServer(socket);
    await this.sshd?.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Starts the servers (and sshd when `remote`); `run()` then starts and ends one corral and says
 * what it left. Call dispose() at the end.
 */
export async function startExitRig({ remote = false } = {}) {
  return new ExitRig(remote ? await startTestSshd() : null);
}
