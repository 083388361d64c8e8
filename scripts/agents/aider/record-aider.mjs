// Records aider's screens and films for the prompt fixtures (test/fixtures/recorded/aider/).
// aider is a Python program: it runs from a checkout of its source with the machine's Python
// packages, and stand-ins (./stand-ins) for the packages missing there; its terminal UI
// (prompt_toolkit, rich) must be the real one. Against the text model (./text-model.mjs), in a
// private tmux server, at three sizes side by side (films at 120x40). Not part of `npm test`;
// the fixtures it writes are.
//
//   node scripts/agents/aider/record-aider.mjs --source <aider checkout> --python <python with its packages>
//        [--size 60x20,80x24,120x40]

import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFilm } from '../films.mjs';
import { RECORDED_DIR } from '../recorded-fixtures.mjs';
import { startTmux } from '../tmux-driver.mjs';
import { startTextModel } from './text-model.mjs';

const STAND_INS = fileURLToPath(new URL('./stand-ins', import.meta.url));
const FILM_SIZE = '120x40';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { values } = parseArgs({
  options: {
    source: { type: 'string' },
    python: { type: 'string', default: 'python3' },
    size: { type: 'string', default: '60x20,80x24,120x40' },
  },
});
if (!values.source || !existsSync(join(values.source, 'aider', 'main.py'))) {
  process.stderr.write('record-aider: --source must be a checkout of aider (aider/main.py in it)\n');
  process.exit(2);
}
const sizes = values.size.split(',');

const version = execFileSync(values.python, ['-m', 'aider', '--version'], {
  env: { ...process.env, PYTHONPATH: `${STAND_INS}:${values.source}`, PYTHONDONTWRITEBYTECODE: '1' },
  encoding: 'utf8',
})
  .trim()
  .split(/\s+/)
  .pop();

const work = mkdtempSync(join(tmpdir(), 'corral-rec-aider-'));
const model = await startTextModel();
const server = await startTmux({ env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, TERM: 'xterm-256color', LANG: 'C.UTF-8' }, configFile: join(work, 'tmux.conf') });

/** The prompt aider waits at: `diff>` alone on the last line. */
const atPrompt = (screen) => /^diff>\s*$/m.test(screen.trimEnd().split('\n').pop() ?? '');
const lastLine = (screen) => screen.trimEnd().split('\n').pop() ?? '';
/** The last two lines as one: a question wraps on a narrow pane. */
const lastTwo = (screen) => screen.trimEnd().split('\n').slice(-2).join('');

