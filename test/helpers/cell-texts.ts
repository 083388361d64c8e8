// Seeded texts made of what terminals measure differently: combining marks old and new, emoji and
// the marks that style them (skin tones, variation selectors, keycaps, joiners), halves of flags,
// wide scripts, scripts whose letters join (conjuncts, Thai AM), Hangul jamo, symbols, and any code
// point at all.

import type { Rng } from './hostile-text.js';

const from = (first: number, count: number) => (rng: Rng) => String.fromCodePoint(first + rng.int(count));

const PARTS: readonly ((rng: Rng) => string)[] = [
  from(0x20, 95),
  from(0x300, 0x70),
  from(0x1ab0, 0x50),
  from(0x20d0, 0x30),
  from(0x1f300, 0x800),
  from(0x1f3fb, 5),
  from(0xfe00, 16),
  () => '\u200d',
  () => '\u200c',
  from(0x1f1e6, 26),
  from(0x4e00, 0x5000),
  from(0x1100, 0x100),
  from(0x2600, 0x200),
  from(0x900, 0x80),
  from(0x3248, 8),
  (rng) => {
    // Any code point but the surrogates.
    const cp = 0xa0 + rng.int(0x3ff60);
    return String.fromCodePoint(cp >= 0xd800 && cp < 0xe000 ? cp + 0x800 : cp);
  },
  // Words of scripts whose letters join in one cluster, and any letters of those scripts.
  (rng) => rng.pick(['नमस्ते', 'हिन्दी', 'क्षत्रिय', 'ক্ষমা', 'ਪ੍ਰੀਤ', 'ગ્રંથ', 'ଓଡ଼ିଆ', 'తెలుగు', 'ಕನ್ನಡ', 'മലയാളം', 'සිංහල', 'กำลัง', 'ຄຳ', 'ខ្មែរ', 'မြန်မာ', 'བོད་ཡིག', 'ꦗꦮ꧀ꦲ']),
  (rng) => {
    const block = rng.pick([0x900, 0x980, 0xa00, 0xa80, 0xb00, 0xb80, 0xc00, 0xc80, 0xd00, 0xd80, 0xe00, 0xe80, 0xf00, 0x1000, 0x1780, 0xa980]);
    return Array.from({ length: 2 + rng.int(6) }, () => String.fromCodePoint(block + rng.int(0x80))).join('');
  },
  (rng) => rng.pick(['👩‍💻', '👍🏽', '🏳️‍🌈', '❤️‍🔥', '1️⃣', '🇫🇷', '🧑🏽‍💻', '☝️', 'e\u0301', '\u00ad', '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}']),
];

/** 1 to 12 parts drawn from PARTS. */
export function widthTrickyText(rng: Rng): string {
  let text = '';
  for (let n = 1 + rng.int(12); n > 0; n--) text += rng.pick(PARTS)(rng);
  return text;
}
