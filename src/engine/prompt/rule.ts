// The shape of a prompt rule. Every tool's rule set (rules/<tool>.ts) is plain data of this shape;
// the matcher compiles the sets of a pack once and runs them over the bottom of a screen.

import type { AnswerKind } from '../types.js';

export type RuleKind = 'permission' | 'stopped' | 'busy';

/**
 * How far up a busy rule may look when it asks to (`within`): an agent's status line stays above the
 * output of the command it runs. Other rules see the bottom REGION_LINES lines.
 */
export const BUSY_REGION_LINES = 30;

export interface PromptRule {
  /** `<tool>/<name>`, shown as the verdict's `rule`. */
  readonly id: string;
  /** permission / stopped: the screen waits for a person; busy: the program is working (vetoes prompts). */
  readonly kind: RuleKind;
  /** Matches the line the rule is about (reported as the verdict's `line`). */
  readonly pattern: RegExp;
  /**
   * Where the line may be: `last-line` (the last non-empty line only) or `bottom` (any line of the
   * bottom region, the default).
   */
  readonly where?: 'last-line' | 'bottom';
  /** At most this many non-empty lines from the bottom (1 is the last line). */
  readonly within?: number;
  /**
   * Match the line as captured (trimmed). By default rules see it with a leading or trailing box
   * border (`│ ┃ ║ ▌`) removed, so a dialog drawn inside a box reads like one drawn without.
   */
  readonly raw?: boolean;
  /** The line must not match this too (cheaper than a lookahead in `pattern`, tried only on a match). */
  readonly unless?: RegExp;
  /** Each of these must match some line of the bottom region (context, e.g. a menu's options). */
  readonly requires?: readonly RegExp[];
  /** The non-empty line right above must match (e.g. the top border of an input box). */
  readonly above?: RegExp;
  /**
   * A line right above that matches this is passed over when `above` is checked, once: the tail of
   * a line a narrow pane wrapped ("■ Conversation interrupted - … went" over "wrong").
   */
  readonly aboveSkips?: RegExp;
  /** The non-empty line right above must not match (e.g. a question over a bare `>` is not a REPL). */
  readonly notAbove?: RegExp;
  /** Some line below must match (e.g. the bottom border of an input box). */
  readonly below?: RegExp;
  /**
   * The non-empty line right below must match: a box drawn tight around the line (an input box's
   * bottom edge), where `below` would also take a rule drawn further down for something else.
   */
  readonly next?: RegExp;
  /** No line below may match (e.g. the summary line an agent prints when its turn is over). */
  readonly notBelow?: RegExp;
  /**
   * How the prompt is answered (permission and stopped rules). By default a permission prompt on
   * the last line takes a line, a permission dialog elsewhere takes a key, and a stopped prompt
   * takes a line. Secrets must say so.
   */
  readonly answer?: AnswerKind;
  /** Fixed quick answers; by default they are read off the screen (see answers.ts). */
  readonly options?: readonly string[];
  /**
   * A stopped rule for the program's own menu (a model picker, help, settings, a session list),
   * which the person opened: tried before the permission rules (its numbered options are no
   * approval), and the verdict says `menu`. It may look as high as a busy rule (`within` up to
   * BUSY_REGION_LINES), for a title above a long list whose footer is cut off.
   */
  readonly menu?: boolean;
  /**
   * The rule holds only while the pane shows its alternate screen, i.e. a full-screen program
   * (a pager, an editor) runs. For screens that plain output could also show.
   */
  readonly alternateScreen?: boolean;
  /**
   * A bare prompt glyph on the last line (`❯`, `>`) that any program may draw: a live-work line (a
   * busy rule's match) within LIVE_WORK_LINES lines above it outranks it. An agent draws its cursor
   * under its spinner while it works; a shell prompt after a program quit has its own context.
   */
  readonly yieldsToWork?: boolean;
}

/** How close above a bare prompt (`yieldsToWork`) a live-work line must be to outrank it. */
export const LIVE_WORK_LINES = 3;

/** One tool's rules. The tool name becomes the verdict's `tool`. */
export interface RuleSet {
  readonly tool: string;
  readonly rules: readonly PromptRule[];
}
