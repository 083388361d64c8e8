import type { Browser } from 'playwright-core';

export type ChromiumSearch =
  | { readonly path: string; readonly from: 'CHROMIUM' | 'PATH' | 'known place' }
  | { readonly path: null; readonly reason: string };

export const ENABLE_HINT: string;
export function findChromium(options?: {
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
  exists?: (path: string) => boolean;
  list?: (dir: string) => string[];
}): ChromiumSearch;
export function launchChromium(found?: ChromiumSearch): Promise<Browser>;
