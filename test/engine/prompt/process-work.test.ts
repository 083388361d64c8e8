// The process tree as a sign of work: generated process tables (seeded, hostile command lines)
// against what the generator put in them, and a real program in a real tmux pane (a private
// server) that looks idle while a silent child command runs.

import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HELPER,
  PROCESS_TABLE_SHELL,
  STARTED_WITH_AGENT_S,
  foregroundChildCommand,
  localForegroundChild,
  parseProcessTable,
  readPaneProcesses,
  withProcessWork,
  type ProcessRow,
} from '../../../src/engine/prompt/process-work.js';
import type { PromptVerdict } from '../../../src/engine/types.js';
import { Rng, screenLine, testSeed } from '../../helpers/hostile-text.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { waitUntil } from '../../helpers/wait-until.js';

const seed = testSeed();

/** A ps line as PROCESS_TABLE_SHELL prints it (right-aligned numbers). */
const psLine = (r: ProcessRow) =>
  `${String(r.pid).padStart(7)} ${String(r.ppid).padStart(7)} ${String(r.pgid).padStart(7)} ${String(r.tpgid).padStart(7)} ${String(r.ageS).padStart(9)} ${r.ended ? 'Z' : 'S+'}      ${r.args}`;

/** A command line with hostile pieces, never empty, never one a helper's name would match. */
function hostileArgs(rng: Rng): string {
  for (;;) {
    const args = `${rng.pick(['node', 'python3', '/usr/bin/make', 'cargo', 'sleep'])} ${screenLine(rng, 4)}`
      .replace(/[\r\n]/g, ' ')
      .trim();
    if (!HELPER.test(args)) return args;
  }
}

interface Generated {
  readonly rows: ProcessRow[];
  readonly panePid: number;
  /** What the generator put in: the command the answer must name, or null. */
  readonly expected: string | null;
}

/**
 * A pane: a shell, an agent in the foreground (its own group), helpers started with it (some named,
 * some not), helpers' children, background jobs of the shell; maybe a command the agent started
 * later (live or a zombie), maybe the shell itself in the foreground instead.
 */
