// Decides whether a screen waits for a person, and why. Pure and data-driven: the rules live in
// rules/<tool>.ts; this file compiles a pack of them once and scans only the bottom of a screen.
//
// How a verdict is reached, over the last REGION_LINES non-empty lines (BUSY_REGION_LINES for busy
// rules: a status line can sit above a long command's output):
// 1. Busy: the lowest line a busy rule matches (lines that echo a user's message, `> …`, and lines
//    inside an input box, what the user is typing, are skipped).
// 2. Prompt: a last-line rule matching the last line wins (shells, REPLs, yes/no questions);
//    otherwise the first menu rule (an agent's own menu, which the person opened); otherwise the
//    first permission rule that matches; otherwise the lowest stopped match.
// 3. A busy line vetoes the prompt, unless the prompt is drawn below it and is not an agent's input
//    box: a permission dialog or a shell prompt under a stale status line is what the screen shows
//    now, while an agent draws its input box under its spinner even while it works (outranksBusy).
// Rules marked `alternateScreen` take part only when the caller says the pane shows its alternate
// screen (a full-screen program); the pack keeps both lists, so choosing costs nothing per screen.

import stripAnsi from 'strip-ansi';
import { ConfigError } from '../settings/config.js';
import type { AnswerKind, PromptVerdict } from '../types.js';
import { answerFor } from './answers.js';
import { BUSY_REGION_LINES, LIVE_WORK_LINES, type PromptRule, type RuleKind, type RuleSet } from './rule.js';
import { aiderRules } from './rules/aider.js';
import { claudeCodeRules } from './rules/claude-code.js';
import { codexRules } from './rules/codex.js';
import { copilotRules } from './rules/copilot.js';
import { geminiCliRules } from './rules/gemini-cli.js';
import { genericRules } from './rules/generic.js';
import { opencodeRules } from './rules/opencode.js';
import { piRules } from './rules/pi.js';
import { qwenCodeRules } from './rules/qwen-code.js';
import { replRules } from './rules/repl.js';
import { seedRules } from './rules/seed.js';
import { shellRules } from './rules/shell.js';

export type { PromptRule, RuleKind, RuleSet } from './rule.js';

/** How many non-empty lines, counted from the bottom, the matcher looks at. */
export const REGION_LINES = 15;
export { BUSY_REGION_LINES } from './rule.js';

export type PromptPack = 'default' | 'seed' | 'none';

/**
 * Every built-in rule set, in the order they are tried on a line: narrower rules first (gemini-cli's
 * input box also needs its footer, so it goes before Claude Code's box of the same shape; Qwen Code,
 * its fork, goes before it; Copilot's trust dialog asks Claude Code's question, so it goes before
 * Claude Code), generic last.
 */
export const DEFAULT_RULE_SETS: readonly RuleSet[] = [
  qwenCodeRules,
  geminiCliRules,
  codexRules,
  opencodeRules,
  piRules,
  copilotRules,
  claudeCodeRules,
  aiderRules,
  shellRules,
  replRules,
  genericRules,
];

export const PACKS: Readonly<Record<PromptPack, readonly RuleSet[]>> = {
  default: DEFAULT_RULE_SETS,
  seed: [seedRules],
  none: [],
};

interface CompiledRule {
  readonly id: string;
  readonly tool: string;
  readonly kind: RuleKind;
  readonly pattern: RegExp;
  readonly lastLineOnly: boolean;
  /** The anchor must be among this many non-empty lines from the bottom (1 = the last line). */
  readonly within: number;
  readonly raw: boolean;
  readonly requires: readonly RegExp[];
  readonly above: RegExp | null;
  readonly aboveSkips: RegExp | null;
  readonly notAbove: RegExp | null;
  readonly unless: RegExp | null;
  readonly below: RegExp | null;
  readonly next: RegExp | null;
  readonly notBelow: RegExp | null;
  readonly answer: AnswerKind;
  readonly options: readonly string[] | undefined;
  readonly alternateScreenOnly: boolean;
  readonly menu: boolean;
  readonly yieldsToWork: boolean;
}

/** The compiled rules, sorted by what the matcher tries them for. */
interface RuleLists {
  readonly busy: readonly CompiledRule[];
  /** Rules about the last line only: permission rules first, then stopped ones, in rule-set order. */
  readonly lastLine: readonly CompiledRule[];
  /** Stopped rules for a program's own menu, tried before the permission rules. */
  readonly menu: readonly CompiledRule[];
  /** Rules about any line of the bottom region. */
  readonly permission: readonly CompiledRule[];
  readonly stopped: readonly CompiledRule[];
}

