// Command-line parsing: global flags may stand before or after the command name; each command
// adds its own flags. Pure: argv in, a parse result or a UsageError out.

export type FlagType = 'boolean' | 'string' | 'string-list';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: FlagType;
  readonly description: string;
  readonly valueName?: string;
  /** The values it takes, when they are a fixed few (offered by the shell completions). */
  readonly choices?: readonly string[];
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  readonly command: string | null;
  /** Flag values by flag name (string-list flags collect into arrays). */
  readonly flags: Record<string, string | boolean | string[]>;
  readonly positionals: string[];
}

export function parseArgv(
  argv: readonly string[],
  globalFlags: readonly FlagSpec[],
  commandFlags: (command: string) => readonly FlagSpec[] | null,
): ParsedArgs {
  let command: string | null = null;
  let specs = [...globalFlags];
  const flags: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  const find = (name: string, short: boolean) => specs.find((s) => (short ? s.short === name : s.name === name));

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    const short = long ? null : /^-([A-Za-z])(.*)$/s.exec(arg);
    if (!long && !short) {
      if (command === null) {
        const extra = commandFlags(arg);
        if (extra === null) throw new UsageError(`unknown command "${arg}" (run corral --help for the list)`);
        command = arg;
        specs = [...globalFlags, ...extra];
      } else {
        positionals.push(arg);
      }
      continue;
    }
    const name = long ? (long[1] as string) : (short![1] as string);
    let negated = false;
    let spec = find(name, !long);
    if (!spec && long && name.startsWith('no-')) {
      spec = find(name.slice(3), false);
      negated = spec?.type === 'boolean';
      if (!negated) spec = undefined;
    }
    if (!spec) {
      const shown = long ? `--${name}` : `-${name}`;
      throw new UsageError(`unknown option ${shown}${command ? ` for "corral ${command}"` : ''}`);
    }
    if (spec.type === 'boolean') {
      const inline = long ? long[2] : short![2] || undefined;
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value`);
      flags[spec.name] = !negated;
      continue;
    }
    let value = long ? long[2] : short![2] || undefined;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${spec.name} needs a value (${spec.valueName ?? 'VALUE'})`);
      value = argv[++i] as string;
    }
    if (spec.type === 'string-list') {
      const list = (flags[spec.name] as string[] | undefined) ?? [];
      list.push(value);
      flags[spec.name] = list;
    } else {
      flags[spec.name] = value;
    }
  }
  return { command, flags, positionals };
}

export function formatFlags(specs: readonly FlagSpec[]): string {
  const rows = specs.map((s) => {
    const names = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.type === 'boolean' ? '' : ` ${s.valueName ?? 'VALUE'}`}`;
    return [names, s.description] as const;
  });
  const width = Math.max(0, ...rows.map(([n]) => n.length));
  return rows.map(([n, d]) => `  ${n.padEnd(width)}  ${d}`).join('\n');
}
