// Compact durations for timers and tables: 8s, 1m05s, 2h03m, 3d04h (at most six characters).

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 60) return `${total}s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m${pad2(total % 60)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${pad2(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${pad2(hours % 24)}h`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
