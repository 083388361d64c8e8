// Loads the screen fixtures of test/fixtures/screens/<tool>/. A file is named
// `<expect>--<what it shows>.txt`, where <expect> is the verdict the matcher must give:
// permission, stopped, busy (the program works; no prompt) or none (neither).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { PromptVerdict } from '../../src/engine/types.js';

export const SCREENS_DIR = new URL('../fixtures/screens/', import.meta.url).pathname;
export const LOGS_DIR = new URL('../fixtures/logs/', import.meta.url).pathname;

export type Expectation = 'permission' | 'stopped' | 'busy' | 'none';

export interface ScreenFixture {
  readonly tool: string;
  readonly name: string;
  readonly expect: Expectation;
  readonly lines: string[];
}

export function screenLines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

export function screenFixtures(tool: string): ScreenFixture[] {
  const dir = join(SCREENS_DIR, tool);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const match = /^(permission|stopped|busy|none)--(.+)\.txt$/.exec(file);
      if (!match) throw new Error(`fixture ${tool}/${file}: name must be <permission|stopped|busy|none>--<name>.txt`);
      return { tool, name: file, expect: match[1] as Expectation, lines: screenLines(readFileSync(join(dir, file), 'utf8')) };
    });
}

export function allScreenFixtures(): ScreenFixture[] {
  return readdirSync(SCREENS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap(screenFixtures);
}

/** Asserts that a verdict is what the fixture's name says, attributed to the fixture's tool. */
export function expectFixtureVerdict(fixture: ScreenFixture, verdict: PromptVerdict): void {
  const summary = { prompt: verdict.prompt, reason: verdict.reason, busy: verdict.busy };
  switch (fixture.expect) {
    case 'permission':
    case 'stopped':
      expect(summary, `${fixture.name}: ${JSON.stringify(verdict)}`).toEqual({ prompt: true, reason: fixture.expect, busy: false });
      expect(verdict.tool, `${fixture.name}: rule ${verdict.rule}`).toBe(fixture.tool);
      break;
    case 'busy':
      expect(summary, `${fixture.name}: ${JSON.stringify(verdict)}`).toEqual({ prompt: false, reason: null, busy: true });
      expect(verdict.tool, `${fixture.name}: rule ${verdict.rule}`).toBe(fixture.tool);
      break;
    case 'none':
      expect(summary, `${fixture.name}: ${JSON.stringify(verdict)}`).toEqual({ prompt: false, reason: null, busy: false });
      break;
  }
}

/** Height of the screens cut from the log corpus. */
export const LOG_SCREEN_HEIGHT = 24;

export interface LogScreen {
  readonly file: string;
  /** The log line at the bottom of the screen: none of these waits for a person. */
  readonly line: string;
  readonly lines: string[];
}

/**
 * Screens of ordinary output: for every non-empty line of test/fixtures/logs/*.txt, the
 * LOG_SCREEN_HEIGHT lines ending with it (as a terminal shows a log that has stopped there).
 */
export function logScreens(): LogScreen[] {
  return readdirSync(LOGS_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((file) => {
      const lines = screenLines(readFileSync(join(LOGS_DIR, file), 'utf8'));
      return lines.flatMap((line, i) =>
        line.trim() === '' ? [] : [{ file, line, lines: lines.slice(Math.max(0, i + 1 - LOG_SCREEN_HEIGHT), i + 1) }],
      );
    });
}
