// Dashboard frames: the cost of one frame whose timers all changed (what the dashboard draws once a
// second), and the heap left behind, with Ink 6 as published next to the bundle's bounded caches.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inkPatches } from '../scripts/ink-patches.mjs';

export const title = 'Dashboard frames: CPU per frame and heap growth (Ink as published vs bounded caches)';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 600);
const driver = fileURLToPath(new URL('./lib/frame-driver.mjs', import.meta.url));

async function measure(label, plugins, dir, log) {
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
  log(`${label}: ${FRAMES} frames`);
  const out = execFileSync(process.execPath, ['--expose-gc', join(outdir, 'driver.js'), String(FRAMES)], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'false' },
  });
  return { label, ...JSON.parse(out.trim().split('\n').at(-1)) };
}

export async function run(log) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-frames-'));
  try {
    const rows = [
      await measure('Ink 6 as published', [], dir, log),
      await measure('bounded caches (the bundle)', [inkPatches], dir, log),
    ];
    return [
      `The dashboard (src/ui/App) renders 50 panes into an in-memory 120x40 terminal; every frame moves every timer by a second. ${FRAMES} frames after 60 of warm-up; heap measured after a full GC before and after.`,
      '',
      '| Ink | CPU per frame | heap growth | heap growth per frame |',
      '|---|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.cpuMsPerFrame.toFixed(1)} ms | ${r.heapGrowthMb.toFixed(1)} MB | ${((r.heapGrowthMb * 1024) / r.frames).toFixed(1)} KB |`,
      ),
      '',
      `CPU per frame, published / bounded: ${(rows[0].cpuMsPerFrame / rows[1].cpuMsPerFrame).toFixed(2)}x. At the dashboard's one frame a second, the published caches keep about ${((rows[0].heapGrowthMb * 3600) / rows[0].frames).toFixed(0)} MB more per hour.`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
