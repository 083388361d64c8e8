// Shell completions, from the same tables as --help: bash and fish complete real command lines;
// zsh loads the script under compinit (its completion cannot be run without a terminal, so the
// script's contents are checked against the tables instead).

import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SETTINGS, type SettingSpec } from '../../src/engine/settings/config.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { completionScript } from '../../src/cli/completion-scripts.js';
import { GLOBAL_FLAGS } from '../../src/cli/global-flags.js';
import { CLI, runCli } from '../helpers/cli.js';
import { mustNotSkip } from '../helpers/skips.js';

const tables = { commands: COMMANDS, globalFlags: GLOBAL_FLAGS };
const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;
const shellMissing = (shell: string) => {
  if (has(shell) || mustNotSkip()) return false;
  console.warn(`completion: ${shell} tests skipped, ${shell} is not installed (apt install ${shell} / brew install ${shell})`);
  return true;
};

/** What bash completes for `line` (the cursor at its end), through the script `corral completion bash` prints. */
function bashComplete(line: string): string[] {
  const script = `
    source <(${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} completion bash)
    read -ra COMP_WORDS <<< "$LINE"
    [[ $LINE == *' ' ]] && COMP_WORDS+=('')
    COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
    COMP_LINE=$LINE
    _corral
    printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env: { ...process.env, LINE: line }, cwd: new URL('../fixtures/', import.meta.url) });
  return out.toString().split('\n').filter((l) => l !== '');
}

describe('corral completion', () => {
  it('prints a script for bash, zsh and fish, and refuses anything else (exit 2)', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runCli(['completion', shell]);
      expect(r.code, shell).toBe(0);
      expect(r.stdout).toBe(completionScript(shell as 'bash', tables));
    }
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('corral: usage: corral completion bash|zsh|fish\n');
  });

  it('offers every command, flag and choice that --help shows', () => {
    const settingFlags = (SETTINGS as readonly SettingSpec[]).filter((s) => s.flag).map((s) => `--${s.flag}`);
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(shell, tables);
      for (const c of COMMANDS) expect(script, `${shell}: ${c.name}`).toMatch(new RegExp(`\\b${c.name}\\b`));
      for (const flag of settingFlags) expect(script, `${shell}: ${flag}`).toContain(shell === 'fish' ? `-l ${flag.slice(2)} ` : flag);
      for (const c of COMMANDS) for (const f of c.flags) expect(script, `${shell}: ${c.name} --${f.name}`).toContain(shell === 'fish' ? `-l ${f.name} ` : `--${f.name}`);
      expect(script).toContain('default seed none');
      expect(script).toContain('off bell message both');
    }
  });
});

describe.skipIf(shellMissing('bash'))('bash completion, run by bash', () => {
  it('completes commands, then the flags of the command and the global ones', () => {
    expect(bashComplete('corral ch')).toEqual(['check']);
    expect(bashComplete('corral ')).toEqual(COMMANDS.map((c) => c.name));
    expect(bashComplete('corral send --lit')).toEqual(['--literal']);
    expect(bashComplete('corral --lis')).toEqual(['--listen']);
    expect(bashComplete('corral serve --hos')).toEqual(['--host']);
    expect(bashComplete('corral ls --js')).toEqual(['--json']);
    // Global options count before and after the command, and their values are not taken for it.
    expect(bashComplete('corral -L work ls --js')).toEqual(['--json']);
    expect(bashComplete('corral --poll-inter')).toEqual(['--poll-interval']);
    expect(bashComplete('corral ls --poll-inter')).toEqual(['--poll-interval']);
  });

  it('completes the values a flag takes, and the arguments a command takes', () => {
    expect(bashComplete('corral --prompt-pack ')).toEqual(['default', 'seed', 'none']);
    expect(bashComplete('corral dashboard --bell b')).toEqual(['bell', 'both']);
    expect(bashComplete('corral hooks install --agent c')).toEqual(['claude-code', 'codex']);
    expect(bashComplete('corral hooks ')).toEqual(['install', 'uninstall', 'print', 'doctor']);
    expect(bashComplete('corral completion z')).toEqual(['zsh']);
    // File names where a file goes (run in test/fixtures/).
    expect(bashComplete('corral check scr')).toEqual(['screens']);
    expect(bashComplete('corral --config scr')).toEqual(['screens']);
    // No guesses for a free value.
    expect(bashComplete('corral --port ')).toEqual([]);
  });
});

describe.skipIf(shellMissing('fish'))('fish completion, run by fish', () => {
  const fishComplete = (line: string) =>
    execFileSync('fish', ['--no-config', '-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} completion fish | source; complete -C ${JSON.stringify(line)}`])
      .toString()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[0]);

  it('completes commands, flags and their values', () => {
    expect(fishComplete('corral ch')).toEqual(['check']);
    expect(fishComplete('corral --prompt-pack ')).toEqual(['default', 'none', 'seed']);
    expect(fishComplete('corral hooks --agent co')).toEqual(['codex']);
    expect(fishComplete('corral send --lit')).toEqual(['--literal']);
    // A command's own flags only after that command.
    expect(fishComplete('corral --lit')).toEqual([]);
  });
});

describe.skipIf(shellMissing('zsh'))('zsh completion', () => {
  it('parses, and registers _corral for corral under compinit', () => {
    const script = completionScript('zsh', tables);
    expect(spawnSync('zsh', ['-n'], { input: script }).status).toBe(0);
    const out = execFileSync('zsh', [
      '-f',
      '-c',
      `autoload -U compinit && compinit -u -D; source <(${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} completion zsh); print -r -- "$_comps[corral] $(whence -w _corral)"`,
    ]).toString();
    expect(out.trim()).toBe('_corral _corral: function');
  });
});
