// Bundles the CLI into dist/bin/: an entry (corral.js) and chunks that load only when a command
// needs them (the dashboard, the servers). Node then reads a handful of files at start instead of
// resolving and compiling several hundred modules, which halves the time to the dashboard's first
// frame. `npm run build` runs this after tsc; the module tree in dist/ stays for scripts and benches.

import { chmodSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inkPatches } from './ink-patches.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bin`;

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { corral: 'src/cli/main.ts' },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Ink loads React's devtools only when DEV=true; corral does not ship them.
  external: ['react-devtools-core'],
  // Some bundled CommonJS packages call require() for Node's built-in modules.
  banner: {
    js: "import { createRequire as __corralCreateRequire } from 'node:module'; const require = __corralCreateRequire(import.meta.url);",
  },
  // React's production build: the development one costs several times the CPU per render.
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink 6 caches every text it measures; the patch bounds those caches (see ink-patches.mjs).
  plugins: [inkPatches],
  legalComments: 'eof',
  // Whitespace and syntax minified (names stay as they are, for stack traces): the package stays
  // small now that it carries a terminal emulator (the chat bridge) and the MCP SDK.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
chmodSync(`${outdir}/corral.js`, 0o755);
