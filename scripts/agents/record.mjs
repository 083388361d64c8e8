// `npm run record:agents`: records the real screens of the agent CLIs pinned in manifest.json and
// of everyday programs (scripts/agents/programs.mjs), as labelled fixtures under
// test/fixtures/recorded/<tool>/<cols>x<rows>/<label>--<state>.txt, and prints which verdicts
// changed against the fixtures that were there before (the drift report).
//
// Each agent runs offline against the scripted model (fake-model.mjs) on 127.0.0.1, with a
// throwaway HOME, in a private tmux server, driven with send-keys. Everything it starts is ended at
// the end: the tmux server, the model server, and every process that carries this run's marker in
// its environment (agents leave daemons behind, such as Codex's app-server).
//
// At the manifest's film size it also films each agent (films.mjs): a few seconds of frames while
// it waits (permission, question, idle) and the whole of a 60 s tool run, stored beside the screens.
//
// Usage: node scripts/agents/record.mjs [--only TOOL,...] [--size COLSxROWS[,...]] [--agents-only]
//        [--programs-only] [--no-films] [--jobs N] [--dry-run] [--install-dir DIR] [--verbose]
// --jobs N walks N agent/size pairs side by side (each in its own tmux session and folders).

import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { AGENTS } from './agents.mjs';
import { startFakeModel } from './fake-model.mjs';
import { PROGRAMS } from './programs.mjs';
import { startFilm } from './films.mjs';
import { startTmux } from './tmux-driver.mjs';
import { CONTEXT_FILE, RECORDED_DIR, readRecorded, verdictName } from './recorded-fixtures.mjs';
import { driftMarkdown, readRuleExpectations, recordedVersions, ruleDrift } from './rule-drift.mjs';

const run = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(HERE, 'manifest.json'), 'utf8'));