/** A compiled pack: what classifyScreen runs. Build one with buildRules (or use DEFAULT_RULES). */
export interface PromptRules extends RuleLists {
  readonly name: string;
  /** The same plus the rules that hold only on a full-screen program's alternate screen. */
  readonly onAlternateScreen: RuleLists;
}

/** What is known about the pane besides its screen. */
export interface ScreenContext {
  /** The pane shows its alternate screen (tmux `#{alternate_on}`): a full-screen program runs. */
  readonly alternateScreen?: boolean;
}

function compile(sets: readonly RuleSet[]): {
  busy: CompiledRule[];
  permission: CompiledRule[];
  stopped: CompiledRule[];
} {
  const out = { busy: [] as CompiledRule[], permission: [] as CompiledRule[], stopped: [] as CompiledRule[] };
  for (const set of sets) {
    for (const rule of set.rules) {
      const lastLineOnly = rule.where === 'last-line';
      out[rule.kind].push({
        id: rule.id,
        tool: set.tool,
        kind: rule.kind,
        // A global or sticky regex would carry lastIndex from one test to the next.
        pattern:
          rule.pattern.global || rule.pattern.sticky
            ? new RegExp(rule.pattern.source, rule.pattern.flags.replace(/[gy]/g, ''))
            : rule.pattern,
        lastLineOnly,
        // Busy and menu rules may ask to look higher (up to BUSY_REGION_LINES: a status line above
        // a command's output, a menu's title above its long list); by default all see REGION_LINES.
        within: lastLineOnly
          ? 1
          : Math.min(rule.within ?? REGION_LINES, rule.kind === 'busy' || rule.menu ? BUSY_REGION_LINES : REGION_LINES),
        raw: rule.raw ?? false,
        requires: rule.requires ?? [],
        above: rule.above ?? null,
        aboveSkips: rule.aboveSkips ?? null,
        notAbove: rule.notAbove ?? null,
        unless: rule.unless ?? null,
        below: rule.below ?? null,
        next: rule.next ?? null,
        notBelow: rule.notBelow ?? null,
        answer: rule.answer ?? (rule.kind === 'permission' && !lastLineOnly ? 'key' : 'line'),
        options: rule.options,
        alternateScreenOnly: rule.alternateScreen ?? false,
        menu: rule.menu ?? false,
        yieldsToWork: rule.yieldsToWork ?? false,
      });
    }
  }
  return out;
}

function listsOf(busy: CompiledRule[], permission: CompiledRule[], stopped: CompiledRule[]): RuleLists {
  const anywhere = (r: CompiledRule) => !r.lastLineOnly;
  return {
    busy,
    lastLine: [...permission, ...stopped].filter((r) => r.lastLineOnly),
    menu: stopped.filter((r) => anywhere(r) && r.menu),
    permission: permission.filter(anywhere),
    stopped: stopped.filter((r) => anywhere(r) && !r.menu),
  };
}

function rulesFrom(name: string, sets: readonly RuleSet[]): PromptRules {
  const { busy, permission, stopped } = compile(sets);
  const always = (r: CompiledRule) => !r.alternateScreenOnly;
  return {
    name,
    ...listsOf(busy.filter(always), permission.filter(always), stopped.filter(always)),
    onAlternateScreen: listsOf(busy, permission, stopped),
  };
}

export const DEFAULT_RULES: PromptRules = rulesFrom('default', DEFAULT_RULE_SETS);

/**
 * A pack of the given rule sets, in the order given: for measuring a subset of the rules (the
 * default sets without one agent's own, to see how the rest judge a screen of an agent they were
 * not written from).
 */
export function packOfSets(name: string, sets: readonly RuleSet[]): PromptRules {
  return rulesFrom(name, sets);
}

// ---------------------------------------------------------------------------------------------
// User patterns

const KIND_PREFIX = /^(permission|stopped|busy):/;

/**
 * Turns user patterns into a rule set. A pattern is a JavaScript regular expression tested against
 * the last non-empty line (trimmed); it counts as "stopped" unless it starts with `permission:`.
 * `busy:` makes it a busy signal looked for anywhere in the bottom region. Invalid or empty patterns
 * throw a ConfigError naming the pattern.
 */
