// Hooks from the real agent CLIs: Claude Code, Codex and Gemini CLI, pinned, run offline against the scripted
// model server (scripts/agents/fake-model.mjs) in a private tmux server, with their hooks installed by
// `corral hooks install`. corral must receive their real hook calls: a permission request (the pane
// stuck at once), the approval, then Stop. And every other corral on the server must tell the same
// state while the dialog is open: `corral ls --json`, a running `corral watch` and the events it
// posts to --daemon-url, and a running dashboard. Claude Code's hooks are installed by a copy of
// this checkout that then moves away, with the packed tarball's corral on the agent's PATH: the
// hooks name corral's launcher, never a checkout, and still reach corral.
//
// The CLIs (about 660 MB) come from `npm run agents:install` (scripts/agent-clis.mjs), which .ci/run
// runs; the test finds them in its folder (or CORRAL_AGENT_CLIS). Where they are not installed it is
// skipped and says so; in CI it fails loudly instead.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorralEvent } from '../../src/engine/types.js';
import { CLI, cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { shellQuote } from '../helpers/corral-shim.js';
import { HOOK_TOKEN, startHookHarness, type HookHarness } from '../helpers/hook-harness.js';
import { processesWithEnv } from '../helpers/processes.js';
import { mustNotSkip } from '../helpers/skips.js';
import { AGENTS, type AgentProfile } from '../../scripts/agents/agents.mjs';
import { startFakeModel, type FakeModel } from '../../scripts/agents/fake-model.mjs';
// @ts-expect-error: plain ESM script without types
import { agentClisDir } from '../../scripts/agent-clis.mjs';

const CLIS = (agentClisDir as () => string)();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const installed = ['claude', 'codex', 'gemini'].every((bin) => existsSync(join(CLIS, 'node_modules', '.bin', bin)));
// In CI (which installs the CLIs) a missing CLI fails the test; elsewhere the test says why it skips.
const required = mustNotSkip();
if (!installed && !required) console.warn(`agent-hooks.e2e: skipped; no agent CLIs in ${CLIS} (npm run agents:install)`);

const profile = (tool: string): AgentProfile => AGENTS.find((p) => p.tool === tool)!;

/** The PATH an agent runs with: `first` (when given), the agent CLIs, the system. */
const agentPath = (first?: string) => [...(first ? [first] : []), join(CLIS, 'node_modules', '.bin'), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!installed && !required)('hooks from the real agent CLIs', { timeout: 180_000 }, () => {
  let h: HookHarness;
  let model: FakeModel;
  let work: string;
  const marker = `CORRAL_AGENT_HOOKS_RUN=${process.pid}-${Date.now()}`;
  // The other corral processes on the same tmux server, which hear the hooks through the pane records.
  let watch: LiveCli;
  let daemon: Server;
  const posted: CorralEvent[] = [];
  let dashboard = '';
  const followers = () => ['-L', h.tmux.socketName, '--quiet-threshold', '600000', '--poll-interval', '200'];

  beforeAll(async () => {
    if (!installed) throw new Error(`no claude, codex and gemini in ${CLIS}: run npm run agents:install`);
    work = mkdtempSync(join(tmpdir(), 'corral-agent-hooks-'));
    model = await startFakeModel();
    h = await startHookHarness({ quietThresholdMs: '600000' });
    daemon = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        posted.push(JSON.parse(body) as CorralEvent);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
    watch = startCli(['watch', ...followers(), '--daemon-url', `http://127.0.0.1:${(daemon.address() as { port: number }).port}/events`]);
    dashboard = (await h.tmux.tmux('new-session', '-d', '-s', 'corral-dashboard', '-x', '160', '-y', '40', '-P', '-F', '#{pane_id}', `${shellQuote(process.execPath)} ${shellQuote(CLI)} dashboard ${followers().map(shellQuote).join(' ')} --no-hooks; sleep 600`)).trim();
    await h.tmux.waitForScreen(dashboard, (s) => s.includes('corral ·'), 15_000);
  });
  afterAll(async () => {
    await watch?.stop();
    await new Promise((resolve) => daemon?.close(resolve));
    // Codex leaves its hook daemon running for a while: end every process of this run.
    for (const pid of processesWithEnv(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await h?.close();
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /**
   * Starts an agent in a new tmux window with its hooks installed by `corral hooks install` (run by
   * `installer`, this checkout's corral by default; `path` goes first on the agent's PATH); returns its pane.
   */
  async function launch(
    tool: 'claude-code' | 'codex' | 'gemini-cli',
    options: { installer?: string; path?: string; beforeStart?: () => void } = {},
  ): Promise<{ pane: string; home: string; project: string; outside: string; log: () => string }> {
    const p = profile(tool);
    const home = join(work, `home-${tool}`);
    const project = join(work, `project-${tool}`);
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    // A git repository: Codex asks before running commands outside a folder it trusts as a project.
    const git = (...args: string[]) => execFileSync('git', ['-C', project, '-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { stdio: 'pipe' });
    execFileSync('git', ['init', '-q', '-b', 'main', project]);
    git('commit', '-q', '--allow-empty', '-m', 'start');
    const outside = join(work, `outside-${tool}`);
    mkdirSync(outside, { recursive: true });
    const setup = p.setup({ home, work: project, outside, model, cols: 120, rows: 40, editPath: join(project, 'notes.txt') });
    // Gemini CLI drops every hook for the whole session when the folder is not trusted at the moment
    // its hook registry starts; trusting the folder in its first-run dialog is too late when that
    // dialog is drawn after (it is, on a busy machine). Users trust their folder once; so does this.
    if (tool === 'gemini-cli') {
      writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }), { mode: 0o600 });
    }
    const vars: Record<string, string> = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      CORRAL_HOOK_URL: `http://127.0.0.1:${h.port}`,
      CORRAL_TOKEN: HOOK_TOKEN,
      CORRAL_HOOK_LOG: join(work, `${tool}-hooks.log`),
      ...setup.vars,
    };
    const installEnv = { ...process.env, ...vars };
    delete installEnv.TMUX;
    execFileSync(process.execPath, [options.installer ?? CLI, 'hooks', 'install', '--agent', tool], { env: installEnv, stdio: 'pipe' });
    options.beforeStart?.();
    const [name, value] = marker.split('=');
    const env = Object.entries({ ...vars, [name!]: value!, TERM: 'xterm-256color' }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // Without CI in its environment: Gemini CLI reads CI=true (which CI sets for this suite) as
    // "run headless" and quits at once instead of drawing its UI. PATH is set here too: tmux gives a
    // new session the PATH of the client that asked for it, whatever `-e PATH=` says.
    const argv = ['env', '-u', 'CI', '-u', 'GITHUB_ACTIONS', '-u', 'CONTINUOUS_INTEGRATION', `PATH=${agentPath(options.path)}`, join(CLIS, 'node_modules', '.bin', p.bin), ...setup.args];
    const pane = (await h.tmux.tmux('new-session', '-d', '-s', tool, '-c', project, '-x', '120', '-y', '40', ...env, '-P', '-F', '#{pane_id}', ...argv)).trim();
    // An agent that quits keeps its last screen, so a failure shows why.
    await h.tmux.tmux('set-option', '-p', '-t', pane, 'remain-on-exit', 'on');
    await h.engine.pollNow();
    const log = () => (existsSync(vars.CORRAL_HOOK_LOG!) ? readFileSync(vars.CORRAL_HOOK_LOG!, 'utf8') : '');
    return { pane, home, project, outside, log };
  }

  async function screenUntil(pane: string, test: (s: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await h.tmux.capture(pane);
      if (test(s)) return s;
      if (Date.now() > deadline || (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{pane_dead}')).trim() === '1') {
        throw new Error(`timed out waiting for ${what} (or the agent exited); screen:\n${s}`);
      }
      await sleep(150);
    }
  }

  /**
   * Types a prompt, waits until the input shows it (a busy UI can drop keys), then sends Enter. The
   * sleeps here and in answerDialog are pacing for a real agent's TUI (let it draw, keys at a
   * person's speed), not waits for a result: every result is awaited on the screen or as an event.
   */
  async function type(pane: string, text: string) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await sleep(300);
      await h.tmux.tmux('send-keys', '-t', pane, '-l', text);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && !(await h.tmux.capture(pane)).replace(/\s+/g, '').includes(text.replace(/\s+/g, ''))) await sleep(150);
      if ((await h.tmux.capture(pane)).replace(/\s+/g, '').includes(text.replace(/\s+/g, ''))) break;
      await h.tmux.tmux('send-keys', '-t', pane, 'C-u');
    }
    await sleep(250);
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
  }

  /** The pane's `stuck` event; on a timeout, the error shows the screen and the hook calls. */
  /** The pane's first stuck event from event number `from` on (a first-run dialog before it waits too). */
  async function stuckEvent(pane: string, log: () => string, from: number): Promise<Extract<CorralEvent, { type: 'stuck' }>> {
    try {
      return (await h.waitForEvent((e) => e.type === 'stuck' && e.paneId === pane && h.events.indexOf(e) >= from, 60_000)) as Extract<CorralEvent, { type: 'stuck' }>;
    } catch (error) {
      throw new Error(`${(error as Error).message}\nscreen:\n${await h.tmux.capture(pane)}\nhook calls:\n${log()}`);
    }
  }

  /**
   * Presses keys on a dialog, then waits until the screen has moved on from it. A dialog that has
   * just been drawn may not take keys yet: unanswered after 5 s, the keys go again (three times at most).
   */
  async function answerDialog(pane: string, before: string, ...keys: string[]) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await sleep(400);
      for (const key of keys) {
        await h.tmux.tmux('send-keys', '-t', pane, key);
        await sleep(300);
      }
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        if ((await h.tmux.capture(pane)) !== before) {
          await sleep(500);
          return;
        }
        await sleep(150);
      }
    }
  }

  /**
   * While the dialog is open, the corral processes that did not receive the hook tell the same state
   * as the one that did: `ls --json`, `watch` (printed and posted, with the same stuck time) and the
   * dashboard's row.
   */
  async function sameStateEverywhere(pane: string, stuck: Extract<CorralEvent, { type: 'stuck' }>) {
    const same = (e: CorralEvent) => e.type === 'stuck' && e.paneId === pane && e.timestamp >= stuck.timestamp - 5;
    const line = await watch.waitForLine((l) => same(JSON.parse(l) as CorralEvent), 10_000);
    const watched = JSON.parse(line) as Extract<CorralEvent, { type: 'stuck' }>;
    expect(watched).toMatchObject({ reason: 'permission', message: stuck.message, source: 'hook', transcriptPath: stuck.transcriptPath });
    // Stuck at the moment the hook fired, as in the corral that received it.
    expect(Math.abs(watched.timestamp - stuck.timestamp)).toBeLessThanOrEqual(5);
    await expect.poll(() => posted.find(same), { timeout: 5_000 }).toEqual(watched);
    const ls = await runCli(['ls', '--json', '-L', h.tmux.socketName, '--quiet-threshold', '600000', '--port', String(h.port)], { env: cliEnv({ CORRAL_TOKEN: HOOK_TOKEN }) });
    expect(ls.stderr).toBe('');
    const entry = (JSON.parse(ls.stdout) as Array<Record<string, unknown>>).find((p) => p.paneId === pane);
    expect(entry).toMatchObject({ status: 'stuck', state: 'stuck', reason: 'permission', hook: { claim: 'permission' } });
    const target = h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)!.target;
    await h.tmux.waitForScreen(dashboard, (s) => s.split('\n').some((row) => row.includes(target) && row.includes('STUCK permission')), 10_000);
  }

  const hookOf = (pane: string) => h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)?.hook ?? null;
  const eventsOf = (pane: string, from: number): CorralEvent[] => h.events.slice(from).filter((e) => e.paneId === pane);

  /**
   * After the approval the turn ends, and the pane waits for its next task: the hook that says so
   * is the evidence, so it counts once the screen holds still for a moment (not the quiet threshold).
   */
  const stoppedAgain = async (pane: string, from: number): Promise<void> => {
    await expect.poll(() => eventsOf(pane, from).map((e) => e.type), { timeout: 10_000 }).toEqual(['stuck', 'unstuck', 'stuck']);
    expect(eventsOf(pane, from).at(-1)).toMatchObject({ reason: 'stopped' });
  };

  /**
   * A copy of this checkout's runnable corral (dist/ and package.json) in a new folder, and the
   * packed tarball installed into an empty npm prefix: the two other ways a person has corral.
   */
  async function otherCorrals(): Promise<{ checkout: string; tarballBin: string }> {
    const checkout = join(work, 'checkout');
    mkdirSync(checkout);
    cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const npmEnv = { ...process.env };
    delete npmEnv.TMUX;
    const npmFlags = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work, ROOT], { cwd: work, env: npmEnv, encoding: 'utf8' })) as { filename: string }[];
    const prefix = join(work, 'prefix');
    execFileSync('npm', ['install', '-g', '--prefix', prefix, ...npmFlags, join(work, packed[0]!.filename)], { cwd: work, env: npmEnv, stdio: 'pipe' });
    return { checkout, tarballBin: join(prefix, 'bin') };
  }

  it('Claude Code: PermissionRequest makes the pane stuck at once; the approval, then Stop (hooks installed from a checkout that then moved)', async () => {
    // The hooks are installed by a checkout's corral, and the checkout then moves away; the agent's
    // PATH has the corral installed from the packed tarball. The hooks must reach corral all the same.
    const { checkout, tarballBin } = await otherCorrals();
    const moved = `${checkout}-moved`;
    const { pane, home, log } = await launch('claude-code', {
      installer: join(checkout, 'dist', 'bin', 'corral.js'),
      path: tarballBin,
      beforeStart: () => renameSync(checkout, moved),
    });
    const launcher = join(home, '.local', 'share', 'corral', 'bin', 'corral');
    // The agent's settings name the launcher, never the checkout; the launcher still names the checkout's old place.
    const settings = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain(launcher);
    expect(settings).not.toContain(checkout);
    expect(readFileSync(launcher, 'utf8')).toContain(join(checkout, 'dist', 'bin', 'corral.js'));
    expect(existsSync(checkout)).toBe(false);
    // On the agent's PATH, the corral the launcher falls back to is the tarball's.
    expect(execFileSync('sh', ['-c', 'command -v corral'], { env: { PATH: agentPath(tarballBin) }, encoding: 'utf8' }).trim()).toBe(join(tarballBin, 'corral'));
    // First start: answer whatever first-run dialogs this version shows until the input box is idle.
    const idle = (s: string) => /^❯\s*$/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(s);
    for (let i = 0; i < 12; i++) {
      const s = await screenUntil(pane, (x) => idle(x) || /Choose the text style|Press Enter to continue|trust this folder|Quick safety check|auto mode/i.test(x), 'Claude Code to start');
      if (idle(s)) break;
      // Folder trust: some versions put the cursor on "No, exit"; auto mode: keep asking (not the default).
      const down = /❯\s*No, exit/.test(s) || (/auto mode/i.test(s) && !/trust this folder|Quick safety check/i.test(s));
      await answerDialog(pane, s, ...(down ? ['Down', 'Enter'] : ['Enter']));
    }
    await screenUntil(pane, idle, 'the idle input box');
    const from = h.events.length;
    await type(pane, `RUNCMD touch ${join(work, 'claude-ran.txt')}`);
    const stuck = await stuckEvent(pane, log, from);
    expect(stuck.reason).toBe('permission');
    expect(stuck.message).toContain('claude-ran.txt');
    expect(stuck.transcriptPath).toMatch(/\.jsonl$/);
    expect(hookOf(pane)).toMatchObject({ agent: 'claude-code', claim: 'permission', lastEvent: 'PermissionRequest' });
    await sameStateEverywhere(pane, stuck);
    await answerDialog(pane, await screenUntil(pane, (s) => /Do you want to proceed\?/.test(s), 'the permission dialog'), 'Enter');
    await screenUntil(pane, (s) => /Done: the tool finished/.test(s), 'the answer after the tool');
    await expect.poll(() => hookOf(pane)?.lastEvent, { timeout: 20_000 }).toBe('Stop');
    expect(hookOf(pane)?.claim).toBe('waiting');
    await stoppedAgain(pane, from);
    expect(existsSync(join(work, 'claude-ran.txt'))).toBe(true);
    // Claude runs hooks in its own process tree (without a controlling terminal): the pane id counts.
    // The hook process logs after corral has answered it: wait for the line, not for a time.
    await expect.poll(log, { timeout: 10_000 }).toMatch(/Stop pane=%\d+ tty=false daemon=false -> HTTP 200/);
    expect(log()).toMatch(new RegExp(`PermissionRequest pane=${pane} tty=false daemon=false -> HTTP 200`));
    expect(log()).toMatch(/PostToolUse pane=%\d+ tty=false daemon=false -> HTTP 200/);
  });

  it('Codex: its hooks trusted once, then PermissionRequest, the approval and Stop reach corral from its daemon', async () => {
    const { pane, home, outside, log } = await launch('codex');
    // First start: the folder's trust, then the review of the new hooks: "Trust all and continue".
    let trustedHooks = false;
    // Codex draws its composer while it still loads; ready is the composer with the model footer.
    const composer = (s: string) => /Ask Codex to do anything/.test(s) && /gpt-5-codex default ·/.test(s);
    for (let i = 0; i < 12; i++) {
      const s = await screenUntil(pane, (x) => /Trust this folder\?|Hooks need review/.test(x) || composer(x), 'Codex to start');
      if (process.env.CORRAL_AGENT_DEBUG) console.log(`--- codex screen ${i}\n${s}`);
      if (/Hooks need review/.test(s)) {
        await answerDialog(pane, s, '2', 'Enter');
        trustedHooks = true;
      } else if (/Trust this folder\?/.test(s)) {
        await answerDialog(pane, s, 'Enter');
      } else {
        break;
      }
    }
    expect(trustedHooks).toBe(true);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toMatch(/hooks\.json:permission_request:0:0"\]\ntrusted_hash = "sha256:/);
    const from = h.events.length;
    await type(pane, `RUNCMD touch ${join(outside, 'codex-ran.txt')}`);
    const stuck = await stuckEvent(pane, log, from);
    expect(stuck.reason).toBe('permission');
    expect(stuck.message).toContain('codex-ran.txt');
    expect(stuck.transcriptPath).toMatch(/rollout-.*\.jsonl$/);
    expect(hookOf(pane)).toMatchObject({ agent: 'codex', claim: 'permission', lastEvent: 'PermissionRequest' });
    await sameStateEverywhere(pane, stuck);
    await answerDialog(pane, await screenUntil(pane, (s) => /Would you like to run the following command\?/.test(s), 'the approval overlay'), 'y');
    await expect.poll(() => hookOf(pane)?.lastEvent, { timeout: 30_000 }).toBe('Stop');
    await stoppedAgain(pane, from);
    expect(existsSync(join(outside, 'codex-ran.txt'))).toBe(true);
    // By default Codex runs hooks in its detached daemon: corral found the pane by folder and session.
    await expect.poll(log, { timeout: 10_000 }).toMatch(/Stop pane=%\d+ tty=false daemon=true -> HTTP 200/);
    expect(log()).toMatch(/PermissionRequest pane=%\d+ tty=false daemon=true -> HTTP 200/);
    // Quitting the TUI sends no SessionEnd (its daemon sends it much later): the claim ends with the
    // agent's process, in the receiving corral and in the others.
    expect(hookOf(pane)?.claim).toBe('waiting');
    await h.tmux.tmux('send-keys', '-t', pane, 'C-c');
    // Pacing: two separate presses, as a person quits the TUI (one read each).
    await sleep(300);
    await h.tmux.tmux('send-keys', '-t', pane, 'C-c');
    await expect.poll(async () => (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{pane_dead}')).trim(), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => hookOf(pane)?.claim ?? null, { timeout: 3_000 }).toBeNull();
    expect(log()).not.toMatch(/SessionEnd/);
    // Its record is gone too, so no corral started later hears of the old claim.
    await expect.poll(async () => (await h.tmux.tmux('show-options', '-pqv', '-t', pane, '@corral_hook')).trim(), { timeout: 3_000 }).toBe('');
  });

  it('Gemini CLI: BeforeAgent, the ToolPermission notification, AfterTool and AfterAgent reach corral', async () => {
    const { pane, outside, log } = await launch('gemini-cli');
    const idle = (s: string) => /Type your message or @path\/to\/file/.test(s) && !/esc to cancel/.test(s) && !/Do you trust|How would you like to authenticate|Enter Gemini API Key/.test(s);
    // First start: trust the folder, take the API key from the environment, confirm it.
    for (let i = 0; i < 12; i++) {
      const s = await screenUntil(pane, (x) => idle(x) || /Do you trust|authenticate|API Key/.test(x), 'Gemini CLI to start');
      if (idle(s)) break;
      await answerDialog(pane, s, 'Enter');
    }
    const from = h.events.length;
    await type(pane, `RUNCMD touch ${join(outside, 'gemini-ran.txt')}`);
    const stuck = await stuckEvent(pane, log, from);
    expect(stuck).toMatchObject({ reason: 'permission', message: `touch ${join(outside, 'gemini-ran.txt')}` });
    expect(stuck.transcriptPath).toMatch(/session-.*\.jsonl$/);
    await sameStateEverywhere(pane, stuck);
    await answerDialog(pane, await screenUntil(pane, (s) => /Allow execution of/.test(s), 'the permission dialog'), 'Enter');
    await expect.poll(() => hookOf(pane)?.lastEvent, { timeout: 30_000 }).toBe('AfterAgent');
    expect(hookOf(pane)?.claim).toBe('waiting');
    await stoppedAgain(pane, from);
    expect(existsSync(join(outside, 'gemini-ran.txt'))).toBe(true);
    await expect.poll(log, { timeout: 10_000 }).toMatch(/AfterAgent pane=%\d+ tty=true daemon=false -> HTTP 200/);
    expect(log()).toMatch(new RegExp(`Notification pane=${pane} tty=true daemon=false -> HTTP 200`));
  });
});
