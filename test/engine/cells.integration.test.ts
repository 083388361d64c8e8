// The terminal as the oracle of width: texts in the form the dashboard draws them (cellSafe) are
// written into a real tmux pane of every build found, and the cursor says how many cells each
// took. Planned with cellWidth (what Ink counts), a text may take a cell less (a glyph the build does
// not know), never more; screen text made of the generator's pieces takes what Ink counts (a cell
// less for each emoji only 3.5 draws wide); and a clipped or fitted text never takes more than its
// width.

import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { measureCells } from '../../scripts/terminal-cells.mjs';
import { cellSafe, cellWidth } from '../../src/engine/text/cells.js';
import { clip, fit } from '../../src/ui/format.js';
import { widthTrickyText } from '../helpers/cell-texts.js';
import { Rng, hostileName, screenLine, testSeed } from '../helpers/hostile-text.js';
import { tmuxBuilds } from '../helpers/tmux-binaries.js';

const seed = testSeed();

function texts(rng: Rng) {
  const tricky = Array.from({ length: 6000 }, () => cellSafe(widthTrickyText(rng)));
  const screen = Array.from({ length: 2000 }, (_, i) => cellSafe(i % 2 === 0 ? screenLine(rng, 10) : hostileName(rng)));
  const clips = Array.from({ length: 2000 }, (_, i) => {
    const text = i % 2 === 0 ? widthTrickyText(rng) : screenLine(rng, 10);
    const width = 1 + rng.int(40);
    return { width, clipped: clip(text, width), fitted: fit(text, width) };
  });
  return { tricky, screen, clips };
}

describe.each(tmuxBuilds())('cells as tmux $version draws them', ({ binary }) => {
  it(`are never more than planned, and for screen text what Ink counts (seed ${seed})`, async () => {
    const { tricky, screen, clips } = texts(new Rng(seed));
    const all = [...tricky, ...screen, ...clips.flatMap((c) => [c.clipped, c.fitted])];
    const drawn = await measureCells(binary, all);
    expect(drawn).toHaveLength(all.length);
    const wider: string[] = [];
    all.forEach((text, i) => {
      if ((drawn[i] as number) > cellWidth(text)) wider.push(`${JSON.stringify(text)}: ${drawn[i]} cells, planned ${cellWidth(text)}`);
    });
    expect(wider, `seed ${seed}`).toEqual([]);
    // Screen text: what Ink counts, but for the emoji only tmux 3.5 draws wide (☝️ ✌️: 1 cell in 3.3).
    const narrowIn33 = (text: string) => (text.match(/\uFE0F/g) ?? []).length;
    const unlike = screen
      .map((text, i) => ({ text, drawn: drawn[tricky.length + i] as number }))
      .filter(({ text, drawn }) => drawn < stringWidth(text) - narrowIn33(text) || drawn > cellWidth(text))
      .map(({ text, drawn }) => `${JSON.stringify(text)}: ${drawn} cells, Ink counts ${stringWidth(text)}`);
    expect(unlike, `seed ${seed}`).toEqual([]);
    const base = tricky.length + screen.length;
    clips.forEach(({ width, clipped, fitted }, i) => {
      const why = `seed ${seed}: ${JSON.stringify(fitted)} in ${width}`;
      expect(drawn[base + 2 * i] as number, why).toBeLessThanOrEqual(width);
      expect(drawn[base + 2 * i + 1] as number, why).toBeLessThanOrEqual(width);
      expect(cellWidth(clipped), why).toBeLessThanOrEqual(width);
      expect(cellWidth(fitted), why).toBe(width);
    });
  }, 120_000);
});
