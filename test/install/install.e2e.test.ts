// The ways a person gets `corral` on PATH, each for real into an empty npm prefix: the tarball
// `npm pack` makes (installed globally, and run through npx), and a checkout (`npm install -g .`,
// `npm link`). Each installed command prints its version, classifies a screen from stdin and runs
// the demo in a real tmux pane until a scripted `q`.
//
// npm runs with --ignore-scripts where it would otherwise rebuild dist/ (npm test's pretest has just
// built it, and other tests run that build meanwhile), and prefers its cache, so no network is
// needed once `npm ci` has run here.

import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
/**
 * The largest tarball this test accepts; the README gives the measured size. The bundle carries a
 * terminal emulator (the chat bridge reads pane output through it) and the MCP SDK.
 */
const MAX_TARBALL_BYTES = 750 * 1024;

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

let work: string;
let tarball: string;
let packed: PackResult;
let host: TestTmux;

/** npm as a child process, with the given global prefix and without the caller's tmux. */
async function npm(args: string[], options: { cwd?: string; prefix?: string } = {}): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TMUX;
  delete env.TMUX_PANE;
  if (options.prefix) env.npm_config_prefix = options.prefix;
  const { stdout } = await run('npm', args, { cwd: options.cwd ?? work, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Runs an installed command line (an argv whose first word is on `binDir`). */
async function runInstalled(binDir: string, argv: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}` };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return new Promise((resolve) => {
    const child = execFile(argv[0]!, argv.slice(1), { cwd: work, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

/** `corral demo` (as `command`) in a pane of the test's tmux server: it draws its panes, then `q` ends it and its server. */
async function demoQuits(binDir: string, command: string): Promise<void> {
  const dir = mkdtempSync(join(work, 'demo-sockets-'));
  const pane = await host.spawn(
    `unset TMUX TMUX_PANE; export TMUX_TMPDIR=${shellQuote(dir)} PATH=${shellQuote(binDir)}:"$PATH" CORRAL_PORT=0; cd ${shellQuote(work)}; ${command}; echo "EXIT=$?"; sleep 600`,
    { width: 110, height: 30 },
  );
  const screen = await host.waitForScreen(pane, (s) => s.includes('6 total') || s.includes('EXIT='), 45_000);
  expect(screen).toContain('6 total');
  expect(screen).toMatch(/-L corral-demo-\d+/);
  await host.tmux('send-keys', '-t', pane, 'q');
  await host.waitForScreen(pane, (s) => s.includes('EXIT=0'), 20_000);
  // The demo's private server went away with it.
  expect(readdirSync(dir, { recursive: true }).map(String).filter((f) => f.includes('corral-demo-'))).toEqual([]);
  await host.tmux('kill-pane', '-t', pane);
}

/** What every install must give: the version, a verdict from stdin, and a demo that quits. */
async function checkInstalled(binDir: string, corral: string[]): Promise<void> {
  const version = await runInstalled(binDir, [...corral, '--version']);
  expect(version, `${corral.join(' ')} --version: ${version.stderr}`).toMatchObject({ code: 0, stdout: `${PKG.version}\n` });
  const check = await runInstalled(binDir, [...corral, 'check', '-'], 'Deploy to production? [y/N] ');
  expect(check.stderr).toBe('');
  expect(JSON.parse(check.stdout)).toMatchObject({ prompt: true, reason: 'permission', tool: 'generic' });
  // The MCP server, from what was installed: it starts, initializes and lists its tools.
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'install-test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ];
  const mcp = await runInstalled(binDir, ['timeout', '15', ...corral, 'mcp', '-L', host.socketName], `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
  const replies = mcp.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: { tools?: { name: string }[] } });
  expect(replies.find((r) => r.id === 2)?.result.tools?.map((t) => t.name).sort(), mcp.stderr).toEqual(['answer', 'list_panes', 'read_pane', 'type_line', 'wait_for']);
  await demoQuits(binDir, corral.map(shellQuote).join(' ') + ' demo');
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'corral-install-'));
  host = await startTestTmux();
  await host.spawn('sleep 3600'); // keeps the session while demo panes come and go
  const out = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work, ROOT], { cwd: work });
  packed = (JSON.parse(out) as PackResult[])[0]!;
  tarball = join(work, packed.filename);
}, 120_000);

