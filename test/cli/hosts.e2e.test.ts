// The built `corral` across hosts: this machine's tmux server and a "remote" one reached through a
// real sshd on 127.0.0.1 (the same machine's tmux on another socket, behind ssh). The sshd is
// killed to lose the host and started again to get it back.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { launchChromium } from '../../scripts/chromium.mjs';
import { browserForTests } from '../helpers/browser.js';
import { cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { sshWrapper, startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

let sshd: TestSshd;
let local: TestTmux;
let remote: TestTmux;
let dir: string;
let env: NodeJS.ProcessEnv;
let live: LiveCli | null = null;
let remotePane: string;
let localPane: string;

beforeAll(async () => {
  sshd = await startTestSshd();
  local = await startTestTmux();
  remote = await startTestTmux();
  dir = mkdtempSync(join(tmpdir(), 'corral-hosts-'));
  const wrapper = sshWrapper(sshd, dir);
  env = cliEnv({ CORRAL_SSH_BIN: wrapper, TMPDIR: dir });
  localPane = await local.spawn('sleep 600', { title: 'local work' });
  remotePane = await remote.spawn(`read -p "Deploy to production? [y/N] " a; echo "answered $a"; sleep 600`, { title: 'remote deploy' });
  await remote.waitForScreen(remotePane, (s) => s.includes('[y/N]'));
}, 60_000);

afterEach(async () => {
  await live?.stop('SIGKILL');
  live = null;
  if (sshd.processes().length === 0) await sshd.start();
});

afterAll(async () => {
  await local?.kill();
  await remote?.kill();
  await sshd?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hostFlag = () => `${sshd.alias}=box,-L ${remote.socketName}`;
const fast = ['--quiet-threshold', '1500', '--poll-interval', '200'];

describe('corral ls across hosts', () => {
  it('lists this machine and the remote host, each pane under its key', async () => {
    const result = await runCli(['ls', '--json', '-L', local.socketName, '--host', hostFlag()], { env, timeoutMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const panes = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(panes.map((p) => [p.host, p.key, p.title])).toEqual(
      expect.arrayContaining([
        ['local', localPane, 'local work'],
        ['box', `box/${remotePane}`, 'remote deploy'],
      ]),
    );
    expect(panes.find((p) => p.host === 'box')?.lastLine).toBe('Deploy to production? [y/N]');
  });

  it('shows a HOST column in the table', async () => {
    const result = await runCli(['ls', '-L', local.socketName, '--host', hostFlag()], { env, timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trim().split('\n');
    expect(header).toMatch(/^HOST\s+STATE\s+PANE\s+TARGET/);
    expect(rows.some((r) => r.startsWith('box') && r.includes(`box/${remotePane}`))).toBe(true);
    expect(rows.some((r) => r.startsWith('local') && r.includes(localPane))).toBe(true);
  });

  it('lists this machine and says why when a host cannot be reached', async () => {
    const result = await runCli(['ls', '--json', '-L', local.socketName, '--host', `${sshd.wrongKeyAlias}=locked,-L ${remote.socketName}`], { env, timeoutMs: 30_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^corral: locked: ssh authentication failed: .*Permission denied/m);
    const panes = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(panes.map((p) => p.host)).toEqual(['local']);
  });
});

describe('corral watch across hosts', () => {
  it('reports a remote pane stuck, ends it when the host goes, and picks it up again when it is back', async () => {
    live = startCli(['watch', '-L', local.socketName, '--host', hostFlag(), ...fast], env);
    const stuck = JSON.parse(await live.waitForLine((l) => l.includes('"stuck"') && l.includes('"box"'), 30_000)) as Record<string, unknown>;
    expect(stuck).toMatchObject({ type: 'stuck', host: 'box', key: `box/${remotePane}`, paneId: remotePane, message: 'Deploy to production? [y/N]' });

    await sshd.stop();
    const ended = JSON.parse(await live.waitForLine((l) => l.includes('"ended"') && l.includes('"box"'), 30_000)) as Record<string, unknown>;
    expect(ended).toMatchObject({ type: 'ended', host: 'box', key: `box/${remotePane}`, why: 'host-gone' });
    await live.waitForStderr(/corral: box is unreachable: .*; retrying/, 30_000);
    // This machine's pane is still watched: nothing ended for it.
    expect(live.stdoutLines.some((l) => l.includes('"ended"') && l.includes('"local"'))).toBe(false);

    await sshd.start();
    await live.waitForStderr(/corral: box is connected/, 90_000);
    // Registered a second time: the pane is watched again.
    const registrations = () => live!.stdoutLines.filter((l) => l.includes('"registered"') && l.includes(`"box/${remotePane}"`)).length;
    await waitUntil(() => registrations() >= 2, 30_000, 'the remote pane registered a second time');
    expect(registrations()).toBe(2);
  }, 150_000);
});

describe('corral send across hosts', () => {
  it('types into a remote pane named with its host, and refuses a host it does not know', async () => {
    const pane = await remote.spawn('read -r line; echo "got <$line>"; sleep 600');
    const result = await runCli(['send', '-L', local.socketName, '--host', hostFlag(), `box/${pane}`, `it's "quoted"; $(date)`, 'Enter'], { env, timeoutMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await remote.waitForScreen(pane, (screen) => screen.includes(`got <it's "quoted"; $(date)>`));

    const unknown = await runCli(['send', '-L', local.socketName, '--host', hostFlag(), 'nowhere/%1', 'x'], { env, timeoutMs: 30_000 });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no pane "nowhere\/%1"/);
  }, 60_000);
});

describe('corral serve across hosts', () => {
  it('answers a chat on a remote pane, mirrors it over attach, and refuses with 503 while the host is down', async () => {
    const token = 'a-token-for-the-hosts-test';
    const pane = await remote.spawn();
    const target = (await remote.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();
    live = startCli(['serve', '--bridge', '--attach', '-L', local.socketName, '--host', hostFlag(), '--port', '0', ...fast], { ...env, CORRAL_TOKEN: token, XDG_CONFIG_HOME: dir });
    const line = await live.waitForLine((l) => l.includes('chat bridge on'), 30_000);
    expect(line).toContain('and box over ssh');
    const base = /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(line)![1]!;
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: token, maxRetries: 0 });

    // The remote pane is listed under its host, and answers through ssh.
    const listed = async () => (await client.models.list()).data.map((m) => m.id).includes(`box/${target}`);
    await waitUntil(listed, 30_000, `box/${target} among the models`, 100);
    const reply = await client.chat.completions.create({ model: `box/${target}`, messages: [{ role: 'user', content: 'echo remote-$((6*7))' }] });
    expect(reply.choices[0]?.message.content).toContain('remote-42');
    // A second SDK (Vercel's AI SDK), streaming, on the same remote pane.
    const provider = createOpenAICompatible({ name: 'corral', baseURL: `${base}/v1`, apiKey: token });
    const streamed = streamText({ model: provider.chatModel(`box/${target}`), prompt: 'echo sdk-$((7*6))', maxRetries: 0 });
    // Every part of the stream, kept for the failure message (an error part ends the text early).
    let streamedText = '';
    const parts: string[] = [];
    for await (const part of streamed.fullStream) {
      parts.push(part.type === 'text-delta' ? `text ${JSON.stringify(part.text)}` : part.type === 'error' ? `error ${String(part.error)}` : part.type);
      if (part.type === 'text-delta') streamedText += part.text;
    }
    expect(streamedText, `parts: ${parts.join(' | ')}\nscreen:\n${await remote.tmux('capture-pane', '-p', '-t', pane)}`).toContain('sdk-42');

    // Attach to the same pane at /attach/box/N: a repaint of its screen arrives.
    const number = pane.slice(1);
    const ws = new WebSocket(`${base.replace('http', 'ws')}/attach/box/${number}?mode=raw`, { headers: { authorization: `Bearer ${token}` } });
    const seen = await new Promise<string>((resolve, reject) => {
      let text = '';
      ws.on('message', (data: Buffer) => {
        text += data.toString('utf8');
        if (text.includes('remote-42')) resolve(text);
      });
      ws.on('error', reject);
      setTimeout(() => reject(new Error(`no repaint with the answer: ${JSON.stringify(text)}`)), 15_000);
    });
    expect(seen).toContain('remote-42');
    ws.close();

    // The host goes down: a chat is refused, nothing is typed, and the client is told when to retry.
    await sshd.stop();
    let status = 0;
    let retryAfter: string | null = null;
    let body: { error?: { code?: string; message?: string } } = {};
    const refusedWith503 = async () => {
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `box/${target}`, messages: [{ role: 'user', content: 'echo never' }] }),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      body = (await res.json()) as typeof body;
      return status === 503;
    };
    await waitUntil(refusedWith503, 60_000, 'a 503 for the remote pane while its host is down', 200);
    expect(status).toBe(503);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(body.error).toMatchObject({ code: 'host_unreachable', message: 'box is unreachable: not sent' });
    const refused = await new Promise<number>((resolve, reject) => {
      const down = new WebSocket(`${base.replace('http', 'ws')}/attach/box/${number}?mode=raw`, { headers: { authorization: `Bearer ${token}` } });
      down.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      down.on('open', () => reject(new Error('attached to a host that is down')));
      down.on('error', () => undefined);
    });
    expect(refused).toBe(503);
  }, 120_000);
});

const browserCheck = browserForTests('hosts page');

describe.skipIf(browserCheck.skip)('the triage page across hosts, in Chromium on a phone (390x844)', () => {
  it("names a remote pane's host, answers it through ssh, opens its terminal, and greys it while the host is down", async () => {
    const token = 'a-token-for-the-hosts-page-test';
    const pane = await remote.spawn(`read -p "Ship the remote build? [y/N] " a; echo "remote answered:$a"; sleep 600`);
    await remote.waitForScreen(pane, (s) => s.includes('[y/N]'));
    live = startCli(['serve', '--attach', '-L', local.socketName, '--host', hostFlag(), '--port', '0', ...fast], { ...env, CORRAL_TOKEN: token, XDG_CONFIG_HOME: dir });
    const line = await live.waitForLine((l) => l.includes('attach server on'), 30_000);
    const base = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(line)![1]!;
    const code = await fetch(`${base}/api/login-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ write: true }),
    });
    expect(code.status).toBe(200);
    const { url } = (await code.json()) as { url: string };

    const browser = await launchChromium(browserCheck.found);
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.goto(url);
      const key = `box/${pane}`;
      const card = page.locator(`article.pane[data-pane="${key}"]`);
      await card.locator('.answers button').first().waitFor({ timeout: 30_000 });
      expect(await card.locator('.target').textContent()).toMatch(/ on box$/);
      expect(await card.locator('.badge').textContent()).toBe('STUCK permission');
      const cardIs = async (js: string) => page.evaluate(`(() => { const node = document.querySelector('article.pane[data-pane="${key}"]'); return ${js}; })()`);
      const sideways = async () =>
        (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
      expect(await sideways()).toBeLessThanOrEqual(0);

      // Its live terminal comes over /attach/box/N, through ssh.
      await card.locator('button.open-terminal').tap();
      await expect.poll(() => page.locator('#terminal').innerText(), { timeout: 15_000 }).toContain('Ship the remote build?');
      await page.locator('#viewer-close').tap();

      // A quick answer reaches the remote pane, and only it.
      await card.locator('.answers button', { hasText: /^y$/ }).tap();
      await remote.waitForScreen(pane, (s) => s.includes('remote answered:y'));

      // The host goes: the card stays, greyed, says offline, and offers nothing to press; nor does a
      // card whose last screen was a question (its last view is stuck, but nothing can reach it).
      const asking = await remote.spawn(`read -p "Another question? [y/N] " a; sleep 600`);
      const askingCard = page.locator(`article.pane[data-pane="box/${asking}"]`);
      await askingCard.locator('.answers button').first().waitFor({ timeout: 30_000 });
      await sshd.stop();
      await expect.poll(() => card.locator('.badge').textContent(), { timeout: 30_000 }).toBe('offline');
      expect(await cardIs("node.classList.contains('offline')")).toBe(true);
      expect(await cardIs('getComputedStyle(node).opacity')).toBe('0.5');
      expect(await card.locator('.answers button').count()).toBe(0);
      await expect.poll(() => askingCard.locator('.badge').textContent(), { timeout: 30_000 }).toBe('offline');
      expect(await askingCard.locator('.answers button:visible').count()).toBe(0);
      expect(await askingCard.locator('form.reply:visible').count()).toBe(0);
      expect(await sideways()).toBeLessThanOrEqual(0);

      // It comes back: the card is live again.
      await sshd.start();
      await expect.poll(() => card.locator('.badge').textContent(), { timeout: 90_000 }).not.toBe('offline');
      expect(await cardIs("node.classList.contains('offline')")).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
