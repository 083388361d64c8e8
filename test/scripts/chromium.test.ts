// Finding a browser for the browser tests: $CHROMIUM, the usual names on PATH, then the places Linux
// packages, macOS apps and Playwright's download use; and what the tests do when there is none.

import { describe, expect, it } from 'vitest';
import { findChromium } from '../../scripts/chromium.mjs';
import { browserForTests } from '../helpers/browser.js';

/** A file system holding only `files` (and the folders listed in `dirs`). */
function probes(files: string[], dirs: Record<string, string[]> = {}) {
  return { exists: (path: string) => files.includes(path), list: (dir: string) => dirs[dir] ?? [] };
}

describe('findChromium', () => {
  it('takes $CHROMIUM first, and reports a CHROMIUM that names no file instead of picking another', () => {
    const fs = probes(['/opt/my/chrome', '/usr/bin/chromium']);
    expect(findChromium({ env: { CHROMIUM: '/opt/my/chrome', PATH: '/usr/bin' }, platform: 'linux', home: '/h', ...fs })).toEqual({
      path: '/opt/my/chrome',
      from: 'CHROMIUM',
    });
    expect(findChromium({ env: { CHROMIUM: '/nope', PATH: '/usr/bin' }, platform: 'linux', home: '/h', ...fs })).toEqual({
      path: null,
      reason: 'CHROMIUM=/nope is not a file',
    });
  });

  it('treats an empty CHROMIUM as unset', () => {
    const fs = probes(['/usr/bin/chromium']);
    expect(findChromium({ env: { CHROMIUM: '', PATH: '' }, platform: 'linux', home: '/h', ...fs }).path).toBe('/usr/bin/chromium');
  });

  it('looks for the usual names on PATH, in order of the names', () => {
    const fs = probes(['/a/google-chrome-stable', '/b/chromium-browser']);
    expect(findChromium({ env: { PATH: '/a:/b' }, platform: 'linux', home: '/h', ...fs })).toEqual({
      path: '/b/chromium-browser',
      from: 'PATH',
    });
  });

  it.each([
    ['/snap/bin/chromium'],
    ['/opt/google/chrome/chrome'],
    ['/var/lib/flatpak/exports/bin/org.chromium.Chromium'],
    ['/h/.local/share/flatpak/exports/bin/com.google.Chrome'],
  ])('finds %s on Linux when PATH has none', (place) => {
    expect(findChromium({ env: { PATH: '/usr/local/bin' }, platform: 'linux', home: '/h', ...probes([place]) }).path).toBe(place);
  });

  it('finds the macOS apps, in /Applications and ~/Applications', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const chromium = '/h/Applications/Chromium.app/Contents/MacOS/Chromium';
    expect(findChromium({ env: {}, platform: 'darwin', home: '/h', ...probes([chrome]) }).path).toBe(chrome);
    expect(findChromium({ env: {}, platform: 'darwin', home: '/h', ...probes([chromium]) }).path).toBe(chromium);
    // Linux places are not looked at on macOS.
    expect(findChromium({ env: {}, platform: 'darwin', home: '/h', ...probes(['/snap/bin/chromium']) }).path).toBeNull();
  });

  it("takes Playwright's newest downloaded Chromium", () => {
    const cache = '/h/.cache/ms-playwright';
    const fs = probes([`${cache}/chromium-1140/chrome-linux/chrome`, `${cache}/chromium-1200/chrome-linux64/chrome`], {
      [cache]: ['ffmpeg-1010', 'chromium-1140', 'chromium-1200'],
    });
    expect(findChromium({ env: {}, platform: 'linux', home: '/h', ...fs }).path).toBe(`${cache}/chromium-1200/chrome-linux64/chrome`);
  });

  it('says so when there is none', () => {
    expect(findChromium({ env: { PATH: '/usr/bin' }, platform: 'linux', home: '/h', ...probes([]) })).toEqual({
      path: null,
      reason: 'no Chrome or Chromium found',
    });
  });
});

describe('browser tests without a browser', () => {
  const none = { CHROMIUM: '/no/such/browser' };

  it('skip with one line that says how to enable them', () => {
    const lines: string[] = [];
    expect(browserForTests('attach-page', { ...none }, (l) => lines.push(l)).skip).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^attach-page: skipped, CHROMIUM=\/no\/such\/browser is not a file; to run it, install Chromium .* or set CHROMIUM=/);
  });

  it.each([{ CI: 'true' }, { CORRAL_TEST_NO_SKIP: '1' }])('do not skip (and so fail) with %o', (extra) => {
    const lines: string[] = [];
    const check = browserForTests('attach-page', { ...none, ...extra }, (l) => lines.push(l));
    expect(check.skip).toBe(false);
    expect(check.found.path).toBeNull();
    expect(lines).toEqual([]);
  });

  it('run where a browser is found', () => {
    const lines: string[] = [];
    const check = browserForTests('attach-page', { CHROMIUM: process.execPath }, (l) => lines.push(l));
    expect(check).toEqual({ found: { path: process.execPath, from: 'CHROMIUM' }, skip: false });
    expect(lines).toEqual([]);
  });
});
