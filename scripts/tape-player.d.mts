// Types for tape-player.mjs (used by the tape test).

export interface TapeSetting {
  readonly command: string;
  readonly value: string;
  readonly line: number;
}

export type TapeStep =
  | { readonly kind: 'type'; readonly text: string; readonly speedMs?: number; readonly line: number }
  | { readonly kind: 'key'; readonly key: string; readonly count: number; readonly line: number }
  | { readonly kind: 'sleep'; readonly ms: number; readonly line: number }
  | { readonly kind: 'hide' | 'show'; readonly line: number }
  | { readonly kind: 'expect'; readonly text?: string; readonly regex?: RegExp; readonly line: number };

export interface Tape {
  readonly settings: TapeSetting[];
  readonly size: { readonly columns: number; readonly rows: number } | null;
  readonly typingSpeedMs: number;
  readonly output: string | null;
  readonly steps: TapeStep[];
}

export function parseDuration(text: string): number;
export function parseTape(source: string): Tape;
export function playTape(options: {
  tape: Tape;
  tmux: (...args: string[]) => Promise<string>;
  paneId: string;
  typingDelayMs?: number;
  expectTimeoutMs?: number;
  onStep?: (step: TapeStep) => void | Promise<void>;
}): Promise<void>;
