// Triage in a real tmux server: the dashboard runs in a pane of the server it watches (no -L: it
// finds the server through $TMUX, as tmux does) with no client attached, and is driven with
// send-keys and read with capture-pane. The poll is one minute long, so after the first look the
// dashboard sees a new screen only when it polls after typing: a change made behind its back stays
// undrawn, which is what the screen checks are about.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const QUIET_MS = 1000;
const POLL_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][A-Z0-9]|\u001b[=>78]/g, '');

describe('dashboard triage in a real tmux server', () => {
  let server: TestTmux;
  let dash = '';
  let deploy = '';
  let remove = '';
  let secret = '';
  let stream = '';
  const rowOf = (s: string, target: string) =>
    s.split('\n').find((l) => l.includes(` ${target} `) && /\b(STUCK|quiet|active|snoozed|answered)\b/.test(l)) ?? '';
  // Pacing, not a wait for a result: keys go in at a person's speed, one read each.
  const keys = async (...k: string[]) => {
    for (const key of k) {
      await server.tmux('send-keys', '-t', dash, key);
      await sleep(80);
    }
  };
  const selected = (s: string) => s.split('\n').find((l) => l.startsWith('›')) ?? '';
  const dashShows = (test: (s: string) => boolean, timeoutMs = 8000) => server.waitForScreen(dash, test, timeoutMs);
  const targetOf = async (pane: string) =>
    (await server.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();

  beforeAll(async () => {
    server = await startTestTmux();
    deploy = await server.spawn(`read -p 'Continue? [y/N] ' a; echo "deploy got [$a]"; sleep 600`);
    await server.tmux('rename-window', '-t', deploy, 'deploy-prod');
    // A pause the checks need, not a wait for a result: tmux stamps activity in whole seconds, and
    // deploy must have been quiet longer than remove.
    await sleep(1100);
    remove = await server.spawn(`read -p 'Do you want to continue? [Y/n] ' a; echo "remove got [$a]"; sleep 600`);
    await server.tmux('rename-window', '-t', remove, 'apt-remove');
    secret = await server.spawn(`read -s -p 'Password: ' a; echo "secret got [$a]"; sleep 600`);
    await server.tmux('rename-window', '-t', secret, 'sudo');
    for (const pane of [deploy, remove, secret]) await server.waitForScreen(pane, (s) => /[:\]] ?$/m.test(s));
    // Quiet for longer than the threshold before the dashboard starts: stuck at its first look. A
    // pause the checks need (real time must pass for tmux's activity stamps), not a wait for a result.
    await sleep(QUIET_MS + 1200);
    stream = `/tmp/corral-e2e-${randomBytes(4).toString('hex')}.out`;
    // The dashboard starts once the test says so (tmux wait-for), after its output is piped.
    const go = `corral-e2e-go-${randomBytes(4).toString('hex')}`;
    dash = await server.spawn(
      `${shellQuote(server.binary)} wait-for ${go}; exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --quiet-threshold ${QUIET_MS} --poll-interval ${POLL_MS}`,
      { session: 'dash', width: 100, height: 30 },
    );
    // Everything the dashboard writes, from its first byte.
    await server.tmux('pipe-pane', '-t', dash, '-o', `cat >> ${stream}`);
    await server.tmux('wait-for', '-S', go);
    await dashShows((s) => (s.match(/STUCK permission/g) ?? []).length === 3, 15_000);
  });

  afterAll(async () => {
    await server?.kill();
  });

  it('says loading until the first look has answered, and its first frame with panes lists them', () => {
    const text = stripAnsi(readFileSync(stream, 'utf8'));
    const loading = text.indexOf('loading');
    const total = text.search(/\d+ total/);
    expect(total).toBeGreaterThanOrEqual(0);
    // The first look can answer before Ink draws its first frame (then no frame says loading);
    // either way no frame before it may claim there are no panes.
    expect(loading === -1 || loading < total).toBe(true);
    expect(text).not.toMatch(/\b0 total/);
    expect(text).not.toContain('no panes');
  });

  it('names the watched server, found through $TMUX, and shows window names', async () => {
    const s = await server.capture(dash);
    expect(s).toContain(`corral · -L ${server.socketName} ·`);
    expect(rowOf(s, await targetOf(deploy))).toContain('deploy-prod');
    expect(rowOf(s, await targetOf(remove))).toContain('apt-remove');
  });

  it('starts on the most urgent pane and offers only the answers its prompt takes', async () => {
    const s = await server.capture(dash);
    // Both [y/N] prompts are permission; the one stuck longer (quiet longer) comes first.
    expect(rowOf(s, await targetOf(deploy))).toMatch(/^› STUCK permission/);
    expect(s).toContain('a: y n Enter · ');
  });

  it('a y on [y/N] types y and Enter; the answered pane keeps the cursor, and no later key reaches the [Y/n] pane', async () => {
    const deployTarget = await targetOf(deploy);
    const removeTarget = await targetOf(remove);
    const removeBefore = await server.capture(remove);
    await keys('a');
    await dashShows((s) => s.includes(`answer ${deployTarget}`));
    await keys('y');
    // read returns only on Enter: y alone would leave it waiting.
    await server.waitForScreen(deploy, (s) => s.includes('deploy got [y]'));
    // The row can turn active on the echoed y alone; the keys below are pressed once the preview
    // shows what read printed, so the screen they judge does not change under them.
    const after = await dashShows((s) => /^› (answered|active)/.test(rowOf(s, deployTarget)) && s.includes('deploy got [y]'));
    expect(rowOf(after, removeTarget)).toMatch(/STUCK permission/);
    // The reflex "a, Enter to submit", twice, and "a y": all on the answered pane, all refused.
    await keys('a', 'Enter');
    await dashShows((s) =>
      new RegExp(
        `(no quick answer Enter for|was just answered).*${deployTarget}|${deployTarget}.*(no quick answer|just answered|shows no prompt now)`,
      ).test(s),
    );
    // Each refusal is awaited before the next key: once the last one shows, every key has been
    // handled, so the panes are checked at a known point. Esc clears the line in between.
    const refused = (key: string) => (s: string) =>
      new RegExp(`no quick answer ${key} for ${deployTarget}|${deployTarget} (was just answered|shows no prompt now, so ${key} answers nothing)`).test(s);
    for (const key of ['Enter', 'y']) {
      await keys('Escape');
      await dashShows((s) => !refused('Enter')(s));
      await keys('a', key);
      await dashShows(refused(key));
    }
    expect(await server.capture(remove)).toBe(removeBefore);
    expect(rowOf(await server.capture(dash), removeTarget)).toMatch(/STUCK permission/);
    expect(await server.capture(deploy)).not.toMatch(/deploy got \[y\][\s\S]*deploy got/);
  });

  it('refuses a quick answer when the screen changed since it was drawn, and types nothing', async () => {
    const removeTarget = await targetOf(remove);
    await keys('n');
    await dashShows((s) => rowOf(s, removeTarget).startsWith('›'));
    // Someone types into the pane behind the dashboard's back; its next poll is a minute away.
    await server.tmux('send-keys', '-t', remove, '-l', 'x');
    await server.waitForScreen(remove, (s) => s.includes('[Y/n] x'));
    await keys('a', 'y');
    // The refusal is shown once the answer was weighed and dropped: nothing can be typed after it.
    await dashShows((s) => s.includes(`${removeTarget} changed since it was drawn; nothing was sent`));
    const screen = await server.capture(remove);
    expect(screen).toContain('[Y/n] x');
    expect(screen).not.toContain('[Y/n] xy');
    expect(screen).not.toContain('remove got');
  });

  it('offers no quick answer or reply for a password prompt, and types nothing into it', async () => {
    const secretTarget = await targetOf(secret);
    await keys('g');
    const firstRow = (s: string) => s.split('\n').find((l) => /^(› | {2})(STUCK|quiet|active|snoozed|answered)/.test(l)) ?? '';
    let screen = await dashShows((s) => firstRow(s).startsWith('›'));
    for (let i = 0; i < 5 && !rowOf(screen, secretTarget).startsWith('›'); i++) {
      const before = selected(screen);
      await keys('j');
      screen = await dashShows((s) => selected(s) !== before);
    }
    await dashShows((s) => rowOf(s, secretTarget).startsWith('›'));
    expect(await server.capture(dash)).not.toMatch(/ a [^ ]+ answer/);
    await keys('r');
    await dashShows((s) => s.includes(`${secretTarget} asks for a password or PIN`));
    await keys('a', 'y');
    // The refusal is shown instead of typing: nothing can be typed after it.
    await dashShows((s) => s.includes(`no quick answer y for ${secretTarget}`));
    expect(await server.capture(secret)).not.toContain('secret got');
  });

  it('on Enter with no tmux client attached, prints the exact attach command for the selected pane', async () => {
    const secretTarget = await targetOf(secret);
    await keys('Enter');
    await dashShows((s) => s.includes(`to go there run: tmux -L ${server.socketName} attach -t ${secretTarget} `));
  });
});

