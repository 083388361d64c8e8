#!/usr/bin/env bash
# Runs the whole test suite several times in a row beside CPU hogs, the way a busy laptop or a
# shared CI runner would, and stops at the first red run. Usage:
#   scripts/suite-under-load.sh [RUNS=5] [HOGS=2]
# Needs `stress` (Debian: apt install stress). Each run's vitest output is kept in a log folder.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
hogs=${2:-2}
command -v stress >/dev/null 2>&1 || { echo "suite-under-load: needs stress (apt install stress)" >&2; exit 2; }
logs=$(mktemp -d "${TMPDIR:-/tmp}/corral-suite-XXXXXX")
stress --cpu "$hogs" --timeout 7200 >/dev/null 2>&1 &
hog=$!
trap 'kill "$hog" 2>/dev/null || true' EXIT
echo "suite-under-load: $runs runs beside stress --cpu $hogs; logs in $logs"
npm run --silent build
for run in $(seq 1 "$runs"); do
  started=$(date +%s)
  if CORRAL_TEST_NO_SKIP=1 npx vitest run >"$logs/run-$run.log" 2>&1; then
    result=green
  else
    result=red
  fi
  summary=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/run-$run.log" | grep -E '^ *Tests ' | tr -s ' ' | tail -1 || true)
  echo "run $run/$runs: $result in $(( $(date +%s) - started )) s, load $(cut -d' ' -f1-3 /proc/loadavg);$summary"
  if [ "$result" = red ]; then
    sed 's/\x1b\[[0-9;]*m//g' "$logs/run-$run.log" | grep -E 'FAIL ' | sort -u | head -20 || true
    exit 1
  fi
done
echo "suite-under-load: $runs of $runs runs green"
