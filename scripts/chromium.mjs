// Finds a Chrome or Chromium for the browser tests and the demo recorder, and starts it headless
// with what a machine without network access needs. Looks at $CHROMIUM, then the usual names on
// PATH, then where Linux packages (deb, Snap, Flatpak), macOS apps and Playwright's own download put it.

import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How to get a browser, said the same way wherever one is missing. */
export const ENABLE_HINT = 'install Chromium or Google Chrome (apt install chromium, brew install --cask chromium), or set CHROMIUM=/path/to/chrome';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function linuxPlaces(home) {
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/snap/bin/chromium',
    '/var/lib/snapd/snap/bin/chromium',
    '/var/lib/flatpak/exports/bin/org.chromium.Chromium',
    '/var/lib/flatpak/exports/bin/com.google.Chrome',
    join(home, '.local/share/flatpak/exports/bin/org.chromium.Chromium'),
    join(home, '.local/share/flatpak/exports/bin/com.google.Chrome'),
  ];
}

function macPlaces(home) {
  const apps = [
    'Google Chrome.app/Contents/MacOS/Google Chrome',
    'Chromium.app/Contents/MacOS/Chromium',
    'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
  ];
  return ['/Applications', join(home, 'Applications')].flatMap((dir) => apps.map((app) => join(dir, app)));
}

/** Browsers that `npx playwright install chromium` downloaded (newest first). */
function playwrightPlaces(home, platform, list) {
  const cache = platform === 'darwin' ? join(home, 'Library/Caches/ms-playwright') : join(home, '.cache/ms-playwright');
  const inside =
    platform === 'darwin'
      ? ['chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium', 'chrome-mac/Chromium.app/Contents/MacOS/Chromium']
      : ['chrome-linux64/chrome', 'chrome-linux/chrome'];
  const builds = list(cache)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  return builds.flatMap((build) => inside.map((rel) => join(cache, build, rel)));
}

function isExecutableFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function listDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Where a browser is, or why none was found. Pure apart from the `exists` and `list` probes, which
 * tests replace. An empty CHROMIUM counts as unset; a CHROMIUM naming no file is reported as such
 * rather than silently replaced by another browser.
 */
export function findChromium({
  env = process.env,
  platform = process.platform,
  home = homedir(),
  exists = isExecutableFile,
  list = listDir,
} = {}) {
  const chosen = env.CHROMIUM;
  if (chosen !== undefined && chosen !== '') {
    return exists(chosen) ? { path: chosen, from: 'CHROMIUM' } : { path: null, reason: `CHROMIUM=${chosen} is not a file` };
  }
  const pathDirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const name of NAMES) {
    for (const dir of pathDirs) {
      const candidate = join(dir, name);
      if (exists(candidate)) return { path: candidate, from: 'PATH' };
    }
  }
  const places = [
    ...(platform === 'darwin' ? macPlaces(home) : linuxPlaces(home)),
    ...playwrightPlaces(home, platform, list),
  ];
  for (const candidate of places) if (exists(candidate)) return { path: candidate, from: 'known place' };
  return { path: null, reason: 'no Chrome or Chromium found' };
}

export async function launchChromium(found = findChromium()) {
  if (found.path === null) throw new Error(`headless Chromium is needed: ${found.reason} (${ENABLE_HINT})`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: found.path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
