// How wide a terminal draws text, asked of the terminal itself: each text is written at the start of
// a line of a tmux pane, followed by a cursor position request (CSI 6n); tmux answers with where the
// cursor went. About 6,000 texts a second.
//
//   node scripts/terminal-cells.mjs [tmux]   every code point from U+00A0 to U+3FFFF (and the tag
//                                            and variation selector planes) in the form the dashboard
//                                            draws it (cellSafe), against cellWidth: lists what the
//                                            build draws wider (exit 1 if anything), counts what it
//                                            draws narrower. Needs `npm run build` first.
//
// measureCells(binary, texts) is what the tests use. Runs tmux on a private socket of its own.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const PANE_WIDTH = 2000;
// eslint-disable-next-line no-control-regex -- the terminal's answer starts with ESC
const ANSWER = /\x1b\[(\d+);(\d+)R/;

/** Inside the pane: writes each text, asks where the cursor is, and saves the columns. */
async function measureInPane(input, output) {
  const texts = JSON.parse(readFileSync(input, 'utf8'));
  const widths = [];
  let pending = '';
  let answer = null;
  process.stdin.setRawMode(true);
  process.stdin.on('data', (chunk) => {
    pending += chunk.toString('latin1');
    const match = ANSWER.exec(pending);
    if (match && answer) {
      pending = pending.slice(match.index + match[0].length);
      const done = answer;
      answer = null;
      done(Number(match[2]) - 1);
    }
  });
  for (const text of texts) {
    widths.push(
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the terminal did not say where the cursor is')), 10_000);
        answer = (column) => {
          clearTimeout(timer);
          resolve(column);
        };
        process.stdout.write(`\r\x1b[2K${text}\x1b[6n`);
      }),
    );
  }
  process.stdout.write('\r\x1b[2K');
  writeFileSync(output, JSON.stringify(widths));
  process.exit(0);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cells the tmux at `binary` draws each of `texts` in (texts without controls, each narrower
 * than 2,000 cells), read from the cursor. Starts and kills a tmux server of its own.
 */
export async function measureCells(binary, texts, { timeoutMs = 120_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-cells-'));
  const socket = join(dir, 'tmux.sock');
  const input = join(dir, 'texts.json');
  const output = join(dir, 'widths.json');
  const failed = join(dir, 'failed.txt');
  writeFileSync(input, JSON.stringify(texts));
  const env = { ...process.env, LANG: process.env.LANG || 'C.UTF-8' };
  delete env.TMUX;
  const tmux = (...args) => execFileSync(binary, ['-S', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  try {
    tmux(
      'new-session', '-d', '-x', String(PANE_WIDTH), '-y', '5',
      `${quote(process.execPath)} ${quote(SELF)} --pane ${quote(input)} ${quote(output)} 2>${quote(failed)}; sleep 60`,
    );
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(output)) {
      if (existsSync(failed) && readFileSync(failed, 'utf8').trim() !== '') throw new Error(`measuring in ${binary}: ${readFileSync(failed, 'utf8').trim()}`);
      if (Date.now() > deadline) throw new Error(`measuring ${texts.length} texts in ${binary} took over ${timeoutMs} ms`);
      await sleep(50);
    }
    await sleep(50);
    return JSON.parse(readFileSync(output, 'utf8'));
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // gone already
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every code point worth asking about, as one-character texts. */
function everyCodePoint() {
  const points = [];
  for (const [first, last] of [[0xa0, 0x3ffff], [0xe0000, 0xe01ff]]) {
    for (let cp = first; cp <= last; cp++) {
      if (cp >= 0xd800 && cp <= 0xf8ff) continue; // surrogates and private use
      points.push(cp);
    }
  }
  return points;
}

function ranges(points) {
  const out = [];
  for (const cp of points) {
    const last = out[out.length - 1];
    if (last && cp === last[1] + 1) last[1] = cp;
    else out.push([cp, cp]);
  }
  return out.map(([a, b]) => (a === b ? `U+${a.toString(16)}` : `U+${a.toString(16)}-${b.toString(16)}`)).join(' ');
}

async function main(binary) {
  const cells = await import(new URL('../dist/engine/text/cells.js', import.meta.url).href).catch(() => {
    throw new Error('dist/engine/text/cells.js is missing: run npm run build first');
  });
  const points = everyCodePoint();
  const texts = points.map((cp) => cells.cellSafe(String.fromCodePoint(cp)));
  const started = Date.now();
  const widths = await measureCells(binary, texts, { timeoutMs: 600_000 });
  const wider = [];
  let narrower = 0;
  texts.forEach((text, i) => {
    const planned = cells.cellWidth(text);
    if (widths[i] > planned) wider.push(points[i]);
    else if (widths[i] < planned) narrower += 1;
  });
  const version = execFileSync(binary, ['-V'], { encoding: 'utf8' }).trim();
  console.log(`${version}: ${texts.length} code points measured in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`drawn narrower than planned: ${narrower} (a row may end a cell short)`);
  console.log(`drawn wider than planned: ${wider.length}${wider.length > 0 ? `: ${ranges(wider)}` : ''}`);
  if (wider.length > 0) {
    console.log('add these to WIDER in src/engine/text/cells.ts (or rewrite them in cellSafe)');
    process.exitCode = 1;
  }
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === '--pane') {
    await measureInPane(process.argv[3], process.argv[4]);
  } else {
    await main(process.argv[2] ?? 'tmux');
  }
}

