// Compact durations for timers and tables: 8s, 1m05s, 2h03m, 3d04h.

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600) % 24;
  const d = Math.floor(total / 86400);
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d${two(h)}h`;
  if (h > 0) return `${h}h${two(m)}m`;
  if (m > 0) return `${m}m${two(s)}s`;
  return `${s}s`;
}
