// Which panes an MCP client may type into: none unless corral was started with --allow-typing,
// then those a pattern names. A pattern is matched against the pane's key (`%3`, `build-box/%3`)
// and its target (`work:1.0`, `build-box/work:1.0`); `*` stands for any run of characters, and
// `build-box/*` names a whole host. Pure.

import type { PaneView } from '../../engine/types.js';

export interface TypingPolicy {
  /** Null when typing into the pane is allowed; otherwise why not. */
  refusal(view: PaneView): string | null;
  readonly patterns: readonly string[];
}

function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

export function typingPolicy(patterns: readonly string[]): TypingPolicy {
  const compiled = patterns.map(glob);
  return {
    patterns,
    refusal(view) {
      if (compiled.length === 0) return 'typing is not allowed: start corral with --allow-typing PATTERN (a pane key, a target, or HOST/*)';
      const names = [view.key, view.host === 'local' ? view.target : `${view.host}/${view.target}`];
      if (compiled.some((re) => names.some((name) => re.test(name)))) return null;
      return `typing into ${view.key} (${view.target}) is not allowed: --allow-typing ${patterns.join(', ')} names other panes`;
    },
  };
}
