#!/usr/bin/env node
/* global document -- the callbacks passed to page.waitForFunction and addInitScript run in the browser */
// End-to-end check of the chat bridge with a real chat UI: NextChat (Next.js) in headless
// Chromium, talking to `corral serve` in front of a private tmux server. Not part of `npm test`:
// NextChat needs a Next.js build (minutes, about 2 GB of memory) and the network for its packages.
//
//   node scripts/nextchat-e2e.mjs PATH-TO-NEXTCHAT-CHECKOUT [--mode server|browser|both]
//        [--work DIR] [--screenshot FILE] [--keep]
//
// The checkout is a clone of NextChat's public repository; it is not changed. The script copies it
// to a work folder (default $TMPDIR/corral-nextchat, reused by later runs), replaces the realtime
// package (a download from GitHub) with a local stand-in, installs the rest from the npm registry,
// builds it, and runs it on 127.0.0.1. In the browser, every request that leaves 127.0.0.1 (web
// fonts) is refused, so the check runs offline.
//
// Modes: "server" (NextChat's server calls corral: BASE_URL, OPENAI_API_KEY, CUSTOM_MODELS) and
// "browser" (the page calls corral itself, which needs --cors-origin). In each mode it types
// commands into the chat, waits for their output, checks that the pane ran exactly the person's
// messages (NextChat's title and summary requests were answered by corral, not typed), that the
// conversation got corral's title, and saves a screenshot. Then, in a new chat: a long answer
// comes back whole, a command sent twice runs twice, a command with no output shows "(no output)",
// a message to the pane while a program the person started runs is refused and not typed, a
// stream stopped with NextChat's Stop button loses no line, and a question from the command ends
// the answer and takes the next message as its answer.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/bin/corral.js');
const TOKEN = `e2e-${randomBytes(12).toString('hex')}`;
const AVATAR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#e7f8ff"/><circle cx="32" cy="26" r="10" fill="#1d93ab"/><path d="M14 54c4-12 32-12 36 0" fill="#1d93ab"/></svg>';

function usage(message) {
  if (message) console.error(`nextchat-e2e: ${message}`);
  console.error('usage: node scripts/nextchat-e2e.mjs PATH-TO-NEXTCHAT-CHECKOUT [--mode server|browser|both] [--work DIR] [--screenshot FILE] [--keep]');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { checkout: null, mode: 'both', work: join(tmpdir(), 'corral-nextchat'), screenshot: null, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    if (arg === '--mode') options.mode = value();
    else if (arg === '--work') options.work = resolve(value());
    else if (arg === '--screenshot') options.screenshot = resolve(value());
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--help' || arg === '-h') usage();
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else options.checkout = resolve(arg);
  }
  if (!options.checkout) usage('the path of a NextChat checkout is required');
  if (!['server', 'browser', 'both'].includes(options.mode)) usage(`--mode must be server, browser or both, not ${options.mode}`);
  return options;
}

const log = (line) => console.error(`[nextchat-e2e] ${line}`);

function run(command, args, options = {}) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
}

// --- preparing NextChat ------------------------------------------------------------------------

/** What the realtime voice package offers to NextChat's code, doing nothing: voice chat is not checked. */
function writeRealtimeStandIn(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'rt-client', version: '0.5.0', main: 'index.js', types: 'index.d.ts' }, null, 2));
  writeFileSync(
    join(dir, 'index.js'),
    [
      "'use strict';",
      'class Unavailable { constructor() { throw new Error("realtime voice is not available in this offline build"); } }',
      'exports.RTClient = Unavailable;',
      'exports.RTInputAudioItem = Unavailable;',
      'exports.RTResponse = Unavailable;',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'index.d.ts'),
    [
      'export type Voice = string;',
      'export type Modality = any;',
      'export type TurnDetection = any;',
      ...['RTClient', 'RTInputAudioItem', 'RTResponse'].flatMap((name) => [`export declare const ${name}: any;`, `export type ${name} = any;`]),
      '',
    ].join('\n'),
  );
}

