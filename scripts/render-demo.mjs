/* global window */
// `npm run demo:render`: records demo.tape without VHS. It plays the tape into `corral demo`
// running in a private tmux server (the same player the tape test uses), captures the pane with
// its colours every few hundred ms, draws each frame with xterm.js in headless Chromium, and
// joins the frames into demo.gif with ffmpeg (or, without ffmpeg, writes docs/dashboard.png).

import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { namedSocketPath } from '../dist/engine/tmux/socket.js';
import { launchChromium } from './chromium.mjs';
import { parseTape, playTape } from './tape-player.mjs';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const FRAME_MS = Number(process.env.DEMO_FRAME_MS ?? 250);

const tape = parseTape(readFileSync(join(root, 'demo.tape'), 'utf8'));
const size = tape.size ?? { columns: 120, rows: 32 };
const id = randomBytes(4).toString('hex');
const host = `corral-render-${id}`;
const demoSocket = `corral-render-demo-${id}`;
const work = mkdtempSync(join(tmpdir(), 'corral-render-'));
const tmux = async (...args) => (await run('tmux', ['-L', host, ...args], { maxBuffer: 16 << 20 })).stdout;

async function record() {
  const shim = join(work, 'bin');
  mkdirSync(shim);
  writeFileSync(
    join(shim, 'corral'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'dist/bin/corral.js'))} "$@"\n`,
  );
  chmodSync(join(shim, 'corral'), 0o755);
  const env = { ...process.env, TERM: 'xterm-256color' };
  delete env.TMUX;
  delete env.NO_COLOR;
  const shell = `export PATH='${shim}':"$PATH" CORRAL_DEMO_SOCKET=${demoSocket} CORRAL_PORT=0 CORRAL_TOKEN=demo-token-shown-in-the-demo-only PS1='$ ' COLORTERM=truecolor; exec bash --norc --noprofile -i`;
  execFileSync(
    'tmux',
    [
      '-L',
      host,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'rec',
      '-x',
      String(size.columns),
      '-y',
      String(size.rows),
      'bash',
      '--norc',
      '--noprofile',
      '-c',
      shell,
    ],
    { env },
  );
  await tmux('set-option', '-g', 'status', 'off');
  const pane = (await tmux('display-message', '-p', '-t', 'rec:0.0', '#{pane_id}')).trim();

  const frames = [];
  let hidden = false;
  let playing = true;
  const sampler = (async () => {
    while (playing) {
      const started = Date.now();
      if (!hidden) {
        const text = await tmux('capture-pane', '-e', '-p', '-t', pane);
        const cursor = (await tmux('display-message', '-p', '-t', pane, '#{cursor_x} #{cursor_y}')).trim();
        const last = frames.at(-1);
        if (last && last.text === text) last.ms += FRAME_MS;
        else frames.push({ text, cursor, ms: FRAME_MS });
      }
      await new Promise((r) => setTimeout(r, Math.max(0, FRAME_MS - (Date.now() - started))));
    }
  })();
  await playTape({
    tape,
    tmux,
    paneId: pane,
    onStep: (step) => {
      if (step.kind === 'hide') hidden = true;
      if (step.kind === 'show') hidden = false;
    },
  });
  playing = false;
  await sampler;
  return frames;
}

const THEME = {
  background: '#282a36',
  foreground: '#f8f8f2',
  cursor: '#f8f8f2',
  black: '#21222c',
  red: '#ff5555',
  green: '#50fa7b',
  yellow: '#f1fa8c',
  blue: '#bd93f9',
  magenta: '#ff79c6',
  cyan: '#8be9fd',
  white: '#f8f8f2',
  brightBlack: '#6272a4',
  brightRed: '#ff6e6e',
  brightGreen: '#69ff94',
  brightYellow: '#ffffa5',
  brightBlue: '#d6acff',
  brightMagenta: '#ff92df',
  brightCyan: '#a4ffff',
  brightWhite: '#ffffff',
};

async function draw(frames) {
  const files = {
    '/xterm.js': [join(root, 'node_modules/@xterm/xterm/lib/xterm.js'), 'text/javascript'],
    '/xterm.css': [join(root, 'node_modules/@xterm/xterm/css/xterm.css'), 'text/css'],
  };
  const page = `<!doctype html><html><head><link rel="stylesheet" href="/xterm.css"><script src="/xterm.js"></script>
<style>body{margin:0;background:${THEME.background}}#t{padding:14px;display:inline-block}</style></head>
<body><div id="t"></div><script>
window.term = new Terminal({ cols: ${size.columns}, rows: ${size.rows}, fontSize: 15, fontFamily: 'DejaVu Sans Mono, monospace', theme: ${JSON.stringify(THEME)}, allowProposedApi: true, cursorBlink: false });
term.open(document.getElementById('t'));
window.show = (text, x, y) => new Promise((resolve) => { term.reset(); term.write(text + '\\x1b[' + (y + 1) + ';' + (x + 1) + 'H', resolve); });
</script></body></html>`;
  const server = createServer((req, res) => {
    const file = files[req.url];
    if (file) {
      res.writeHead(200, { 'content-type': file[1] });
      res.end(readFileSync(file[0]));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: { width: 1300, height: 800 } });
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => window.term !== undefined);
    const box = tab.locator('#t');
    for (const [i, frame] of frames.entries()) {
      const [x, y] = frame.cursor.split(' ').map(Number);
      await tab.evaluate(
        ([text, cx, cy]) => window.show(text, cx, cy),
        [frame.text.replace(/\n$/, '').replaceAll('\n', '\r\n'), x, y],
      );
      frame.png = join(work, `frame-${String(i).padStart(4, '0')}.png`);
      await box.screenshot({ path: frame.png });
    }
  } finally {
    await browser.close();
    server.close();
  }
}

function hasFfmpeg() {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function assemble(frames) {
  const list =
    frames.map((f) => `file '${f.png}'\nduration ${(f.ms / 1000).toFixed(3)}`).join('\n') +
    `\nfile '${frames.at(-1).png}'\n`;
  const listFile = join(work, 'frames.txt');
  writeFileSync(listFile, list);
  const out = join(root, 'demo.gif');
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    listFile,
    '-vf',
    'fps=8,scale=960:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=64:stats_mode=diff[p];[b][p]paletteuse=dither=none:diff_mode=rectangle',
    '-loop',
    '0',
    out,
  ]);
  return out;
}

try {
  console.error('recording the demo (plays demo.tape, about a minute)…');
  const frames = await record();
  console.error(`${frames.length} distinct frames; drawing them with xterm.js in Chromium…`);
  await draw(frames);
  // The still: the frame where the agent's menu is answered, or the middle one.
  const still = frames.find((f) => f.text.includes('answer demo:0.0')) ?? frames[Math.floor(frames.length / 2)];
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs/dashboard.png'), readFileSync(still.png));
  console.error('wrote docs/dashboard.png');
  if (hasFfmpeg()) {
    const gif = assemble(frames);
    console.error(`wrote ${gif} (${(statSync(gif).size / 1024).toFixed(0)} KiB)`);
  } else {
    console.error('ffmpeg is not installed (apt-get install ffmpeg): kept only docs/dashboard.png');
  }
} finally {
  for (const name of [demoSocket, host]) {
    await run('tmux', ['-L', name, 'kill-server']).catch(() => {});
    rmSync(namedSocketPath(name, process.env, process.getuid()), { force: true });
  }
  if (existsSync(work) && !process.env.DEMO_KEEP_FRAMES) rmSync(work, { recursive: true, force: true });
}
