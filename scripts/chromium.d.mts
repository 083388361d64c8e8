import type { Browser } from 'playwright-core';

export const CHROMIUM: string;
export function launchChromium(): Promise<Browser>;