async function recordSize(size) {
  const [cols, rows] = size.split('x').map(Number);
  const dir = join(RECORDED_DIR, 'aider', size);
  mkdirSync(dir, { recursive: true });
  const repo = join(work, `repo-${size}`);
  const home = join(work, `home-${size}`);
  mkdirSync(join(home, '.aider', 'caches'), { recursive: true });
  // No model price list from the network: an empty cache, fresh.
  writeFileSync(join(home, '.aider', 'caches', 'model_prices_and_context_window.json'), '{}');
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, 'notes.txt'), 'release notes\n');
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
  git('init', '-q');
  git('config', 'user.name', 'corral');
  git('config', 'user.email', 'dev@corral.invalid');
  git('add', '-A');
  git('commit', '-qm', 'start');
  const pane = await server.spawn({
    session: `aider-${size}`,
    cols,
    rows,
    cwd: repo,
    vars: { PYTHONPATH: `${STAND_INS}:${values.source}`, PYTHONDONTWRITEBYTECODE: '1', HOME: home, OPENAI_API_KEY: 'scripted', OPENAI_API_BASE: model.url },
    argv: [values.python, '-m', 'aider', '--model', 'openai/scripted', '--edit-format', 'diff', '--no-check-update', '--no-analytics', '--no-show-model-warnings', '--no-gitignore', '--map-tokens', '0', '--no-auto-commits', '--no-show-release-notes'],
  });
  const save = async (label, state, screen) => {
    const text = screen ?? (await server.settle(pane));
    writeFileSync(join(dir, `${label}--${state}.txt`), text);
    process.stdout.write(`aider ${size} ${label}--${state}: ${JSON.stringify(lastLine(text))}\n`);
  };
  const waitPrompt = async (timeoutMs = 20_000) => {
    const screen = await server.waitFor(pane, atPrompt, timeoutMs);
    if (screen === null) throw new Error(`aider ${size}: no prompt within ${timeoutMs} ms:\n${await server.capture(pane)}`);
    return server.settle(pane);
  };
  const waitLast = async (test, what, timeoutMs = 20_000) => {
    const screen = await server.waitFor(pane, (s) => test(lastLine(s)) || test(lastTwo(s)), timeoutMs);
    if (screen === null) throw new Error(`aider ${size}: no ${what} within ${timeoutMs} ms:\n${await server.capture(pane)}`);
    return screen;
  };
  const filming = size === FILM_SIZE;
  const film = async (label, name, body) => {
    if (!filming) return body({ mark: () => undefined });
    const recorder = startFilm(server.tmux, pane, { sampleMs: name === 'working' || name === 'silent' ? 250 : 100 });
    await body(recorder);
    const stored = await recorder.stop();
    writeFileSync(join(dir, `${label}--${name}.film.json`), `${JSON.stringify({ tool: 'aider', size, version, ...stored })}\n`);
  };
  const question = /\(Y\)es\/\(N\)o.*:\s*$/;
  /** Answers aider's question and waits until it has taken the answer (the question is no longer last). */
  const answer = async (text) => {
    await server.type(pane, text);
    await server.waitFor(pane, (s) => !question.test(lastLine(s)) && !question.test(lastTwo(s)), 20_000);
  };

  await save('stopped', 'idle-fresh', await waitPrompt(30_000));
  await film('stopped', 'idle', async (f) => {
    await server.type(pane, 'hello there');
    await waitPrompt();
    f.mark('drawn');
    if (filming) await sleep(10_000);
  });
  await save('stopped', 'idle-after-answer', await waitPrompt());
  await server.type(pane, 'a draft I have not sent yet', { enter: false });
  await save('stopped', 'draft');
  await server.keys(pane, 'C-u');
  // A multi-line block: `{`, lines, no closing `}` yet.
  await server.type(pane, '{');
  await server.type(pane, 'rename the helper');
  await server.type(pane, 'and update its callers', { enter: false });
  await save('stopped', 'draft-multiline');
  await server.keys(pane, 'C-u');
  await server.type(pane, '}');
  await waitPrompt();
  await film('permission', 'permission', async (f) => {
    await server.type(pane, 'RUNCMD touch marker.txt');
    await waitLast((l) => question.test(l), 'shell question');
    f.mark('drawn');
    if (filming) await sleep(10_000);
  });
  await save('permission', 'shell-approval');
  await answer('n');
  await save('stopped', 'shell-rejected', await waitPrompt());
  await server.type(pane, 'ADDFILE notes.txt');
  await waitLast((l) => question.test(l), 'add-file question');
  await save('permission', 'add-file');
  await answer('n');
  await waitPrompt();
  await server.type(pane, 'ADDURL see https://example.com/c.html');
  await waitLast((l) => question.test(l), 'add-url question');
  await save('permission', 'add-url');
  await answer('n');
  await waitPrompt();
  // A silent command: nothing on screen says aider works (the process tree does).
  await film('busy', 'silent', async (f) => {
    await server.type(pane, '/run sleep 60');
    f.mark('running');
    await sleep(8_000);
    await save('busy', 'run-silent', await server.capture(pane));
    await waitLast((l) => question.test(l), 'add-output question', 80_000);
    f.mark('done');
  });
  await save('permission', 'add-output');
  await answer('n');
  await waitPrompt();
  await film('busy', 'working', async (f) => {
    await server.type(pane, '/run for i in $(seq 1 60); do echo "step $i of 60"; sleep 1; done');
    f.mark('running');
    await server.waitFor(pane, (s) => s.includes('step 12 of 60'), 30_000);
    await save('busy', 'run-printing', await server.capture(pane));
    await waitLast((l) => question.test(l), 'add-output question', 80_000);
    f.mark('done');
  });
  await answer('n');
  await waitPrompt();
  await server.type(pane, 'THINKLONG');
  await sleep(5_000);
  await save('busy', 'waiting-for-model', await server.capture(pane));
  await waitPrompt(30_000);
  await server.type(pane, 'SLOWREPLY');
  await server.waitFor(pane, (s) => s.includes('Questions people ask'), 30_000);
  await save('busy', 'streaming', await server.capture(pane));
  // The answer holds a shell block: aider offers to run it once the answer is in.
  await waitLast((l) => question.test(l) || /^diff>\s*$/.test(l), 'the end of the answer', 90_000);
  const ended = await server.settle(pane);
  if (question.test(lastLine(ended)) || question.test(lastTwo(ended))) {
    await save('permission', 'commands-in-answer');
    await answer('n');
  }
  await save('stopped', 'long-answer', await waitPrompt());
  for (const [keyword, code] of [['FAILRATE', '429'], ['FAILSERVER', '500']]) {
    await server.type(pane, keyword);
    await server.waitFor(pane, (s) => /Retrying in/.test(s), 20_000);
    await sleep(1_500);
    await save('busy', `retrying-${code}`, await server.capture(pane));
    await save('stopped', `api-error-${code}`, await waitPrompt(240_000));
  }
  await server.keys(pane, 'C-c');
  await save('stopped', 'exit-confirm', await server.settle(pane));
}

try {
  await Promise.all(sizes.map((size) => recordSize(size)));
  const versionsFile = join(RECORDED_DIR, 'versions.json');
  const versions = JSON.parse(readFileSync(versionsFile, 'utf8'));
  const commit = execFileSync('git', ['-C', values.source, 'rev-parse', '--short=9', 'HEAD'], { encoding: 'utf8' }).trim();
  // Its name on the Python package index; run from its source at that commit.
  versions.tools.aider = { package: 'aider-chat', source: 'github.com/Aider-AI/aider', commit, version };
  writeFileSync(versionsFile, `${JSON.stringify(versions, null, 2)}\n`);
  process.stdout.write(`aider ${version}: ${model.requests.length} model requests\n`);
} finally {
  await server.kill();
  await model.close();
  rmSync(work, { recursive: true, force: true });
}
