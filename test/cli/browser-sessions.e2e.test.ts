// Browser sessions of the attach page in real Chromium against the built `corral serve --attach`
// on real tmux. Signed in on corral's own port, the same browser then opens a page of another
// server on another 127.0.0.1 port (a dev server running untrusted code, say): that server
// receives nothing that grants access, and replaying all it got against corral with a forged
// Origin fails. Sessions are listed and revoked with `corral link`, and signed out on the page;
// either ends the browser's open terminal at once (4401) and every later call.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { launchChromium } from '../../scripts/chromium.mjs';
import { browserForTests } from '../helpers/browser.js';
import { cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const TOKEN = 'a-token-for-the-browser-session-test';
const browserCheck = browserForTests('browser sessions');

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let tmux: TestTmux;
let pane: string;
let home: string;
let corral: LiveCli;
let base = '';
let other: Server;
let otherBase = '';
const received: Received[] = [];
let browser: Browser;

/** The other server's page: it looks for anything of corral's and tries to use corral from there. */
function probePage(corralBase: string, paneNumber: string): string {
  return `<!doctype html><html><body><p>a page of another server</p><script>
(async () => {
  const report = { cookie: document.cookie, local: Object.keys(localStorage), session: Object.keys(sessionStorage) };
  const attempt = async (what, run) => { try { report[what] = await run(); } catch (e) { report[what] = 'failed: ' + e.message; } };
  await attempt('list', async () => (await fetch('${corralBase}/api/panes', { credentials: 'include' })).status);
  await attempt('listBlind', async () => (await fetch('${corralBase}/api/panes', { credentials: 'include', mode: 'no-cors' })).type);
  await attempt('reply', async () => (await fetch('${corralBase}/api/panes/${paneNumber}/reply', {
    method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ text: 'echo typed-from-another-port' }) })).type);
  await attempt('socket', () => new Promise((resolve) => {
    const ws = new WebSocket('${corralBase.replace('http', 'ws')}/attach/${paneNumber}');
    ws.onopen = () => resolve('open');
    ws.onclose = (e) => resolve('closed ' + e.code);
  }));
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
})();
</script></body></html>`;
}

beforeAll(async () => {
  if (browserCheck.skip) return;
  tmux = await startTestTmux();
  pane = await tmux.spawn('bash --norc');
  await tmux.waitForScreen(pane, (s) => /[#$] *$/m.test(s));
  home = mkdtempSync(join(tmpdir(), 'corral-sessions-'));
  corral = startCli(['serve', '--attach', '-L', tmux.socketName, '--port', '0'], cliEnv({ XDG_CONFIG_HOME: home, CORRAL_TOKEN: TOKEN }));
  const line = await corral.waitForLine((l) => l.includes('attach server on'), 20_000);
  base = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(line)![1]!;
  other = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(probePage(base, pane.slice(1)));
      } else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherBase = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
  browser = await launchChromium(browserCheck.found);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await corral?.stop('SIGTERM');
  if (other) await new Promise<void>((resolve) => other.close(() => resolve()));
  await tmux?.kill();
  if (home) rmSync(home, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(['link', '--url', base, ...args], { env: cliEnv({ XDG_CONFIG_HOME: home, CORRAL_TOKEN: TOKEN }) });

/** Opens a fresh `corral link` in the context; resolves once the page is signed in, with its credential. */
async function signIn(context: BrowserContext, extra: string[] = []): Promise<{ page: Page; credential: string; link: string }> {
  const made = await cli(...extra);
  expect(made.code, made.stderr).toBe(0);
  const link = made.stdout.trim();
  const page = await context.newPage();
  await page.goto(link);
  await page.locator(`article.pane[data-pane="${pane}"]`).waitFor({ timeout: 15_000 });
  const credential = (await page.evaluate("JSON.parse(localStorage.getItem('corral.session')).credential")) as string;
  expect(credential).toMatch(/^[\w-]{8}\.[\w-]{43}$/);
  return { page, credential, link };
}

async function status(path: string, headers: Record<string, string>): Promise<number> {
  return (await fetch(`${base}${path}`, { headers })).status;
}

function upgradeStatus(headers: Record<string, string>, protocols: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/attach/${pane.slice(1)}`, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

describe.skipIf(browserCheck.skip)('a browser session in Chromium', () => {
  it('stays on corral\'s own origin: a server on another local port gets nothing that grants access', async () => {
    const context = await browser.newContext();
    const pageRequests: { url: string; headers: Record<string, string> }[] = [];
    context.on('request', (request) => pageRequests.push({ url: request.url(), headers: request.headers() }));
    const { page, credential, link } = await signIn(context);
    const code = new URL(link).searchParams.get('code')!;

    // The code left the address bar (and so the history entry); no cookie was set for any port.
    expect(await page.evaluate('location.href')).toBe(`${base}/`);
    expect(await context.cookies()).toEqual([]);
    // The page's own calls carry the session as a header, never as a cookie.
    const apiCalls = pageRequests.filter((r) => r.url.startsWith(`${base}/api/panes`));
    expect(apiCalls.length).toBeGreaterThan(0);
    for (const call of apiCalls) {
      expect(call.headers.authorization).toBe(`Bearer ${credential}`);
      expect(call.headers.cookie).toBeUndefined();
    }

    // The signed-in tab moves on to the other server, and a second tab opens it too.
    await page.evaluate(`location.href = ${JSON.stringify(`${otherBase}/`)}`);
    const second = await context.newPage();
    await second.goto(`${otherBase}/`);
    await expect.poll(() => received.filter((r) => r.url === '/report').length, { timeout: 15_000 }).toBe(2);

    // Nothing of corral's reached the other server: no cookie, no credential, no code, no Referer to corral.
    for (const request of received) {
      const everything = JSON.stringify(request);
      expect(everything).not.toContain(credential);
      expect(everything).not.toContain(credential.split('.')[1]);
      expect(everything).not.toContain(code);
      expect(everything).not.toContain(TOKEN);
      expect(request.headers.cookie).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers.referer ?? '').not.toContain(base);
    }
    // Its pages found nothing of corral's, and could not use corral from there.
    for (const report of received.filter((r) => r.url === '/report').map((r) => JSON.parse(r.body) as Record<string, unknown>)) {
      expect(report).toMatchObject({ cookie: '', local: [], session: [] });
      expect(report.list).toMatch(/^failed/); // no CORS for other origins
      expect(report.socket).toMatch(/^closed 10\d\d$/); // refused before the upgrade
    }

    // Replaying every header it received against corral, from a client that forges corral's own
    // Origin, fails on every route that shows or types.
    for (const request of received) {
      const replay: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && !['host', 'content-length', 'connection', 'origin'].includes(name)) replay[name] = value;
      const forged = { ...replay, origin: base, 'sec-fetch-site': 'same-origin' };
      expect(await status('/api/panes', forged)).toBe(401);
      expect(await status('/api/session', forged)).toBe(401);
      const reply = await fetch(`${base}/api/panes/${pane.slice(1)}/reply`, {
        method: 'POST',
        headers: { ...forged, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'echo typed-by-a-replay' }),
      });
      expect(reply.status).toBe(401);
      expect(await upgradeStatus(forged)).toBe(401);
    }
    expect(await tmux.capture(pane)).not.toMatch(/typed-(from-another-port|by-a-replay)/);
    // While the session itself still works where it belongs.
    expect(await status('/api/panes', { authorization: `Bearer ${credential}` })).toBe(200);
    await context.close();
  });

  it('is listed and revoked by corral link, which closes its open terminal at once', async () => {
    const context = await browser.newContext();
    const { page, credential } = await signIn(context, ['--read-only']);
    const id = credential.split('.')[0]!;
    await page.locator(`article.pane[data-pane="${pane}"] .open-terminal`).click();
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });

    const listed = await cli('--list');
    expect(listed.code, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(id));
    expect(row, listed.stdout).toMatch(new RegExp(`^${id}\\s+read-only\\s+.+\\s+now\\s+.+\\(in use\\)\\s+2\\s+.*HeadlessChrome.* from 127\\.0\\.0\\.1$`));
    expect(listed.stdout).not.toContain(credential.split('.')[1]);
    const json = JSON.parse((await cli('--list', '--json')).stdout) as { sessions: { id: string; connections: number }[]; idle_ms: number; max_ms: number };
    expect(json).toMatchObject({ idle_ms: 12 * 3_600_000, max_ms: 7 * 24 * 3_600_000 });
    expect(json.sessions.find((s) => s.id === id)?.connections).toBe(2); // the pane list stream and the terminal

    const revoked = await cli('--revoke', id);
    expect(revoked).toMatchObject({ code: 0, stdout: `corral: revoked session ${id}\n` });
    // The terminal closes (4401) and the page signs itself out, keeping no pane on screen.
    await page.locator('#link-state[data-state="signed-out"]').waitFor({ timeout: 2_000 });
    expect(await page.locator('#notice').textContent()).toContain('session revoked');
    expect(await page.locator('article.pane').count()).toBe(0);
    expect(await page.evaluate("localStorage.getItem('corral.session')")).toBeNull();
    expect(await status('/api/panes', { authorization: `Bearer ${credential}` })).toBe(401);
    expect(await upgradeStatus({}, ['corral', `corral-session.${credential}`])).toBe(401);
    expect(await cli('--revoke', id)).toMatchObject({ code: 1, stderr: `corral: no session ${id} (corral link --list shows them)\n` });
    await context.close();
  });

  it('signs out from the page, and every session goes with --revoke --all', async () => {
    const context = await browser.newContext();
    const { page, credential, link } = await signIn(context);
    // The same link in another browser: used already, and it says so.
    const elsewhere = await browser.newContext();
    const late = await elsewhere.newPage();
    await late.goto(link);
    await late.locator('#link-state[data-state="signed-out"]').waitFor({ timeout: 5_000 });
    expect(await late.locator('#notice').textContent()).toContain('was used already');
    await elsewhere.close();
    await page.locator('#sign-out').click();
    await page.locator('#link-state[data-state="signed-out"]').waitFor({ timeout: 2_000 });
    expect(await page.locator('#notice').textContent()).toContain('Signed out.');
    expect(await status('/api/panes', { authorization: `Bearer ${credential}` })).toBe(401);
    // Reloading does not sign it back in: the link was used, the session is gone.
    await page.reload();
    await page.locator('#link-state[data-state="signed-out"]').waitFor({ timeout: 5_000 });

    const others = await Promise.all([signIn(context), signIn(await browser.newContext())]);
    const all = await cli('--revoke', '--all');
    expect(all.code).toBe(0);
    for (const { credential: each } of others) expect(all.stdout).toContain(each.split('.')[0]);
    for (const { page: each } of others) await each.locator('#link-state[data-state="signed-out"]').waitFor({ timeout: 2_000 });
    expect((await cli('--list')).stdout).toBe('no browser is signed in\n');
    await context.close();
  });
});
