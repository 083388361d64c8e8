// What corral reads from tmux is exactly what tmux holds: generated screens (every `$` class, `\`,
// `#{`, `##`, `;`, quotes, tabs, wide, combining and right-to-left text, emoji, wrapping lines,
// blank lines at the end) printed with `cat` in real panes, with generated window names, pane
// titles, session names, folders and commands; read the way the poll reads them (a control-mode
// connection, locally and over a real sshd, listed and captured through paste buffers, in both
// poll shapes) and compared with plain `tmux capture-pane -p` / `list-panes -F` / `display -p`.
// Runs on every tmux build found (tmux-binaries.ts), with a fixed seed, the seeds that once
// failed (test/fixtures/differential-seeds.json) and, in CI, a new seed (printed).

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { escapeArg } from '../../../src/engine/tmux/command-line.js';
import { createControlRunner, type ControlRunner } from '../../../src/engine/tmux/control-runner.js';
import { createExecRunner } from '../../../src/engine/tmux/runner.js';
import { localTransport, sshTransport, type TmuxTransport } from '../../../src/engine/tmux/transport.js';
import type { PaneInfo } from '../../../src/engine/types.js';
import { DEFAULT_SEED, Rng, hostileFolderName, hostileName, longLine, screenLine, testSeed } from '../../helpers/hostile-text.js';
import { startTestSshd, type TestSshd } from '../../helpers/sshd.js';
import { tmuxBuilds } from '../../helpers/tmux-binaries.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../../src/engine/records/tmux-formats.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { realClock, realTmuxTime } from '../../helpers/real-time.js';

const run = promisify(execFile);
const WIDTH = 120;
const HEIGHT = 60;
/** Lines of generated text per pane: each one a case (the screen holds them all, wrapping included). */
const LINES_PER_PANE = 40;
const kept = JSON.parse(readFileSync(new URL('../../fixtures/differential-seeds.json', import.meta.url), 'utf8')) as { seeds: { seed: number }[] };
const seeds = [...new Set([DEFAULT_SEED, testSeed(), ...kept.seeds.map((s) => s.seed)])];
const PANES_PER_SEED = (seed: number) => (seed === DEFAULT_SEED ? 50 : 12);

