// A fleet on this machine for the benches: N private tmux servers of M panes, the first watched
// here ("local"), every other one reached through its own sshd on a loopback port as `box-K`. Gives
// the hosts as the hosts driver takes them and as `corral dashboard` takes them (--host flags, an
// ssh wrapper that reads one config naming all the boxes). Call dispose() at the end.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './tmux-fixture.mjs';
import { startTestSshd } from './sshd.mjs';

/**
 * `program(i)`: pane i's program on every host (see startServer). Resolves once every sshd listens.
 */
export async function startFleetHosts(hosts, panes, program) {
  const servers = Array.from({ length: hosts }, () => startServer(panes, program));
  const sshds = [];
  const dir = mkdtempSync(join(tmpdir(), 'corral-fleet-'));
  try {
    for (let k = 1; k < hosts; k++) sshds.push(await startTestSshd());
  } catch (error) {
    for (const server of servers) server.kill();
    for (const sshd of sshds) await sshd.dispose();
    throw error;
  }
  const name = (k) => (k === 0 ? 'local' : `box-${k}`);
  // One ssh config naming every box: each sshd's own block for its main alias, renamed.
  const config = sshds
    .map((sshd, j) => readFileSync(sshd.configFile, 'utf8').split('\n\n')[0].replace(/^Host \S+/, `Host ${name(j + 1)}`))
    .join('\n\n');
  writeFileSync(join(dir, 'ssh_config'), `${config}\n`);
  const sshBin = join(dir, 'ssh');
  writeFileSync(sshBin, `#!/bin/sh\nexec ssh -F ${join(dir, 'ssh_config')} "$@"\n`, { mode: 0o755 });
  return {
    servers,
    sshds,
    name,
    /** The hosts as bench/lib/hosts-driver.mjs takes them. */
    driverHosts: () =>
      servers.map((server, k) =>
        k === 0
          ? { name: 'local', socketName: server.name }
          : { name: name(k), ssh: sshds[k - 1].alias, socketName: server.name, sshOptions: sshds[k - 1].sshOptions, controlDir: sshds[k - 1].controlDir },
      ),
    /** `corral dashboard` arguments and environment for the whole fleet. */
    dashboardArgs: () => ['-L', servers[0].name, ...servers.slice(1).flatMap((s, j) => ['--host', `${name(j + 1)}=${name(j + 1)},-L ${s.name}`])],
    dashboardEnv: () => [`CORRAL_SSH_BIN=${sshBin}`, `TMPDIR=${dir}`],
    async dispose() {
      for (const server of servers) server.kill();
      for (const sshd of sshds) await sshd.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
