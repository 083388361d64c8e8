import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEYMAP, couldBeAnswerKey, findBinding, footerItems, keyLabel, keyName, renderKeysMarkdown } from '../../src/ui/keymap.js';

describe('keymap table', () => {
  it('binds each key at most once per scope', () => {
    for (const scope of ['normal', 'answer'] as const) {
      const keys = KEYMAP.filter((b) => b.scope === scope).flatMap((b) => b.keys);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('gives every fixed answer key something to send, and asks first for signals', () => {
    for (const b of KEYMAP.filter((x) => x.scope === 'answer' && x.command === 'send')) {
      expect(b.send?.length).toBeGreaterThan(0);
    }
    const signals = KEYMAP.filter((b) => b.send?.some((i) => i.kind === 'key' && /^(C-[cdz]|Escape)$/.test(i.key)));
    expect(signals.map((b) => b.confirm)).toEqual([true, true, true, true]);
  });

  it('puts nothing after the answer prefix on a key a prompt option could use', () => {
    const extras = KEYMAP.filter((b) => b.scope === 'answer' && b.command !== 'answer-option').flatMap((b) => b.keys);
    expect(extras).toEqual(['up', 'down', 'escape', 'ctrl+c', 'ctrl+d', 'ctrl+z']);
    for (const key of extras) expect(couldBeAnswerKey(key), key).toBe(false);
    for (const key of ['y', '1', '?', '/', 'J', 'é', 'enter']) expect(couldBeAnswerKey(key), key).toBe(true);
  });

  it('finds bindings by scope and key name', () => {
    expect(findBinding('normal', 'j')?.command).toBe('down');
    expect(findBinding('normal', 'down')?.command).toBe('down');
    expect(findBinding('normal', 'ctrl+c')?.command).toBe('quit');
    expect(findBinding('answer', 'ctrl+c')?.send).toEqual([{ kind: 'key', key: 'C-c' }]);
    expect(findBinding('answer', 'escape')?.send).toEqual([{ kind: 'key', key: 'Escape' }]);
    expect(findBinding('answer', 'c')).toBeUndefined();
    expect(findBinding('normal', '1')).toBeUndefined();
  });

  it('names keys from Ink key flags', () => {
    expect(keyName('', { upArrow: true })).toBe('up');
    expect(keyName('\r', { return: true })).toBe('enter');
    expect(keyName('', { escape: true })).toBe('escape');
    expect(keyName('c', { ctrl: true })).toBe('ctrl+c');
    expect(keyName('G', { shift: true } as never)).toBe('G');
    expect(keyName('', { delete: true })).toBe('backspace');
    expect(keyLabel('ctrl+c')).toBe('Ctrl-C');
    expect(keyLabel('down')).toBe('↓');
  });

  it('has a footer drawn from the table, led by what the answer prefix offers', () => {
    const labels = footerItems('—').map((f) => f.label);
    expect(labels).toContain('reply');
    expect(labels).toContain('help');
    expect(labels).toContain('quit');
    expect(footerItems('—')[0]).toEqual({ keys: 'a:', label: '—' });
    expect(footerItems('1 2 3 Enter')[0]).toEqual({ keys: 'a:', label: '1 2 3 Enter' });
  });

  it('matches the keys table in the README', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const match = /<!-- keys:start -->\n([\s\S]*?)\n<!-- keys:end -->/.exec(readme);
    expect(
      match,
      'README.md needs a <!-- keys:start --> ... <!-- keys:end --> block (npm run docs)',
    ).not.toBeNull();
    expect(match?.[1]).toBe(renderKeysMarkdown());
  });
});