function generatePane(rng: Rng, base: number): Generated {
  const shell = base;
  const agent = base + 1;
  const agentAge = 60 + rng.int(5000);
  const shellInFront = rng.int(6) === 0;
  const tpgid = shellInFront ? shell : agent;
  const rows: ProcessRow[] = [
    { pid: shell, ppid: 1, pgid: shell, tpgid, ageS: agentAge + 10, ended: false, args: '-bash' },
    { pid: agent, ppid: shell, pgid: agent, tpgid, ageS: agentAge, ended: false, args: hostileArgs(rng) },
  ];
  let next = base + 2;
  for (let i = rng.int(4); i > 0; i--) {
    const named = rng.int(2) === 0;
    const pid = next++;
    rows.push({
      pid,
      ppid: agent,
      pgid: rng.int(2) === 0 ? agent : pid,
      tpgid,
      ageS: named ? rng.int(agentAge) : agentAge - rng.int(STARTED_WITH_AGENT_S),
      ended: false,
      args: named
        ? rng.pick([
            'npx -y @modelcontextprotocol/server-filesystem /w',
            'typescript-language-server --stdio',
            'gopls serve',
            'node mcp-server.js',
          ])
        : hostileArgs(rng),
    });
    // A named helper's own children are the helper's.
    if (named && rng.int(2) === 0)
      rows.push({
        pid: next++,
        ppid: pid,
        pgid: pid,
        tpgid,
        ageS: rng.int(agentAge),
        ended: false,
        args: hostileArgs(rng),
      });
  }
  // The shell's background jobs: never the pane's work.
  for (let i = rng.int(3); i > 0; i--) {
    const pid = next++;
    rows.push({ pid, ppid: shell, pgid: pid, tpgid, ageS: rng.int(agentAge), ended: false, args: hostileArgs(rng) });
  }
  // The agent started again, later, by itself (its own script in its command line): not work.
  if (rng.int(3) === 0) {
    const script = `/opt/agent-${rng.int(100)}/cli.js`;
    rows[1] = { ...rows[1]!, args: `node ${script}` };
    rows.push({
      pid: next++,
      ppid: agent,
      pgid: agent,
      tpgid,
      ageS: rng.int(agentAge),
      ended: false,
      args: `/usr/bin/node --max-old-space-size=4096 ${script}`,
    });
  }
  let expected: string | null = null;
  if (!shellInFront && agentAge > STARTED_WITH_AGENT_S + 2 && rng.int(2) === 0) {
    const ended = rng.int(4) === 0;
    // A command that names the agent's own script (a path among its first words) is the agent
    // run again, covered above: the command here shares no path with the agent's command line.
    const agentPaths = new Set(rows[1]!.args.trim().split(/\s+/).slice(1, 4).filter((w) => /^\.{0,2}\//.test(w)));
    let args = hostileArgs(rng);
    while (args.trim().split(/\s+/).some((w) => agentPaths.has(w))) args = hostileArgs(rng);
    const wrapper = next++;
    // Run through a shell (`sh -c …`) or directly; in the agent's group or a new one.
    const age = rng.int(agentAge - STARTED_WITH_AGENT_S - 1);
    rows.push({ pid: wrapper, ppid: agent, pgid: rng.int(2) === 0 ? agent : wrapper, tpgid, ageS: age, ended, args });
    if (!ended) expected = args;
  }
  // Processes of other panes and of the system, in any order.
  for (let i = rng.int(5); i > 0; i--)
    rows.push({
      pid: next++,
      ppid: 1,
      pgid: next,
      tpgid: -1,
      ageS: rng.int(9999),
      ended: false,
      args: hostileArgs(rng),
    });
  rows.sort(() => rng.int(2) - 1);
  return { rows, panePid: shell, expected };
}

const stopped: PromptVerdict = {
  prompt: true,
  reason: 'stopped',
  busy: false,
  tool: 'generic',
  rule: 'generic/input-box',
  line: '>',
  answer: { kind: 'line', options: [] },
};

describe('process tree as a sign of work', () => {
  it(`names the command an agent runs after its start, and nothing else (seed ${seed})`, () => {
    const rng = new Rng(seed);
    let withWork = 0;
    for (let n = 0; n < 400; n++) {
      const pane = generatePane(rng, 1000 + n * 100);
      expect(foregroundChildCommand(pane.rows, pane.panePid), JSON.stringify(pane)).toBe(pane.expected);
      // What ps prints reads back as the same table (one line per process, hostile text and all).
      const text = pane.rows.map(psLine).join('\n');
      const read = parseProcessTable(text);
      expect(read.length).toBe(pane.rows.length);
      expect(foregroundChildCommand(read, pane.panePid)).toBe(pane.expected);
      if (pane.expected !== null) withWork++;
    }
    expect(withWork).toBeGreaterThan(50);
  });

  it('takes an agent that runs itself again late, from its resolved script or with its parent\'s command line, for the agent', () => {
    // Qwen Code as installed: a link in .bin, run again from the file it links to, then again with
    // the same command line; on a loaded machine both come well after the agent's first seconds.
    const cli = '/n/node_modules/@qwen-code/qwen-code/cli.js';
    const rows: ProcessRow[] = [
      { pid: 10, ppid: 1, pgid: 10, tpgid: 20, ageS: 100, ended: false, args: '-bash' },
      { pid: 20, ppid: 10, pgid: 20, tpgid: 20, ageS: 90, ended: false, args: 'node /n/node_modules/.bin/qwen', script: cli },
      { pid: 21, ppid: 20, pgid: 20, tpgid: 20, ageS: 80, ended: false, args: `/usr/bin/node --expose-gc ${cli}`, script: cli },
      { pid: 22, ppid: 21, pgid: 20, tpgid: 20, ageS: 79, ended: false, args: `/usr/bin/node --expose-gc ${cli}`, script: cli },
    ];
    expect(foregroundChildCommand(rows, 10)).toBeNull();
    // A ps table knows no resolved script: the first run-again reads as a command, the second as itself.
    const plain = rows.map(({ script: _script, ...row }) => row);
    expect(foregroundChildCommand(plain, 10)).toBe(`/usr/bin/node --expose-gc ${cli}`);
    expect(foregroundChildCommand([...plain.slice(0, 2), { ...plain[2]!, ageS: 88 }, plain[3]!], 10)).toBeNull();
    // A command the agent runs later is still its work, and so is one under the agent run again.
    const tool = { pid: 30, ppid: 22, pgid: 20, tpgid: 20, ageS: 3, ended: false, args: 'npm test' };
    expect(foregroundChildCommand([...rows, tool], 10)).toBe('npm test');
  });

  it('skips what is not a process line, and reads no more than its limit', () => {
    const text = ['  PID  PPID', 'garbage', '', '12 1 12 12 5 S sleep 5', '  x 1 2 3 4 S y', '13 12 12 12 x S z'].join(
      '\n',
    );
    expect(parseProcessTable(text)).toEqual([
      { pid: 12, ppid: 1, pgid: 12, tpgid: 12, ageS: 5, ended: false, args: 'sleep 5' },
    ]);
    const huge = Array.from({ length: 30_000 }, (_, i) => `${i + 1} 1 1 1 1 S a`).join('\n');
    expect(parseProcessTable(huge).length).toBe(20_000);
    expect(PROCESS_TABLE_SHELL).not.toMatch(/[;&|`$<>]/);
  });

  it('turns an idle-looking verdict busy, and leaves questions, menus and work as they are', () => {
    const runs = () => 'sleep 20';
    expect(withProcessWork(stopped, {}, runs)).toMatchObject({
      prompt: false,
      busy: true,
      rule: 'process/foreground-child',
      line: 'sleep 20',
    });
    expect(withProcessWork(stopped, {}, () => null)).toBe(stopped);
    expect(withProcessWork(stopped, {}, undefined)).toBe(stopped);
    const permission: PromptVerdict = { ...stopped, reason: 'permission' };
    expect(withProcessWork(permission, {}, runs)).toBe(permission);
    const menu: PromptVerdict = { ...stopped, menu: true };
    expect(withProcessWork(menu, {}, runs)).toBe(menu);
    let asked = 0;
    const busy: PromptVerdict = { ...stopped, prompt: false, reason: null, busy: true };
    withProcessWork(busy, {}, () => {
      asked++;
      return 'x';
    });
    expect(asked).toBe(0);
  });
});

describe('process tree of a real pane', () => {
  let server: TestTmux;
  beforeAll(async () => {
    server = await startTestTmux();
  });
  afterAll(async () => {
    await server.kill();
  });

  it('sees a silent command under an idle-looking program, and sees it end', async () => {
    // A stand-in agent: draws a rule and a `>` prompt; on "run" it starts a silent child and
    // draws its prompt again at once, as an agent that runs a tool without output does.
    const agent = [
      'import subprocess, sys',
      'procs = []',
      'while True:',
      '    sys.stdout.write("-" * 40 + "\\n> ")',
      '    sys.stdout.flush()',
      '    line = sys.stdin.readline()',
      '    if not line: break',
      '    if line.strip() == "run": procs.append(subprocess.Popen(["sleep", "4"]))',
    ].join('\n');
    const pane = await server.spawn(`python3 -c '${agent}'`);
    await server.waitForScreen(pane, (s) => /^>\s*$/m.test(s), 10_000);
    const pid = Number((await server.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
    // The pane's own process is the program (bash runs a lone command in its place), in the foreground.
    const [own] = readPaneProcesses(pid);
    expect(own).toMatchObject({ pid, pgid: pid, tpgid: pid, ended: false });
    expect(own!.args).toMatch(/python3/);
    expect(localForegroundChild({ pid, dead: false })).toBeNull();
    // A command asked for later than the agent's own start-up.
    await new Promise((r) => setTimeout(r, (STARTED_WITH_AGENT_S + 1) * 1000));
    await server.tmux('send-keys', '-t', pane, 'run', 'Enter');
    // Named once it runs `sleep` (for a moment after the fork it is a copy of the agent, started
    // just now, so work as well).
    await waitUntil(() => localForegroundChild({ pid, dead: false }) === 'sleep 4', 5000, 'the child command');
    // Once it has ended (a zombie the agent has not reaped counts as ended), the pane is idle again.
    await waitUntil(() => localForegroundChild({ pid, dead: false }) === null, 10_000, 'the child to end');
  }, 30_000);

  it('takes a program that runs itself again late, through a link to its script, for the program', async () => {
    // A stand-in for an agent installed as a link: run by the link, it starts itself again by its
    // resolved path after its own start-up window, and waits at a prompt.
    const dir = mkdtempSync(join(tmpdir(), 'corral-run-again-'));
    try {
      const real = join(dir, 'real.py');
      writeFileSync(
        real,
        [
          'import os, subprocess, sys, time',
          'if os.environ.get("AGAIN"):',
          '    sys.stdout.write("> "); sys.stdout.flush(); sys.stdin.readline()',
          'else:',
          `    time.sleep(${STARTED_WITH_AGENT_S + 1})`,
          '    subprocess.run([sys.executable, os.path.realpath(__file__)], env={**os.environ, "AGAIN": "1"})',
        ].join('\n'),
      );
      symlinkSync(real, join(dir, 'agent'));
      const pane = await server.spawn(`python3 ${join(dir, 'agent')}`);
      await server.waitForScreen(pane, (s) => /^>\s*$/m.test(s), 20_000);
      const pid = Number((await server.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
      const rows = readPaneProcesses(pid);
      expect(rows.find((r) => r.pid === pid)?.script).toBe(realpathSync(real));
      expect(rows.some((r) => r.pid !== pid && r.args.includes(realpathSync(real)))).toBe(true);
      expect(localForegroundChild({ pid, dead: false })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
