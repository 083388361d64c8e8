// The attach web page in headless Chromium (Debian chromium + playwright-core).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaneInfo, PaneView } from '../../../src/engine/types.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { launchChromium } from '../../../scripts/chromium.mjs';
import { TOKEN, startHarness, type Harness } from '../../helpers/attach-harness.js';
import { paneView } from '../../helpers/fake-engine.js';

/** Browser-side expression: the terminal's rendered rows contain the text. */
function screenIncludes(text: string): string {
  return `document.querySelector('.xterm-rows')?.textContent?.includes(${JSON.stringify(text)})`;
}

let h: Harness;
let browser: Browser;

function view(pane: PaneInfo, state: PaneView['state']): PaneView {
  return paneView({ pane, state, reason: state === 'stuck' ? 'permission' : null });
}

beforeAll(async () => {
  // Fails loudly, naming the package, when Chromium is missing.
  browser = await launchChromium();
  h = await startHarness();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('attach page in a browser', () => {
  it('lists panes with live badges, mirrors typed text, and types only when writing is on', async () => {
    const paneId = await h.tmux.spawn('bash --norc', { width: 80, height: 20 });
    await h.tmux.waitForScreen(paneId, (s) => s.trim().length > 0);
    const info = (await new TmuxClient({ socket: h.tmux.socket }).listPanes()).find((p) => p.paneId === paneId)!;
    h.engine.setPanes([view(info, 'monitoring')]);

    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${h.server.port}/?token=${TOKEN}`);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    const item = page.locator(`li[data-pane="${paneId}"]`);
    await item.locator('.badge[data-state="monitoring"]').waitFor({ timeout: 10_000 });
    h.engine.setPanes([view(info, 'stuck')]);
    await item.locator('.badge[data-state="stuck"]').waitFor({ timeout: 10_000 });

    await item.click();
    await page.locator('#state[data-state="live"]').waitFor({ timeout: 10_000 });
    await h.tmux.tmux('send-keys', '-t', paneId, 'echo from-tmux-$((3*3))', 'Enter');
    await page.waitForFunction(screenIncludes('from-tmux-9'), undefined, { timeout: 10_000 });

    // Read-only: keystrokes in the page reach nothing.
    await page.locator('#terminal').click();
    expect(await page.evaluate("document.activeElement?.classList.contains('xterm-helper-textarea')")).toBe(true);
    await page.keyboard.type('echo typed-in-browser');
    await page.keyboard.press('Enter');
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.tmux.capture(paneId)).not.toContain('typed-in-browser');

    // With writing switched on, they do.
    await page.locator('#write').check();
    await page.locator('#state[data-state="live-write"]').waitFor({ timeout: 10_000 });
    await page.locator('#terminal').click();
    expect(await page.evaluate("document.activeElement?.classList.contains('xterm-helper-textarea')")).toBe(true);
    await page.keyboard.type('echo browser-$((4*4))');
    await page.keyboard.press('Enter');
    await h.tmux.waitForScreen(paneId, (s) => s.includes('browser-16'), 10_000);
    await page.waitForFunction(screenIncludes('browser-16'), undefined, { timeout: 10_000 });
    await page.close();
  });
});