function prepare(checkout, work) {
  const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8'));
  if (manifest.name !== 'nextchat') throw new Error(`${checkout} is not a NextChat checkout (its package.json names "${manifest.name}")`);
  const source = join(work, 'app');
  const stamp = join(work, 'prepared.json');
  const wanted = JSON.stringify({ checkout, version: manifest.version ?? null, dependencies: manifest.dependencies });
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
    log(`copying ${checkout} to ${source}`);
    rmSync(source, { recursive: true, force: true });
    // yarn.lock pins its packages to a registry mirror this machine may not reach: npm resolves
    // them from the registry it is configured with instead.
    cpSync(checkout, source, { recursive: true, filter: (path) => !/[/\\](node_modules|\.next|\.git|yarn\.lock|\.npmrc)$/.test(path) });
    writeRealtimeStandIn(join(source, '.offline/rt-client'));
    const patched = { ...manifest, dependencies: { ...manifest.dependencies, 'rt-client': 'file:.offline/rt-client' } };
    delete patched.scripts.prepare;
    writeFileSync(join(source, 'package.json'), `${JSON.stringify(patched, null, 2)}\n`);
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps'], { cwd: source });
    writeFileSync(stamp, wanted);
  }
  if (!existsSync(join(source, '.next/standalone/server.js'))) {
    const env = { ...process.env, BUILD_MODE: 'standalone', NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: '--max-old-space-size=4096' };
    run(join(source, 'node_modules/.bin/tsx'), ['app/masks/build.ts'], { cwd: source, env });
    // NextChat's own lint is not what this checks (and one of its plugins crashes on this Next.js).
    run(join(source, 'node_modules/.bin/next'), ['build', '--no-lint'], { cwd: source, env });
    // The standalone server serves these from its own folder.
    cpSync(join(source, '.next/static'), join(source, '.next/standalone/.next/static'), { recursive: true });
    cpSync(join(source, 'public'), join(source, '.next/standalone/public'), { recursive: true });
  }
  return source;
}

// --- processes ----------------------------------------------------------------------------------

function startProcess(name, command, args, options, ready) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let output = '';
  const collect = (chunk) => {
    output += chunk;
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolvePromise, reject) => {
    const deadline = Date.now() + 60_000;
    const check = () => {
      const match = ready(output);
      if (match) return resolvePromise({ child, match, output: () => output, stop: () => stopChild(child) });
      if (child.exitCode !== null || Date.now() > deadline) return reject(new Error(`${name} did not start:\n${output}`));
      setTimeout(check, 50);
    };
    check();
  });
}

function stopChild(child) {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise();
    child.once('exit', () => resolvePromise());
    child.kill('SIGTERM');
  });
}

function tmuxServer() {
  const name = `corral-nextchat-${randomBytes(4).toString('hex')}`;
  const env = { ...process.env, PS1: 'me@box:~/demo$ ', PROMPT_COMMAND: '', HISTFILE: '/dev/null' };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const demo = join(tmpdir(), `${name}-demo`);
  mkdirSync(join(demo, 'src'), { recursive: true });
  writeFileSync(join(demo, 'README.md'), '# demo\n');
  writeFileSync(join(demo, 'src/main.c'), 'int main(void) { return 0; }\n');
  const tmux = (...args) => spawnSync('tmux', ['-L', name, ...args], { encoding: 'utf8', env });
  const created = tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'work', '-x', '120', '-y', '32', '-c', demo, 'bash', '--norc', '--noprofile');
  if (created.status !== 0) throw new Error(`tmux could not start: ${created.stderr}`);
  tmux('select-pane', '-t', 'work:0.0', '-T', '@tb-work: NextChat demo');
  const capture = () => tmux('capture-pane', '-p', '-J', '-t', 'work:0.0', '-S', '-').stdout;
  return {
    name,
    capture,
    /** The command lines the pane's shell ran (its prompt, then the command). */
    typed: () =>
      capture()
        .split('\n')
        .filter((line) => line.startsWith('me@box:~/demo$ ') && line.trim() !== 'me@box:~/demo$')
        .map((line) => line.slice('me@box:~/demo$ '.length)),
    /** Types a command into the pane as the person would at the keyboard. */
    type: (command) => {
      tmux('send-keys', '-t', 'work:0.0', '-l', command);
      tmux('send-keys', '-t', 'work:0.0', 'Enter');
    },
    kill: () => {
      tmux('kill-server');
      rmSync(demo, { recursive: true, force: true });
    },
  };
}

// --- the browser --------------------------------------------------------------------------------

async function chat(page, base, say, expect) {
  const input = page.locator('textarea').first();
  await input.waitFor({ timeout: 30_000 });
  await input.fill(say);
  await input.press('Enter');
  // The answer is the last bot message; wait until it holds the expected output and has stopped.
  await page.waitForFunction(
    (text) => {
      const bodies = [...document.querySelectorAll('[class*="chat-message-item"]')];
      const last = bodies.at(-1)?.textContent ?? '';
      return last.includes(text) && !document.querySelector('[class*="chat-message-status"]')?.textContent?.includes('Typing');
    },
    expect,
    { timeout: 60_000 },
  );
}

