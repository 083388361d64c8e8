// Work a pane's screen may not show: its foreground job running a command of its own. An agent
// that runs a silent command (aider's `/run sleep 20`, a tool call that prints nothing for a
// minute) can leave its screen looking idle; the process tree says otherwise. A foreground job with
// a live child process, other than the agent's long-lived helpers (MCP servers, language servers,
// watchers, started with the agent or named as such), is working, whatever the screen shows.
//
// The table is read two ways, both cheap: on this machine from /proc, only under the panes' own
// processes (a few small files per pane, no process spawned); on any machine, tmux's own shell runs
// PROCESS_TABLE_SHELL (`run-shell`, no user text in it) in the same command chain as the listing,
// and parseProcessTable reads its answer. Every field is treated as hostile: a line that is not
// the expected shape is skipped, names are only matched, never run. When a remote host is asked,
// and how its answer comes back, is poll/process-table.ts and tmux/shell-answer.ts.

import { readFileSync, realpathSync } from 'node:fs';
import { isShell } from '../pane/shells.js';
import type { PromptVerdict } from '../types.js';

/** One process as far as this signal cares. */
export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** The foreground process group of the process's terminal (-1 or 0 without one). */
  readonly tpgid: number;
  /** Seconds since the process started. */
  readonly ageS: number;
  /** Zombie: it has ended, only its exit status is left. */
  readonly ended: boolean;
  /** Its command line (or its name when that is all there is). */
  readonly args: string;
  /**
   * The script it runs with every link resolved (`/usr/bin/qwen` → `…/qwen-code/cli.js`), where
   * this machine's /proc tells it; a ps table has none.
   */
  readonly script?: string;
}

/**
 * What tmux's shell runs for the table: every process with the fields above, no header. POSIX
 * `ps` options; `etimes` (seconds) is procps' and BSD's, busybox has `etime` only (then no table).
 */
export const PROCESS_TABLE_SHELL = 'ps -A -o pid= -o ppid= -o pgid= -o tpgid= -o etimes= -o stat= -o args=';

/** At most this many rows are read from an answer (a runaway table costs no more than this). */
const MAX_ROWS = 20_000;

const ROW = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\d+)\s+(\S+)\s+(.*)$/;

/** The rows of a PROCESS_TABLE_SHELL answer; lines of any other shape are skipped. */
export function parseProcessTable(text: string): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const line of text.split('\n')) {
    if (rows.length >= MAX_ROWS) break;
    const m = ROW.exec(line);
    if (!m) continue;
    rows.push({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgid: Number(m[3]),
      tpgid: Number(m[4]),
      ageS: Number(m[5]),
      ended: m[6]!.startsWith('Z'),
      args: m[7]!.trim(),
    });
  }
  return rows;
}

/**
 * An agent's own long-lived helpers: MCP servers, language servers, file watchers, credential and
 * key agents. They run beside an idle agent, so they say nothing about work.
 */
export const HELPER =
  /\bmcp\b|mcp[-_]server|server[-_]mcp|@modelcontextprotocol\/|language[-_]?server|\blsp\b|tsserver|typingsInstaller|pyright|pylsp|jedi-language|gopls|rust-analyzer|clangd|jdtls|eslint_d|prettierd|watchman|fsmonitor|git-credential|ssh-agent|gpg-agent|keyring|\bcaffeinate\b/i;

/**
 * A child started this close (seconds) to the agent is taken for one of its helpers: agents start
 * those with themselves, and a person cannot have asked for a command that soon.
 */
export const STARTED_WITH_AGENT_S = 5;

/** The program a command line runs: its first word's base name, a login shell's `-` aside. */
function programOf(args: string): string {
  const first = args.trimStart().split(/\s/, 1)[0] ?? '';
  return first.slice(first.lastIndexOf('/') + 1);
}

/**
 * The script an interpreter runs (`node /usr/lib/gemini/cli.js` → that path), or null: the first
 * of its next three words that is a path (absolute or relative), not merely a word with a slash in
 * it (`[y/N]`).
 */
function scriptOf(args: string): string | null {
  const words = args.trim().split(/\s+/);
  for (const word of words.slice(1, 4)) if (/^(?:\/|\.\.?\/)./.test(word)) return word;
  return null;
}

/**
 * The command the pane's foreground job runs as a child, or null. `panePid` is the pane's first
 * process (tmux `#{pane_pid}`). The foreground job is the terminal's foreground process group
 * under the pane; its leader (its oldest process: the agent, or a command the shell runs) works
 * through a live descendant that is neither a helper nor started with the leader. A shell in the
 * foreground is at its prompt: its background jobs are not the pane's work.
 */