function parseArgs(argv) {
  const out = { only: null, sizes: MANIFEST.sizes, agents: true, programs: true, films: true, jobs: 1, dryRun: false, installDir: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--only') out.only = value().split(',');
    else if (a === '--size') out.sizes = value().split(',');
    else if (a === '--no-films') out.films = false;
    else if (a === '--jobs') out.jobs = Number(value());
    else if (a === '--agents-only') out.programs = false;
    else if (a === '--programs-only') out.agents = false;
    else if (a === '--dry-run') out.dryRun = true;
    else if (a === '--install-dir') out.installDir = value();
    else if (a === '--verbose') out.verbose = true;
    else if (a === '--help' || a === '-h') {
      const source = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
      const header = source.slice(0, source.findIndex((l) => !l.startsWith('//')));
      process.stdout.write(`${header.map((l) => l.slice(3)).join('\n')}\n`);
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (see --help)`);
  }
  for (const size of out.sizes) if (!/^\d+x\d+$/.test(size)) throw new Error(`--size wants COLSxROWS, not ${size}`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Installing the pinned CLIs

/** Installs the manifest's packages into `dir` (reused when it already holds exactly those versions). */
async function install(dir, packages, log) {
  const wanted = Object.entries(packages).map(([name, version]) => `${name}@${version}`);
  const installed = (name) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  if (Object.entries(packages).every(([name, version]) => installed(name) === version)) {
    log(`using the CLIs already installed in ${dir}`);
    return;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "corral-recorded-agents", "private": true }\n');
  log(`installing ${wanted.join(' ')} into ${dir} (npm registry only)`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...wanted], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  for (const [name, version] of Object.entries(packages)) {
    if (installed(name) !== version) throw new Error(`npm did not install ${name}@${version}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Ending what the run started

/**
 * Pids of the processes whose environment carries `marker` (this run's agents and their daemons),
 * or, with `walk`, the marker of one walk.
 */
function markedProcesses(marker, walk = null) {
  const needle = Buffer.from(walk === null ? `CORRAL_RECORDING=${marker}\0` : `CORRAL_RECORDING_WALK=${walk}\0`);
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

const alive = (pid) => {
  try {
    // A zombie holds its pid until its parent reaps it, but it runs nothing.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** SIGTERM to every marked process, SIGKILL to those still there 3 s later. Returns what it ended. */
async function endMarked(marker, keep = [], walk = null) {
  const pids = markedProcesses(marker, walk).filter((pid) => alive(pid) && !keep.includes(pid));
  const names = pids.map((pid) => {
    try {
      return `${pid} ${readlinkSync(`/proc/${pid}/exe`).split('/').pop()}`;
    } catch {
      return String(pid);
    }
  });
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && pids.some(alive)) await sleep(100);
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Walking one program through its steps

const asTest = (wait) => (typeof wait === 'function' ? wait : (s) => wait.test(s));

/**
 * Runs one profile at one size. Returns the recorded screens ({ state, label, screen }), the films
 * ({ name, label, film }) when `filming`, and the problems met (a required screen that never came).
 */
async function walk({ tmux, profile, cols, rows, ctx, log, verbose, filming }) {
  const name = profile.program ? profile.steps(ctx).find((s) => s.state)?.state : profile.tool;
  const session = `${name}-${cols}x${rows}`.replace(/[^\w-]/g, '-');
  const { vars, argv } = ctx.launch;
  const pane = await tmux.spawn({ session, cols, rows, cwd: ctx.work, vars, argv });
  const recorded = [];
  const films = [];
  const problems = [];
  const rolling = new Map();
  for (const step of profile.steps(ctx)) {
    if (step.film?.start) {
      if (filming) rolling.set(step.film.start, { label: step.film.label, handle: startFilm(tmux.tmux, pane, { sampleMs: step.film.sampleMs ?? 100 }) });
      continue;
    }
    if (step.film?.stop) {
      const roll = rolling.get(step.film.stop);
      if (!roll) continue;
      rolling.delete(step.film.stop);
      await sleep(step.film.holdMs ?? 0);
      const film = await roll.handle.stop();
      // A film whose state never came shows nothing worth replaying.
      const arrived = roll.label === 'busy' ? film.marks.running !== undefined : film.marks.drawn !== undefined;
      if (arrived) films.push({ name: step.film.stop, label: roll.label, film });
      else log(`  ${session}: film ${step.film.stop}: its state never came; not kept`);
      continue;
    }
    if (step.filmOnly && !filming) continue;
    if (step.when && !step.when(await tmux.capture(pane))) continue;
    if (step.send !== undefined) await send(tmux, pane, typeof step.send === 'function' ? step.send(ctx) : step.send);
    if (step.type !== undefined) await tmux.type(pane, typeof step.type === 'function' ? step.type(ctx) : step.type, { enter: false });
    if (step.erase) await tmux.tmux('send-keys', '-N', String(step.erase), '-t', pane, 'BSpace');
    if (step.keys) await tmux.keys(pane, ...step.keys);
    const test = asTest(step.wait);
    // Some agents answer slowly on a loaded machine (opencode's first turn can take a minute).
    const timeoutMs = (step.timeoutMs ?? (step.optional ? 15000 : 30000)) * (profile.slowness ?? 1);
    let screen = await tmux.waitFor(pane, test, step.repeat ? timeoutMs / step.repeat : timeoutMs);
    // Some screens take a key only once they are drawn completely: press it again.
    for (let again = 1; screen === null && again < (step.repeat ?? 1); again++) {
      if (step.keys) await tmux.keys(pane, ...step.keys);
      screen = await tmux.waitFor(pane, test, timeoutMs / step.repeat);
    }
    if (screen === null) {
      const what = step.state ?? `after ${step.send ?? step.type ?? (step.keys ?? []).join(' ')}`;
      if (step.optional) {
        if (verbose) log(`  ${session}: ${what} not seen (optional)`);
        continue;
      }
      const last = await tmux.capture(pane);
      problems.push({ state: what, screen: last });
      log(`  ${session}: ${what}: the screen never showed it; last screen:\n${indent(last)}`);
      break;
    }
    if (step.mark) for (const roll of rolling.values()) roll.handle.mark(step.mark);
    if (step.state) {
      if (step.delayMs) await sleep(step.delayMs);
      if (step.settle !== false) screen = await tmux.settle(pane);
      else screen = await tmux.capture(pane);
      if (!test(screen)) {
        problems.push({ state: step.state, screen });
        log(`  ${session}: ${step.state}: the screen changed before it could be recorded; it became:\n${indent(screen)}`);
        continue;
      }
      // A pager draws on the alternate screen; the dashboard knows it, so the fixture keeps it.
      const alternateScreen = (await tmux.tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).trim() === '1';
      recorded.push({ state: step.state, label: step.label, screen, context: alternateScreen ? { alternateScreen } : {} });
      if (verbose) log(`  ${session}: ${step.label}--${step.state}`);
    }
  }
  for (const roll of rolling.values()) await roll.handle.stop();
  await tmux.killSession(session);
  return { recorded, films, problems };
}

/**
 * Types a message and presses Enter once the text shows in the input: an agent that is still
 * starting can drop keys, so the text is typed again (once) when it does not appear.
 */
async function send(tmux, pane, text) {
  // Compared without spaces: a narrow input wraps the text at a word break.
  const head = squeeze(text).slice(0, 12);
  // A loaded machine makes agents drop keys for seconds at a time: try a few times, further apart.
  for (let attempt = 0; attempt < 5; attempt++) {
    await tmux.type(pane, text, { enter: false });
    if (await tmux.waitFor(pane, (s) => squeeze(s).includes(head), 3000 + 1000 * attempt)) break;
    await tmux.keys(pane, 'C-u');
  }
  await sleep(250);
  await tmux.keys(pane, 'Enter');
}

const squeeze = (text) => text.replace(/\s+/g, '');

const indent = (text) =>
  text
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const log = (line) => process.stdout.write(`${line}\n`);
  const { classifyScreen } = await import('../../dist/engine/prompt/matcher.js').catch(() => {
    throw new Error('dist/ is missing: run `npm run build` first (npm run record:agents does)');
  });

  const agents = args.agents ? AGENTS.filter((a) => !args.only || args.only.includes(a.tool)) : [];
  const programs = args.programs ? PROGRAMS.filter((p) => !args.only || args.only.includes(p.tool)) : [];
  if (agents.length + programs.length === 0) throw new Error(`nothing to record: --only takes ${[...AGENTS.map((a) => a.tool), 'programs'].join(', ')}`);
  const marker = randomBytes(6).toString('hex');
  // Fixed folder names keep the paths on the recorded screens the same from one run to the next,
  // so only one recording runs at a time.
  const root = join(tmpdir(), 'corral-rec');
  const lock = join(tmpdir(), 'corral-rec.pid');
  const holder = existsSync(lock) ? Number(readFileSync(lock, 'utf8')) : 0;
  if (holder && holder !== process.pid && alive(holder)) throw new Error(`another recording runs (pid ${holder}); wait for it, or end it`);
  writeFileSync(lock, String(process.pid));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const installDir = args.installDir ?? join(tmpdir(), 'corral-rec-install');


  const before = readRecorded();
  const results = [];
  const versions = {};
  let model;
  let tmux;
  // Ctrl-C or a kill ends the run the same way as its end: nothing it started stays behind.
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) return;
    interrupted = true;
    log(`\n${signal}: ending what the recording started`);
    cleanup().finally(() => process.exit(130));
  };
  const cleanup = async () => {
    await tmux?.kill();
    await model?.close();
    for (const { profile, ctx } of contexts.values()) await profile.cleanup?.(ctx);
    const late = await endMarked(marker);
    if (late.length) log(`ended left-over processes: ${late.join(', ')}`);
    const still = markedProcesses(marker).filter(alive);
    if (still.length) log(`WARNING: processes of this run still running: ${still.join(' ')}`);
    rmSync(root, { recursive: true, force: true });
    rmSync(lock, { force: true });
  };
  const contexts = new Map();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (agents.length > 0) {
      const packages = Object.fromEntries(agents.map((a) => [a.package, MANIFEST.agents[a.package]]));
      await install(installDir, packages, log);
    }
    model = await startFakeModel({ thinkMs: 600_000, slowMs: 600_000 });
    log(`scripted model on ${model.url}`);
    const env = {
      PATH: `${join(installDir, 'node_modules', '.bin')}:/usr/local/bin:/usr/bin:/bin`,
      HOME: join(root, 'home'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TMUX_TMPDIR: root,
      CORRAL_RECORDING: marker,
      // No proxy or vendor endpoint is reachable; the scripted model is on loopback.
      NO_PROXY: '127.0.0.1,localhost',
    };
    mkdirSync(env.HOME, { recursive: true });
    tmux = await startTmux({ env, configFile: join(root, 'tmux.conf') });

    const jobs = [];
    for (const profile of [...agents, ...programs]) {
      const version = profile.package ? JSON.parse(readFileSync(join(installDir, 'node_modules', profile.package, 'package.json'), 'utf8')).version : await profile.version();
      if (profile.package) versions[profile.tool] = { package: profile.package, version };
      else versions[profile.program] = { program: profile.program, version };
      for (const size of args.sizes) jobs.push({ profile, size, version });
    }
    const runJob = async ({ profile, size, version }) => {
      const [cols, rows] = size.split('x').map(Number);
      const dir = join(root, `${profile.tool}-${size}`);
      rmSync(dir, { recursive: true, force: true });
      const home = join(dir, 'home');
      const work = join(dir, 'work');
      const outside = join(dir, 'outside');
      for (const d of [home, work, outside]) mkdirSync(d, { recursive: true });
      execFileSync('git', ['init', '-q', '-b', 'main', work]);
      writeFileSync(join(work, 'README.md'), '# demo\n\nA folder the agent works in.\n');
      execFileSync('git', ['-C', work, '-c', 'user.email=rec@example.invalid', '-c', 'user.name=rec', 'add', '.']);
      execFileSync('git', ['-C', work, '-c', 'user.email=rec@example.invalid', '-c', 'user.name=rec', 'commit', '-q', '-m', 'start']);
      const ctx = { home, work, outside, model, cols, rows, editPath: profile.editOutside ? join(outside, 'notes.txt') : join(work, 'notes.txt') };
      const walkId = `${profile.tool}-${profile.program ?? ''}-${size}`.replace(/[^\w-]/g, '-');
      contexts.set(walkId, { profile, ctx });
      const setup = await profile.setup(ctx);
      ctx.launch = {
        vars: { HOME: home, CORRAL_RECORDING_WALK: walkId, ...setup.vars },
        argv: setup.argv ?? [join(installDir, 'node_modules', '.bin', profile.bin), ...(setup.args ?? [])],
      };
      log(`${profile.tool}${profile.program ? ` (${profile.program})` : ''} ${version} at ${size}`);
      const started = Date.now();
      let outcome;
      try {
        const filming = args.films && !profile.program && size === MANIFEST.filmSize;
        outcome = await walk({ tmux, profile, cols, rows, ctx, log, verbose: args.verbose, filming });
      } catch (error) {
        // One program failing (it exited, tmux refused a command) must not lose the others' screens.
        log(`  ${profile.tool} ${size}: ${error.message}`);
        outcome = { recorded: [], films: [], problems: [{ state: 'walk', screen: error.message }] };
      }
      const { recorded, films, problems } = outcome;
      await profile.cleanup?.(ctx);
      contexts.delete(walkId);
      const ended = await endMarked(marker, await tmux.serverPid(), walkId);
      log(`  ${walkId}: ${recorded.length} screens in ${((Date.now() - started) / 1000).toFixed(0)} s${problems.length ? `, ${problems.length} problem(s)` : ''}${ended.length ? `; ended ${ended.join(', ')}` : ''}`);
      results.push({ tool: profile.tool, size, recorded, problems });
      if (!args.dryRun) writeFixtures(profile.tool, size, recorded, films.map((f) => ({ ...f, film: { tool: profile.tool, size, version, ...f.film } })));
    };
    // Agents' walks side by side (--jobs): each in its own session, folders and walk marker. The
    // everyday programs share one folder per size, so they go one at a time after.
    const queue = jobs.filter((j) => !j.profile.program);
    await Promise.all(
      Array.from({ length: Math.max(1, args.jobs) }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await runJob(job);
      }),
    );
    for (const job of jobs.filter((j) => j.profile.program)) await runJob(job);
  } finally {
    if (!interrupted) await cleanup();
  }

  // The versions manifest, then what changed against the fixtures that were there before.
  if (!args.dryRun) {
    const versionsFile = join(RECORDED_DIR, 'versions.json');
    const previous = existsSync(versionsFile) ? JSON.parse(readFileSync(versionsFile, 'utf8')) : { tools: {} };
    const tmuxVersion = execFileSync('tmux', ['-V']).toString().trim();
    writeFileSync(
      versionsFile,
      `${JSON.stringify({ recordedWith: { node: process.version, tmux: tmuxVersion }, sizes: MANIFEST.sizes, tools: { ...previous.tools, ...versions } }, null, 2)}\n`,
    );
  }
  const report = driftReport(before, results, classifyScreen);
  log(`\n${report}`);
  if (!args.dryRun) {
    // Per agent release: the rules its screens no longer match (rules.json holds the accepted ones).
    const classify = (lines, context) => classifyScreen(lines, undefined, context);
    log(`\nRule drift (accept with node scripts/agents/rule-drift.mjs --accept once reviewed):\n\n${driftMarkdown(ruleDrift(readRecorded(), recordedVersions(), readRuleExpectations(), classify))}`);
  }
  const failed = results.filter((r) => r.problems.length > 0);
  if (failed.length) {
    log(`\n${failed.length} walk(s) stopped early: ${failed.map((r) => `${r.tool} ${r.size} (${r.problems.map((p) => p.state).join(', ')})`).join('; ')}`);
    process.exitCode = 1;
  }
}

/** Saves the screens and films of one walk, each replacing the fixture of the same state or name (whatever its label was). */
function writeFixtures(tool, size, recorded, films = []) {
  const dir = join(RECORDED_DIR, tool, size);
  mkdirSync(dir, { recursive: true });
  const contextFile = join(dir, CONTEXT_FILE);
  const contexts = existsSync(contextFile) ? JSON.parse(readFileSync(contextFile, 'utf8')) : {};
  for (const { state, label, screen, context } of recorded) {
    for (const old of readdirSync(dir).filter((f) => f.endsWith(`--${state}.txt`))) rmSync(join(dir, old));
    writeFileSync(join(dir, `${label}--${state}.txt`), `${screen.replace(/\n+$/, '')}\n`);
    if (Object.keys(context).length > 0) contexts[state] = context;
    else delete contexts[state];
  }
  for (const { name, label, film } of films) {
    for (const old of readdirSync(dir).filter((f) => f.endsWith(`--${name}.film.json`))) rmSync(join(dir, old));
    // One frame a line: a film's diff shows which frames changed.
    const { frames, ...head } = film;
    const body = `${JSON.stringify(head).slice(0, -1)},"frames":[\n${frames.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
    writeFileSync(join(dir, `${label}--${name}.film.json`), body);
  }
  if (Object.keys(contexts).length > 0) writeFileSync(contextFile, `${JSON.stringify(contexts, null, 2)}\n`);
  else rmSync(contextFile, { force: true });
}

/** Which verdicts changed: for every state recorded now, the verdict on the old screen and on the new one. */
export function driftReport(before, results, classifyScreen) {
  const key = (tool, size, state) => `${tool}/${size}/${state}`;
  const old = new Map(before.map((f) => [key(f.tool, f.size, f.state), f]));
  const rows = [];
  let changed = 0;
  let wrong = 0;
  let total = 0;
  for (const { tool, size, recorded } of results) {
    for (const { state, label, screen, context } of recorded) {
      total++;
      const now = verdictName(classifyScreen(screen.split('\n'), undefined, context));
      const was = old.get(key(tool, size, state));
      const then = was ? verdictName(classifyScreen(was.lines, undefined, was.context)) : '(new state)';
      const ok = now.split(' ')[0] === label;
      if (!ok) wrong++;
      if (then !== now) changed++;
      if (then !== now || !ok) rows.push(`| ${tool} | ${size} | ${state} | ${label} | ${then} | ${now} | ${ok ? 'yes' : '**NO**'} |`);
      old.delete(key(tool, size, state));
    }
  }
  const recordedNow = new Set(results.map((r) => `${r.tool}/${r.size}`));
  const missing = [...old.values()].filter((f) => recordedNow.has(`${f.tool}/${f.size}`));
  const lines = [
    `Drift report: ${total} screens recorded, ${changed} verdict(s) changed against the committed fixtures, ${wrong} verdict(s) differ from their label.`,
  ];
  if (rows.length) lines.push('', '| tool | size | state | label | verdict before | verdict now | right |', '|---|---|---|---|---|---|---|', ...rows);
  if (missing.length) lines.push('', `Not reached this time (the committed fixture stays): ${missing.map((f) => `${f.tool}/${f.size}/${f.state}`).join(', ')}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`record: ${error.message}\n`);
    process.exit(1);
  });
}