/** The text of the last message in the chat. */
function lastMessage(page) {
  return page.evaluate(() => [...document.querySelectorAll('[class*="chat-message-item"]')].at(-1)?.textContent ?? '');
}

/** Sends a message and waits until the last answer holds `expect` (a string or a RegExp source). */
async function chatUntil(page, say, pattern) {
  log(`chat: ${say} (waiting for ${pattern})`);
  const input = page.locator('textarea').first();
  await input.fill(say);
  await input.press('Enter');
  await page.waitForFunction(
    (source) => new RegExp(source).test([...document.querySelectorAll('[class*="chat-message-item"]')].at(-1)?.textContent ?? ''),
    pattern.source,
    { timeout: 60_000 },
  );
  await answerEnded(page);
}

/** The answer has ended: NextChat takes the Stop action off the message once its stream is done. */
async function answerEnded(page) {
  await page.waitForFunction(
    () => ![...document.querySelectorAll('div, span, button')].some((node) => node.children.length === 0 && node.textContent?.trim() === 'Stop'),
    null,
    { timeout: 60_000 },
  );
}

/** The bridge's cases from the person's side, in a new chat. */
async function streamCases(page, server) {
  await page.locator('[class*="chat-new"], [class*="new-chat"]').first().click().catch(() => undefined);
  // Every line of a long answer, in order.
  await chatUntil(page, 'seq 1 3000', /2999\s*3000/);
  const numbers = (await lastMessage(page)).match(/\d+/g)?.map(Number) ?? [];
  const run = numbers.indexOf(1);
  if (run === -1 || numbers.slice(run, run + 3000).some((n, i) => n !== i + 1)) throw new Error('the answer to seq 1 3000 is not 1 to 3000 in order');
  // A repeated command runs again.
  await chatUntil(page, 'date +%T.%N', /\d\d:\d\d:\d\d\.\d+/);
  await chatUntil(page, 'date +%T.%N', /\d\d:\d\d:\d\d\.\d+/);
  if (server.typed().filter((line) => line === 'date +%T.%N').length !== 2) throw new Error('the same command sent twice did not run twice');
  // Empty output is an answer.
  await chatUntil(page, 'true', /\(no output\)/);
  // A program the person started: refused, nothing typed.
  server.type('sleep 8');
  await new Promise((r) => setTimeout(r, 500));
  await chatUntil(page, 'echo typed under sleep', /is running sleep|pane_busy/);
  if (server.capture().includes('echo typed under sleep')) throw new Error('a message was typed under a running sleep');
  await new Promise((r) => setTimeout(r, 8000));
  // Stop loses nothing: every tick after the cut is in the next answer.
  const input = page.locator('textarea').first();
  await input.fill('for i in $(seq 1 10); do echo tick-$i; sleep 0.5; done');
  await input.press('Enter');
  await page.waitForFunction(() => ([...document.querySelectorAll('[class*="chat-message-item"]')].at(-1)?.textContent ?? '').includes('tick-3'), null, { timeout: 30_000 });
  // The message's actions show on hover; the click goes to the action itself.
  await page.getByText('Stop', { exact: true }).first().dispatchEvent('click');
  const cutAt = Math.max(...((await lastMessage(page)).match(/tick-(\d+)/g) ?? []).map((t) => Number(t.slice(5))));
  await new Promise((r) => setTimeout(r, 6000));
  await chatUntil(page, 'echo after-stop', /after-stop/);
  const late = (await lastMessage(page)).match(/tick-(\d+)/g)?.map((t) => Number(t.slice(5))) ?? [];
  for (let n = cutAt + 1; n <= 10; n++) if (!late.includes(n)) throw new Error(`tick-${n}, printed after the stop, is missing from the next answer (${late.join(', ')})`);
  // A question ends the answer; the next message is its answer.
  await chatUntil(page, 'read -p "name? " n; echo "hello $n"', /waits for input/);
  await chatUntil(page, 'bob', /hello bob/);
  log('stream cases: ok (a long answer whole, a repeated command run twice, (no output), a busy pane refused, nothing lost after Stop, a question answered)');
}

