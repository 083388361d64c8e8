import type { Plugin } from 'esbuild';

export const CACHE_LIMIT: number;
export const OUTPUT_CACHE_LIMIT: number;
/** Source text that defines `name` (a Map), `${name}Get` and `${name}Set` with the bound. */
export function boundedCache(name: string): string;
export function patchInkSource(path: string, source: string): string | null;
export const inkPatches: Plugin;