export function userRuleSet(patterns: readonly string[]): RuleSet {
  const rules: PromptRule[] = patterns.map((text) => {
    const prefix = KIND_PREFIX.exec(text);
    const kind = (prefix?.[1] ?? 'stopped') as RuleKind;
    const source = prefix ? text.slice(prefix[0].length) : text;
    if (source === '')
      throw new ConfigError(
        `invalid --prompt-pattern ${JSON.stringify(text)}: the pattern is empty (it would match every screen)`,
      );
    let pattern: RegExp;
    try {
      pattern = new RegExp(source);
    } catch (error) {
      const detail = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
      throw new ConfigError(`invalid --prompt-pattern ${JSON.stringify(text)}: ${detail}`);
    }
    const rule: PromptRule = { id: `user/${source}`, kind, pattern, raw: true };
    return kind === 'busy' ? rule : { ...rule, where: 'last-line' };
  });
  return { tool: 'user', rules };
}

/** The rules for a pack plus the user's patterns (which are tried first). Validates the patterns. */
export function buildRules(options: { readonly pack: PromptPack; readonly patterns: readonly string[] }): PromptRules {
  const sets = PACKS[options.pack];
  if (!sets)
    throw new ConfigError(`unknown prompt pack "${String(options.pack)}" (known: ${Object.keys(PACKS).join(', ')})`);
  if (options.patterns.length === 0) return options.pack === 'default' ? DEFAULT_RULES : rulesFrom(options.pack, sets);
  return rulesFrom(`${options.pack}+user`, [userRuleSet(options.patterns), ...sets]);
}

// ---------------------------------------------------------------------------------------------
// Classification

interface RegionLine {
  /** The line as captured: ANSI removed, trimmed. */
  readonly text: string;
  /** The same without a leading or trailing box border. */
  readonly inner: string;
  /** The rule lists (bits of LIST_BITS) already asked whether a pattern of theirs matches the line. */
  known: number;
  /** Of those, the ones whose answer is yes. */
  may: number;
}

const BOX_LEFT = /^[│┃║▌]\s*/;
/** A right border, or a scroll bar's thumb (`█`) in the last column. */
const RIGHT_BORDERS = '│┃║█';
/**
 * A line that shows what the user typed (an echoed message or a draft), not the program's status;
 * unless the whole line is an interrupt hint, which some agents draw at their cursor while working.
 */
const ECHO_LINE = /^[>❯›]\s(?!\s*(?:press\s+)?(?:ctrl\+c|esc) to interrupt\W*$)/i;

type ListName = keyof RuleLists;
const LIST_BITS: Readonly<Record<ListName, number>> = { busy: 1, lastLine: 2, permission: 4, stopped: 8, menu: 16 };

/**
 * What a line of a screen is to the rules of one pack: its trimmed and inner text, and which rule
 * lists may match it (see mayMatch). A screen that scrolls shows the same line in many cycles, one row higher each
 * time, so this is kept per line text: most lines of a capture cost one lookup, not a test per rule.
 * Two generations: when the current map is full it becomes the previous one, so the lines still on
 * the screens then are found there, not tested against every rule again.
 */
const LINE_CACHE_SIZE = 4096;

interface LineCache {
  current: Map<string, RegionLine | null>;
  previous: Map<string, RegionLine | null>;
}

const lineCaches = new WeakMap<RuleLists, LineCache>();

function readRegionLine(raw: string): RegionLine | null {
  const text = (raw.includes('\u001b') ? stripAnsi(raw) : raw).trim();
  if (text === '') return null;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Box-drawing borders and the left half block live in U+2500..U+259F.
  const boxed = (first >= 0x2500 && first <= 0x259f) || (last >= 0x2500 && last <= 0x259f);
  let inner = text;
  if (boxed) {
    // The right border is cut by hand: a regex anchored only at the end backtracks over long runs of padding.
    inner = text.replace(BOX_LEFT, '');
    if (RIGHT_BORDERS.includes(inner.charAt(inner.length - 1))) inner = inner.slice(0, -1);
    inner = inner.trim();
    // An empty row inside a box says nothing; skipping it keeps tall dialogs inside the region.
    if (inner === '') return null;
  }
  return { text, inner, known: 0, may: 0 };
}

/**
 * Whether a rule of the list `name` has a pattern that matches the line at all (its context
 * aside). Asked once per line and list: a line that scrolls up is never asked about the last-line
 * rules again, however long it stays on the screen.
 */
