import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDuration, parseTape } from '../../scripts/tape-player.mjs';

describe('parseTape', () => {
  it('reads settings, commands, sizes and expectations', () => {
    const tape = parseTape(
      [
        '# size: 80x24',
        'Output demo.gif',
        'Set TypingSpeed 40ms',
        'Type "hi there"',
        'Sleep 1.5s',
        'Down 3',
        'Ctrl+C',
        'Escape',
        '# expect: hi',
        '# expect: /^\\$ $/m',
      ].join('\n'),
    );
    expect(tape.size).toEqual({ columns: 80, rows: 24 });
    expect(tape.output).toBe('demo.gif');
    expect(tape.typingSpeedMs).toBe(40);
    expect(tape.steps.map((s) => s.kind)).toEqual(['type', 'sleep', 'key', 'key', 'key', 'expect', 'expect']);
    expect(tape.steps[2]).toMatchObject({ key: 'Down', count: 3 });
    expect(tape.steps[3]).toMatchObject({ key: 'C-c' });
    const last = tape.steps[6];
    expect(last?.kind === 'expect' && last.regex?.test('x\n$ ')).toBe(true);
  });

  it('rejects settings after the first command and unknown commands', () => {
    expect(() => parseTape('Type "x"\nSet FontSize 12')).toThrow(/settings must come before/);
    expect(() => parseTape('Wiggle 3')).toThrow(/unknown tape command/);
  });

  it('parses durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('1.5')).toBe(1500);
  });

  it('accepts demo.tape: Output first, settings before commands, expectations present', () => {
    const tape = parseTape(readFileSync(new URL('../../demo.tape', import.meta.url), 'utf8'));
    expect(tape.output).toBe('demo.gif');
    expect(tape.size).not.toBeNull();
    expect(tape.steps.filter((s) => s.kind === 'expect').length).toBeGreaterThan(5);
  });
});
