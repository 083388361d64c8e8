import { describe, expect, it } from 'vitest';
import { seededRandom, testSeed } from '../../helpers/seeded-random.js';
import { sanitizeText } from '../../../src/engine/conversation/sanitize.js';
import { FenceWriter, chooseFence, fenceBlock } from '../../../src/engine/conversation/fence.js';
import { isProgressLine } from '../../../src/engine/conversation/progress-filter.js';
import { createEchoState, removeEcho } from '../../../src/engine/conversation/echo.js';

describe('sanitizeText', () => {
  it('removes escape sequences and C0/C1 controls but keeps newlines and tabs', () => {
    expect(sanitizeText('\u001b[1;32mok\u001b[0m\tdone\r\n\u0007bell\u0085x\u0000')).toBe('ok\tdone\nbellx');
    expect(sanitizeText('\u001b]0;title\u0007text')).toBe('text');
  });
});

describe('fences', () => {
  it('picks a fence longer than any backtick fence in the text', () => {
    expect(chooseFence(['plain'])).toBe('```');
    expect(chooseFence(['```js', 'code', '```'])).toBe('````');
    expect(chooseFence(['  `````'])).toBe('``````');
    expect(fenceBlock(['a', '```', 'b'])).toBe('````\na\n```\nb\n````\n');
    expect(fenceBlock([])).toBe('');
  });

  it('gives a streamed line that could close the fence a longer fence, with nothing invisible added', () => {
    const writer = new FenceWriter();
    const text = writer.write(['```python', 'print(1)', '```', '   ````  ']) + writer.write(['after']) + writer.close();
    expect(text).toBe('```\n```python\nprint(1)\n```\n````\n```\n````\n`````\n   ````  \nafter\n`````\n');
    expect(text).not.toMatch(/[\u200b-\u200f\u2060\ufeff]/);
  });

  it('keeps every content line inside a block that renders it as printed (CommonMark fences, generated lines)', () => {
    const random = seededRandom(testSeed('fence writer'));
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + random.int(8) }, () => random.pick(['```', '````', '  ```', 'text', '```js', '`', '``', '   `````  ', '    ```']));
      const writer = new FenceWriter();
      const out = (writer.write(lines.slice(0, 3)) + writer.write(lines.slice(3)) + writer.close()).split('\n').slice(0, -1);
      // Read it back as a CommonMark reader does: a fence opens, the same or a longer run alone closes it.
      const content: string[] = [];
      let fence: string | null = null;
      for (const line of out) {
        const run = /^ {0,3}(`{3,})\s*$/.exec(line)?.[1] ?? null;
        if (fence === null) {
          expect(line).toMatch(/^`{3,}$/);
          fence = line;
        } else if (run !== null && run.length >= fence.length) fence = null;
        else content.push(line);
      }
      expect(fence).toBeNull();
      expect(content).toEqual(lines);
    }
  });

  it('writes nothing, not even a fence, for no output', () => {
    const writer = new FenceWriter();
    expect(writer.write([]) + writer.close()).toBe('');
  });
});

describe('isProgressLine', () => {
  it.each([
    ['⠋ Installing dependencies'],
    ['✻ Thinking… (12s · esc to interrupt)'],
    ['  Working (3s • Esc to interrupt)'],
    ['|'],
    ['[######    ] 60%'],
    ['45% ████████░░░░░░░░ 12/26'],
  ])('drops %j', (line) => expect(isProgressLine(line)).toBe(true));

  it.each([['- a list item'], ['* bullet'], ['100% ██████████ done'], ['coverage: 87%'], ['done'], ['']])('keeps %j', (line) =>
    expect(isProgressLine(line)).toBe(false),
  );
});

describe('removeEcho', () => {
  it('drops the prompt line that echoes the command, and nothing after it', () => {
    const result = removeEcho(createEchoState('ls'), ['$ ls', 'ls: cannot access x', 'file']);
    expect(result.lines).toEqual(['ls: cannot access x', 'file']);
    expect(result.state.done).toBe(true);
  });

  it('drops an echo wrapped over rows inside an input box, and the blank line after it', () => {
    const message = 'please explain what the build script does with the cache folder';
    const rows = ['│ > please explain what the build script does │', '│ with the cache folder                      │', '', '● It clears it.'];
    expect(removeEcho(createEchoState(message), rows).lines).toEqual(['● It clears it.']);
  });

  it('matches each line of a multi-line message once, across calls', () => {
    let state = createEchoState('first line\nsecond line');
    const a = removeEcho(state, ['> first line']);
    state = a.state;
    const b = removeEcho(state, ['  second line', 'second line again is output']);
    expect([a.lines, b.lines]).toEqual([[], ['second line again is output']]);
  });

  it('leaves output alone when it does not start with the echo', () => {
    expect(removeEcho(createEchoState('make'), ['compiling', '$ make']).lines).toEqual(['compiling', '$ make']);
  });
});
