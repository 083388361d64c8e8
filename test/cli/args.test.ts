import { describe, expect, it } from 'vitest';
import { UsageError, parseArgv, type FlagSpec } from '../../src/cli/args.js';

const globals: FlagSpec[] = [
  { name: 'socket-name', short: 'L', type: 'string', description: '' },
  { name: 'opt-in', type: 'boolean', description: '' },
  { name: 'prompt-pattern', type: 'string-list', description: '' },
];
const commands: Record<string, FlagSpec[]> = { ls: [{ name: 'json', type: 'boolean', description: '' }], send: [{ name: 'literal', short: 'l', type: 'boolean', description: '' }] };
const parse = (argv: string[]) => parseArgv(argv, globals, (name) => commands[name] ?? null);

describe('argv parsing', () => {
  it('takes global flags before or after the command', () => {
    expect(parse(['-L', 'x', 'ls', '--json'])).toEqual({ command: 'ls', flags: { 'socket-name': 'x', json: true }, positionals: [] });
    expect(parse(['ls', '--socket-name=x', '--opt-in'])).toEqual({ command: 'ls', flags: { 'socket-name': 'x', 'opt-in': true }, positionals: [] });
    expect(parse(['-Lx']).flags['socket-name']).toBe('x');
  });

  it('collects repeatable flags and positionals, and stops at --', () => {
    const r = parse(['send', '--prompt-pattern', 'a', '%3', '--prompt-pattern=b', '--', '-l', 'Enter']);
    expect(r.flags['prompt-pattern']).toEqual(['a', 'b']);
    expect(r.positionals).toEqual(['%3', '-l', 'Enter']);
  });

  it('accepts --no-FLAG for booleans', () => {
    expect(parse(['--no-opt-in']).flags['opt-in']).toBe(false);
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [['--json'], /unknown option --json/],
    [['ls', '--literal'], /unknown option --literal for "corral ls"/],
    [['-L'], /needs a value/],
    [['--opt-in=yes'], /takes no value/],
  ])('rejects %j', (argv, message) => {
    expect(() => parse(argv)).toThrow(UsageError);
    expect(() => parse(argv)).toThrow(message);
  });
});
