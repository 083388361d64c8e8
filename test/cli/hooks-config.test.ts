// Installing and removing corral's hook entries leaves everything else in the agent's settings alone.

import { describe, expect, it } from 'vitest';
import { corralHooks, installInto, isCorralHookCommand, uninstallFrom } from '../../src/cli/hooks-config.js';

const CMD = "'/usr/bin/node' '/opt/corral/dist/bin/corral.js' hook --agent claude-code";

const userSettings = {
  model: 'opus',
  permissions: { allow: ['Bash(ls:*)'] },
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: 'say done', timeout: 10 }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/home/me/guard.sh' }] }],
  },
};

describe('agent hook settings', () => {
  it('adds one entry per needed event and keeps the user\'s hooks and settings', () => {
    const { settings, changed } = installInto(userSettings, 'claude-code', CMD);
    expect(changed).toBe(true);
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual(userSettings.permissions);
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(Object.keys(hooks).sort()).toEqual(['PermissionRequest', 'PostToolUse', 'PreToolUse', 'SessionEnd', 'Stop', 'StopFailure', 'UserPromptSubmit']);
    expect(hooks.Stop).toEqual([userSettings.hooks.Stop[0], { hooks: [{ type: 'command', command: CMD, timeout: 5 }] }]);
    expect(hooks.PreToolUse).toEqual(userSettings.hooks.PreToolUse);
  });

  it('is idempotent, and uninstall restores the original exactly', () => {
    const once = installInto(userSettings, 'claude-code', CMD).settings;
    const twice = installInto(once, 'claude-code', CMD);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toEqual(once);
    const removed = uninstallFrom(once);
    expect(removed).toMatchObject({ changed: true, removed: 6 });
    expect(removed.settings).toEqual(userSettings);
    expect(uninstallFrom(removed.settings).changed).toBe(false);
  });

  it('replaces an older corral entry (another path) instead of adding a second', () => {
    const old = installInto({}, 'claude-code', "corral hook --agent claude-code").settings;
    const next = installInto(old, 'claude-code', CMD).settings;
    const handlers = Object.values(next.hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>).flatMap((groups) => groups.flatMap((g) => g.hooks));
    expect(handlers.map((h) => h.command)).toEqual(Array(6).fill(CMD));
  });

  it('takes corral out of a group it shares with another hook, keeping that hook', () => {
    const shared = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }, { type: 'command', command: CMD }] }] } };
    expect(uninstallFrom(shared).settings).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } });
  });

  it('Gemini CLI entries are named and time out in milliseconds; notifications are hidden only on request', () => {
    const gemini = "corral hook --agent gemini-cli";
    const plain = installInto({ hooksConfig: { enabled: true } }, 'gemini-cli', gemini).settings;
    expect((plain.hooks as Record<string, unknown>).Notification).toEqual([{ hooks: [{ type: 'command', name: 'corral', command: gemini, timeout: 5000 }] }]);
    expect(plain.hooksConfig).toEqual({ enabled: true });
    expect(installInto({ hooksConfig: { enabled: true } }, 'gemini-cli', gemini, { hideNotifications: true }).settings.hooksConfig).toEqual({ enabled: true, notifications: false });
  });

  it('print shows only corral\'s part; codex registers Interrupt for rejected approvals', () => {
    expect(Object.keys(corralHooks('codex', 'corral hook --agent codex').hooks as object)).toEqual(['UserPromptSubmit', 'PermissionRequest', 'PostToolUse', 'Stop', 'Interrupt', 'SessionEnd']);
  });

  it('refuses settings that are not objects, and recognises only corral\'s hook commands', () => {
    expect(() => installInto([], 'codex', 'corral hook --agent codex')).toThrow(/not a JSON object/);
    expect(() => installInto({ hooks: 'x' }, 'codex', 'corral hook --agent codex')).toThrow(/"hooks"/);
    expect(isCorralHookCommand('/x/corral.js hook --agent codex')).toBe(true);
    expect(isCorralHookCommand('my-hook --agent codex')).toBe(false);
    expect(isCorralHookCommand('notcorral-hook --agent x')).toBe(false);
  });
});
