// The triage page in headless Chrome or Chromium (found by scripts/chromium.mjs, driven by playwright-core), on a phone (390x844)
// and a desktop (1280x800), against the real engine and attach server on a private tmux server:
// prompts found by the real rules, answers typed into real panes.
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/engine/text/durations.js';
import { launchChromium } from '../../../scripts/chromium.mjs';
import { browserForTests } from '../../helpers/browser.js';
import { startHarness, waitUntil, type Harness } from '../../helpers/attach-harness.js';

const screens = fileURLToPath(new URL('../../fixtures/screens/', import.meta.url));
const browserCheck = browserForTests('attach-page');

let h: Harness;
let browser: Browser;
let panes: { menu: string; yesNo: string; shell: string; busy: string };

beforeAll(async () => {
  if (browserCheck.skip) return;
  // Fails loudly, saying how to get a browser, when none is found and the tests may not skip.
  browser = await launchChromium(browserCheck.found);
  h = await startHarness({}, { persistent: true, realEngine: { quietThresholdMs: 600, pollIntervalMs: 200, waiting: 'all' } });
  panes = {
    // A numbered permission menu (answered by one key) and a [Y/n] question (a line).
    menu: await h.tmux.spawn(
      `cat '${screens}claude-code/permission--edit-file.txt'; read -r -n1 k; echo; echo "chose:$k"; exec sleep 600`,
      { title: 'claude' },
    ),
    yesNo: await h.tmux.spawn(
      `printf '%s ' "$(cat '${screens}generic/permission--apt-continue.txt')"; read -r a; echo "answered:$a"; exec sleep 600`,
    ),
    shell: await h.tmux.spawn('bash --norc'),
    busy: await h.tmux.spawn('bash --norc'),
  };
  await h.tmux.waitForScreen(panes.busy, (s) => /[#$] *$/m.test(s));
  // Built-ins only: a C-c that reaches bash while it forks a child (between `sleep`s) can be lost
  // in the child, and the loop goes on; with no child, bash itself always takes it.
  await h.tmux.tmux('send-keys', '-t', panes.busy, 'while :; do echo tick-$RANDOM; read -rt 0.2; done', 'Enter');
  await waitUntil(
    () => h.realEngine!.getSnapshot().panes.filter((v) => v.state === 'stuck').length === 3,
    15_000,
    'three stuck panes',
  );
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** A signed-in page that records console errors and failed requests, and its session credential. */
async function openPage(context: BrowserContext, write = true): Promise<{ page: Page; problems: string[]; session: string }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  const link = h.feature.loginLink({ write, base: `http://127.0.0.1:${h.server.port}` });
  await page.goto(link.url);
  // The page trades the code for a session kept in this origin's storage.
  await expect.poll(() => page.evaluate("localStorage.getItem('corral.session')"), { timeout: 10_000 }).not.toBeNull();
  expect(new URL(page.url()).search).toBe(''); // the code left the address bar
  const session = (await page.evaluate("JSON.parse(localStorage.getItem('corral.session')).credential")) as string;
  return { page, problems, session };
}

const card = (page: Page, pane: string) => page.locator(`article.pane[data-pane="${pane}"]`);

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = (await page.evaluate(
    '({ scroll: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })',
  )) as { scroll: number; view: number };
  expect(widths.scroll).toBeLessThanOrEqual(widths.view);
}

describe.skipIf(browserCheck.skip)('the triage page on a phone (390x844)', () => {
  it('lists panes like the dashboard, answers prompts, replies, asks before C-c, and shows a terminal that fits', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page, problems, session } = await openPage(context);
    await card(page, panes.menu).locator('.answers button').first().waitFor({ timeout: 10_000 });

    // The same order, words and counts as the engine gives the dashboard.
    const listed = await page.request.get(`http://127.0.0.1:${h.server.port}/api/panes`, { headers: { authorization: `Bearer ${session}` } });
    const api = (await listed.json()) as {
      panes: { id: string; badge: string; prompt: { options: string[] } | null }[];
    };
    expect(await page.evaluate("[...document.querySelectorAll('article.pane')].map((c) => c.dataset.pane)")).toEqual(
      api.panes.map((p) => p.id),
    );
    expect(api.panes.slice(0, 3).map((p) => p.id).sort()).toEqual([panes.menu, panes.yesNo, panes.shell].sort());
    expect(await card(page, panes.menu).locator('.badge').textContent()).toBe('STUCK permission');
    expect(await card(page, panes.shell).locator('.badge').textContent()).toBe('STUCK stopped');
    expect(await card(page, panes.busy).locator('.badge').textContent()).toBe('active');
    expect(await page.locator('#summary').textContent()).toContain('3 stuck');
    await noSidewaysScroll(page);

    // The quiet timer counts on by itself, in the engine's format.
    const quiet = card(page, panes.shell).locator('.quiet');
    const first = await quiet.textContent();
    await expect.poll(() => quiet.textContent(), { timeout: 5_000 }).not.toBe(first);
    for (const ms of [0, 8_000, 65_000, 3_725_000, 97_200_000]) {
      expect(await page.evaluate(`window.corralPage.formatDuration(${ms})`)).toBe(formatDuration(ms));
    }

    // Quick answers: real buttons whose text is the key, only the prompt's own options, big enough to tap.
    const menuButtons = card(page, panes.menu).locator('.answers button');
    expect(await menuButtons.allTextContents()).toEqual(api.panes.find((p) => p.id === panes.menu)!.prompt!.options);
    expect(await menuButtons.allTextContents()).toEqual(['1', '2', '3', 'Enter']);
    expect(await card(page, panes.yesNo).locator('.answers button').allTextContents()).toEqual(['y', 'n', 'Enter']);
    expect(await card(page, panes.menu).locator('.prompt').textContent()).toContain('Do you want to make this edit to total.ts?');
    for (const box of await Promise.all((await menuButtons.all()).map((b) => b.boundingBox()))) {
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    await menuButtons.filter({ hasText: /^1$/ }).tap();
    await h.tmux.waitForScreen(panes.menu, (s) => s.includes('chose:1'));
    await card(page, panes.yesNo).locator('.answers button', { hasText: /^y$/ }).tap();
    await h.tmux.waitForScreen(panes.yesNo, (s) => s.includes('answered:y'));
    await expect.poll(() => card(page, panes.yesNo).locator('.result').textContent()).toContain('sent y');

    // A reply box per pane: type a line, then Enter goes after it.
    const reply = card(page, panes.shell).locator('form.reply input');
    await reply.fill('echo hi-$((6*7))');
    await reply.press('Enter');
    await h.tmux.waitForScreen(panes.shell, (s) => s.includes('hi-42'));

    // C-c asks first; Cancel sends nothing, Send interrupts the busy loop.
    const busy = card(page, panes.busy);
    await busy.locator('button.signal[data-key="C-c"]').tap();
    await page.locator('#confirm').waitFor({ state: 'visible' });
    expect(await page.locator('#confirm-text').textContent()).toContain('C-c');
    await page.locator('#confirm-cancel').tap();
    await page.locator('#confirm').waitFor({ state: 'hidden' });
    await busy.locator('button.signal[data-key="C-c"]').tap();
    const answers: string[] = [];
    page.on('response', (r) => void (/\/keys$/.test(r.url()) && answers.push(`${r.request().postData()} -> HTTP ${r.status()}`)));
    await page.locator('#confirm-ok').tap();
    // Once the confirmed C-c has brought the prompt back, exactly one ^C shows: a C-c sent on
    // Cancel would have come before it, and left a second one.
    const interrupted = await h.tmux.waitForScreen(panes.busy, (s) => /\^C\s*\n\S*[#$]\s*$/.test(s.trimEnd()), 10_000).catch(async (error: Error) => {
      const result = await busy.locator('.result').textContent();
      throw new Error(`${error.message}; the card says ${JSON.stringify(result)}; keys sent: ${JSON.stringify(answers)}; confirm box open: ${await page.locator('#confirm').isVisible()}`);
    });
    expect(interrupted.match(/\^C/g)).toHaveLength(1);

    // The terminal view, on demand: the pane's 100 columns at a readable size, in a box that pans
    // over them inside the phone's width.
    await card(page, panes.shell).locator('.open-terminal').tap();
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('hi-42');
    expect(await page.evaluate("parseFloat(getComputedStyle(document.querySelector('.xterm-rows')).fontSize)")).toBeGreaterThanOrEqual(10);
    const box = await page.locator('#terminal').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await noSidewaysScroll(page);
    // Read-only until asked: typing reaches nothing; with "type into the pane" it does.
    await page.locator('#type-toggle').check();
    await page.locator('#viewer-state[data-state="live-write"]').waitFor({ timeout: 10_000 });
    await page.keyboard.type('echo from-phone-$((2*8))');
    await page.keyboard.press('Enter');
    await h.tmux.waitForScreen(panes.shell, (s) => s.includes('from-phone-16'));
    await page.locator('#viewer-close').tap();

    const icon = await page.request.get(`http://127.0.0.1:${h.server.port}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a read-only link no answer buttons and no reply box', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page, problems } = await openPage(context, false);
    await card(page, panes.shell).locator('.badge').waitFor();
    await expect.poll(() => page.locator('article.pane').count()).toBe(4);
    expect(await page.locator('.answers button').count()).toBe(0);
    expect(await page.locator('form.reply:visible').count()).toBe(0);
    expect(await page.locator('button.signal:visible').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe.skipIf(browserCheck.skip)('the triage page on a desktop (1280x800)', () => {
  it('puts the terminal beside the list, with no sideways scroll and no console errors', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, problems } = await openPage(context);
    await card(page, panes.shell).locator('.badge').waitFor();
    await card(page, panes.shell).locator('.open-terminal').click();
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });
    const list = await page.locator('#list').boundingBox();
    const viewer = await page.locator('#viewer').boundingBox();
    expect(viewer!.x).toBeGreaterThanOrEqual(list!.x + list!.width);
    const screen = await page.locator('.xterm-screen').boundingBox();
    expect(screen!.x + screen!.width).toBeLessThanOrEqual(viewer!.x + viewer!.width);
    await noSidewaysScroll(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
