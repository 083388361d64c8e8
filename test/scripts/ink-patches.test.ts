import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CACHE_LIMIT, OUTPUT_CACHE_LIMIT, boundedCache, patchInkSource } from '../../scripts/ink-patches.mjs';

const require = createRequire(import.meta.url);
const inkBuild = require.resolve('ink').replace(/index\.js$/, '');
const source = (file: string) => readFileSync(`${inkBuild}${file}`, 'utf8');

describe('patchInkSource', () => {
  it('swaps the unbounded caches of the installed Ink for bounded ones', () => {
    const wrap = patchInkSource(`${inkBuild}wrap-text.js`, source('wrap-text.js'));
    const measure = patchInkSource(`${inkBuild}measure-text.js`, source('measure-text.js'));
    expect(wrap).toContain('cacheSet(cacheKey, wrappedText)');
    expect(wrap).not.toMatch(/cache\[cacheKey\]/);
    expect(measure).toContain('cacheSet(text, dimensions)');
    expect(measure).not.toContain('cache.set(text, dimensions)');
  });

  it('lets drawing read text widths from the measure cache', () => {
    const draw = patchInkSource(`${inkBuild}render-node-to-output.js`, source('render-node-to-output.js'));
    expect(draw).toContain("const widestLine = (text) => measureText(text).width;");
    expect(draw).not.toContain("from 'widest-line'");
  });

  it('shares one set of bounded output caches between frames', () => {
    const output = patchInkSource(`${inkBuild}output.js`, source('output.js'));
    expect(output).toContain('caches = sharedOutputCaches;');
    expect(output).toContain(`if (map.size >= ${OUTPUT_CACHE_LIMIT}) map.delete(map.keys().next().value);`);
    expect(output).toContain('remember(this.styledChars, line, cached);');
    expect(output).not.toContain('caches = new OutputCaches();');
  });

  it('leaves other files alone and refuses a source it does not recognise', () => {
    expect(patchInkSource(`${inkBuild}ink.js`, source('ink.js'))).toBeNull();
    expect(() => patchInkSource(`${inkBuild}wrap-text.js`, 'const cache = new LRU();')).toThrow(/Ink changed/);
  });

  it('keeps at most CACHE_LIMIT entries, dropping the least recently used first', () => {
    const make = new Function(`${boundedCache('cache')}; return { cache, cacheGet, cacheSet };`);
    const { cache, cacheGet, cacheSet } = make() as {
      cache: Map<string, number>;
      cacheGet: (key: string) => number | undefined;
      cacheSet: (key: string, value: number) => void;
    };
    cacheSet('first', 1);
    cacheSet('second', 2);
    for (let i = 0; i < CACHE_LIMIT - 2; i++) cacheSet(`k${i}`, i);
    expect(cacheGet('first')).toBe(1); // now the most recent
    cacheSet('one more', 0);
    expect(cache.size).toBe(CACHE_LIMIT);
    expect(cacheGet('second')).toBeUndefined();
    expect(cacheGet('first')).toBe(1);
  });

  it('is in the bundle that npm run build wrote', () => {
    const chunks = `${import.meta.dirname}/../../dist/bin/chunks/`;
    const code = readdirSync(chunks)
      .map((name) => readFileSync(chunks + name, 'utf8'))
      .join('\n');
    // esbuild renames the two modules' helpers apart (cacheSet, cacheSet2), and the bundle's
    // whitespace is minified.
    expect(code).toMatch(/cacheSet\d*\(cacheKey, ?wrappedText\)/);
    expect(code).toMatch(/cacheSet\d*\(text\d*, ?dimensions\)/);
    expect(code).not.toMatch(/cache\d*\[cacheKey\] ?= ?wrappedText/);
    expect(code).toMatch(/widestLine\d* ?= ?\(?text\d*\)? ?=> ?measure_text_default\(text\d*\)\.width/);
    expect(code).toMatch(/caches ?= ?sharedOutputCaches/);
  });
});
