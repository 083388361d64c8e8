// A setting's flag on a command that does not use that setting is refused, with a sentence that
// names the commands that do: a flag is never accepted and then ignored.

import { SETTINGS, type SettingSpec } from '../engine/settings/config.js';
import { UsageError } from './args.js';
import type { Command } from './command.js';

export function refuseUnusedSettings(command: Command, flags: Readonly<Record<string, unknown>>, commands: readonly Command[]): void {
  const used = new Set<string>(command.settings);
  for (const spec of SETTINGS as readonly SettingSpec[]) {
    if (spec.flag === undefined || flags[spec.flag] === undefined || used.has(spec.key)) continue;
    const users = commands.filter((c) => c.settings.includes(spec.key as never)).map((c) => `corral ${c.name}`);
    const where = users.length > 0 ? `; it is a setting of ${users.join(', ')}` : '';
    throw new UsageError(`corral ${command.name} does not use --${spec.flag} (${spec.description})${where}`);
  }
}
