// Generated command output of every everyday shape, as the bytes a program writes: plain lines,
// no final newline, `clear` and erase-display, cursor homes and moves, `\r` progress, scrolling
// regions, wide, combining and right-to-left text, long lines, tabs, blocks that repeat an earlier
// screen, and binary junk; and, each a command of its own, output that moves the cursor up into the
// screen the command found (home without a clear, a jump to an absolute row) and writes over old
// rows. The differential bridge test prints them in a real pane and compares
// the answers with a reference terminal's rendering of the pane's own bytes.

import type { Random } from './seeded-random.js';

export const SHAPES = [
  'plain',
  'no-final-newline',
  'clear',
  'erase-display',
  'cursor-home-after-clear',
  'cursor-moves-on-line',
  'cr-progress',
  'scrolling-region',
  'wide-combining-rtl',
  'long-line',
  'tabs',
  'repeated-screen',
  'binary-junk',
] as const;

/**
 * Shapes that write over the screen the command found: each is a command alone, since over the
 * lines of an earlier case in the same command it would take back what was already answered.
 */
export const LONE_SHAPES = ['home-without-clear', 'jump-into-old-rows'] as const;

export type Shape = (typeof SHAPES)[number] | (typeof LONE_SHAPES)[number];

export interface OutputCase {
  readonly shape: Shape;
  /** What the program writes (`\n` becomes `\r\n` on the way through the tty). */
  readonly bytes: Buffer;
}

const ESC = '\x1b';
// Word characters: no `%`, spinner glyphs or lone bar characters, which the answer leaves out as
// progress lines by design; no backticks (fences are tested elsewhere).
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;_=+()[]{}<>?!@#&*/\'"~^';
const WIDE = ['あ', '語', '漢字', '한국어', '中文', '🙂', '🐍'];
const COMBINING = ['é', 'ñ', 'ü', 'ạ', 'ǹ'];
const RTL = ['שלום', 'עולם', 'مرحبا', 'سلام'];

function word(random: Random, max = 9): string {
  const length = 2 + random.int(max - 1);
  let text = '';
  for (let i = 0; i < length; i++) text += LETTERS[random.int(LETTERS.length)];
  return text;
}

function sentence(random: Random, words = 1 + random.int(8)): string {
  return Array.from({ length: words }, () => word(random)).join(' ');
}

function lines(random: Random, count: number): string {
  return Array.from({ length: count }, () => `${sentence(random)}\n`).join('');
}

/** Lines printed by an earlier case, reused so that the output matches an earlier screen. */
export class ShapeGenerator {
  private readonly earlier: string[] = [];

  constructor(private readonly random: Random) {}

  next(shape: Shape): OutputCase {
    const text = this.text(shape);
    return { shape, bytes: shape === 'binary-junk' ? this.junk() : Buffer.from(text, 'utf8') };
  }

