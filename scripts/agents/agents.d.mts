/** What a profile's setup and steps get for one run of one agent at one size. */
export interface AgentRunContext {
  /** The throwaway HOME (config files go here). */
  readonly home: string;
  /** A git repository the agent works in. */
  readonly work: string;
  /** A folder outside it (a command or edit there needs an approval). */
  readonly outside: string;
  readonly model: { readonly url: string };
  readonly cols: number;
  readonly rows: number;
  /** The file EDITFILE asks to write (inside or outside `work`, per the profile). */
  readonly editPath: string;
}

/** One step of a walk: type or press, wait for the screen, maybe record it. */
export interface WalkStep {
  /** Typed, then Enter once it shows. */
  readonly send?: string | ((ctx: AgentRunContext) => string);
  /** tmux key names, pressed one by one. */
  readonly keys?: readonly string[];
  /** What the screen must show before the walk goes on (film steps have none). */
  readonly wait?: RegExp | ((screen: string) => boolean);
  /** Recorded as `<label>--<state>.txt` when set. */
  readonly state?: string;
  readonly label?: 'permission' | 'stopped' | 'busy' | 'none';
  /** A screen that may not come (first-run dialogs): skipped after the timeout. */
  readonly optional?: boolean;
  readonly timeoutMs?: number;
  /** Wait this long after the screen shows, before recording it. */
  readonly delayMs?: number;
  /** Record at once instead of waiting for the screen to settle (spinners). */
  readonly settle?: boolean;
  /** Run the step only when the current screen passes this. */
  readonly when?: (screen: string) => boolean;
  /** Typed without Enter (a draft). */
  readonly type?: string | ((ctx: AgentRunContext) => string);
  /** Backspace, this many times. */
  readonly erase?: number;
  /** Press `keys` again (up to this many times in all) while the screen does not show `wait`. */
  readonly repeat?: number;
  /** Starts or stops a film (films.mjs); stopping waits `holdMs` first. Only at the film size. */
  readonly film?: { readonly start: string; readonly label: string; readonly sampleMs?: number } | { readonly stop: string; readonly holdMs?: number };
  /** Notes in the running films the time `wait` was met (drawn, running, done). */
  readonly mark?: string;
  /** Taken only while filming (the 60 s tool run). */
  readonly filmOnly?: boolean;
}

export interface AgentProfile {
  /** Its rule set's name and its fixtures folder. */
  readonly tool: string;
  readonly package: string;
  readonly bin: string;
  readonly editOutside?: boolean;
  /** Every wait of its walk is this many times longer (an agent slow to answer on a loaded machine). */
  readonly slowness?: number;
  /** Writes the agent's config into ctx.home; returns the environment and arguments to start it with. */
  setup(ctx: AgentRunContext): { vars: Record<string, string>; args: string[] };
  steps(ctx: AgentRunContext): WalkStep[];
}

export const AGENTS: readonly AgentProfile[];
/** The command of the filmed 60 s tool run. */
export const LONG_RUN: string;
