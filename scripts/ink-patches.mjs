// Bounds two caches of Ink 6 while the CLI is bundled. Ink 6 (the last line that runs on Node 20)
// keeps every text it has measured or wrapped, in two module-level caches that never forget; a
// dashboard whose timers change every second adds entries each frame, for as long as it runs.
// Ink 8 bounds both caches (4096 entries, least recently used first out); this gives Ink 6 the same
// bound. A third patch lets Ink's drawing read text widths from the measure cache. The build fails
// if Ink's source no longer looks as expected, instead of shipping unpatched.

export const CACHE_LIMIT = 4096;

// A Map kept in recency order: a hit moves the key to the end, a full cache drops the first key.
export const boundedCache = (name) =>
  `const ${name} = new Map();\n` +
  `const ${name}Get = (key) => {\n` +
  `  const value = ${name}.get(key);\n` +
  `  if (value !== undefined) { ${name}.delete(key); ${name}.set(key, value); }\n` +
  `  return value;\n` +
  `};\n` +
  `const ${name}Set = (key, value) => {\n` +
  `  if (${name}.size >= ${CACHE_LIMIT}) ${name}.delete(${name}.keys().next().value);\n` +
  `  ${name}.set(key, value);\n` +
  `};\n`;

/** Lines kept split into styled cells across frames: a few screens' worth (each entry is one object per cell). */
export const OUTPUT_CACHE_LIMIT = 512;

// Bounded Map helpers for output.js: a hit moves the key to the end, a full map drops the first key.
const OUTPUT_CACHE_HELPERS =
  'const touch = (map, key) => {\n' +
  '  const value = map.get(key);\n' +
  '  if (value !== undefined) { map.delete(key); map.set(key, value); }\n' +
  '  return value;\n' +
  '};\n' +
  'const remember = (map, key, value) => {\n' +
  `  if (map.size >= ${OUTPUT_CACHE_LIMIT}) map.delete(map.keys().next().value);\n` +
  '  map.set(key, value);\n' +
  '};\n';

const PATCHES = {
  'ink/build/wrap-text.js': [
    ['const cache = {};\n', boundedCache('cache')],
    ['const cachedText = cache[cacheKey];', 'const cachedText = cacheGet(cacheKey);'],
    ['cache[cacheKey] = wrappedText;', 'cacheSet(cacheKey, wrappedText);'],
  ],
  'ink/build/measure-text.js': [
    ['const cache = new Map();\n', boundedCache('cache')],
    ['const cachedDimensions = cache.get(text);', 'const cachedDimensions = cacheGet(text);'],
    ['cache.set(text, dimensions);', 'cacheSet(text, dimensions);'],
  ],
  // Each frame builds its Output with fresh caches, so every line of the screen is split into
  // styled cells again although most lines did not change (a key press moves the selection, the
  // other rows stay). One set of caches for all frames, each bounded to OUTPUT_CACHE_LIMIT entries
  // (least recently used out first; widths, asked for every cell, oldest first), keeps the cells of
  // the lines on screen.
  'ink/build/output.js': [
    ['class OutputCaches {\n', `${OUTPUT_CACHE_HELPERS}class OutputCaches {\n`],
    ['        let cached = this.styledChars.get(line);\n', '        let cached = touch(this.styledChars, line);\n'],
    ['            this.styledChars.set(line, cached);\n', '            remember(this.styledChars, line, cached);\n'],
    ['            this.widths.set(text, cached);\n', '            remember(this.widths, text, cached);\n'],
    ['        let cached = this.blockWidths.get(text);\n', '        let cached = touch(this.blockWidths, text);\n'],
    ['            this.blockWidths.set(text, cached);\n', '            remember(this.blockWidths, text, cached);\n'],
    ['    caches = new OutputCaches();\n', '    caches = sharedOutputCaches;\n'],
    ['export default class Output {\n', 'const sharedOutputCaches = new OutputCaches();\nexport default class Output {\n'],
  ],
  // Drawing a text asks for its width again on every frame, uncached; measuring a line with one
  // non-ASCII character (a `·` or a spinner in a title) costs string-width's slow path each time.
  // The measure cache above already holds that width.
  'ink/build/render-node-to-output.js': [
    [
      "import widestLine from 'widest-line';\n",
      "import measureText from './measure-text.js';\nconst widestLine = (text) => measureText(text).width;\n",
    ],
  ],
};

/** The patched source of `path`, or null when it is not one of the files patched here. */
export function patchInkSource(path, source) {
  const file = Object.keys(PATCHES).find((suffix) => path.replaceAll('\\', '/').endsWith(`/node_modules/${suffix}`));
  if (!file) return null;
  let patched = source;
  for (const [from, to] of PATCHES[file]) {
    if (patched.split(from).length !== 2) {
      throw new Error(`${file}: expected exactly one "${from.trim()}"; Ink changed, review scripts/ink-patches.mjs`);
    }
    patched = patched.replace(from, to);
  }
  return patched;
}

/** The esbuild plugin that applies patchInkSource. */
export const inkPatches = {
  name: 'ink-bounded-caches',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]((wrap|measure)-text|render-node-to-output|output)\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const contents = patchInkSource(args.path, await readFile(args.path, 'utf8'));
      return contents === null ? undefined : { contents, loader: 'js' };
    });
  },
};
