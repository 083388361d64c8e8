import { describe, expect, it } from 'vitest';
import { lineChoices, menuNumbers } from '../../../src/engine/prompt/answers.js';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';

describe('lineChoices', () => {
  it.each([
    ['Continue? [y/N]', ['y', 'n', 'Enter']],
    ['Do you want to continue? [Y/n]', ['y', 'n', 'Enter']],
    ['Overwrite it (y/n)?', ['y', 'n']],
    ['Are you sure you want to continue connecting (yes/no/[fingerprint])?', ['yes', 'no']],
    ['Proceed ([y]/n)?', ['y', 'n', 'Enter']],
    ['*** sshd_config (Y/I/N/O/D/Z) [default=N] ?', ['y', 'i', 'n', 'o', 'd', 'z', 'Enter']],
    ['(1/1) Stage this hunk [y,n,q,a,d,e,?]? ', ['y', 'n', 'q', 'a', 'd', 'e']],
    // Several hunks: j and J are two answers; / searches.
    ['(1/2) Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]? ', ['y', 'n', 'q', 'a', 'd', 'j', 'J', 'g', '/', 'e']],
    ['(2/3) Stage this hunk [y,n,q,a,d,K,j,J,g,/,s,e,?]? ', ['y', 'n', 'q', 'a', 'd', 'K', 'j', 'J', 'g', '/', 's', 'e']],
    ["Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:", ['y', 'n', 'd', 'Enter']],
    ['Ok to proceed? (y)', ['y']],
    ['user@host:~$', []],
    ['Project name (demo):', []],
  ])('%s', (line, expected) => {
    expect(lineChoices(line)).toEqual(expected);
  });
});

describe('menuNumbers', () => {
  it('reads the entries under a question, not numbered prose above it', () => {
    const lines = ['Steps: 1. build 2. test', 'Do you want to proceed?', '❯ 1. Yes', '2. Yes, and do not ask again', '3. No'];
    expect(menuNumbers(lines, 1)).toEqual(['1', '2', '3']);
  });

  it('reads the whole menu when the prompt line is one of its entries, wherever the cursor is', () => {
    const lines = ['1. an old list item', 'How would you like to authenticate?', '1. Sign in with Google', '● 2. Use Gemini API Key', '3. Vertex AI', '(Use Enter to select)'];
    expect(menuNumbers(lines, 3)).toEqual(['1', '2', '3']);
    expect(menuNumbers(['Do you trust this folder?', '● 1. Trust folder', '2. Trust parent folder', '3. Don\'t trust'], 1)).toEqual(['1', '2', '3']);
  });

  it('reads the entries above a footer, up to their question', () => {
    const lines = ['1. an old list item', '2. another', 'Which one?', '❯ 1. Red', '2. Blue', 'Enter to select · Esc to cancel'];
    expect(menuNumbers(lines, 5)).toEqual(['1', '2']);
  });

  it('needs an unbroken run from 1', () => {
    expect(menuNumbers(['Pick:', '3. three', '4. four'], 0)).toEqual([]);
  });
});

describe('verdict answers', () => {
  it('a numbered permission menu is answered by one key', () => {
    const screen = [
      'Bash command',
      '  rm -rf build',
      'Do you want to proceed?',
      '❯ 1. Yes',
      '  2. Yes, and don’t ask again for rm commands',
      '  3. No, and tell Claude what to do differently (esc)',
    ];
    expect(classifyScreen(screen).answer).toEqual({ kind: 'key', options: ['1', '2', '3', 'Enter'] });
  });

  it('a yes/no question on the last line takes a line', () => {
    expect(classifyScreen(['Removing 3 packages', 'Do you want to continue? [Y/n]']).answer).toEqual({
      kind: 'line',
      options: ['y', 'n', 'Enter'],
    });
  });

  it('a password gets no quick answer', () => {
    expect(classifyScreen(['[sudo] password for me:']).answer).toEqual({ kind: 'secret', options: [] });
  });

  it('a shell prompt takes free text', () => {
    expect(classifyScreen(['me@box:~$']).answer).toEqual({ kind: 'line', options: [] });
  });

  it('no prompt, no answer', () => {
    expect(classifyScreen(['Compiling serde']).answer).toBeNull();
  });
});
