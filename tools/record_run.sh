#!/usr/bin/env bash
# Runs a command and writes DIR/run.txt beside what it wrote: the command,
# when it started and finished (UTC), its exit status, the commit, the load
# average at the start, at the end and (one minute, sampled every 10 s)
# during the run, and the machine.  The pages of docs/results/ are made from
# such folders (tools/results_pages.py).
#
#   tools/record_run.sh DIR [--limit SECONDS] -- COMMAND [ARGS...]
#
# The command runs in the repository root; with --limit it is stopped after
# SECONDS (exit status 124, and run.txt says its time limit).
set -euo pipefail

usage() {
  echo "usage: tools/record_run.sh DIR [--limit SECONDS] -- COMMAND [ARGS...]" >&2
  exit 2
}

(($# >= 3)) || usage
dir=$1
shift
limit=""
if [[ $1 == --limit ]]; then
  (($# >= 4)) || usage
  limit=$2
  shift 2
fi
[[ $1 == -- ]] || usage
shift

cd "$(dirname "$0")/.."
mkdir -p "$dir"
load() { cut -d' ' -f1-3 /proc/loadavg; }
utc() { date -u '+%Y-%m-%d %H:%M:%S UTC'; }

started=$(utc)
load_start=$(load)
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
(while sleep 10; do cut -d' ' -f1 /proc/loadavg >>"$samples"; done) &
sampler=$!
status=0
if [[ -n $limit ]]; then
  timeout "$limit" "$@" || status=$?
else
  "$@" || status=$?
fi
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
cut -d' ' -f1 <<<"$load_start" >>"$samples"
range=$(sort -g "$samples" | sed -n '1p;$p' | paste -sd- -)
[[ $range == *-* ]] || range="$range-$range"

{
  echo "command: $*"
  echo "started: $started"
  echo "finished: $(utc)"
  echo "exit status: $status"
  echo "commit: $(git rev-parse HEAD)"
  echo "load average at start: $load_start"
  echo "load average at end: $(load)"
  echo "load average during the run (1 minute, sampled every 10 s): $range"
  echo "machine: $(nproc) cores, $(uname -sr)"
  [[ -z $limit ]] || echo "time limit: $limit s"
} >"$dir/run.txt"
exit "$status"