const folder = mkdtempSync(join(tmpdir(), 'corral-diff-'));
let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
}, 60_000);
afterAll(async () => {
  await sshd?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

/** One pane's generated screen: LINES_PER_PANE lines, a few longer than the pane, blank ones at the end. */
function screenText(rng: Rng): string {
  const lines: string[] = [];
  while (lines.length < LINES_PER_PANE - 6) {
    lines.push(rng.int(12) === 0 ? longLine(rng, WIDTH).slice(0, WIDTH + 30) : screenLine(rng).slice(0, WIDTH - 10));
  }
  return `${lines.join('\n')}\n\n\n`;
}

interface Made {
  readonly panes: string[];
  readonly cases: number;
}

/** Sessions and panes of generated text and names on `server`. */
async function makePanes(server: TestTmux, seed: number, dir: string): Promise<Made> {
  const rng = new Rng(seed);
  const panes: string[] = [];
  let cases = 0;
  // The session is named by its id from here on: its generated name may hold anything tmux keeps.
  const sessionId = (
    await server.tmux('-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{session_id}', '-s', `s${seed}`, '-x', String(WIDTH), '-y', String(HEIGHT), 'sleep 600')
  ).trim();
  // tmux 3.3 and later expand the new name as a format first: a name whose `#{` expands to nothing
  // is refused ("invalid session"), and then goes in with each `#` written `##`.
  const name = `${hostileName(rng).replace(/[:.]/g, '_')}${seed}`;
  await server.tmux('rename-session', '-t', sessionId, name).catch(() => server.tmux('rename-session', '-t', sessionId, name.replaceAll('#', '##')));
  for (let i = 0; i < PANES_PER_SEED(seed); i++) {
    const cwd = join(dir, `${i}-${hostileFolderName(rng)}`);
    mkdirSync(cwd, { recursive: true });
    const program = join(cwd, `p${i}${hostileFolderName(rng).slice(0, 8)}`);
    symlinkSync('/bin/sleep', program);
    const file = join(dir, `screen-${seed}-${i}.txt`);
    writeFileSync(file, screenText(rng));
    cases += LINES_PER_PANE;
    const script = join(dir, `pane-${seed}-${i}.sh`);
    writeFileSync(script, `cat '${file}'\nexec '${program.replaceAll("'", `'\\''`)}' 600\n`);
    // tmux ends a command at an argument that ends in ';' (escapeArg writes it as '\;', read back as ';').
    const pane = (await server.tmux('new-window', '-d', '-t', `${sessionId}:`, '-c', escapeArg(cwd), '-P', '-F', '#{pane_id}', '/bin/sh', script)).trim();
    await server.tmux('rename-window', '-t', pane, escapeArg(hostileName(rng)));
    try {
      await server.tmux('select-pane', '-t', pane, '-T', escapeArg(rng.int(2) === 0 ? hostileName(rng) : screenLine(rng)));
    } catch {
      // tmux 3.3 refuses some titles with control characters: the default title stays.
    }
    panes.push(pane);
    cases += 5; // the window name, title, session name, folder and command
  }
  return { panes, cases };
}

const FIELDS = ['pane_id', 'session_id', 'session_name', 'window_id', 'window_name', 'pane_title', 'pane_current_path', 'pane_current_command'] as const;
const SEP = '<~diff-sep~>';
const END = '<~diff-end~>';

/** The listing as plain `tmux list-panes -a -F` prints it, by pane id. */
async function plainListing(server: TestTmux): Promise<Map<string, string[]>> {
  const { stdout } = await run(server.binary, ['-L', server.socketName, 'list-panes', '-a', '-F', FIELDS.map((f) => `#{${f}}`).join(SEP) + END], { maxBuffer: 64 << 20 });
  const out = new Map<string, string[]>();
  for (const record of stdout.split(END)) {
    const f = record.replace(/^\n/, '').split(SEP);
    if (f.length === FIELDS.length) out.set(f[0]!, f);
  }
  return out;
}

function fieldsOf(pane: PaneInfo): string[] {
  return [pane.paneId, pane.sessionId, pane.sessionName, pane.windowId, pane.windowName, pane.title, pane.cwd, pane.command];
}

/** What plain `capture-pane -p` prints for each pane (bytes read as UTF-8). */
async function plainScreens(server: TestTmux, panes: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const pane of panes) {
    const { stdout } = await run(server.binary, ['-L', server.socketName, 'capture-pane', '-p', '-t', pane], { encoding: 'buffer', maxBuffer: 64 << 20 });
    out.set(pane, stdout.toString('utf8'));
  }
  return out;
}

function clientOver(transport: TmuxTransport, server: TestTmux): { client: TmuxClient; control: ControlRunner } {
  const exec = createExecRunner(transport);
  const control = createControlRunner({ ...realTmuxTime, recordsStamp: TMUX_FORMATS.recordsStamp, socket: server.socket, exec, transport, retryMs: 0, attachTimeoutMs: 20_000 });
  return { client: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket, runner: exec, transport, pollRunner: control }), control };
}

describe.each(tmuxBuilds())('corral reads what tmux holds (tmux $version)', ({ binary, version }) => {
  let server: TestTmux;
  let panes: string[] = [];
  let cases = 0;
  let plain: Map<string, string>;
  let listing: Map<string, string[]>;

  beforeAll(async () => {
    server = await startTestTmux({ binary });
    const dir = mkdtempSync(join(folder, 'p'));
    for (const seed of seeds) {
      const made = await makePanes(server, seed, dir);
      panes.push(...made.panes);
      cases += made.cases;
    }
    // Every pane has printed its screen before anything is read: its script has run cat to the end
    // and exec'ed its program (the command is no longer sh), and two reads in a row show the same.
    await waitUntil(async () => [...(await plainListing(server)).values()].filter((f) => panes.includes(f[0]!) && f.at(-1) !== 'sh').length === panes.length, 20_000, 'every pane to run its program');
    let previous = new Map<string, string>();
    await waitUntil(async () => {
      const now = await plainScreens(server, panes);
      const same = JSON.stringify([...now]) === JSON.stringify([...previous]);
      previous = now;
      return same;
    }, 20_000, 'the screens to hold still');
    plain = previous;
    listing = await plainListing(server);
    console.log(`tmux ${version}: ${cases} cases in ${panes.length} panes, seeds ${seeds.join(', ')}`);
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
    panes = [];
  });

  /** Compares a poll's listing and screens with plain tmux; returns how many fields and screens differ. */
  function differences(got: { panes: readonly PaneInfo[]; screens: ReadonlyMap<string, string> }, seen: string): string[] {
    const wrong: string[] = [];
    for (const id of panes) {
      const pane = got.panes.find((p) => p.paneId === id);
      const want = listing.get(id);
      if (!pane || !want) wrong.push(`${seen} ${id}: not listed`);
      else if (JSON.stringify(fieldsOf(pane)) !== JSON.stringify(want)) wrong.push(`${seen} ${id}: ${JSON.stringify(fieldsOf(pane))} != ${JSON.stringify(want)}`);
      if (got.screens.get(id) !== plain.get(id)) wrong.push(`${seen} ${id} screen: ${JSON.stringify(got.screens.get(id))} != ${JSON.stringify(plain.get(id))}`);
    }
    return wrong;
  }

  it('over a local control-mode connection: listings, lookups, screens and the guard\'s capture', async () => {
    const { client, control } = clientOver(localTransport(server.socket, binary), server);
    try {
      await client.panes.pollCycle([], () => []);
      const polled = await client.panes.pollCycle(panes, () => panes);
      expect(control.connected(), 'the poll went over the control connection').toBe(true);
      const wrong = differences(polled, 'poll');
      for (const id of panes) {
        const found = await client.panes.findPane(id);
        if (JSON.stringify(found && fieldsOf(found)) !== JSON.stringify(listing.get(id))) wrong.push(`lookup ${id}`);
        if ((await client.io.screen(id)) !== plain.get(id)) wrong.push(`guard capture ${id}`);
      }
      expect(wrong.slice(0, 3), `seeds ${seeds.join(', ')}: ${wrong.length} differences in ${cases} cases`).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over ssh, in one round trip a poll and listed first then captured', async () => {
    const transport = sshTransport({
      host: sshd.host('box', server.socket),
      controlDir: mkdtempSync(join(sshd.controlDir, 'd')),
      extraOptions: sshd.sshOptions,
      remoteTmux: binary,
    });
    const { client, control } = clientOver(transport, server);
    try {
      await client.panes.pollCycle([], () => []);
      const pipelined = await client.panes.pollCycle(panes, undefined, { pipelined: panes });
      expect(control.connected()).toBe(true);
      const listed = await client.panes.pollCycle(panes, () => panes);
      const wrong = [...differences(pipelined, 'one round trip'), ...differences(listed, 'listed first')];
      expect(wrong.slice(0, 3), `seeds ${seeds.join(', ')}: ${wrong.length} differences in ${2 * cases} cases`).toEqual([]);
    } finally {
      await client.close();
      await transport.close();
    }
  }, 90_000);
});
