// An agent that supervises another agent through corral's MCP server: Claude Code (pinned, offline
// against the scripted model) with `corral mcp` as its MCP server calls list_panes, wait_for and
// answer; Gemini CLI, in another pane of the same tmux server, asks for permission to run a command,
// and that dialog is answered through corral's guarded path, so the command runs. Every call is in
// corral's log with the client that made it.
//
// The CLIs come from `npm run agents:install` (which .ci/run runs); where they are missing the test
// is skipped and says so, and in CI it fails instead.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { processesWithEnv } from '../helpers/processes.js';
import { mustNotSkip } from '../helpers/skips.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { AGENTS, type AgentProfile } from '../../scripts/agents/agents.mjs';
import { startFakeModel, type FakeModel } from '../../scripts/agents/fake-model.mjs';
// @ts-expect-error: plain ESM script without types
import { agentClisDir } from '../../scripts/agent-clis.mjs';

const CLIS = (agentClisDir as () => string)();
const installed = ['claude', 'gemini'].every((bin) => existsSync(join(CLIS, 'node_modules', '.bin', bin)));
const required = mustNotSkip();
if (!installed && !required) console.warn(`mcp-supervisor.e2e: skipped; no agent CLIs in ${CLIS} (npm run agents:install)`);

const profile = (tool: string): AgentProfile => AGENTS.find((p) => p.tool === tool)!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!installed && !required)('an agent supervising another agent through corral mcp', { timeout: 240_000 }, () => {
  let tmux: TestTmux;
  let model: FakeModel;
  let work: string;
  const marker = `CORRAL_MCP_SUPERVISOR_RUN=${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    if (!installed) throw new Error(`no claude and gemini in ${CLIS}: run npm run agents:install`);
    work = mkdtempSync(join(tmpdir(), 'corral-mcp-supervisor-'));
    model = await startFakeModel();
    tmux = await startTestTmux();
  });
  afterAll(async () => {
    for (const pid of processesWithEnv(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await tmux?.kill();
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Starts an agent offline in a new window of the test server; returns its pane. */
  async function launch(tool: 'claude-code' | 'gemini-cli', extraArgs: (home: string) => string[] = () => []): Promise<string> {
    const p = profile(tool);
    const home = join(work, `home-${tool}`);
    const project = join(work, `project-${tool}`);
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'main', project]);
    const setup = p.setup({ home, work: project, outside: work, model, cols: 120, rows: 40, editPath: join(project, 'notes.txt') });
    if (tool === 'gemini-cli') writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }), { mode: 0o600 });
    const [name, value] = marker.split('=');
    const vars = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...setup.vars, [name!]: value!, PATH: `${join(CLIS, 'node_modules', '.bin')}:/usr/local/bin:/usr/bin:/bin`, TERM: 'xterm-256color' };
    const env = Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const argv = ['env', '-u', 'CI', '-u', 'GITHUB_ACTIONS', '-u', 'TMUX', '-u', 'TMUX_PANE', join(CLIS, 'node_modules', '.bin', p.bin), ...setup.args, ...extraArgs(home)];
    const pane = (await tmux.tmux('new-session', '-d', '-s', tool, '-c', project, '-x', '120', '-y', '40', ...env, '-P', '-F', '#{pane_id}', ...argv)).trim();
    await tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
    return pane;
  }

  async function screenUntil(pane: string, test: (s: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await tmux.capture(pane);
      if (test(s)) return s;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
      await sleep(150);
    }
  }

  // The sleeps in type() and firstRun() are pacing for a real agent's TUI (let it draw, keys at a
  // person's speed), not waits for a result: every result is awaited on the screen.
  async function type(pane: string, text: string) {
    await sleep(300);
    await tmux.tmux('send-keys', '-t', pane, '-l', text);
    await screenUntil(pane, (s) => s.replace(/\s+/g, '').includes(text.replace(/\s+/g, '')), `${text} in the input`, 10_000);
    await sleep(250);
    await tmux.tmux('send-keys', '-t', pane, 'Enter');
  }

  /** Answers first-run dialogs with Enter (Down first where the cursor sits on "No") until `idle`. */
  async function firstRun(pane: string, idle: (s: string) => boolean, dialogs: RegExp) {
    for (let i = 0; i < 12; i++) {
      const s = await screenUntil(pane, (x) => idle(x) || dialogs.test(x), 'the agent to start');
      if (idle(s)) return;
      const down = /❯\s*No, exit/.test(s) || (/auto mode/i.test(s) && !/trust this folder|Quick safety check/i.test(s));
      await sleep(500);
      if (down) {
        // A dialog just drawn may not take keys yet: press Down until the cursor has moved.
        for (let tries = 0; tries < 10 && (await tmux.capture(pane)) === s; tries++) {
          await tmux.tmux('send-keys', '-t', pane, 'Down');
          await sleep(400);
        }
      }
      await tmux.tmux('send-keys', '-t', pane, 'Enter');
      await screenUntil(pane, (x) => x !== s, 'the dialog to go', 10_000).catch(() => undefined);
    }
  }

  it('Claude Code waits for the Gemini CLI pane to ask, and answers it through corral', async () => {
    // The supervised agent asks to run a command outside its folder.
    const gemini = await launch('gemini-cli');
    const geminiIdle = (s: string) => /Type your message or @path\/to\/file/.test(s) && !/esc to cancel/.test(s) && !/Do you trust|authenticate|API Key/.test(s);
    await firstRun(gemini, geminiIdle, /Do you trust|authenticate|API Key/);
    const ran = join(work, 'gemini-ran.txt');
    await type(gemini, `RUNCMD touch ${ran}`);
    await screenUntil(gemini, (s) => /Allow execution of/.test(s), 'the permission dialog');

    // The supervisor: corral mcp may type into that pane only; its log goes to a file.
    const log = join(work, 'corral-mcp.log');
    const mcpArgs = [CLI, 'mcp', '-L', tmux.socketName, '--quiet-threshold', '1000', '--poll-interval', '250', '--allow-typing', gemini];
    const config = { mcpServers: { corral: { command: 'sh', args: ['-c', `exec "$0" "$@" 2>>'${log}'`, process.execPath, ...mcpArgs] } } };
    const configFile = join(work, 'mcp.json');
    writeFileSync(configFile, JSON.stringify(config));
    const claude = await launch('claude-code', () => ['--mcp-config', configFile, '--strict-mcp-config', '--allowedTools', 'mcp__corral__list_panes,mcp__corral__wait_for,mcp__corral__answer']);
    const claudeIdle = (s: string) => /^❯\s*$/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(s);
    await firstRun(claude, claudeIdle, /Choose the text style|Press Enter to continue|trust this folder|Quick safety check|auto mode|MCP server/i);
    // Claude Code connects its MCP servers in the background: ask once corral's is up.
    await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: 30_000 }).toContain('MCP server on stdio');
    // Pacing: the TUI redraws once its MCP servers are listed; type after that.
    await sleep(1_000);
    await type(claude, 'SUPERVISE');

    // The dialog is answered with its first answer, and the command runs.
    try {
      await expect.poll(() => existsSync(ran), { timeout: 90_000, interval: 250 }).toBe(true);
    } catch (error) {
      const requests = model.requests.filter((r) => r.turn).map((r) => `${r.turn!.lastUser.slice(0, 30)} tools=${r.turn!.tools.filter((t) => t.includes('corral')).join(',')} afterTool=${r.turn!.afterTool} last=${r.turn!.lastCall} -> ${JSON.stringify(r.reply).slice(0, 200)}`);
      throw new Error(`${(error as Error).message}\nsupervisor:\n${await tmux.capture(claude)}\nsupervised:\n${await tmux.capture(gemini)}\nrequests:\n${requests.join('\n')}\nlog:\n${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}`);
    }
    await screenUntil(claude, (s) => /Supervised: /.test(s), 'the supervisor to report', 60_000);
    const calls = model.requests.filter((r) => r.reply?.call).map((r) => r.reply!.call!.name);
    expect(calls).toEqual(expect.arrayContaining(['mcp__corral__list_panes', 'mcp__corral__wait_for', 'mcp__corral__answer']));
    const logged = readFileSync(log, 'utf8');
    expect(logged).toMatch(new RegExp(`corral: mcp: claude-code [\\d.]+ \\(stdio\\) answer \\{"pane":"${gemini}","option":"[^"]+","screen":"[0-9a-f]+"\\}: sent `));
    expect(logged).toMatch(/corral: mcp: claude-code [\d.]+ \(stdio\) wait_for .*: %\d+ is permission/);
  });
});
