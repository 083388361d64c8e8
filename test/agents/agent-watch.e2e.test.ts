// `corral watch` (the built CLI) over the real agent CLIs, without their hooks: only the screen
// speaks. Every pinned agent that runs offline (Claude Code, Codex, Gemini CLI, then opencode, Qwen
// Code, Kilo Code and pi) runs against the scripted model server in one private tmux server, a group
// side by side. Each must be reported stuck (stopped) at its idle input,
// stuck (permission) at its tool dialog (Claude Code blinks a bullet over that dialog all the while),
// stuck (permission) at its question where it has one, stuck as idle (stopped) with a draft typed
// and with its own /model menu open (saying menu, never permission), and never stuck during a 60 s tool run.
//
// The CLIs come from `npm run agents:install` (scripts/agent-clis.mjs), as for the hooks test; where
// a group's CLIs are not installed its test is skipped and says so, and in CI it fails instead.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorralEvent } from '../../src/engine/types.js';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { processesWithEnv } from '../helpers/processes.js';
import { mustNotSkip } from '../helpers/skips.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { AGENTS, LONG_RUN, type AgentProfile } from '../../scripts/agents/agents.mjs';
import { startFakeModel, type FakeModel } from '../../scripts/agents/fake-model.mjs';
// @ts-expect-error: plain ESM script without types
import { agentClisDir } from '../../scripts/agent-clis.mjs';

const CLIS = (agentClisDir as () => string)();
const binPath = (bin: string) => join(CLIS, 'node_modules', '.bin', bin);
const required = mustNotSkip();

const THRESHOLD_MS = 3_000;
/** LONG_RUN prints a line a second for a minute. */
const TOOL_RUN_S = 60;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const profile = (tool: string): AgentProfile => AGENTS.find((p) => p.tool === tool)!;
type Stuck = Extract<CorralEvent, { type: 'stuck' }>;

/** What each agent shows, and the keys that answer it. */
interface Agent {
  readonly tool: 'claude-code' | 'codex' | 'gemini-cli' | 'opencode' | 'qwen-code' | 'kilo' | 'pi';
  /** Its input, idle (after its first-run dialogs). */
  readonly idle: (s: string) => boolean;
  /** First-run screens, and the keys that get past each. */
  readonly firstRun: readonly { readonly screen: RegExp; readonly keys: readonly string[] }[];
  /** Its command dialog; null for an agent that runs commands without asking (pi). */
  readonly approval: RegExp | null;
  readonly approve: readonly string[];
  /** Its question dialog, when its question tool works offline. */
  readonly question: RegExp | null;
  /** One of its own menus (a model picker, a command palette): how it opens and what it shows. */
  readonly menu: { readonly open: { readonly type: string } | { readonly keys: readonly string[] }; readonly screen: RegExp };
  /** Questions it may ask on its own in a turn (not the ones the test checks), and the keys that answer them. */
  readonly asides?: readonly { readonly screen: RegExp; readonly keys: readonly string[] }[];
  /** How long its first screen and first turn may take (opencode and Kilo Code take a minute or more on a loaded machine). */
  readonly startMs?: number;
}

/** Typed into the input and never sent. */
const DRAFT = 'a draft I have not sent yet';

/** The last `n` non-empty lines of a screen. */
const bottomLines = (screen: string, n: number) =>
  screen
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');

