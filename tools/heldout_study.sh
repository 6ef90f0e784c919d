#!/usr/bin/env bash
# The held-out study of the decision (docs/TUNING.md, "Layouts never
# measured"): model figures calibrated on 2x2 only, then on each other
# layout one benchmark job set with hier deciding from those figures
# (hier@file), hier with the built-in figures (hier), an exhaustive tuning
# of that very layout (tuned) and Open MPI's own (native); regret per
# point on the page docs/results/heldout.md (tools/results_pages.py).
# Each layout's benchmark goes to OUTDIR/bench-LAYOUT with its run.txt
# (tools/record_run.sh); the page's data are those folders' run.txt and
# job*/results.csv, copied into docs/results/data/heldout/<n>-LAYOUT/,
# and OUTDIR/2x2-figures.json.
#
# usage: tools/heldout_study.sh OUTDIR [LAYOUT ...]
#   LAYOUT: "4x2", "2x4", "8x1" or "3,1,2" (round-robin, map-by node);
#   default all four.  Takes about 10 minutes a layout on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
hc="$here/hiercoll"
# shellcheck source=tools/study_layouts.sh
source "$here/tools/study_layouts.sh"
study_start "${1:?usage: tools/heldout_study.sh OUTDIR [LAYOUT ...]}" "${@:2}"
# Figures of 2x2: one benchmark job of hier and flat, calibrated with the
# options of the built-in figures (docs/SIMULATION.md, "Calibration").
if [ ! -f "$out/2x2.json" ]; then
  "$hc" bench --nodes 2 --ppn 2 --jobs 1 --impls hier,flat --ops $ops,alltoall,barrier --sizes 8,256,8K,64K,256K,1M,4M \
    --out "$out/calibrate-2x2" > "$out/calibrate-2x2.log" 2>&1
  "$hc" simulate --calibrate "$out/calibrate-2x2/results.csv" --link-burst 64K --latency-overlaps yes \
    --cores 2 --cores-shared-by all --eager-limit 64K --shm-eager-limit 4K --fit absolute \
    --figures-out "$out/2x2-figures.json" > "$out/calibrate-2x2.fit" 2>&1
  "$hc" tune --model --nodes 2 --ppn 2 --ops $ops --sizes $sizes --figures "$out/2x2-figures.json" \
    --out "$out/2x2.json" > "$out/2x2-tune.log" 2>&1
fi

for lay in "${layouts[@]}"; do
  layout_shape "$lay"
  name=${lay//,/-}
  [ -f "$out/$name-exhaustive.json" ] ||
    "$hc" tune "${shape[@]}" --exhaustive --ops $ops --sizes $sizes --out "$out/$name-exhaustive.json" \
      > "$out/$name-tune.log" 2>&1
  [ -f "$out/bench-$name/run.txt" ] ||
    "$here/tools/record_run.sh" "$out/bench-$name" -- ./hiercoll bench "${shape[@]}" --jobs 3 --ops $ops \
      --sizes $sizes --tuning "$out/$name-exhaustive.json" \
      --impls "hier@hiercoll_tuning_file=$out/2x2.json,hier,tuned,native" --out "$out/bench-$name" \
      > "$out/bench-$name.log" 2>&1
done
