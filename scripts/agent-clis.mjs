// `npm run agents:install`: installs the agent CLIs the tests run for real (Claude Code, Codex and
// Gemini CLI, whose hook calls they check, and opencode, Qwen Code, Kilo Code and pi, which run offline
// under `corral watch`), at the versions pinned in scripts/agents/manifest.json (the recorder's pins),
// into a cache folder, from the npm registry only. Prints the folder; test/agents/*.e2e.test.ts find it
// there (or through CORRAL_AGENT_CLIS). About 1.7 GB.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOOK_AGENTS = ['@anthropic-ai/claude-code', '@openai/codex', '@google/gemini-cli'];
/** Agents without hooks corral installs that still run offline against the scripted model. */
export const OFFLINE_AGENTS = ['opencode-ai', '@qwen-code/qwen-code', '@kilocode/cli', '@mariozechner/pi-coding-agent'];

/** Where the CLIs go: CORRAL_AGENT_CLIS, else the user's cache folder. */
export function agentClisDir(env = process.env) {
  if (env.CORRAL_AGENT_CLIS) return env.CORRAL_AGENT_CLIS;
  const cache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'corral', 'agent-clis');
}

export function pinnedVersions() {
  const manifest = fileURLToPath(new URL('./agents/manifest.json', import.meta.url));
  if (!existsSync(manifest)) throw new Error(`${manifest} is missing: it pins the agent CLIs`);
  const { agents } = JSON.parse(readFileSync(manifest, 'utf8'));
  return Object.fromEntries([...HOOK_AGENTS, ...OFFLINE_AGENTS].map((name) => {
    if (!agents[name]) throw new Error(`${manifest} pins no version of ${name}`);
    return [name, agents[name]];
  }));
}

function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = agentClisDir();
  const pins = pinnedVersions();
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const wanted = Object.entries(pins).filter(([name, version]) => installedVersion(dir, name) !== version);
  if (wanted.length > 0) {
    const started = Date.now();
    const specs = wanted.map(([name, version]) => `${name}@${version}`);
    process.stderr.write(`agents: installing ${specs.join(' ')} into ${dir}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...specs], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    process.stderr.write(`agents: installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  for (const [name, version] of Object.entries(pins)) {
    if (installedVersion(dir, name) !== version) throw new Error(`npm did not install ${name}@${version} into ${dir}`);
  }
  process.stdout.write(`${dir}\n`);
}
