/** One stored frame: the first holds every row, the others the rows that changed. */
export interface StoredFrame {
  readonly at: number;
  readonly activity?: number;
  readonly alternateOn?: boolean;
  readonly rows?: readonly string[];
  readonly set?: readonly (readonly [number, string])[];
  readonly length?: number;
}

/** A frame as a whole screen. */
export interface Frame {
  /** Milliseconds from the film's start. */
  readonly at: number;
  /** tmux's stamp of the window's last output (the start of its second), ms from the film's start. */
  readonly activity: number;
  readonly alternateOn: boolean;
  readonly screen: string;
}

export interface Film {
  readonly tool: string;
  readonly size: string;
  /** `permission`, `question`, `idle`, `working`. */
  readonly name: string;
  /** What a person would say the pane does once its state arrived. */
  readonly label: 'permission' | 'stopped' | 'busy' | 'none';
  readonly version: string;
  readonly file: string;
  readonly sampleMs: number;
  readonly durationMs: number;
  /** When the walk saw its state arrive: drawn (a wait), running and done (a tool run). */
  readonly marks: { readonly drawn?: number; readonly running?: number; readonly done?: number };
  readonly frames: readonly StoredFrame[];
}

export function expandFrames(frames: readonly StoredFrame[]): Frame[];
export function readFilms(dir: string): Film[];
export function startFilm(
  tmux: (...args: string[]) => Promise<string>,
  pane: string,
  options?: { sampleMs?: number },
): { mark(name: string): void; stop(): Promise<{ sampleMs: number; marks: Record<string, number>; frames: StoredFrame[]; durationMs: number }> };
export function animationMarkdown(films: readonly Film[], content: (lines: string[]) => string): string;
