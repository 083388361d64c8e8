// Renders the SETTINGS table as Markdown for the README (kept in sync by a test).

import { SETTINGS, type SettingSpec } from './config.js';

function formatDefault(spec: SettingSpec): string {
  if (spec.default === null) return '(none)';
  if (Array.isArray(spec.default)) return spec.default.length ? spec.default.join(', ') : '(none)';
  return `\`${String(spec.default)}\``;
}

export function settingsMarkdown(specs: readonly SettingSpec[] = SETTINGS): string {
  const rows = specs.map((s) => {
    const flag = s.flag ? `${s.short ? `\`-${s.short}\`, ` : ''}\`--${s.flag}\`` : '';
    const env = (s.env ?? []).map((e) => `\`${e}\``).join(', ');
    return `| ${flag} | ${env} | \`${s.key}\` | ${formatDefault(s)} | ${s.description.replaceAll('|', '\\|')} |`;
  });
  return ['| flag | environment | config key | default | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}