const CLAUDE_IDLE = (s: string) => /^❯\s*$/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(s);
const AGENT_SPECS: readonly Agent[] = [
  {
    tool: 'claude-code',
    idle: CLAUDE_IDLE,
    firstRun: [
      { screen: /Choose the text style/, keys: ['Enter'] },
      { screen: /Press Enter to continue/, keys: ['Enter'] },
      { screen: /❯\s*No, exit/, keys: ['Down', 'Enter'] },
      { screen: /trust this folder|Quick safety check/i, keys: ['Enter'] },
      { screen: /auto mode/i, keys: ['Down', 'Enter'] },
    ],
    approval: /Do you want to proceed\?/,
    approve: ['Enter'],
    question: /Which colour should the button be\?/,
    menu: { open: { type: '/model' }, screen: /Select model/ },
  },
  {
    tool: 'codex',
    idle: (s) => /Ask Codex to do anything/.test(s) && /gpt-5-codex default ·/.test(s) && !/esc to interrupt/.test(s),
    firstRun: [{ screen: /Trust this folder\?/, keys: ['Enter'] }],
    approval: /Would you like to run the following command\?/,
    approve: ['y'],
    // Codex 0.171 answers its question tool with "unavailable" outside its plan mode.
    question: null,
    menu: { open: { type: '/model' }, screen: /Select Model|enter select · esc back/i },
  },
  {
    tool: 'gemini-cli',
    // Its first-run dialogs stay drawn above the input once it restarts: only the bottom says it is idle.
    idle: (s) => /Type your message or @path\/to\/file/.test(s) && !/esc to cancel/.test(s) && !/Do you trust|How would you like to authenticate|Enter Gemini API Key/.test(bottomLines(s, 12)),
    firstRun: [{ screen: /Do you trust|authenticate|API Key/, keys: ['Enter'] }],
    approval: /Allow execution of/,
    approve: ['Enter'],
    question: /Which colour should the button be\?/,
    menu: { open: { type: '/model' }, screen: /Select Model/ },
  },
];

/** opencode and its fork Kilo Code: the same screens; their command palette is one of their own menus. */
const OPENCODE_LIKE = {
  idle: (s: string) => /ctrl\+p commands/.test(s) && !/esc interrupt/.test(s) && !/Permission required/.test(s),
  firstRun: [],
  approval: /Permission required/,
  approve: ['Enter'],
  question: /Which colour should the button be\?/,
  menu: { open: { keys: ['C-p'] }, screen: /Commands\s{3,}esc\s*$/m },
  // On a loaded machine the first turn's snapshot can take long enough for it to ask whether to go on without.
  asides: [{ screen: /Do you want to disable Snapshots for this repository\?/, keys: ['Enter'] }],
  startMs: 120_000,
} as const;

/** The agents that run offline but have no hooks corral installs. */
const MORE_SPECS: readonly Agent[] = [
  { tool: 'opencode', ...OPENCODE_LIKE },
  { tool: 'kilo', ...OPENCODE_LIKE },
  {
    tool: 'qwen-code',
    idle: (s) => /Type your message or @path\/to\/file/.test(s) && !/· esc to\b/.test(s) && !/Do you trust/.test(bottomLines(s, 12)),
    firstRun: [{ screen: /Do you trust the files in this folder\?/, keys: ['Enter'] }],
    approval: /Allow execution|Do you want to proceed\?|Waiting for user confirmation/,
    approve: ['Enter'],
    question: /Which colour should the button be\?/,
    menu: { open: { type: '/model' }, screen: /Enter to select, ↑↓ to navigate, Esc to close/ },
  },
  {
    tool: 'pi',
    // The empty editor: two rules with nothing between them, its footer below, no working line.
    idle: (s) => /^─{10,}\n(?:[ \t]*\n)?─{10,}$/m.test(s) && /%\/\d+k \(auto\)/.test(s) && !/^\s*[⠁-⣿] Working\.\.\./m.test(s),
    firstRun: [],
    approval: null,
    approve: [],
    question: null,
    menu: { open: { type: '/model' }, screen: /Only showing models from configured providers/ },
  },
];

const GROUPS = [
  { name: 'Claude Code, Codex and Gemini CLI', specs: AGENT_SPECS },
  { name: 'opencode, Kilo Code, Qwen Code and pi', specs: MORE_SPECS },
].map((group) => {
  const missing = group.specs.map((spec) => profile(spec.tool).bin).filter((bin) => !existsSync(binPath(bin)));
  if (missing.length > 0 && !required) console.warn(`agent-watch.e2e: ${group.name} skipped; no ${missing.join(', ')} in ${CLIS} (npm run agents:install)`);
  return { ...group, missing };
});
const anyToRun = required || GROUPS.some((g) => g.missing.length === 0);

