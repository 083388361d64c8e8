// A real, throwaway OpenSSH server on 127.0.0.1 for tests of tmux over ssh: its own host key,
// user key and config in a temporary folder, running as the current user. The "remote" tmux is
// this machine's tmux, reached through sshd. Tests connect with `-F <configFile>` and an alias.
// stop() kills the server and every session it holds (the host is lost); start() brings it back
// on the same port. Fails loudly when sshd or ssh-keygen is missing. Always call dispose().

import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { processTree } from './proc.mjs';

const SSHD = '/usr/sbin/sshd';

export function requireSshd() {
  if (!existsSync(SSHD)) {
    throw new Error(`ssh tests need OpenSSH's server at ${SSHD} (apt-get install openssh-server); it was not found`);
  }
  for (const tool of ['ssh', 'ssh-keygen']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    } catch {
      throw new Error(`ssh tests need ${tool} on PATH (apt-get install openssh-client); it was not found`);
    }
  }
}


async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts the server; see sshd.d.mts for what it gives. */
export async function startTestSshd() {
  requireSshd();
  // sshd refuses to start without its privilege separation folder (the package creates it at boot).
  if (!existsSync('/run/sshd')) {
    try {
      mkdirSync('/run/sshd', { mode: 0o755 });
    } catch (error) {
      throw new Error(`ssh tests need the folder /run/sshd for sshd (create it as root): ${String(error)}`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'corral-sshd-'));
  const path = (name) => join(dir, name);
  const keygen = (file) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'corral-test', '-f', path(file)]);
  keygen('host_key');
  keygen('user_key');
  keygen('wrong_key');
  writeFileSync(path('authorized_keys'), readFileSync(path('user_key.pub')), { mode: 0o600 });
  const controlDir = path('cm');
  mkdirSync(controlDir, { mode: 0o700 });

  const port = await freePort();
  // A hung host: accepts the connection, never sends ssh's greeting.
  const sockets = new Set();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentPort = silent.address().port;

  const user = userInfo().username;
  writeFileSync(
    path('sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path('host_key')}`,
      `AuthorizedKeysFile ${path('authorized_keys')}`,
      `PidFile ${path('sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'MaxSessions 50',
      // bash sources ~/.bashrc for commands run by sshd, unless it is not the first shell level;
      // a heavy .bashrc on a test machine would then cost seconds per command.
      'SetEnv SHLVL=1',
      '',
    ].join('\n'),
  );
  const hostKey = readFileSync(path('host_key.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ');
  writeFileSync(path('known_hosts'), `[127.0.0.1]:${port} ${hostKey}\n[localhost]:${port} ${hostKey}\n`);
  const block = (alias, key, hostPort, hostName = '127.0.0.1') =>
    [
      `Host ${alias}`,
      `  HostName ${hostName}`,
      `  Port ${hostPort}`,
      `  User ${user}`,
      `  IdentityFile ${path(key)}`,
      '  IdentitiesOnly yes',
      '  IdentityAgent none',
      `  UserKnownHostsFile ${path('known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n');
  const alias = 'corral-test-host';
  // The same server under another name: ssh keeps a connection (a master) of its own for it, as
  // for a second machine.
  const otherAlias = 'corral-test-other-host';
  const wrongKeyAlias = 'corral-test-wrong-key';
  const silentAlias = 'corral-test-silent';
  const configFile = path('ssh_config');
  writeFileSync(configFile, block(alias, 'user_key', port) + block(otherAlias, 'user_key', port, 'localhost') + block(wrongKeyAlias, 'wrong_key', port) + block(silentAlias, 'user_key', silentPort));

  let child = null;
  const logFile = path('sshd.log');

  const start = async () => {
    if (child) return;
    writeFileSync(logFile, '');
    const log = openSync(logFile, 'a');
    const started = spawn(SSHD, ['-D', '-e', '-f', path('sshd_config')], { stdio: ['ignore', log, log] });
    closeSync(log);
    child = started;
    let exited = false;
    started.once('exit', () => (exited = true));
    await waitFor(
      () => exited || /Server listening on/.test(readFileSync(logFile, 'utf8')),
      // A loaded machine (the whole suite beside CPU hogs) once took more than 10 s.
      20_000,
      () => `sshd did not start within 20 s: ${readFileSync(logFile, 'utf8')}`,
    );
    if (exited) {
      child = null;
      throw new Error(`sshd exited at start: ${readFileSync(logFile, 'utf8')}`);
    }
  };

  const processes = () => (child?.pid === undefined ? [] : processTree(child.pid));

  const stop = async () => {
    const running = child;
    if (!running) return;
    child = null;
    const gone = new Promise((resolve) => {
      if (running.exitCode !== null || running.signalCode !== null) resolve();
      else running.once('exit', () => resolve());
    });
    // Sessions first, then the listener: nothing survives to answer an existing connection.
    for (const pid of processTree(running.pid).reverse()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await gone;
  };

  await start();

  return {
    dir,
    port,
    configFile,
    sshOptions: ['-F', configFile],
    alias,
    otherAlias,
    wrongKeyAlias,
    silentAlias,
    controlDir,
    host: (name, socket, via = alias) => ({ name, ssh: via, socket }),
    processes,
    stop,
    start,
    async dispose() {
      await stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A stand-in for `ssh` that reads this server's config (corral runs `$CORRAL_SSH_BIN`; users
 * have ~/.ssh/config), written into `dir`; returns its path.
 */
export function sshWrapper(sshd, dir) {
  const wrapper = join(dir, 'ssh');
  writeFileSync(wrapper, `#!/bin/sh\nexec ssh ${sshd.sshOptions.join(' ')} "$@"\n`, { mode: 0o755 });
  return wrapper;
}
