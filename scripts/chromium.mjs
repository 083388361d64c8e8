// Headless Chromium for the demo recorder and the attach page's browser test: Debian's chromium
// (set CHROMIUM to use another), started with what a machine without network access needs.

import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`headless Chromium is needed at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
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