describe('dashboard first view at 80x24 in a real tmux server', () => {
  let server: TestTmux;

  beforeAll(async () => {
    server = await startTestTmux();
  });
  afterAll(async () => {
    await server?.kill();
  });

  it('lists permission prompts first even when others were stuck longer, selects the first, and fills the screen', async () => {
    // Quiet panes and an idle REPL-like prompt first: they have been waiting longest.
    for (let i = 0; i < 16; i++) await server.spawn('sleep 600');
    const idle = await server.spawn(`read -p '>>> ' a; sleep 600`);
    // Pauses the check needs, not waits for a result: tmux stamps activity in whole seconds, the
    // asks must be newer than the rest, and all quiet past the threshold when the dashboard starts.
    await sleep(1500);
    const asks: string[] = [];
    for (const what of ['deploy', 'migrate', 'purge']) {
      const pane = await server.spawn(`read -p 'Really ${what}? [y/N] ' a; sleep 600`);
      await server.tmux('rename-window', '-t', pane, what);
      asks.push(pane);
    }
    await server.waitForScreen(idle, (s) => s.includes('>>>'));
    await sleep(QUIET_MS + 1200);
    // Every held prompt counts (--waiting all): the idle `>>>`, found so on the first look, would be
    // idle otherwise; here it is the pane stuck longer that the permission prompts still come before.
    const dash = await server.spawn(
      `exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --waiting all --quiet-threshold ${QUIET_MS} --poll-interval ${POLL_MS}`,
      { session: 'dash', width: 80, height: 24 },
    );
    const screen = await server.waitForScreen(dash, (s) => s.includes('4 stuck'), 15_000);
    const lines = screen.split('\n');
    const rows = lines.filter((l) => /^(› | {2})(STUCK|quiet|active)/.test(l));
    expect(rows.slice(0, 3).map((l) => /(deploy|migrate|purge)/.exec(l)?.[1])).toEqual(['deploy', 'migrate', 'purge']);
    expect(rows[0]).toMatch(/^› STUCK permission/);
    expect(rows[3]).toMatch(/STUCK stopped/);
    // 20 panes do not fit: the preview takes the one line its pane shows (and its title), the list
    // every other row: 24 less Ink's spare line, two header lines, the column names, the preview's
    // two, the status line and the footer.
    const rule = lines.findIndex((l) => l.startsWith('── '));
    expect(lines[rule + 1]).toBe('Really deploy? [y/N]');
    expect(rows).toHaveLength(24 - 1 - 2 - 1 - 2 - 2);
    expect(lines.slice(0, rule).filter((l) => l.trim() === '')).toEqual([]);
  });
});