  private text(shape: Shape): string {
    const r = this.random;
    switch (shape) {
      case 'plain':
        return this.remember(lines(r, 1 + r.int(6)));
      case 'no-final-newline':
        return `${lines(r, r.int(3))}${sentence(r)}${r.int(2) === 0 ? `${ESC}[31mred${ESC}[0m` : ''}`;
      case 'clear':
        // The bytes of `clear` (home, erase the screen or all below, erase the scrollback) between output.
        return `${lines(r, r.int(4))}${r.pick([`${ESC}[H${ESC}[2J`, `${ESC}[H${ESC}[J`, `${ESC}[H${ESC}[0J`])}${ESC}[3J${this.remember(lines(r, 1 + r.int(4)))}`;
      case 'erase-display':
        return `${lines(r, r.int(3))}${sentence(r)}${ESC}[2J${sentence(r)}\n${lines(r, r.int(3))}`;
      case 'cursor-home-after-clear': {
        const row = 2 + r.int(10);
        return `${ESC}[H${ESC}[2J${sentence(r)}\n${ESC}[${row};1H${sentence(r)}\n${ESC}[H${ESC}[${row + 2};1H${sentence(r)}\n`;
      }
      case 'cursor-moves-on-line': {
        const first = sentence(r, 2 + r.int(4));
        const back = 1 + r.int(Math.max(1, first.length - 1));
        const moves = [`${ESC}[${back}D${word(r)}${ESC}[K`, `${ESC}[s${word(r)}${ESC}[u${word(r)}`, `\r${word(r)}${ESC}[2C${word(r)}`, `\b\b${word(r)}`];
        return `${first}${r.pick(moves)}\n${lines(r, r.int(3))}`;
      }
      case 'cr-progress': {
        const total = 2 + r.int(20);
        let text = `${sentence(r)}\n`;
        for (let step = 1; step <= total; step++) text += `\rstep ${step}/${total} ${word(r)}`;
        return `${text}${r.int(2) === 0 ? `\r${ESC}[K` : ''}done ${word(r)}\n`;
      }
      case 'scrolling-region': {
        // A region in the middle of a cleared screen scrolls by itself; then the whole screen again.
        const top = 3 + r.int(4);
        const bottom = top + 3 + r.int(6);
        let text = `${ESC}[H${ESC}[2Jheader ${word(r)}\n${ESC}[${top};${bottom}r${ESC}[${bottom};1H`;
        for (let i = 0, n = 1 + r.int(12); i < n; i++) text += `\n${sentence(r)}`;
        return `${text}${ESC}[r${ESC}[${bottom + 2};1Hfooter ${word(r)}\n`;
      }
      case 'wide-combining-rtl': {
        const pieces = [r.pick(WIDE), r.pick(COMBINING), r.pick(RTL), word(r), `${r.pick(WIDE)}${r.pick(WIDE)}`, `e\u0301${word(r, 4)}`];
        return Array.from({ length: 1 + r.int(4) }, () => `${Array.from({ length: 2 + r.int(6) }, () => r.pick(pieces)).join(' ')}\n`).join('');
      }
      case 'long-line': {
        let text = '';
        while (text.length < 120 + r.int(400)) text += `${r.pick([word(r), r.pick(WIDE), ' '])}`;
        return `${text}\n`;
      }
      case 'tabs':
        return Array.from({ length: 1 + r.int(4) }, () => `${Array.from({ length: 2 + r.int(5) }, () => word(r, 12)).join('\t')}\n`).join('');
      case 'repeated-screen': {
        const block = this.earlier.length > 0 ? r.pick(this.earlier) : lines(r, 2);
        return r.pick([`${ESC}[H${ESC}[2J${block}${ESC}[H${ESC}[2J${block}`, `${ESC}[H${ESC}[J${block}${ESC}[H${ESC}[J${block}`, `${block}${block}`]);
      }
      case 'binary-junk':
        return '';
      case 'home-without-clear':
        // `tput cup 0 0` and its spellings; lines short enough not to wrap in the narrowest pane,
        // some ending in an erase of the rest of the old row.
        return `${r.pick([`${ESC}[H`, `${ESC}[1;1H`, `${ESC}[;H`])}${this.overwrite(1 + r.int(4))}`;
      case 'jump-into-old-rows':
        return `${ESC}[${2 + r.int(4)};1H${this.overwrite(1 + r.int(3))}`;
    }
  }

  /** Short lines written over whatever rows are there, some erasing what is left of the old row. */
  private overwrite(count: number): string {
    const r = this.random;
    return Array.from({ length: count }, () => `${sentence(r, 1 + r.int(4))}${r.int(3) === 0 ? `${ESC}[K` : ''}\n`).join('');
  }

  /**
   * Random bytes as `head -c N /dev/urandom` prints them, less the bytes that switch the terminal
   * into another mode for good (ESC, the charset shifts SO/SI, C1 controls): a pane left in the
   * line-drawing charset shows its prompt as other glyphs, which is the terminal's state, not an
   * answer.
   */
  private junk(): Buffer {
    const length = 1 + this.random.int(300);
    const bytes = Buffer.alloc(length);
    for (let i = 0; i < length; i++) {
      let byte = this.random.int(256);
      while (byte === 0x1b || byte === 0x0e || byte === 0x0f || (byte >= 0x80 && byte <= 0x9f)) byte = this.random.int(256);
      bytes[i] = byte;
    }
    return bytes;
  }

  private remember(text: string): string {
    this.earlier.push(text);
    if (this.earlier.length > 20) this.earlier.shift();
    return text;
  }
}