describe.skipIf(!anyToRun)('corral watch over the real agent CLIs, screen only', { timeout: 420_000 }, () => {
  let tmux: TestTmux;
  let model: FakeModel;
  let watch: LiveCli;
  let work: string;
  const marker = `CORRAL_AGENT_WATCH_RUN=${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'corral-agent-watch-'));
    model = await startFakeModel();
    tmux = await startTestTmux();
    // A session that holds the server up before the agents come; corral watches every pane but its own.
    await tmux.spawn('sleep 100000');
    // One threshold for every wait (the ask threshold's default of 1 s is checked by the films and bench notice).
    watch = startCli(['watch', '-L', tmux.socketName, '--quiet-threshold', String(THRESHOLD_MS), '--ask-threshold', String(THRESHOLD_MS), '--poll-interval', '500'], cliEnv());
  });
  afterAll(async () => {
    await watch?.stop();
    await tmux?.kill();
    // Codex can leave its app-server daemon behind: end every process of this run.
    for (const pid of processesWithEnv(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const events = (): CorralEvent[] => watch.stdoutLines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as CorralEvent);
  /** Where the pane's events since its last `unstuck` begin (0 when it never was stuck). */
  const lastUnstuck = (pane: string): number => events().findLastIndex((e) => e.paneId === pane && e.type === 'unstuck') + 1;
  const stuckOf = (pane: string, from: number): Stuck[] => events().slice(from).filter((e): e is Stuck => e.type === 'stuck' && e.paneId === pane);

  async function screenUntil(pane: string, test: (s: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await tmux.capture(pane);
      if (test(s)) return s;
      if (Date.now() > deadline) throw new Error(`${pane}: timed out waiting for ${what}; screen:\n${s}`);
      await sleep(200);
    }
  }

  // The sleeps in keys() and type() are pacing for a real agent's TUI (let it draw, keys at a
  // person's speed): a time, since the agent gives no sign that it takes keys; every result is
  // awaited on the screen or as an event.
  async function keys(pane: string, ...names: readonly string[]) {
    await sleep(400);
    for (const key of names) {
      await tmux.tmux('send-keys', '-t', pane, key);
      await sleep(200);
    }
  }

  /** Like screenUntil, answering the agent's own asides (questions the test does not check) on the way. */
  async function screenAnswering(pane: string, spec: Agent, test: (s: string) => boolean, what: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await screenUntil(pane, (x) => test(x) || (spec.asides ?? []).some((a) => a.screen.test(x)), what, Math.max(1, deadline - Date.now()));
      if (test(s)) return s;
      await keys(pane, ...spec.asides!.find((a) => a.screen.test(s))!.keys);
      await screenUntil(pane, (x) => !spec.asides!.some((a) => a.screen.test(x)), 'the aside to close', 15_000);
    }
  }

  /** Types a prompt, waits until it shows (a busy UI can drop keys), then Enter. */
  async function type(pane: string, text: string) {
    const squeezed = text.replace(/\s+/g, '');
    for (let attempt = 0; attempt < 3; attempt++) {
      await sleep(300);
      await tmux.tmux('send-keys', '-t', pane, '-l', text);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && !(await tmux.capture(pane)).replace(/\s+/g, '').includes(squeezed)) await sleep(150);
      if ((await tmux.capture(pane)).replace(/\s+/g, '').includes(squeezed)) break;
      await tmux.tmux('send-keys', '-t', pane, 'C-u');
    }
    await sleep(250);
    await tmux.tmux('send-keys', '-t', pane, 'Enter');
  }

  /** The pane's first stuck event from event `from` on; on a timeout, the error shows the screen. */
  async function stuckAfter(pane: string, from: number, what: string, timeoutMs = 30_000): Promise<Stuck> {
    const deadline = Date.now() + timeoutMs;
    while (stuckOf(pane, from).length === 0) {
      if (Date.now() > deadline) throw new Error(`${pane}: no stuck event for ${what}; events: ${JSON.stringify(events().slice(from).filter((e) => e.paneId === pane))}\nscreen:\n${await tmux.capture(pane)}`);
      await sleep(100);
    }
    return stuckOf(pane, from)[0]!;
  }

  async function launch(spec: Agent): Promise<{ pane: string; outside: string }> {
    const p = profile(spec.tool);
    const home = join(work, `home-${spec.tool}`);
    const project = join(work, `project-${spec.tool}`);
    const outside = join(work, `outside-${spec.tool}`);
    for (const dir of [home, project, outside]) mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main', project]);
    execFileSync('git', ['-C', project, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start']);
    const setup = p.setup({ home, work: project, outside, model, cols: 120, rows: 40, editPath: join(project, 'notes.txt') });
    const [name, value] = marker.split('=');
    const vars = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: `${join(CLIS, 'node_modules', '.bin')}:/usr/local/bin:/usr/bin:/bin`, TERM: 'xterm-256color', [name!]: value!, ...setup.vars };
    const env = Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // Without CI: Gemini CLI reads CI=true as "run headless" and quits.
    const argv = ['env', '-u', 'CI', '-u', 'GITHUB_ACTIONS', '-u', 'CONTINUOUS_INTEGRATION', binPath(p.bin), ...setup.args];
    const pane = (await tmux.tmux('new-session', '-d', '-s', spec.tool, '-c', project, '-x', '120', '-y', '40', ...env, '-P', '-F', '#{pane_id}', ...argv)).trim();
    await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
    return { pane, outside };
  }

  /** One agent's whole walk; returns what the test checks. */
  async function walk(spec: Agent) {
    const { pane, outside } = await launch(spec);
    for (let i = 0; i < 10; i++) {
      const s = await screenUntil(pane, (x) => spec.idle(x) || spec.firstRun.some((f) => f.screen.test(x)), `${spec.tool} to start`, spec.startMs ?? 90_000);
      if (spec.idle(s)) break;
      await keys(pane, ...spec.firstRun.find((f) => f.screen.test(s))!.keys);
      await screenUntil(pane, (x) => x !== s, 'the first-run screen to move on', 15_000).catch(() => undefined);
    }
    // Idle: stuck (stopped), the threshold after it settles.
    await screenUntil(pane, spec.idle, 'the idle input');
    // From the first idle screen on (a first-run dialog left a moment may have turned stuck before).
    const idle = await stuckAfter(pane, lastUnstuck(pane), 'the idle input');
    // The tool dialog: stuck (permission), counted from the moment it shows (the turn before it may
    // hold still long enough to read as idle: opencode's first turn waits on its snapshot).
    let from: number;
    let permission: Stuck | null = null;
    let dialogScreen = '';
    const approval = spec.approval;
    if (approval) {
      const sent = events().length;
      await type(pane, `RUNCMD touch ${join(outside, 'ran.txt')}`);
      // The first turn can be slow too: opencode and Kilo Code initialise their snapshot first.
      await screenAnswering(pane, spec, (s) => approval.test(s), 'the tool dialog', spec.startMs ?? 60_000);
      from = events().length;
      if (process.env.CORRAL_AGENT_DEBUG) console.log(`--- ${spec.tool} before its dialog: ${JSON.stringify(events().slice(sent).filter((e) => e.paneId === pane))}`);
      permission = await stuckAfter(pane, from, 'the tool dialog');
      dialogScreen = await tmux.capture(pane);
      await keys(pane, ...spec.approve);
      // As slow as the first turn: opencode and Kilo Code take a snapshot of the project after a tool too.
      await screenUntil(pane, (s) => /Done: the tool finished/.test(s) && spec.idle(s), 'the answer after the tool', spec.startMs ?? 60_000);
    }
    // The question, where the agent can ask one offline.
    let question: Stuck | null = null;
    if (spec.question) {
      await type(pane, 'ASKBACK');
      await screenUntil(pane, (s) => spec.question!.test(s), 'the question');
      from = events().length;
      question = await stuckAfter(pane, from, 'the question');
      await keys(pane, 'Escape');
      // Kilo Code asks for a reason when a question is dismissed: Enter leaves it empty.
      await screenUntil(pane, spec.idle, 'the idle input after the question', 10_000).catch(async () => {
        await keys(pane, 'Enter');
        return screenUntil(pane, spec.idle, 'the idle input after the question');
      });
    }
    // A draft left unsent: the person is mid-reply, so idle (stopped), not a permission.
    from = events().length;
    await tmux.tmux('send-keys', '-t', pane, '-l', DRAFT);
    await screenUntil(pane, (s) => s.replace(/\s+/g, '').includes(DRAFT.replace(/\s+/g, '')), 'the draft');
    const draft = await stuckAfter(pane, from, 'the draft');
    from = events().length;
    await keys(pane, ...Array<string>(DRAFT.length + 4).fill('BSpace'));
    await screenUntil(pane, spec.idle, 'the idle input after the draft');
    // The idle input is seen waiting before the menu opens: on a loaded machine its verdict can
    // otherwise come after the menu shows here and before corral reads the menu.
    await stuckAfter(pane, from, 'the idle input after the draft');
    // One of its own menus: stopped, saying menu (counted from when it shows: the command typed is a draft).
    if ('type' in spec.menu.open) await type(pane, spec.menu.open.type);
    else await keys(pane, ...spec.menu.open.keys);
    await screenUntil(pane, (s) => spec.menu.screen.test(s), 'its own menu');
    from = events().length;
    const menu = await stuckAfter(pane, from, 'its own menu');
    await keys(pane, 'Escape');
    await screenUntil(pane, spec.idle, 'the idle input after the menu').catch(async () => {
      await keys(pane, 'Escape');
      return screenUntil(pane, spec.idle, 'the idle input after the menu');
    });
    // A 60 s tool run: never stuck from the approval to the answer.
    await type(pane, `RUNCMD ${LONG_RUN}`);
    // opencode and Kilo Code ask only for paths outside the project, pi never: the run may start at once.
    const started = (s: string) => /step \d+ of 60/.test(s);
    const asked = await screenUntil(pane, (s) => (approval?.test(s) ?? false) || started(s), 'the dialog or the start of the long run');
    if (approval?.test(asked)) {
      await keys(pane, ...spec.approve);
      await screenUntil(pane, (s) => !approval.test(s), 'the long run to start');
    }
    const running = events().length;
    const startedAt = Date.now();
    // The answer below the run's last step, on screen for 2 s: Qwen Code redraws its whole
    // transcript from the top now and then, and a screen read mid-redraw shows an earlier answer
    // with no step below it.
    const done = (s: string) => s.lastIndexOf('Done: the tool finished') > s.lastIndexOf('step');
    let doneSince: number | null = null;
    const finished = await screenUntil(
      pane,
      (s) => {
        doneSince = done(s) ? (doneSince ?? Date.now()) : null;
        return doneSince !== null && Date.now() - doneSince >= 2_000;
      },
      'the end of the long run',
      (TOOL_RUN_S + 60) * 1000,
    );
    const ranMs = Date.now() - startedAt;
    if (process.env.CORRAL_AGENT_DEBUG) console.log(`--- ${spec.tool} after the long run (${ranMs} ms)\n${finished}`);
    const duringRun = stuckOf(pane, running);
    return { pane, idle, permission, dialogScreen, question, draft, menu, ranMs, duringRun, finished };
  }

  for (const group of GROUPS) {
    it.skipIf(group.missing.length > 0 && !required)(`reports ${group.name} stuck at the idle input, the tool dialog, the question, a draft and their own menu, and never during a 60 s tool run`, async () => {
      if (group.missing.length > 0) throw new Error(`no ${group.missing.join(', ')} in ${CLIS}: run npm run agents:install`);
      const only = process.env.CORRAL_AGENT_WATCH_ONLY;
      const specs = group.specs.filter((spec) => !only || spec.tool === only);
      const results = await Promise.all(specs.map(async (spec) => ({ spec, result: await walk(spec) })));
      for (const { spec, result } of results) {
        expect(result.idle, spec.tool).toMatchObject({ reason: 'stopped' });
        if (spec.approval) expect(result.permission, spec.tool).toMatchObject({ reason: 'permission' });
        if (spec.question) expect(result.question, spec.tool).toMatchObject({ reason: 'permission' });
        expect(result.draft, spec.tool).toMatchObject({ reason: 'stopped' });
        expect(result.draft.message, spec.tool).not.toMatch(/^menu open/);
        expect(result.menu, spec.tool).toMatchObject({ reason: 'stopped', message: expect.stringMatching(/^menu open: /) as unknown });
        // The run took its minute (less the time the screen took to show it started), and nothing in it read as a wait.
        expect(result.ranMs, `${spec.tool}: the run ended early, on this screen:\n${result.finished}`).toBeGreaterThan((TOOL_RUN_S - 10) * 1000);
        expect(result.duringRun, spec.tool).toEqual([]);
      }
      // Claude Code's dialog animates while it waits: the screen it was stuck on has its blinking bullet.
      const claude = results.find((r) => r.spec.tool === 'claude-code')?.result;
      if (claude) expect(claude.dialogScreen).toMatch(/^\s*(?:●\s)?\s*Running the command the user asked for/m);
    });
  }
});
