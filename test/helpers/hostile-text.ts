// Seeded generators of the text a pane, a program or a remote host controls: screen lines, window
// names, titles and folder names that hold what tmux and terminals treat specially. The seed is
// fixed unless CORRAL_TEST_SEED names one; CI (CI=true) draws a new one. Tests print the seed, so
// any failure can be replayed with CORRAL_TEST_SEED=<seed>.

import { randomInt } from 'node:crypto';

export const DEFAULT_SEED = 20_260_524;

/** The seed of this run: $CORRAL_TEST_SEED, else a new one in CI, else DEFAULT_SEED. */
export function testSeed(env: NodeJS.ProcessEnv = process.env): number {
  const named = env.CORRAL_TEST_SEED;
  if (named !== undefined && named !== '') {
    const seed = Number(named);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`CORRAL_TEST_SEED must be a whole number, not ${named}`);
    return seed;
  }
  if (env.CI !== 'true') return DEFAULT_SEED;
  const seed = randomInt(1, 2 ** 31);
  // A new seed on every CI run, said where the run's log shows it, so a failure can be replayed.
  process.stderr.write(`generated inputs from CORRAL_TEST_SEED=${seed}\n`);
  return seed;
}

/** A small, fast PRNG (mulberry32): the same seed gives the same sequence on every machine. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** Every class of character that can follow a `$` in tmux's encoding rules. */
const AFTER_DOLLAR = [
  () => LETTERS,
  () => DIGITS,
  () => '_',
  () => '{',
  () => ' ',
  () => PUNCTUATION,
  () => 'é漢🚀',
  () => '$',
  () => '\\',
];

/** Pieces of screen text that tmux, a shell or a terminal read as special, and plain text around them. */
const PIECES: readonly ((rng: Rng) => string)[] = [
  (rng) => `$${rng.pick([...rng.pick(AFTER_DOLLAR)()])}`,
  () => '$',
  (rng) => rng.pick(['$HOME', '${PATH}', '$1', '$_', '$$', '$?', '$ ', 'echo $HOME', 'cost: $5.00', '$(date)']),
  (rng) => rng.pick(['\\', '\\\\', '\\$HOME', '\\033', '\\n', '\\t', '\\0', '\\x1b', 'C:\\Users\\me', '\\\\$']),
  (rng) => rng.pick(['#{pane_id}', '#{session_name}', '##', '#[fg=red]', '#(id)', '#', '#{', '}']),
  (rng) => rng.pick([';', ' ; ', '\\;', "'", '"', '`', "it's", '"quoted"', "'single'"]),
  () => '\t',
  (rng) => rng.pick(['漢字', '全角テキスト', '한국어', '🚀', '👩‍💻', '🇫🇷', '❯', '➜', 'λ', '✔', '⚠️']),
  // Glyphs whose width terminals and Ink disagree on: letters joined in one cluster (conjuncts, Thai
  // AM), skin tones (after an emoji and after a letter), a lone half of a flag, a keycap, joined
  // emoji, emoji bases drawn wide by some, invisible characters.
  (rng) => rng.pick(['नमस्ते', 'ক্ষমা', 'กำลัง', 'ខ្មែរ', '👍🏽', 'x🏽', '🇩', '1️⃣', '❤️‍🔥', '🧑🏽‍💻', '☝', '✌️', '㉌', 'soft\u00adhyphen', '\u0600', '\u115f', '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}']),
  (rng) => rng.pick(['e\u0301', 'a\u0308\u0304', 'n\u0303', 'Z\u0351\u0360']),
  (rng) => rng.pick(['שלום', 'مرحبا', 'abc\u202edcba', '\u2067rtl\u2069', '\u200fmark']),
  (rng) => rng.pick(['%end 0 1 1', '%begin 1 2 1', '%output %1 x', '%exit', '%error 1 1 1', '%session-changed $1 x']),
  (rng) => rng.pick(['\x1b[31mred\x1b[0m', '\x1b[1;4mbold\x1b[m', '\x1b[38;5;208morange\x1b[39m']),
  (rng) => Array.from({ length: 1 + rng.int(12) }, () => rng.pick([...LETTERS, ...DIGITS, ' '])).join(''),
  (rng) => rng.pick(['~/src/app main* ❯', 'user@host:~$', 'Continue? [y/N]', '>>> ', '  1. Yes']),
];

/** One line of screen text (no line break) made of 1 to `pieces` special pieces. */
export function screenLine(rng: Rng, pieces = 6): string {
  return Array.from({ length: 1 + rng.int(pieces) }, () => rng.pick(PIECES)(rng)).join('');
}

/** A line longer than the pane is wide (it wraps). */
export function longLine(rng: Rng, width: number): string {
  let line = '';
  while (line.length < width * 1.5) line += screenLine(rng);
  return line;
}

/** Bytes a terminal acts on: titles, the clipboard, screen clearing, cursor moves, C1 controls. */
const TERMINAL_ATTACKS = [
  '\x1b]0;PWNED\x07',
  '\x1b]2;PWNED\x1b\\',
  '\x1b]52;c;UFdORUQ=\x07',
  '\x1b]52;p;UFdORUQ=\x1b\\',
  '\x1b[2J\x1b[H',
  '\x1b[31mred',
  '\x1b[?1049l',
  '\x1bc',
  '\x9b2J',
  '\x9d2;PWNED\x9c',
  '\x07',
  '\r',
  '\b\b\b',
  '\x7f',
  '\u202e',
  '\x1bP+q\x1b\\',
  '\x1b[6n',
];

/** A name or title that tries to act on the terminal it is printed to. */
export function hostileName(rng: Rng): string {
  // eslint-disable-next-line no-control-regex
  const parts = [screenLine(rng, 2).replace(/[\x00-\x1f\x7f]/g, ''), rng.pick(TERMINAL_ATTACKS), screenLine(rng, 2)];
  if (rng.int(2) === 0) parts.push(rng.pick(TERMINAL_ATTACKS));
  return parts.join('');
}

/** A folder name (no `/`, no NUL) with terminal controls in it. */
export function hostileFolderName(rng: Rng): string {
  return hostileName(rng).replace(/[/\0]/g, '_').slice(0, 120) || 'x';
}

export { TERMINAL_ATTACKS };
