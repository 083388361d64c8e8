// Whether this machine can run the browser tests. Where no Chrome or Chromium is found they are
// skipped with one line saying how to enable them; in CI (see skips.ts) a missing browser fails
// them instead, so CI never skips them.

import { ENABLE_HINT, findChromium, type ChromiumSearch } from '../../scripts/chromium.mjs';
import { mustNotSkip } from './skips.js';

export interface BrowserForTests {
  readonly found: ChromiumSearch;
  /** True when the tests should be skipped (no browser, and skipping is allowed). */
  readonly skip: boolean;
}

export function browserForTests(
  testName: string,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = console.warn,
): BrowserForTests {
  const found = findChromium({ env });
  const skip = found.path === null && !mustNotSkip(env);
  if (found.path === null && skip) warn(`${testName}: skipped, ${found.reason}; to run it, ${ENABLE_HINT}`);
  return { found, skip };
}
