// The triage page's layout in headless Chromium on a phone (390x844, scale 3, touch) and a desktop
// (1280x800), against the real engine and attach server on a private tmux server whose first pane
// is 120 columns wide and waits at a [y/N] question near its right edge.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/chromium.mjs';
import { browserForTests } from '../../helpers/browser.js';
import { startHarness, waitUntil, type Harness } from '../../helpers/attach-harness.js';

const browserCheck = browserForTests('attach-page-layout');
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };
// 108 characters before the cursor: on a phone, the cursor is far right of the first screenful.
const QUESTION =
  'Replace the 412 files under /srv/builds/nightly/artifacts/linux-x86_64/release-candidate with this build? [y/N] ';

let h: Harness;
let browser: Browser;
let panes: { question: string; shell: string; busy: string };

beforeAll(async () => {
  if (browserCheck.skip) return;
  browser = await launchChromium(browserCheck.found);
  h = await startHarness({}, { persistent: true, realEngine: { quietThresholdMs: 600, pollIntervalMs: 200 } });
  panes = {
    // The first pane sets the session's size: every pane here is 120x30.
    question: await h.tmux.spawn(`printf '%s' '${QUESTION}'; read -r a; echo "answered:$a"; exec sleep 600`, {
      width: 120,
      height: 30,
    }),
    shell: await h.tmux.spawn('bash --norc'),
    busy: await h.tmux.spawn('bash --norc'),
  };
  await h.tmux.waitForScreen(panes.busy, (s) => /[#$] *$/m.test(s));
  await h.tmux.tmux('send-keys', '-t', panes.busy, 'while :; do echo tick-$RANDOM; sleep 0.3; done', 'Enter');
  await waitUntil(
    () => h.realEngine!.getSnapshot().panes.filter((v) => v.state === 'stuck').length === 2,
    15_000,
    'two stuck panes',
  );
  expect((await h.tmux.tmux('display', '-p', '-t', panes.question, '#{pane_width}')).trim()).toBe('120');
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function openPage(context: BrowserContext, write = true): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const link = h.feature.loginLink({ write, base: `http://127.0.0.1:${h.server.port}` });
  await page.goto(link.url);
  return { page, problems };
}

const card = (page: Page, pane: string) => page.locator(`article.pane[data-pane="${pane}"]`);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the page measures of itself: its overflow, the terminal's text, and where it draws the cell tmux has the cursor on. */
interface Measured {
  scrollWidth: number;
  innerWidth: number;
  fontPx: number;
  cellHeight: number;
  cellWidth: number;
  cursor: Box | null;
  terminal: Box;
}

async function measure(page: Page, pane = panes.question): Promise<Measured> {
  const [x, y] = (await h.tmux.tmux('display', '-p', '-t', pane, '#{cursor_x} #{cursor_y}'))
    .trim()
    .split(' ')
    .map(Number);
  return (await page.evaluate(`(() => {
    const box = (node) => { const r = node.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const rows = document.querySelector('.xterm-rows');
    const screen = document.querySelector('.xterm-screen');
    const row = rows.firstElementChild;
    const cellWidth = screen.getBoundingClientRect().width / 120;
    const cursorRow = rows.children[${y}];
    const cursor = cursorRow && {
      x: screen.getBoundingClientRect().x + ${x} * cellWidth, y: cursorRow.getBoundingClientRect().y,
      width: cellWidth, height: cursorRow.getBoundingClientRect().height,
    };
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      fontPx: parseFloat(getComputedStyle(rows).fontSize),
      cellHeight: row.getBoundingClientRect().height,
      cellWidth,
      cursor: cursor || null,
      terminal: box(document.getElementById('terminal')),
    };
  })()`)) as Measured;
}

/** The visible, uncovered controls that answer `pane`: its quick-answer buttons and its reply box. */
async function answerControls(page: Page, pane: string): Promise<{ label: string; box: Box }[]> {
  return (await page.evaluate(`(() => {
    const uncovered = (node) => {
      const r = node.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      const x = r.x + r.width / 2, y = r.y + r.height / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const top = document.elementFromPoint(x, y);
      return top === node || node.contains(top);
    };
    const forPane = [...document.querySelectorAll('[data-pane="${pane}"]')];
    const controls = forPane.flatMap((n) => [...n.querySelectorAll('.answers button, form.reply input')]);
    return controls.filter(uncovered).map((n) => {
      const r = n.getBoundingClientRect();
      return { label: n.tagName === 'INPUT' ? 'reply' : n.textContent, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
    });
  })()`)) as { label: string; box: Box }[];
}

function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

describe.skipIf(browserCheck.skip)('the page on a phone (390x844, scale 3, touch)', () => {
  it('shows a 120-column pane at a readable size, pans to its cursor, and keeps the answers under the thumb', async () => {
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    const { page, problems } = await openPage(context);
    await card(page, panes.question).locator('.answers button').first().waitFor({ timeout: 10_000 });
    await card(page, panes.question).locator('.open-terminal').tap();
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('[y/N]');

    // Readable text: xterm's own cells, not a picture of 120 columns squeezed into 390 px.
    const seen = await measure(page);
    expect(seen.fontPx).toBeGreaterThanOrEqual(10);
    expect(seen.cellHeight).toBeGreaterThanOrEqual(10);
    expect(seen.cellWidth).toBeGreaterThanOrEqual(5.5);
    // The view pans instead: the page itself never scrolls sideways, and the cursor (at column
    // 109 of 120) is inside the terminal's box and the screen.
    expect(seen.scrollWidth).toBeLessThanOrEqual(seen.innerWidth);
    await expect
      .poll(
        async () => {
          const now = await measure(page);
          return (
            now.cursor !== null && inside(now.cursor, now.terminal) && inside(now.cursor, { x: 0, y: 0, ...PHONE })
          );
        },
        { timeout: 5_000 },
      )
      .toBe(true);

    // The answers of the pane on screen, uncovered, big enough to tap, in the lower half.
    const controls = await answerControls(page, panes.question);
    expect(controls.map((c) => c.label)).toEqual(expect.arrayContaining(['y', 'n', 'Enter', 'reply']));
    for (const c of controls) {
      expect(inside(c.box, { x: 0, y: 0, ...PHONE }), c.label).toBe(true);
      expect(c.box.height, c.label).toBeGreaterThanOrEqual(44);
      expect(c.box.y, c.label).toBeGreaterThanOrEqual(PHONE.height / 2);
    }
    // A finger pans the view back towards the start of the line; the page itself stays put.
    const scrollLeft = () => page.evaluate("document.getElementById('terminal').scrollLeft") as Promise<number>;
    const panned = await scrollLeft();
    expect(panned).toBeGreaterThan(200);
    const cdp = await context.newCDPSession(page);
    const y = seen.terminal.y + 60;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 60, y }] });
    for (let x = 80; x <= 360; x += 20)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(scrollLeft).toBeLessThan(panned - 200);
    expect(await page.evaluate('window.scrollX')).toBe(0);
    // The swipe leaves the view gliding; a tap while it glides only stops it (as on a real phone).
    // The finger lifts, the view comes to rest, then the tap.
    let resting = -1;
    await expect
      .poll(async () => {
        const at = await scrollLeft();
        const still = at === resting;
        resting = at;
        return still;
      }, { interval: 250 })
      .toBe(true);
    // And they answer the pane.
    await page.locator(`#viewer [data-pane="${panes.question}"] .answers button`, { hasText: /^y$/ }).tap();
    // The answer goes through the guarded path (a fresh capture compared with the screen shown): on a
    // loaded machine that takes seconds, so the wait is for the answer, as long as it takes.
    await h.tmux.waitForScreen(panes.question, (s) => s.includes('answered:y'), 20_000);
    await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('answered:y');
    expect((await measure(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe.skipIf(browserCheck.skip)('the page on a desktop (1280x800)', () => {
  it('puts the cards and the selected pane’s live terminal side by side, across the width', async () => {
    // The panes' states settle first (the question answered on the phone above is a running
    // program now): the list's order at load is then the order the check below reads.
    const states = () => JSON.stringify(h.realEngine!.getSnapshot().panes.map((v) => [v.key, v.state, v.attention.need]));
    let last = states();
    await waitUntil(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const now = states();
      const settled = now === last;
      last = now;
      return settled;
    }, 20_000, 'the panes to settle');
    const context = await browser.newContext({ viewport: DESK });
    const { page, problems } = await openPage(context);
    await card(page, panes.shell).locator('.badge').waitFor({ timeout: 10_000 });
    // Without a click: the first pane of the list is selected and shown live.
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });
    const first = (await page.locator('article.pane').first().getAttribute('data-pane'))!;
    expect(await page.locator('article.pane[aria-current="true"]').getAttribute('data-pane')).toBe(first);

    const list = (await page.locator('#list').boundingBox())!;
    const viewer = (await page.locator('#viewer').boundingBox())!;
    expect(viewer.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(list.width + viewer.width).toBeGreaterThan(0.8 * DESK.width);
    expect(viewer.y).toBeLessThan(DESK.height / 4);
    const screen = (await page.locator('.xterm-screen').boundingBox())!;
    expect(inside(screen, viewer)).toBe(true);
    expect((await measure(page)).scrollWidth).toBeLessThanOrEqual(DESK.width);

    // Another card's Terminal button selects that pane instead.
    await card(page, panes.busy).locator('.open-terminal').click();
    await expect
      .poll(() => page.locator('article.pane[aria-current="true"]').getAttribute('data-pane'))
      .toBe(panes.busy);
    await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 10_000 }).toContain('tick-');

    // Closed, the terminal stays closed (the list keeps updating) and the cards take the width, in columns.
    await page.locator('#viewer-close').click();
    // The busy pane's last line changes only when a new list is drawn: wait for two.
    const lastLine = card(page, panes.busy).locator('.last-line');
    for (let i = 0; i < 2; i++) {
      const before = await lastLine.textContent();
      await expect.poll(() => lastLine.textContent(), { timeout: 5_000 }).not.toBe(before);
    }
    expect(await page.locator('#viewer').isHidden()).toBe(true);
    const cards = await Promise.all(
      (await page.locator('article.pane').all()).map(async (c) => (await c.boundingBox())!),
    );
    expect(new Set(cards.map((c) => Math.round(c.x))).size).toBeGreaterThanOrEqual(2);
    const closedList = (await page.locator('#list').boundingBox())!;
    expect(closedList.width).toBeGreaterThan(0.8 * DESK.width);
    expect((await measure(page)).scrollWidth).toBeLessThanOrEqual(DESK.width);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a read-only browser the terminal beside the cards with nothing to answer under it', async () => {
    const context = await browser.newContext({ viewport: DESK });
    const { page, problems } = await openPage(context, false);
    await page.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('#dock').isHidden()).toBe(true);
    expect(await page.locator('.answers button:visible, form.reply:visible').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
