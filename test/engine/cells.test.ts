// cellSafe, cellWidth and sliceCells on their own: what is rewritten and what is left, that the
// rewriting is done once for all, and that a cut is never wider than asked and never splits a
// character. What terminals really draw is judged in cells.integration.test.ts.

import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { PLAIN_RANGES, cellSafe, cellWidth, sliceCells } from '../../src/engine/text/cells.js';
import { Rng, hostileName, screenLine, testSeed } from '../helpers/hostile-text.js';
import { widthTrickyText } from '../helpers/cell-texts.js';

const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);

describe('cellSafe', () => {
  it('leaves plain text, wide glyphs, accents, scripts and plain emoji as they are', () => {
    for (const text of ['~/src/app main* ❯', '漢字 全角テキスト 한국어', 'e\u0301 a\u0308\u0304', 'שלום مرحبا', '🚀 ✔ λ', 'x\u200dy', 'क्\u200dष']) {
      expect(cellSafe(text)).toBe(text);
    }
  });

  it('drops what only styles a glyph, and the joiners between emoji', () => {
    expect(cellSafe('⚠️')).toBe('⚠');
    expect(cellSafe('👍🏽 x🏽')).toBe('👍 x');
    expect(cellSafe('1️⃣')).toBe('1');
    expect(cellSafe('👩‍💻')).toBe('👩💻');
    expect(cellSafe('🧑🏽‍💻')).toBe('🧑💻');
    expect(cellSafe('❤️‍🔥')).toBe('❤🔥');
    expect(cellSafe('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}')).toBe('🏴');
  });

  it('gives the emoji some terminal draws wide their emoji style, and drops marks after an emoji', () => {
    expect(cellSafe('☝ ✌️ 🖐')).toBe('☝\uFE0F ✌\uFE0F 🖐\uFE0F');
    expect(cellSafe('☝\u0301\u200c!')).toBe('☝\uFE0F!');
    expect(cellSafe('🐕\u0301\u200d')).toBe('🐕');
  });

  it('shows what no style makes every terminal draw as Ink counts it', () => {
    expect(cellSafe('㉌')).toBe('<U+324C>');
    expect(cellSafe('x\u1acf')).toBe('x<U+1ACF>');
  });

  it('splits letters a script joins in one cluster, as a terminal draws them a cell each', () => {
    expect(cellSafe('नमस्ते')).toBe('नमस्\u200Cते');
    expect(cellSafe('ខ្មែរ')).toBe('ខ្\u200Cមែរ');
    expect(cellSafe('กำลัง')).toBe('ก\u0E4D\u0E32ลัง');
    expect(cellWidth(cellSafe('नमस्ते'))).toBe(4);
    expect(cellWidth(cellSafe('กำลัง'))).toBe(4);
    // Clusters Ink already counts as a terminal draws them stay as they are.
    expect(cellSafe('कि தமிழ் สวัสดี')).toBe('कि தமிழ் สวัสดี');
  });

  it('writes flags as their letters and shows invisible characters', () => {
    expect(cellSafe('🇫🇷 🇩')).toBe('FR D');
    expect(cellSafe('soft\u00adhyphen')).toBe('soft-hyphen');
    expect(cellSafe('a\u0600b\u115fc\u3164d\uffa0')).toBe('a<U+0600>b<U+115F>c<U+3164>d<U+FFA0>');
    expect(cellSafe('x\u{E0000}y')).toBe('x<U+E0000>y');
    // The controls terminalSafe shows are shown the same way.
    expect(cellSafe('w\x1b]2;PWNED\x07\u202e')).toBe('w^[]2;PWNED^G<U+202E>');
  });

  it('is done once for all: made cell-safe, a text stays as it is (seeded)', () => {
    const seed = testSeed();
    const rng = new Rng(seed);
    for (let i = 0; i < 5000; i++) {
      const text = [hostileName, (r: Rng) => screenLine(r, 8), widthTrickyText][i % 3]!(rng);
      const safe = cellSafe(text);
      expect(cellSafe(safe), `seed ${seed}: ${JSON.stringify(text)}`).toBe(safe);
    }
  });
});

describe('cellWidth', () => {
  it('counts plain text by its length only where every character is one cell for Ink too', () => {
    for (const [first, last] of PLAIN_RANGES) {
      for (let cp = first; cp <= last; cp++) {
        const char = String.fromCodePoint(cp);
        expect(stringWidth(char), `U+${cp.toString(16)}`).toBe(1);
        expect(cellSafe(char), `U+${cp.toString(16)}`).toBe(char);
      }
    }
    // Past the ranges, Ink's way: an accent after a plain letter takes no cell.
    expect(cellWidth('abc\u0301')).toBe(3);
    expect(cellWidth('… · › ─ → λ é')).toBe(13);
  });

  it('counts what Ink counts', () => {
    expect(cellWidth('abc')).toBe(3);
    expect(cellWidth('漢字')).toBe(4);
    expect(cellWidth('e\u0301')).toBe(1);
    expect(cellWidth(cellSafe('☝'))).toBe(2);
  });
});

describe('sliceCells', () => {
  it('cuts before a wide glyph that would cross the edge', () => {
    expect(sliceCells('ab全角', 3)).toBe('ab');
    expect(sliceCells('ab全角', 4)).toBe('ab全');
    expect(sliceCells('abc', 0)).toBe('');
  });

  it('never gives more cells than asked, never splits a character, and takes all that fits (seeded)', () => {
    const seed = testSeed();
    const rng = new Rng(seed);
    for (let i = 0; i < 3000; i++) {
      const text = cellSafe(i % 2 === 0 ? screenLine(rng, 8) : widthTrickyText(rng));
      const width = rng.int(cellWidth(text) + 3);
      const cut = sliceCells(text, width);
      const why = `seed ${seed}: ${JSON.stringify(text)} in ${width}`;
      expect(cellWidth(cut), why).toBeLessThanOrEqual(width);
      expect(text.startsWith(cut), why).toBe(true);
      const whole = graphemes(text);
      const kept = graphemes(cut);
      expect(kept, why).toEqual(whole.slice(0, kept.length));
      // The next character would not have fitted.
      if (kept.length < whole.length) expect(cellWidth(cut + whole[kept.length]), why).toBeGreaterThan(width);
    }
  });
});
