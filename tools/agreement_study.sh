#!/usr/bin/env bash
# Model agreement (docs/TUNING.md, "Layouts never measured"): on each layout
# an exhaustive tuning measures every candidate method at each point, and
# `explain` ranks the same candidates under the model, once with the figures
# calibrated on 2x2 (FIGURES, the held-out study's) and once with the
# built-in ones.  The page agreement (tools/results_agreement.py) counts how
# often the model's first method is the measured winner, and how often the
# winner is among the model's first three.
# Each layout's folder OUTDIR/<n>-LAYOUT holds run.txt (tools/record_run.sh,
# of the tuning), exhaustive.json.points.csv and the two explain CSV files
# (model-file.csv, model-builtin.csv) with the commands in explain.txt;
# copy the folders into docs/results/data/agreement/.
#
# usage: tools/agreement_study.sh OUTDIR FIGURES [LAYOUT ...]
#   FIGURES: a figures file (docs/results/data/heldout/2x2-figures.json);
#   LAYOUT: "4x2", "2x4", "8x1" or "3,1,2" (round-robin, map-by node);
#   default all four.  About 5 minutes a layout on 2 cores.
set -euo pipefail
out=${1:?usage: tools/agreement_study.sh OUTDIR FIGURES [LAYOUT ...]}
figures=${2:?usage: tools/agreement_study.sh OUTDIR FIGURES [LAYOUT ...]}
shift 2
layouts=("$@")
[ ${#layouts[@]} -gt 0 ] || layouts=(3,1,2 4x2 8x1 2x4)
here=$(cd "$(dirname "$0")/.." && pwd)
hc="$here/hiercoll"
ops=allreduce,bcast,reduce,allgather,scan
sizes=1K,64K,1M,4M
mkdir -p "$out"
out=$(cd "$out" && pwd)
figures=$(cd "$(dirname "$figures")" && pwd)/$(basename "$figures")

n=0
for lay in "${layouts[@]}"; do
  n=$((n + 1))
  case $lay in
    *x*) shape=(--nodes "${lay%x*}" --ppn "${lay#*x}") ;;
    *) shape=(--ppn-list "$lay" --map-by node) ;;
  esac
  dir="$out/$n-${lay//,/-}"
  [ -f "$dir/run.txt" ] ||
    "$here/tools/record_run.sh" "$dir" -- ./hiercoll tune "${shape[@]}" --exhaustive --ops $ops --sizes $sizes \
      --out "$dir/exhaustive.json" > "$dir.log" 2>&1
  explain=(explain "${shape[@]}" --ops $ops --sizes $sizes)
  "$hc" "${explain[@]}" --figures "$figures" --csv "$dir/model-file.csv" > /dev/null
  "$hc" "${explain[@]}" --csv "$dir/model-builtin.csv" > /dev/null
  {
    echo "model-file.csv: ./hiercoll ${explain[*]} --figures $(basename "$figures") --csv model-file.csv"
    echo "model-builtin.csv: ./hiercoll ${explain[*]} --csv model-builtin.csv"
  } > "$dir/explain.txt"
done
