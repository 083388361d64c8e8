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
  /** What the screen must show before the walk goes on. */
  readonly wait: RegExp | ((screen: string) => boolean);
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
}

export interface AgentProfile {
  /** Its rule set's name and its fixtures folder. */
  readonly tool: string;
  readonly package: string;
  readonly bin: string;
  readonly editOutside?: boolean;
  /** Writes the agent's config into ctx.home; returns the environment and arguments to start it with. */
  setup(ctx: AgentRunContext): { vars: Record<string, string>; args: string[] };
  steps(ctx: AgentRunContext): WalkStep[];
}

export const AGENTS: readonly AgentProfile[];
