// Dashboard frames: the cost of one frame whose timers all changed (what the dashboard draws once a
// second), and the heap left behind, with Ink 6 as published next to the bundle's bounded caches;
// and, with the bundle's patches, the same frames for 500 panes on ten hosts next to 50.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inkPatches } from '../scripts/ink-patches.mjs';

export const title = "Dashboard frames: CPU per frame and heap growth (Ink as published vs the bundle's patches)";

const FRAMES = Number(process.env.BENCH_FRAMES ?? 600);
const driver = fileURLToPath(new URL('./lib/frame-driver.mjs', import.meta.url));

async function measure(label, plugins, dir, log, sizes = ['50']) {
  const outdir = join(dir, label.replace(/\W+/g, '-'));
  await build({
    entryPoints: { driver },
    outdir,
    // As in the real bundle: Ink's devtools stay in a chunk of their own that nothing loads.
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['react-devtools-core'],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    plugins,
    logLevel: 'error',
  });
  const rows = [];
  for (const size of sizes) {
    for (const mode of ['timers', 'keys']) {
      log(`${label}, ${size} panes, ${mode}: ${FRAMES} frames`);
      const out = execFileSync(process.execPath, ['--expose-gc', join(outdir, 'driver.js'), String(FRAMES), mode, size], {
        encoding: 'utf8',
        env: { ...process.env, CI: 'false' },
      });
      rows.push({ label, size: size === 'fleet' ? '500 on 10 hosts' : size, mode, ...JSON.parse(out.trim().split('\n').at(-1)) });
    }
  }
  return rows;
}

export async function run(log) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-frames-'));
  try {
    const published = await measure('Ink 6 as published', [], dir, log);
    const patched = await measure("the bundle's patches", [inkPatches], dir, log, ['50', 'fleet']);
    const rows = [...published, ...patched];
    const ratio = (mode) =>
      (
        published.find((r) => r.mode === mode).cpuMsPerFrame / patched.find((r) => r.mode === mode && r.size === '50').cpuMsPerFrame
      ).toFixed(2);
    const fleetRatio = (mode) =>
      (patched.find((r) => r.mode === mode && r.size !== '50').cpuMsPerFrame / patched.find((r) => r.mode === mode && r.size === '50').cpuMsPerFrame).toFixed(2);
    return [
      `The dashboard (src/ui/App) renders 50 panes (or 500 on ten hosts, every tenth waiting, for the patched bundle) into an in-memory 120x40 terminal. "timers": every frame moves every timer (a minute per frame); "keys": j / k move the selection each frame (two rows and the preview change). ${FRAMES} frames after 60 of warm-up; heap measured after a full GC before and after.`,
      '',
      '| Ink | panes | frames | CPU per frame | heap growth | heap growth per frame |',
      '|---|---|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.size} | ${r.mode} | ${r.cpuMsPerFrame.toFixed(1)} ms | ${r.heapGrowthMb.toFixed(1)} MB | ${((r.heapGrowthMb * 1024) / r.frames).toFixed(1)} KB |`,
      ),
      '',
      `CPU per frame, published / patched: ${ratio('timers')}x (timers), ${ratio('keys')}x (keys). Patched, 500 panes on ten hosts / 50: ${fleetRatio('timers')}x (timers), ${fleetRatio('keys')}x (keys).`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
