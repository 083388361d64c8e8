// Every flag works where it is accepted: over the settings table and every command, a command's
// --help lists exactly the settings it uses, and the flag of any other setting is refused with a
// sentence that names the commands that do use it.

import { describe, expect, it } from 'vitest';
import { SETTINGS, type SettingSpec } from '../../src/engine/settings/config.js';
import { parseArgv, UsageError } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { GLOBAL_FLAGS } from '../../src/cli/global-flags.js';
import { refuseUnusedSettings } from '../../src/cli/setting-flags.js';
import { runCli } from '../helpers/cli.js';

const flagged = (SETTINGS as readonly SettingSpec[]).filter((spec) => spec.flag !== undefined);

/** A value the flag's parser takes. */
function argsFor(spec: SettingSpec): string[] {
  if (spec.type === 'boolean') return [`--${spec.flag}`];
  const value = spec.choices?.[0] ?? (spec.type === 'int' ? String(spec.min ?? 1000) : spec.key === 'hosts' ? 'box' : spec.key === 'quietHours' ? '22:00-07:00' : 'http://127.0.0.1:9/x');
  return [`--${spec.flag}`, value];
}

/** The long flags in the "Settings" part of a command's --help. */
function helpSettings(help: string): string[] {
  const part = help.split(/\n\nSettings[^\n]*:\n/)[1]?.split('\n\n')[0] ?? '';
  return [...part.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!).filter((name, i, all) => all.indexOf(name) === i);
}

describe('settings per command', () => {
  for (const command of COMMANDS) {
    const used = new Set<string>(command.settings);
    it(`corral ${command.name} accepts the flags of its ${command.settings.length} settings and refuses the others`, () => {
      for (const spec of flagged) {
        const parsed = parseArgv([command.name, ...argsFor(spec)], GLOBAL_FLAGS, (name) => COMMANDS.find((c) => c.name === name)?.flags ?? null);
        if (used.has(spec.key)) {
          expect(() => refuseUnusedSettings(command, parsed.flags, COMMANDS), `--${spec.flag}`).not.toThrow();
          continue;
        }
        let error: unknown = null;
        try {
          refuseUnusedSettings(command, parsed.flags, COMMANDS);
        } catch (caught) {
          error = caught;
        }
        expect(error, `--${spec.flag} on ${command.name}`).toBeInstanceOf(UsageError);
        expect((error as Error).message).toContain(`corral ${command.name} does not use --${spec.flag}`);
        const users = COMMANDS.filter((c) => c.settings.includes(spec.key as never));
        for (const user of users) expect((error as Error).message).toContain(`corral ${user.name}`);
      }
    });
  }

  it('--help of each command lists exactly its settings, and the built CLI refuses another with exit 2', async () => {
    for (const command of COMMANDS.filter((c) => c.name !== 'hook')) {
      const help = await runCli([command.name, '--help']);
      expect(help.code).toBe(0);
      const expected = flagged.filter((spec) => command.settings.includes(spec.key as never)).map((spec) => spec.flag);
      expect(helpSettings(help.stdout), command.name).toEqual(expected);
    }
    const refused = await runCli(['ls', '--daemon-url', 'http://127.0.0.1:9/events']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^corral: corral ls does not use --daemon-url .*; it is a setting of corral dashboard, corral watch, corral serve\n$/);
  });

  it('every setting with a flag is used by at least one command', () => {
    for (const spec of flagged) expect(COMMANDS.some((c) => c.settings.includes(spec.key as never)), spec.key).toBe(true);
  });
});
