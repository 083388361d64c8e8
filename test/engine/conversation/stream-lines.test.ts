// The stream's line tracker against what a terminal shows: plain output, long and fast output,
// `\r` rewrites, wrapping and wide characters, cursor moves, clears, status rows redrawn in place,
// scrolling regions, and the alternate screen. The bytes are what tmux sends a control client
// (ONLCR applied).

import { describe, expect, it } from 'vitest';
import { StreamLines } from '../../../src/engine/conversation/stream-lines.js';
import { seededRandom, testSeed } from '../../helpers/seeded-random.js';

const crlf = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'), 'utf8');

/** A shell at `$ ` on an otherwise empty 20x6 screen (the repaint a subscription starts from). */
async function shell(cols = 20, rows = 6, screen = '\x1b[H\x1b[2J$ ') {
  const lines = new StreamLines({ cols, rows, screen: Buffer.from(screen) });
  await lines.settled();
  return lines;
}

async function feed(lines: StreamLines, text: string): Promise<string[]> {
  await lines.write(crlf(text));
  return [...lines.step().added];
}

describe('StreamLines', () => {
  it('commits a line once the cursor has left it, and keeps the cursor line open', async () => {
    const lines = await shell();
    expect(await feed(lines, 'make\n')).toEqual(['$ make']);
    expect(await feed(lines, 'compiling')).toEqual([]);
    expect(lines.step().open).toEqual(['compiling']);
    expect(await feed(lines, ' a.c\nlinking\n$ ')).toEqual(['compiling a.c', 'linking']);
    expect(lines.step().open).toEqual([]);
  });

  it('gives every line of output far longer than the screen and its scrollback, in order, once', async () => {
    const lines = await shell();
    let all: string[] = [];
    let text = 'seq\n';
    for (let i = 1; i <= 20_000; i++) text += `${i}\n`;
    // One write, parsed piece by piece: nothing waits for a step.
    await lines.write(crlf(text));
    all = [...lines.step().added];
    expect(all[0]).toBe('$ seq');
    expect(all.slice(1)).toEqual(Array.from({ length: 20_000 }, (_, i) => String(i + 1)));
    expect(all.some((line) => line.includes('were lost'))).toBe(false);
  });

  it('gives a \\r progress line in its last state only', async () => {
    const lines = await shell(40);
    let added = await feed(lines, 'x\n');
    for (let p = 0; p <= 100; p += 10) added = [...added, ...(await feed(lines, `\rprogress ${String(p).padStart(3)}%`))];
    added = [...added, ...(await feed(lines, '\ndone\n'))];
    expect(added).toEqual(['$ x', 'progress 100%', 'done']);
  });

  it('joins wrapped rows into one line, wide characters included', async () => {
    const lines = await shell(10);
    const wide = 'あいうえおかきくけこ';
    expect(await feed(lines, `w\n${wide}\n0123456789abcdef\n`)).toEqual(['$ w', wide, '0123456789abcdef']);
    // A wide character that does not fit in the last column goes to the next row, with no space.
    expect(await feed(lines, `x${wide}\nab   cd    ef\n`)).toEqual([`x${wide}`, 'ab   cd    ef']);
  });

  it('gives what is written after a clear, and not the old screen again', async () => {
    const lines = await shell(20, 6, '\x1b[H\x1b[2Jold one\r\nold two\r\n$ ');
    expect(await feed(lines, 'c\n\x1b[H\x1b[2Jhi\nthere\n')).toEqual(['$ c', 'hi', 'there']);
  });

  it('gives what a clear is followed by even when it repeats the screen before the clear', async () => {
    // The screen left by an earlier `clear; echo one`: the same command again must give `one` again.
    const lines = await shell(20, 6, '\x1b[H\x1b[2Jone\r\n$ ');
    expect(await feed(lines, 'clear; echo one\n\x1b[H\x1b[2J\x1b[3Jone\n$ ')).toEqual(['$ clear; echo one', 'one']);
    const again = await shell(20, 6, '\x1b[H\x1b[2J1\r\n2\r\n3\r\n$ ');
    expect(await feed(again, 'x\n1\n2\n3\n\x1b[H\x1b[2J1\n2\n')).toEqual(['$ x', '1', '2', '3', '1', '2']);
    // `clear` as home, then erase below (how its terminfo entry often has it).
    const below = await shell(20, 6, '\x1b[H\x1b[2Jone\r\n$ ');
    expect(await feed(below, 'clear; echo one\n\x1b[H\x1b[J\x1b[3Jone\n$ ')).toEqual(['$ clear; echo one', 'one']);
    // Erase-display without a cursor home: the text goes on where the cursor was, under blank rows.
    const stay = await shell(20, 6, '\x1b[H\x1b[2Jab\r\n$ ');
    expect(await feed(stay, 'y\nab\x1b[2Jab\n')).toEqual(['$ y', 'ab', '', '', '  ab']);
  });

  it('keeps the whole open line when the cursor sits on a row wrapped from above', async () => {
    const lines = await shell(10, 6);
    // A vertical tab moves down a row and keeps the column; the text then wraps onto the next row.
    expect(await feed(lines, 'x\n\t \x0bab12')).toEqual(['$ x', '']);
    expect(lines.step().open).toEqual(['         ab12']);
  });

  it('leaves the rows it passes over alone when the cursor goes up and back down', async () => {
    const lines = await shell();
    expect(await feed(lines, 'x\none\ntwo\n')).toEqual(['$ x', 'one', 'two']);
    // Save, go to the top row, come back: nothing new was printed.
    expect(await feed(lines, '\x1b7\x1b[1;1H\x1b8three\n')).toEqual(['three']);
  });

  it('gives a status row redrawn in place once, then its last state when it leaves the screen', async () => {
    const lines = await shell(30, 8);
    const added = await feed(lines, 'pull\nlayer a: 10%\nlayer b: 10%\n');
    for (let p = 20; p <= 100; p += 10) added.push(...(await feed(lines, `\x1b[2A\rlayer a: ${p}%\x1b[K\nlayer b: ${p}%\x1b[K\n`)));
    expect(added.filter((line) => line.startsWith('layer a'))).toEqual(['layer a: 10%', 'layer a: 20%']);
    for (let i = 0; i < 10; i++) added.push(...(await feed(lines, `after ${i}\n`)));
    expect(added.filter((line) => line.startsWith('layer a'))).toEqual(['layer a: 10%', 'layer a: 20%', 'layer a: 100%']);
    expect(added.at(-1)).toBe('after 9');
  });

  it('collects nothing while the alternate screen is up and goes on after it', async () => {
    const lines = await shell();
    expect(await feed(lines, 'vim\n\x1b[?1049h\x1b[Hfile text\n~\n~\n')).toEqual(['$ vim']);
    expect(lines.step().alternate).toBe(true);
    expect(await feed(lines, '\x1b[?1049lafter\n')).toEqual(['after']);
  });

  it('leaves out the chrome under the cursor at the seam (an input box) when it is drawn again', async () => {
    const screen = '\x1b[H\x1b[2Jwelcome\r\n╭────╮\r\n│ >  │\r\n╰────╯\x1b[3;4H';
    const lines = new StreamLines({ cols: 20, rows: 8, screen: Buffer.from(screen) });
    await lines.settled();
    // The agent writes its reply above a redrawn box and puts the cursor back in it.
    await lines.write(Buffer.from('\x1b[2;1H\x1b[Janswer line\r\n╭────╮\r\n│ >  │\r\n╰────╯\x1b[4;4H'));
    const step = lines.step();
    expect([...step.added, ...step.open]).toEqual(['answer line']);
  });

  it('gives a line that wraps at the bottom of a scrolling region whole, with steps anywhere', async () => {
    // A region in the middle of the screen scrolls inside it: its top row is dropped, the others
    // move up a row, and nothing goes to the scrollback. The long line's first half is on the
    // region's bottom row when its second half scrolls it up a row.
    const long = '0123456789abcdefghijKLMNOPQRST';
    const bytes = crlf(`run\n\x1b[H\x1b[2Jheader\n\x1b[3;6r\x1b[6;1H\none\ntwo\nthree\n${long}\nfour\x1b[r\x1b[8;1Hfooter\n`);
    const firstHalf = bytes.indexOf(long) + 20;
    const run = async (steps: number[]) => {
      const lines = await shell(20, 10);
      const got: string[] = [];
      let at = 0;
      for (const point of [...steps, bytes.length]) {
        await lines.write(bytes.subarray(at, point));
        at = point;
        got.push(...lines.step().added);
      }
      lines.dispose();
      return got;
    };
    // A step once the region shows one, two, three, then one between the line's two halves: the
    // second half scrolls the first up a row, which must not read as that row redrawn (the first
    // half alone, then the second as a line of its own).
    expect(await run([bytes.indexOf(long), firstHalf])).toEqual(['$ run', 'header', '', 'one', 'two', 'three', long, 'four', '', 'footer']);
    for (let point = bytes.indexOf('one'); point < bytes.length; point++) {
      for (const steps of [[point], [firstHalf, point], [point, firstHalf]]) {
        const got = await run([...new Set(steps)].sort((a, b) => a - b));
        expect(got.filter((line) => line === long), `steps at ${steps.join(', ')}: ${JSON.stringify(got)}`).toHaveLength(1);
        expect(got.filter((line) => line !== long && (long.startsWith(line) || long.endsWith(line)) && line !== ''), `steps at ${steps.join(', ')}`).toEqual([]);
      }
    }
  });

  it('gives generated output whole at any width, split anywhere, with steps anywhere (oracle: the lines printed)', async () => {
    const random = seededRandom(testSeed('stream-lines generated output'));
    const alphabet = ['a', 'b', 'z', ' ', '-', '0', '9', 'é', 'あ', '語', '─', '`', '$'];
    for (let round = 0; round < 12; round++) {
      const cols = 8 + random.int(60);
      const lines = new StreamLines({ cols, rows: 3 + random.int(10), screen: Buffer.from('\x1b[H\x1b[2J$ ') });
      await lines.settled();
      const printed: string[] = [];
      let text = 'run\r\n';
      for (let i = 0; i < 300; i++) {
        const line = Array.from({ length: random.int(cols * 3) }, () => random.pick(alphabet)).join('');
        printed.push(line.trimEnd());
        // Some lines are drawn as a progress line first: a draft (narrower than the screen, as a
        // progress line is: \r returns to the start of its row), then \r, erase, the final text.
        if (random.int(5) === 0) text += `${'draft 50% '.repeat(8).slice(0, random.int(cols - 1))}\r\x1b[K`;
        text += `${line}\r\n`;
      }
      const bytes = Buffer.from(text, 'utf8');
      const added: string[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + random.int(random.int(3) === 0 ? 9000 : 300);
        await lines.write(bytes.subarray(at, at + size));
        at += size;
        if (random.int(3) === 0) added.push(...lines.step().added);
      }
      added.push(...lines.step().added);
      expect(added, `round ${round}, ${cols} columns`).toEqual(['$ run', ...printed]);
      lines.dispose();
    }
  });
});