export function foregroundChildCommand(rows: readonly ProcessRow[], panePid: number): string | null {
  const byPid = new Map<number, ProcessRow>();
  const children = new Map<number, ProcessRow[]>();
  for (const row of rows) {
    byPid.set(row.pid, row);
    const list = children.get(row.ppid);
    if (list) list.push(row);
    else children.set(row.ppid, [row]);
  }
  const pane = byPid.get(panePid);
  if (pane === undefined || pane.tpgid <= 0) return null;
  // The pane's tree, and the oldest process of the foreground group in it.
  const tree: ProcessRow[] = [];
  const seen = new Set<number>();
  const stack = [pane];
  while (stack.length > 0) {
    const row = stack.pop()!;
    if (seen.has(row.pid)) continue;
    seen.add(row.pid);
    tree.push(row);
    for (const child of children.get(row.pid) ?? []) stack.push(child);
  }
  let leader: ProcessRow | null = null;
  for (const row of tree)
    if (row.pgid === pane.tpgid && !row.ended && (leader === null || row.ageS > leader.ageS)) leader = row;
  if (leader === null || isShell(programOf(leader.args))) return null;
  // The agent run again (Gemini CLI starts itself anew, with more memory, after its first-run
  // questions; Qwen Code twice, from its resolved script): a child running the leader's own
  // script, or its parent's very command line, is the agent, not a command. Under load that can
  // come well after the agent's first seconds.
  const scripts = new Set([scriptOf(leader.args), leader.script].filter((s): s is string => s !== null && s !== undefined));
  const runsAgain = (child: ProcessRow): boolean =>
    child.args.trim() === byPid.get(child.ppid)?.args.trim() ||
    (child.script !== undefined && scripts.has(child.script)) ||
    child.args.trim().split(/\s+/).some((word) => scripts.has(word));
  // Its live descendants, a helper's whole subtree left out.
  const walk = [...(children.get(leader.pid) ?? [])];
  const visited = new Set<number>([leader.pid]);
  while (walk.length > 0) {
    const child = walk.pop()!;
    if (visited.has(child.pid)) continue;
    visited.add(child.pid);
    if (HELPER.test(child.args)) continue;
    if (!child.ended && !runsAgain(child) && leader.ageS - child.ageS > STARTED_WITH_AGENT_S) return child.args;
    // A process started with the leader (a helper's launcher, `npm exec`) or the agent run again:
    // its children count only if they came later.
    walk.push(...(children.get(child.pid) ?? []));
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// This machine: /proc, read only under the panes' processes.

/** How many processes under one pane are read at most. */
const MAX_PER_PANE = 256;

function readStat(pid: number, bootTicksNow: number, ticksPerS: number): ProcessRow | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The name is in brackets and may hold anything, brackets too: the fields follow the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const state = fields[0] ?? '';
    const startTicks = Number(fields[19]);
    let args = '';
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0+$/, '').replace(/\0/g, ' ');
    } catch {
      args = '';
    }
    if (args === '') args = stat.slice(stat.indexOf('(') + 1, close);
    const script = resolvedScript(pid, args);
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      tpgid: Number(fields[5]),
      ageS: Math.max(0, Math.floor((bootTicksNow - startTicks) / ticksPerS)),
      ended: state === 'Z',
      args,
      ...(script !== null ? { script } : {}),
    };
  } catch {
    return null;
  }
}

/** The script a process runs, every link resolved (a relative path from the process's own directory). */
function resolvedScript(pid: number, args: string): string | null {
  const script = scriptOf(args);
  if (script === null) return null;
  try {
    return realpathSync(script.startsWith('/') ? script : `/proc/${pid}/cwd/${script}`);
  } catch {
    return null;
  }
}

/**
 * A process's children, as its main thread lists them: agents start commands from it (Node's
 * child_process and Python's subprocess do), and one read is cheaper than one per thread.
 */
function childPids(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1');
    const out: number[] = [];
    for (const word of text.split(' ')) if (/^\d+$/.test(word)) out.push(Number(word));
    return out;
  } catch {
    return [];
  }
}

/** Clock ticks since boot now, from /proc/uptime (USER_HZ is 100 on Linux). */
const TICKS_PER_S = 100;
function bootTicksNow(): number {
  try {
    return Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * TICKS_PER_S);
  } catch {
    return 0;
  }
}

/** The rows under one pane's first process, read from /proc (empty where /proc cannot be read). */
export function readPaneProcesses(panePid: number): ProcessRow[] {
  if (!Number.isInteger(panePid) || panePid <= 0) return [];
  const now = bootTicksNow();
  const rows: ProcessRow[] = [];
  const queue = [panePid];
  const seen = new Set<number>();
  while (queue.length > 0 && rows.length < MAX_PER_PANE) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const row = readStat(pid, now, TICKS_PER_S);
    if (row === null) continue;
    rows.push(row);
    queue.push(...childPids(pid));
  }
  return rows;
}

/** For a pane of this machine: the command its foreground job runs as a child, or null. */
export function localForegroundChild(pane: { readonly pid: number; readonly dead: boolean }): string | null {
  if (pane.dead) return null;
  return foregroundChildCommand(readPaneProcesses(pane.pid), pane.pid);
}

/**
 * A screen's verdict with the process tree's word on it: an idle-looking screen (`stopped`) of a
 * pane whose foreground job runs a child command is busy. `workOf` is asked only then, so panes
 * that show work or a question cost nothing. A permission prompt stands (the child
 * itself may ask: `rm -i`, `sudo`), and so does an agent's own menu, which a person opened.
 */
export function withProcessWork<P>(
  verdict: PromptVerdict,
  pane: P,
  workOf: ((pane: P) => string | null) | undefined,
): PromptVerdict {
  if (workOf === undefined || !verdict.prompt || verdict.reason !== 'stopped' || verdict.menu) return verdict;
  const command = workOf(pane);
  if (command === null) return verdict;
  return {
    prompt: false,
    reason: null,
    busy: true,
    tool: 'process',
    rule: 'process/foreground-child',
    line: command.slice(0, 200),
    answer: null,
  };
}
