import { describe, expect, it } from 'vitest';
import { captureLines, createDiffState, diffCapture, locateAnchor, type Capture, type DiffState } from '../../../src/engine/conversation/screen-diff.js';

/** A capture whose cursor sits on the last non-blank line (a shell at its prompt, a running line). */
function at(lines: string[], cursorRow = lastNonBlank(lines)): Capture {
  return { lines, cursorRow };
}
function lastNonBlank(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if ((lines[i] ?? '') !== '') return i;
  return 0;
}

/** Feeds captures in order and returns everything committed, plus the last open lines. */
function run(baseline: Capture, captures: Capture[]): { added: string[][]; open: readonly string[]; state: DiffState } {
  let state = createDiffState(baseline);
  const added: string[][] = [];
  let open: readonly string[] = [];
  for (const capture of captures) {
    const step = diffCapture(state, capture);
    state = step.state;
    added.push([...step.added]);
    open = step.open;
  }
  return { added, open, state };
}

describe('captureLines', () => {
  it('splits capture output, strips escapes and trailing spaces', () => {
    expect(captureLines('a  \n\u001b[31mred\u001b[0m\n\n')).toEqual(['a', 'red', '']);
  });
});

describe('diffCapture on a shell', () => {
  const baseline = at(['old output', 'more old', '$']);

  it('commits the lines the cursor has left and drops the prompt the shell returns to', () => {
    const { added, open } = run(baseline, [
      at(['old output', 'more old', '$ echo hi']),
      at(['old output', 'more old', '$ echo hi', 'hi', '$']),
    ]);
    expect(added).toEqual([[], ['$ echo hi', 'hi']]);
    expect(open).toEqual([]);
  });

  it('keeps the cursor line open until the cursor leaves it', () => {
    const { added, open } = run(baseline, [
      at(['old output', 'more old', '$ make', 'building', ''], 4),
      at(['old output', 'more old', '$ make', 'building', 'step 1'], 4),
    ]);
    expect(added).toEqual([['$ make', 'building'], []]);
    expect(open).toEqual(['step 1']);
  });

  it('emits each line once while the output scrolls and the capture window slides', () => {
    // The capture holds four lines: as output grows, the baseline drops off the top.
    const { added } = run(at(['a', 'b', 'c', '$']), [
      at(['b', 'c', '$ seq 3', '1', ''], 4),
      at(['$ seq 3', '1', '2', '3', '$']),
      at(['$ seq 3', '1', '2', '3', '$']),
    ]);
    expect(added.flat()).toEqual(['$ seq 3', '1', '2', '3']);
  });

  it('copes with history trimmed past the anchor while lines keep coming', () => {
    const baseline = at(['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', '$']);
    const { added } = run(baseline, [
      at(['x5', 'x6', 'x7', '$ run', 'r1', ''], 5),
      at(['r1', 'r2', 'r3', 'r4', 'r5', ''], 5),
      at(['r4', 'r5', 'r6', 'r7', 'r8', ''], 5),
    ]);
    expect(added.flat()).toEqual(['$ run', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']);
  });

  it('after a clear screen, emits the new screen', () => {
    const { added } = run(at(['x', 'y', '$']), [
      at(['x', 'y', '$ clear; echo after', ''], 3),
      at(['after', '$']),
    ]);
    expect(added).toEqual([['$ clear; echo after'], ['after']]);
  });

  it('ignores output that repeats the baseline when the anchor is found', () => {
    const { added } = run(at(['done', '$']), [at(['done', '$ echo done', 'done', '$'])]);
    expect(added.flat()).toEqual(['$ echo done', 'done']);
  });

  it('yields only the final state of a progress bar redrawn on the cursor line', () => {
    const frames = Array.from({ length: 50 }, (_, i) => at(['$ fetch', `[${'#'.repeat(i / 5)}] ${i * 2}%`], 1));
    const { added } = run(at(['$']), [...frames, at(['$ fetch', '[##########] 100%', 'saved', '$'])]);
    expect(added.flat()).toEqual(['$ fetch', '[##########] 100%', 'saved']);
  });

  it('reports a change only when the region moved', () => {
    let state = createDiffState(at(['$']));
    const first = diffCapture(state, at(['$ sleep 5']));
    state = first.state;
    const second = diffCapture(state, at(['$ sleep 5']));
    expect([first.changed, second.changed]).toEqual([true, false]);
  });
});

describe('diffCapture on a full-screen agent that redraws in place', () => {
  const box = ['╭──────────╮', '│ >        │', '╰──────────╯', '  ? for shortcuts'];
  const baseline: Capture = { lines: ['Welcome', '', ...box], cursorRow: 3 };

  it('leaves out the input box and status bar, and picks up text written over a status line', () => {
    const screen = (body: string[]): Capture => ({ lines: ['Welcome', '', ...body, ...box], cursorRow: 3 + body.length });
    const { added } = run(baseline, [
      screen(['> hello', '', '✻ Thinking… (esc to interrupt)']),
      screen(['> hello', '', '● Hi there', '✻ Thinking… (esc to interrupt)']),
      screen(['> hello', '', '● Hi there', '  second line']),
    ]);
    expect(added).toEqual([['> hello', '', '✻ Thinking… (esc to interrupt)'], ['● Hi there'], ['  second line']]);
  });

  it('follows content that scrolls the baseline off a screen without history', () => {
    const screen = (body: string[]): Capture => ({ lines: [...body, ...box], cursorRow: body.length + 1 });
    const { added } = run(baseline, [
      screen(['Welcome', '', '> go', 'a1', 'a2']),
      screen(['a1', 'a2', 'a3', 'a4', 'a5']),
    ]);
    expect(added.flat()).toEqual(['> go', 'a1', 'a2', 'a3', 'a4', 'a5']);
  });
});

describe('locateAnchor', () => {
  it('finds the block before the chrome at the same place or higher, never lower', () => {
    expect(locateAnchor(['a', 'b', '$'], 1, ['a', 'b', '$ ls'])).toBe(2);
    expect(locateAnchor(['a', 'b', '$'], 1, ['b', '$ ls'])).toBe(1);
    expect(locateAnchor(['a', 'b', '$'], 1, ['zz', 'zz', 'zz', 'a', 'b'])).toBeNull();
  });

  it('treats a baseline that is all chrome as anchored at the top', () => {
    expect(locateAnchor(['$'], 1, ['$ ls', 'x'])).toBe(0);
  });
});