afterAll(async () => {
  await host?.kill();
  // npx keeps what it installed under the npm cache; drop the entries made for this tarball.
  const npxCache = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_npx');
  for (const entry of existsSync(npxCache) ? readdirSync(npxCache) : []) {
    const manifest = join(npxCache, entry, 'package.json');
    if (tarball && existsSync(manifest) && readFileSync(manifest, 'utf8').includes(work)) rmSync(join(npxCache, entry), { recursive: true, force: true });
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm tarball', () => {
  it('holds the built command, the demo programs, README and LICENSE only, and is small', () => {
    const paths = packed.files.map((f) => f.path).sort();
    for (const path of paths) expect(path).toMatch(/^(dist\/bin\/.+\.js|demo\/[\w-]+\.mjs|README\.md|LICENSE|package\.json)$/);
    expect(paths).toContain('dist/bin/corral.js');
    expect(paths).toContain('LICENSE');
    expect(paths.some((p) => p.startsWith('demo/'))).toBe(true);
    expect(packed.size).toBeLessThan(MAX_TARBALL_BYTES);
    // The README's figures stay true: the file count exactly, the size within 15 %.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const stated = /`tmux-corral-[\d.]+\.tgz` \((\d+) kB, (\d+) files/.exec(readme);
    expect(stated, 'tarball figures in the README').not.toBeNull();
    expect(paths).toHaveLength(Number(stated![2]));
    expect(Math.abs(packed.size / 1000 - Number(stated![1])) / Number(stated![1])).toBeLessThan(0.15);
  });

  /**
   * Ajv (the MCP SDK's schema validator) holds these `require(...)` calls only as text for the code
   * it writes for standalone builds; at run time it passes the bundled modules themselves. The MCP
   * round trip of every install below runs it from the installed files.
   */
  const AJV_CODEGEN = new Set(['ajv/dist/runtime/validation_error', 'ajv/dist/runtime/uri', 'ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/equal', 'ajv-formats/dist/formats']);

  it('needs at run time nothing but Node built-ins and its dependencies (everything else is bundled)', () => {
    // Optional packages the bundled code only tries: ws's native speed-ups, and ink's devtools (DEV=true only).
    const optional = new Set(['bufferutil', 'utf-8-validate', 'react-devtools-core']);
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const files = packed.files.map((f) => f.path).filter((p) => p.startsWith('dist/bin/'));
    const needed = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const specifiers = [
        ...text.matchAll(/^import\s[^;]*?\bfrom\s*["']([^"']+)["'];/gm),
        ...text.matchAll(/^import\s*["']([^"']+)["'];/gm),
        ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
        ...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
      ].map((m) => m[1]!);
      for (const spec of specifiers) if (!spec.startsWith('.') && !AJV_CODEGEN.has(spec)) needed.add(spec);
    }
    expect(needed).toContain('node:fs'); // the scan sees the bundle's imports
    const packageOf = (spec: string) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
    const missing = [...needed].filter((s) => !builtins.has(s) && !optional.has(s) && !(packageOf(s) in PKG.dependencies));
    expect(missing).toEqual([]);
    // The attach page serves xterm.js from the installed package: those are the runtime dependencies.
    expect(Object.keys(PKG.dependencies).sort()).toEqual(['@xterm/addon-fit', '@xterm/xterm']);
  });

  it('installs into an empty prefix (npm install -g), and corral runs from there', async () => {
    const prefix = mkdtempSync(join(work, 'prefix-'));
    await npm(['install', '-g', '--prefix', prefix, ...NPM_FLAGS, tarball]);
    const installed = join(prefix, 'lib', 'node_modules', PKG.name);
    // A real copy, with its runtime dependencies only (no dev tools, no tsx).
    expect(realpathSync(installed)).not.toBe(realpathSync(ROOT));
    expect(existsSync(join(installed, 'node_modules', '@xterm', 'xterm'))).toBe(true);
    for (const dev of ['ink', 'react', 'vitest', 'typescript', 'tsx']) expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
    await checkInstalled(join(prefix, 'bin'), ['corral']);
  }, 180_000);

  it('runs through npx, as `npx ./tmux-corral-VERSION.tgz`', async () => {
    // npx takes a path that starts with ./ as a package (an absolute one would be run as a command).
    await checkInstalled(join(work, 'no-such-bin'), ['npx', '--yes', ...NPM_FLAGS, `./${packed.filename}`]);
  }, 180_000);
});

describe('from a checkout', () => {
  it.each([
    ['npm install -g .', ['install', '-g', '.']],
    ['npm link', ['link']],
  ])('%s puts corral on PATH, running this checkout', async (_name, args) => {
    const prefix = mkdtempSync(join(work, 'prefix-'));
    await npm([...args, '--ignore-scripts', ...NPM_FLAGS], { cwd: ROOT, prefix });
    const bin = join(prefix, 'bin');
    expect(realpathSync(join(bin, 'corral'))).toBe(realpathSync(join(ROOT, 'dist', 'bin', 'corral.js')));
    await checkInstalled(bin, ['corral']);
  }, 180_000);
});
