// Names corral hands to tmux (a session's -s and the -t that finds it again, a window's -n, a
// folder's -c) are taken literally: generated hostile names, each with a format that would run a
// command (`#(touch CANARY)`) and shell syntax, start panes through the real argument builders,
// on this machine and over a real ssh, and tmux then reports every name exactly as given, and no
// canary file appears.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPane } from '../../../src/engine/launch/pane-launch.js';
import { sessionNameProblem } from '../../../src/engine/tmux/launch.js';
import { openTmux, type OpenedTmux } from '../../../src/engine/tmux/open.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';
import { startTestSshd, type TestSshd } from '../../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { realTmuxTime } from '../../helpers/real-time.js';

/** Pieces tmux or a shell would read as syntax; `CANARY` becomes a file that must never exist. */
const PIECES = [
  '#(touch CANARY)',
  '#{pane_id}',
  '#{?pane_active,a,b}',
  '#[fg=red]',
  '##[x',
  '##',
  '#',
  '#D',
  '%',
  '%Y%%',
  '$(touch CANARY)',
  '`touch CANARY`',
  '$HOME',
  '~',
  ';',
  ' ; touch CANARY ;',
  "'",
  '"',
  '\\',
  '\\;',
  ' ',
  '{',
  '}',
  '=',
  '!',
  '*',
  '&',
  '|',
  '<',
  '>',
  'é',
  '你好',
  '😀',
  'name',
  '-x',
];

function hostileName(rng: SeededRandom, canary: string, allow: (s: string) => boolean): string {
  for (;;) {
    const parts = Array.from({ length: rng.int(1, 5) }, () => rng.pick(PIECES).replaceAll('CANARY', canary));
    // Every name tries a command at least once; a trailing ';' sometimes (tmux would end the command there).
    const name = `${parts.join('')}${rng.chance(0.3) ? `#(touch ${canary})` : ''}${rng.chance(0.2) ? ';' : ''}`;
    if (allow(name)) return name;
  }
}

// Folder names hold no '/' (a path component) and nothing a file system refuses.
const folderOk = (name: string) =>
  !name.includes('/') && name !== '.' && name !== '..' && Buffer.byteLength(name) < 200;

describe('hostile names reach tmux literally', () => {
  let sshd: TestSshd;
  let server: TestTmux;
  let dir = '';
  const hosts: Array<{ label: string; opened: OpenedTmux }> = [];
  let tried = 0;

  beforeAll(async () => {
    server = await startTestTmux();
    await server.spawn('sleep 600');
    sshd = await startTestSshd();
    dir = mkdtempSync('/tmp/corral-hostile-names-');
    hosts.push({
      label: 'local',
      opened: openTmux({ name: 'local', ssh: null, socket: server.socket }, { ...realTmuxTime, formats: TMUX_FORMATS, persistent: false }),
    });
    hosts.push({
      label: 'ssh',
      opened: openTmux(sshd.host('box', server.socket, sshd.alias), { ...realTmuxTime, formats: TMUX_FORMATS,
        persistent: false,
        controlDir: mkdtempSync(join(sshd.controlDir, 'c')),
        sshOptions: sshd.sshOptions,
      }),
    });
  }, 60_000);

  afterAll(async () => {
    for (const { opened } of hosts) await opened.close();
    await server?.kill();
    await sshd?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`hostile names: ${tried} names tried\n`);
  });

  for (const seed of testSeeds(41_003)) {
    it(`starts sessions, windows and folders under generated names, read back as given (seed ${seed})`, async () => {
      const rng = new SeededRandom(seed);
      const canary = join(dir, 'canary');
      for (const [h, { label, opened }] of hosts.entries()) {
        const cases = label === 'local' ? 24 : 8;
        for (let n = 0; n < cases; n++) {
          const session = hostileName(rng, canary, (s) => sessionNameProblem(s) === null);
          const window = hostileName(rng, canary, () => true);
          // The seed in the name: a second seed in the same run must not meet the first one's folders.
          const folder = join(dir, `${seed}-${h}-${n}-${hostileName(rng, canary, folderOk)}`);
          mkdirSync(folder);
          const where = `${label}, seed ${seed} #${n}: session ${JSON.stringify(session)}, window ${JSON.stringify(window)}, folder ${JSON.stringify(folder)}`;
          // The first start makes the session (-s), the second finds it by name (-t =NAME:).
          const first = await startPane(opened.client, {
            command: 'sleep 60',
            cwd: folder,
            session: { name: session },
            name: window,
          });
          const second = await startPane(opened.client, {
            command: 'sleep 60',
            cwd: folder,
            session: { name: session },
            name: window,
          });
          expect(first.newSession, where).toBe(true);
          expect(second.newSession, where).toBe(false);
          for (const pane of [first.paneId, second.paneId]) {
            const shown = await server.tmux(
              'display-message',
              '-p',
              '-t',
              pane,
              '#{session_name}\t#{window_name}\t#{pane_start_path}',
            );
            expect(shown.replace(/\n$/, '').split('\t'), where).toEqual([session, window, folder]);
          }
          expect(await opened.client.launch.hasSession(session), where).toBe(true);
          expect(existsSync(canary), `${where}: a name ran a command`).toBe(false);
          await server.tmux(
            'kill-session',
            '-t',
            `${(await server.tmux('display-message', '-p', '-t', first.paneId, '#{session_id}')).trim()}`,
          );
          tried += 3;
        }
      }
      // No command ran anywhere, by tmux or by a shell, in any of the names.
      expect(existsSync(canary)).toBe(false);
    }, 120_000);
  }
});