function mayMatch(rules: RuleLists, name: ListName, line: RegionLine): boolean {
  const bit = LIST_BITS[name];
  if ((line.known & bit) === 0) {
    line.known |= bit;
    if (rules[name].some((rule) => rule.pattern.test(rule.raw ? line.text : line.inner))) line.may |= bit;
  }
  return (line.may & bit) !== 0;
}

function regionLine(raw: string, rules: RuleLists): RegionLine | null {
  if (raw === '') return null;
  let cache = lineCaches.get(rules);
  if (cache === undefined) {
    cache = { current: new Map(), previous: new Map() };
    lineCaches.set(rules, cache);
  }
  let line = cache.current.get(raw);
  if (line === undefined) {
    line = cache.previous.get(raw);
    if (line === undefined) line = readRegionLine(raw);
    if (cache.current.size >= LINE_CACHE_SIZE) {
      cache.previous = cache.current;
      cache.current = new Map();
    }
    cache.current.set(raw, line);
  }
  return line;
}

/** The last `size` non-empty lines, top to bottom. */
function bottomRegion(lines: readonly string[], size: number, rules: RuleLists): RegionLine[] {
  const region: RegionLine[] = [];
  for (let i = lines.length - 1; i >= 0 && region.length < size; i--) {
    const line = regionLine(lines[i] ?? '', rules);
    if (line) region.push(line);
  }
  return region.reverse();
}

function someLine(region: readonly RegionLine[], pattern: RegExp, from = 0): boolean {
  for (let i = from; i < region.length; i++) if (pattern.test(region[i]!.inner)) return true;
  return false;
}

/** Whether the line above `index` matches `above`, passing over one wrapped tail (`skips`). */
function aboveHolds(above: RegExp, skips: RegExp | null, region: readonly RegionLine[], index: number): boolean {
  if (index > 0 && above.test(region[index - 1]!.inner)) return true;
  return skips !== null && index > 1 && skips.test(region[index - 1]!.inner) && above.test(region[index - 2]!.inner);
}

function matchesAt(rule: CompiledRule, region: readonly RegionLine[], index: number): boolean {
  const fromBottom = region.length - 1 - index;
  if (fromBottom >= rule.within) return false;
  const line = region[index]!;
  const text = rule.raw ? line.text : line.inner;
  if (!rule.pattern.test(text)) return false;
  if (rule.unless?.test(text)) return false;
  if (rule.above && !aboveHolds(rule.above, rule.aboveSkips, region, index)) return false;
  if (rule.notAbove && index > 0 && rule.notAbove.test(region[index - 1]!.inner)) return false;
  if (rule.below && !someLine(region, rule.below, index + 1)) return false;
  if (rule.next && !(index + 1 < region.length && rule.next.test(region[index + 1]!.inner))) return false;
  if (rule.notBelow && someLine(region, rule.notBelow, index + 1)) return false;
  // Context comes from the rule's own region: a prompt rule does not look past REGION_LINES.
  const top = rule.kind === 'busy' ? 0 : Math.max(0, region.length - REGION_LINES);
  for (const required of rule.requires) if (!someLine(region, required, top)) return false;
  return true;
}

/** The top and the bottom edge of an agent's input box (a plain rule can be either). */
const BOX_TOP = /^[╭─]─{3,}/;
const BOX_BOTTOM = /^[╰─]─{3,}/;

/** A line between two box edges: what the user is typing, not the program's status. */
function insideInputBox(region: readonly RegionLine[], index: number): boolean {
  return (
    index > 0 &&
    index < region.length - 1 &&
    BOX_TOP.test(region[index - 1]!.text) &&
    BOX_BOTTOM.test(region[index + 1]!.text)
  );
}

interface Match {
  readonly rule: CompiledRule;
  readonly index: number;
}

/** The lowest line a rule of `rules` matches, scanning from the bottom. */
function lowestMatch(lists: RuleLists, name: ListName, region: readonly RegionLine[], skip?: RegExp): Match | null {
  const rules = lists[name];
  let reach = 0;
  for (const rule of rules) if (rule.within > reach) reach = rule.within;
  for (let index = region.length - 1; index >= Math.max(0, region.length - reach); index--) {
    if (!mayMatch(lists, name, region[index]!)) continue;
    if (skip && (skip.test(region[index]!.inner) || insideInputBox(region, index))) continue;
    for (const rule of rules) if (matchesAt(rule, region, index)) return { rule, index };
  }
  return null;
}

/**
 * Which lines of the region's bottom `reach` a rule of `rules` may match, as indexes from the
 * bottom up: asked once per screen, not once per rule.
 */
