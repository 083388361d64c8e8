// The attach page's pictures in the README and docs/attach.md (rendered by scripts/attach-screenshots.mjs
// from a real run): each at the size of the screen it shows, small enough for a README.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Width and height from a PNG's header chunk. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// A phone of 390x844 CSS pixels rendered at twice the density; a desktop window at its own.
const PICTURES = [
  { file: 'docs/attach-phone.png', width: 780, height: 1688 },
  { file: 'docs/attach-phone-terminal.png', width: 780, height: 1688 },
  { file: 'docs/attach-desktop.png', width: 1280, height: 800 },
];

describe('the attach page pictures', () => {
  it.each(PICTURES)(
    '$file is a $width x $height screenshot under 200 kB, shown in the README and docs/attach.md',
    ({ file, width, height }) => {
      expect(pngSize(`${ROOT}${file}`)).toEqual({ width, height });
      expect(statSync(`${ROOT}${file}`).size).toBeLessThan(200_000);
      expect(readFileSync(`${ROOT}README.md`, 'utf8')).toContain(`src="${file}"`);
      expect(readFileSync(`${ROOT}docs/attach.md`, 'utf8')).toContain(`src="${file.replace('docs/', '')}"`);
    },
  );
});