async function runMode(mode, source, options) {
  const server = tmuxServer();
  let corral = null;
  let nextchat = null;
  let browser = null;
  try {
    const nextPort = 30_000 + Math.floor(Math.random() * 20_000);
    const nextOrigin = `http://127.0.0.1:${nextPort}`;
    const corralArgs = [CLI, 'serve', '-L', server.name, '--port', '0', '--opt-in', '--token', TOKEN];
    if (mode === 'browser') corralArgs.push('--cors-origin', nextOrigin);
    corral = await startProcess('corral', process.execPath, corralArgs, { env: { ...process.env, TMUX: '', TMUX_PANE: '' } }, (out) => /http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(out));
    const corralBase = `http://127.0.0.1:${corral.match[1]}`;
    log(`${mode} mode: corral on ${corralBase}, NextChat on ${nextOrigin}`);

    const env = { ...process.env, PORT: String(nextPort), HOSTNAME: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1', CUSTOM_MODELS: '-all,+work@OpenAI', DEFAULT_MODEL: 'work@OpenAI' };
    if (mode === 'server') Object.assign(env, { BASE_URL: corralBase, OPENAI_API_KEY: TOKEN });
    nextchat = await startProcess('NextChat', process.execPath, [join(source, '.next/standalone/server.js')], { cwd: join(source, '.next/standalone'), env }, (out) => /Ready in|started server|Listening/i.test(out));

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Offline: only this machine answers. NextChat asks Google for its fonts (refused) and a CDN
    // for its emoji avatars (a plain stand-in picture instead).
    await page.route('**/*', (route) => {
      const request = route.request();
      if (/^https?:\/\/127\.0\.0\.1[:/]/.test(request.url())) return route.continue();
      if (request.resourceType() === 'image') return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: AVATAR });
      return route.abort();
    });
    if (mode === 'browser') {
      // NextChat keeps its settings in localStorage: a custom OpenAI endpoint, called from the page.
      await page.addInitScript(
        ({ base, token }) => {
          if (localStorage.getItem('access-control')) return;
          localStorage.setItem('access-control', JSON.stringify({ state: { useCustomConfig: true, provider: 'OpenAI', openaiUrl: base, openaiApiKey: token }, version: 2 }));
        },
        { base: corralBase, token: TOKEN },
      );
    }
    await page.goto(`${nextOrigin}/`, { waitUntil: 'domcontentloaded' });

    await chat(page, nextOrigin, 'ls -la src', 'main.c');
    await chat(page, nextOrigin, 'cat src/main.c', 'return 0; }');
    // NextChat asks for a title once the conversation is long enough; corral answers it.
    await page.waitForFunction(() => document.body.textContent?.includes('tmux work — ls -la src'), null, { timeout: 30_000 });

    const typed = server.typed();
    if (JSON.stringify(typed) !== JSON.stringify(['ls -la src', 'cat src/main.c'])) {
      throw new Error(`the pane ran ${JSON.stringify(typed)}, not just the two messages typed in the chat:\n${server.capture()}`);
    }
    const decisions = corral.output().split('\n').filter((line) => line.includes('chat bridge:'));
    log(`corral's decisions:\n  ${decisions.join('\n  ') || '(none)'}`);
    if (!decisions.some((line) => line.includes('NextChat title request'))) throw new Error("corral did not log NextChat's title request");

    if (options.screenshot) {
      await page.screenshot({ path: options.screenshot });
      log(`screenshot: ${options.screenshot}`);
    }
    log(`${mode} mode: ok (the pane ran exactly the person's two messages; the title came from corral${mode === 'browser' ? '; NextChat\'s server had no API address, so the page called corral itself' : ''})`);
    await streamCases(page, server).catch(async (error) => {
      log(`the last message was: ${JSON.stringify((await lastMessage(page)).slice(-600))}`);
      log(`corral said:\n${corral.output().slice(-3000)}`);
      log(`the pane:\n${server.capture().slice(-1500)}`);
      throw error;
    });
  } finally {
    await browser?.close();
    await nextchat?.stop();
    await corral?.stop();
    server.kill();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) throw new Error(`build corral first (npm run build): ${CLI} is missing`);
  const source = prepare(options.checkout, options.work);
  const modes = options.mode === 'both' ? ['server', 'browser'] : [options.mode];
  // With both modes the browser mode's picture gets a -browser suffix.
  const screenshotOf = (mode) => (options.screenshot && options.mode === 'both' && mode === 'browser' ? options.screenshot.replace(/(\.png)?$/, '-browser.png') : options.screenshot);
  for (const mode of modes) await runMode(mode, source, { ...options, screenshot: screenshotOf(mode) });
  if (!options.keep) log(`the built NextChat stays in ${options.work} for the next run (delete it to start over)`);
}

main().catch((error) => {
  console.error(`nextchat-e2e: ${error.message}`);
  process.exit(1);
});
