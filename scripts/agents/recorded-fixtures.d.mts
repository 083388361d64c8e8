export interface LabelledScreen {
  readonly tool: string;
  /** `COLSxROWS` for a recorded screen, '' for a hand-written one. */
  readonly size: string;
  readonly state: string;
  readonly label: 'permission' | 'stopped' | 'busy' | 'none';
  /** Relative to its fixtures folder: `<tool>/<size>/<label>--<state>.txt`. */
  readonly file: string;
  readonly lines: string[];
  /** What else was known about the pane (recorded screens only). */
  readonly context: { readonly alternateScreen?: boolean };
}

export const RECORDED_DIR: string;
export const CONTEXT_FILE: string;
export const LABELS: readonly string[];
export function readRecorded(dir?: string): LabelledScreen[];
export function verdictName(verdict: { prompt: boolean; reason: string | null; busy: boolean; rule: string | null }): string;
