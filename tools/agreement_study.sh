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
# (model-file.csv, model-builtin.csv) with the commands and the commit in
# explain.txt;
# copy the folders into docs/results/data/agreement/.
#
# usage: tools/agreement_study.sh OUTDIR FIGURES [LAYOUT ...]
#   FIGURES: a figures file (docs/results/data/heldout/2x2-figures.json);
#   LAYOUT: "4x2", "2x4", "8x1" or "3,1,2" (round-robin, map-by node);
#   default all four.  About 5 minutes a layout on 2 cores.
set -euo pipefail
usage="usage: tools/agreement_study.sh OUTDIR FIGURES [LAYOUT ...]"
figures=${2:?$usage}
here=$(cd "$(dirname "$0")/.." && pwd)
hc="$here/hiercoll"
# shellcheck source=tools/study_layouts.sh
source "$here/tools/study_layouts.sh"
study_start "${1:?$usage}" "${@:3}"
figures=$(cd "$(dirname "$figures")" && pwd)/$(basename "$figures")

n=0
for lay in "${layouts[@]}"; do
  n=$((n + 1))
  layout_shape "$lay"
  dir="$out/$n-${lay//,/-}"
  [ -f "$dir/run.txt" ] ||
    "$here/tools/record_run.sh" "$dir" -- ./hiercoll tune "${shape[@]}" --exhaustive --ops $ops --sizes $sizes \
      --out "$dir/exhaustive.json" > "$dir.log" 2>&1
  explain=(explain "${shape[@]}" --ops $ops --sizes $sizes)
  "$hc" "${explain[@]}" --figures "$figures" --csv "$dir/model-file.csv" > /dev/null
  "$hc" "${explain[@]}" --csv "$dir/model-builtin.csv" > /dev/null
  {
    echo "commit: $(git -C "$here" rev-parse HEAD)"
    echo "model-file.csv: ./hiercoll ${explain[*]} --figures $(basename "$figures") --csv model-file.csv"
    echo "model-builtin.csv: ./hiercoll ${explain[*]} --csv model-builtin.csv"
  } > "$dir/explain.txt"
done