function candidateLines(lists: RuleLists, name: ListName, region: readonly RegionLine[]): number[] {
  let reach = 0;
  for (const rule of lists[name]) if (rule.within > reach) reach = rule.within;
  const found: number[] = [];
  for (let index = region.length - 1; index >= Math.max(0, region.length - reach); index--) {
    if (mayMatch(lists, name, region[index]!)) found.push(index);
  }
  return found;
}

/** The lowest line one rule matches, among the candidate lines of its list. */
function lowestLineOf(rule: CompiledRule, candidates: readonly number[], region: readonly RegionLine[]): number {
  const top = Math.max(0, region.length - rule.within);
  for (const index of candidates) {
    if (index < top) break;
    if (matchesAt(rule, region, index)) return index;
  }
  return -1;
}

function choosePrompt(rules: RuleLists, region: readonly RegionLine[]): Match | null {
  const last = region.length - 1;
  if (mayMatch(rules, 'lastLine', region[last]!)) {
    for (const rule of rules.lastLine) if (matchesAt(rule, region, last)) return { rule, index: last };
  }
  // A program's own menu first: its numbered options are no approval.
  if (rules.menu.length > 0) {
    const menus = candidateLines(rules, 'menu', region);
    for (const rule of menus.length > 0 ? rules.menu : []) {
      const index = lowestLineOf(rule, menus, region);
      if (index >= 0) return { rule, index };
    }
  }
  // Permission rules go by rule order, so a dialog reports its question rather than its key hints.
  const candidates = candidateLines(rules, 'permission', region);
  if (candidates.length > 0) {
    for (const rule of rules.permission) {
      const index = lowestLineOf(rule, candidates, region);
      if (index >= 0) return { rule, index };
    }
  }
  return lowestMatch(rules, 'stopped', region);
}

/**
 * Whether a prompt stands despite a busy line. A prompt on the last line does: it is the newest
 * thing on the screen, even when it mentions a key itself ("Press Enter to continue or Ctrl-C to
 * abort"). A permission dialog drawn below the busy line does. An agent's input box never does:
 * agents draw it under their spinner while they work.
 */
function outranksBusy(prompt: Match, busy: Match): boolean {
  // Full-screen agents draw on the alternate screen too: there a busy line keeps its veto.
  // A bare prompt glyph right under a live-work line is the working agent's cursor.
  if (prompt.rule.lastLineOnly && !prompt.rule.alternateScreenOnly)
    return !(prompt.rule.yieldsToWork && prompt.index - busy.index <= LIVE_WORK_LINES);
  return prompt.rule.kind === 'permission' && prompt.index > busy.index;
}

/**
 * Classifies a screen given as lines (top to bottom). `context` says what else is known about the
 * pane; without it, rules that need it (a pager's file name on an alternate screen) do not apply.
 */
export function classifyScreen(
  lines: readonly string[],
  pack: PromptRules = DEFAULT_RULES,
  context?: ScreenContext,
): PromptVerdict {
  const rules: RuleLists = context?.alternateScreen ? pack.onAlternateScreen : pack;
  const region = bottomRegion(lines, BUSY_REGION_LINES, rules);
  if (region.length === 0)
    return { prompt: false, reason: null, busy: false, tool: null, rule: null, line: '', answer: null };
  const busy = lowestMatch(rules, 'busy', region, ECHO_LINE);
  const prompt = choosePrompt(rules, region);
  const promptSurvives = prompt !== null && (busy === null || outranksBusy(prompt, busy));
  if (prompt && promptSurvives) {
    const line = region[prompt.index]!;
    return {
      prompt: true,
      reason: prompt.rule.kind as 'permission' | 'stopped',
      busy: false,
      tool: prompt.rule.tool,
      rule: prompt.rule.id,
      line: prompt.rule.raw ? line.text : line.inner,
      answer: answerFor(
        prompt.rule.answer,
        region.map((l) => l.inner),
        prompt.index,
        prompt.rule.options,
      ),
      ...(prompt.rule.menu ? { menu: true as const } : {}),
    };
  }
  if (busy) {
    return {
      prompt: false,
      reason: null,
      busy: true,
      tool: busy.rule.tool,
      rule: busy.rule.id,
      line: region[busy.index]!.inner,
      answer: null,
    };
  }
  return {
    prompt: false,
    reason: null,
    busy: false,
    tool: null,
    rule: null,
    line: region[region.length - 1]!.text,
    answer: null,
  };
}
