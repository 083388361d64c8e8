import type { LabelledScreen } from './recorded-fixtures.mjs';

export interface RecordedException {
  /** The fixture, as in LabelledScreen.file. */
  readonly file: string;
  /** The verdict kind the rules give instead of the label. */
  readonly verdict: 'permission' | 'stopped' | 'busy' | 'none';
  /** Why the screen cannot tell (and what settles it instead). */
  readonly reason: string;
}

export const SCREENS_DIR: string;
export const EXCEPTIONS_FILE: string;
export function readHandWritten(dir?: string): LabelledScreen[];
export function readExceptions(file?: string): RecordedException[];
export function readRecorded(dir?: string): LabelledScreen[];
export function kindOf(verdict: { prompt: boolean; reason: string | null; busy: boolean }): string;
