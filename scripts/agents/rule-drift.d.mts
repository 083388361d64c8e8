import type { LabelledScreen } from './recorded-fixtures.mjs';

/** Per agent: the release and the rule that decides each recorded screen (`<size>/<state>`). */
export type RuleExpectations = Record<string, { version: string; states: Record<string, string> }>;

export interface AgentDrift {
  readonly tool: string;
  /** The release the expectations were written for, and the one recorded now. */
  readonly was: string | null;
  readonly now: string | null;
  readonly screens: number;
  readonly kept: number;
  readonly changed: readonly { readonly screen: string; readonly was: string; readonly now: string }[];
  /** Rules that decided a screen of the accepted release and decide none now. */
  readonly lost: readonly string[];
  readonly added: readonly string[];
}

type Classify = (lines: readonly string[], context: { readonly alternateScreen?: boolean }) => { rule: string | null };

export const RULES_FILE: string;
export function recordedVersions(file?: string): Record<string, string>;
export function readRuleExpectations(file?: string): RuleExpectations;
export function expectationsNow(fixtures: readonly LabelledScreen[], versions: Record<string, string>, classify: Classify): RuleExpectations;
export function ruleDrift(fixtures: readonly LabelledScreen[], versions: Record<string, string>, expectations: RuleExpectations, classify: Classify): AgentDrift[];
export function driftMarkdown(drift: readonly AgentDrift[]): string;
