// Types for scripts/page-script.mjs (the attach page's build step), for the tests that import it.

export const PAGE_ENTRY: string;
export const GENERATED_MODULE: string;
export function buildPageScript(): Promise<string>;
export function generatedModule(script: string): string;
export function writeGeneratedModule(): Promise<void>;
