// Renders the README's pictures of the attach page: `corral demo`'s sample panes (120 columns) on a
// private tmux server, the real engine and attach server, and the page in headless Chromium on a
// phone (390x844: the cards, then the agent's terminal view with its answers docked under it) and a
// desktop (1280x800: the cards beside the agent's live terminal). Writes docs/attach-phone.png,
// docs/attach-phone-terminal.png and docs/attach-desktop.png.
// Run after `npm run build`: node scripts/attach-screenshots.mjs

import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../dist/cli/commands/demo.js';
import { createServices } from '../dist/cli/http-services.js';
import { resolveSettings } from '../dist/engine/settings/config.js';
import { createEngine } from '../dist/engine/engine.js';
import { buildRules } from '../dist/engine/prompt/matcher.js';
import { TmuxClient } from '../dist/engine/tmux/client.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../dist/engine/records/tmux-formats.js';
import { createControlRunner } from '../dist/engine/tmux/control-runner.js';
import { createExecRunner } from '../dist/engine/tmux/runner.js';
import { localTransport } from '../dist/engine/tmux/transport.js';
import { launchChromium } from './chromium.mjs';
import { killServer } from '../bench/lib/tmux-fixture.mjs';
import { clock, controlTimers, pollTimers } from '../dist/cli/time.js';

/* global document, window */

const root = fileURLToPath(new URL('..', import.meta.url));
const name = `corral-shots-${randomBytes(4).toString('hex')}`;
const socket = { kind: 'name', name };
const env = { ...process.env };
delete env.TMUX;

// The panes start in a neutral folder, so the pictures show no path of this machine's.
const folder = join(tmpdir(), 'corral-demo');
mkdirSync(join(folder, 'parser'), { recursive: true });
process.chdir(join(folder, 'parser'));

const exec = createExecRunner(localTransport(socket));
await startDemoServer(exec, env, { width: 120, height: 30 });
const settings = resolveSettings({
  flags: { socketName: name, quietThresholdMs: 3000, pollIntervalMs: 500, port: 0 },
  env: {},
  file: null,
});
const tmux = new TmuxClient({ records: LISTED_RECORDS, socket, runner: exec, clock, pollRunner: createControlRunner({ socket, exec, recordsStamp: TMUX_FORMATS.recordsStamp, clock, timers: controlTimers }) });
const engine = createEngine({ settings, tmux, clock, wallClock: clock, timers: pollTimers, rules: buildRules({ pack: 'default', patterns: [] }) });
const services = createServices({ engine, tmux, settings, token: randomBytes(24).toString('base64url') });
const browser = await launchChromium();
try {
  engine.start();
  await services.startAttach();
  // Let the demo panes settle into their states: the agent and the shell become stuck.
  const deadline = Date.now() + 30_000;
  while (engine.getSnapshot().panes.filter((v) => v.state === 'stuck').length < 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
  }
  mkdirSync(`${root}docs`, { recursive: true });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const phonePage = await phone.newPage();
  await phonePage.goto(services.attachLink().url);
  const phoneAgent = phonePage.locator('.pane', { hasText: 'agent: fix the flaky test' });
  await phoneAgent.locator('.answers button').first().waitFor({ timeout: 15_000 });
  // The agent's permission card under the header: its prompt and the quick answers.
  await phoneAgent.evaluate((card) => {
    const header = document.getElementById('top');
    window.scrollTo(0, card.offsetTop - (header ? header.offsetHeight : 0) - 10);
  });
  await new Promise((r) => setTimeout(r, 1500));
  await phonePage.screenshot({ path: `${root}docs/attach-phone.png` });
  // The same pane in the terminal view: readable text panned to the cursor, the answers under the thumb.
  await phoneAgent.locator('.open-terminal').tap();
  await phonePage.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 15_000 });
  await new Promise((r) => setTimeout(r, 1500));
  await phonePage.screenshot({ path: `${root}docs/attach-phone-terminal.png` });
  await phone.close();

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const desktopPage = await desktop.newPage();
  await desktopPage.goto(services.attachLink().url);
  const agent = desktopPage.locator('.pane', { hasText: 'agent: fix the flaky test' });
  await agent.locator('.answers button').first().waitFor({ timeout: 15_000 });
  // The page opens the first pane of the list beside the cards by itself; the picture shows the agent's.
  await agent.locator('.open-terminal').click();
  await desktopPage.locator('#viewer-state[data-state="live"]').waitFor({ timeout: 15_000 });
  await desktopPage.locator('#viewer-title', { hasText: 'node' }).waitFor({ timeout: 15_000 });
  await desktopPage.evaluate('window.scrollTo(0, 0)');
  await new Promise((r) => setTimeout(r, 1500));
  await desktopPage.screenshot({ path: `${root}docs/attach-desktop.png` });
  await desktop.close();
  console.log('wrote docs/attach-phone.png, docs/attach-phone-terminal.png and docs/attach-desktop.png');
} finally {
  await browser.close();
  await services.close();
  await engine.stop();
  killServer(name);
  process.chdir(root);
  rmSync(folder, { recursive: true, force: true });
}
