#!/bin/bash
# The model's figures through the commands, no MPI job: a calibration writes
# a figures file (simulate --calibrate ... --figures-out), `tune --model`
# writes a layout's entry from it (hiercoll_tune --model), and `explain` then
# decides that layout from the file's ranges and another layout from the
# figures the file carries.
set -euo pipefail
simulate=$1 explain=$2 tune=$3
dir=${TEST_TMPDIR:-$(mktemp -d)}
fail() { echo "FAIL: $*" >&2; exit 1; }

# A benchmark's results: hier and flat allreduce on 2x2 at three sizes.
cat >"$dir/results.csv" <<'CSV'
op,bytes,nodes,ppn,impl,algorithm,root,median_us,min_us,max_us,reps
allreduce,8,2,2,hier,allreduce,-1,120.0,110.0,130.0,50
allreduce,65536,2,2,hier,allreduce,-1,900.0,850.0,950.0,50
allreduce,1048576,2,2,hier,allreduce,-1,9000.0,8500.0,9500.0,50
allreduce,8,2,2,flat,recursive_doubling,-1,150.0,140.0,160.0,50
allreduce,65536,2,2,flat,recursive_doubling,-1,1100.0,1000.0,1200.0,50
allreduce,1048576,2,2,flat,rabenseifner,-1,11000.0,10000.0,12000.0,50
CSV
"$simulate" --calibrate "$dir/results.csv" --figures-out "$dir/figures.json" >"$dir/calibrate.out" ||
  fail "calibration: $(cat "$dir/calibrate.out")"
grep -q '"format": "hiercoll-figures"' "$dir/figures.json" || fail "no figures file written"
grep -q "wrote $dir/figures.json" "$dir/calibrate.out" || fail "calibration does not say what it wrote"

"$tune" --model --nodes 3 --ppn 2 --ops allreduce,bcast --sizes 8,64K --figures "$dir/figures.json" \
  --out "$dir/tuning.json" >"$dir/model.out" || fail "tune --model: $(cat "$dir/model.out")"
grep -q "wrote $dir/tuning.json (layout 3x2 slot" "$dir/model.out" || fail "tune --model: $(cat "$dir/model.out")"
grep -q '"model": {' "$dir/tuning.json" || fail "the entry carries no figures"
grep -q ' model$' "$dir/model.out" || fail "the table does not say its times are the model's"

# The entry's layout: decided by the file; another layout: by its figures.
"$explain" --nodes 3 --ppn 2 --tuning "$dir/tuning.json" --ops allreduce --sizes 1K >"$dir/explain_own.out"
grep -q "allreduce 1024 B: .* (file)" "$dir/explain_own.out" || fail "own layout: $(cat "$dir/explain_own.out")"
"$explain" --nodes 5 --ppn 3 --tuning "$dir/tuning.json" --ops allreduce --sizes 1K >"$dir/explain_other.out"
grep -q "figures: $dir/tuning.json (entry 3x2 slot): $dir/figures.json: calibrated to $dir/results.csv" "$dir/explain_other.out" ||
  fail "other layout: $(head -1 "$dir/explain_other.out")"
grep -q "allreduce 1024 B: .* (model)" "$dir/explain_other.out" || fail "other layout: $(cat "$dir/explain_other.out")"
# --figures FILE: the same figures, given.
"$explain" --nodes 5 --ppn 3 --figures "$dir/figures.json" --ops allreduce --sizes 1K >"$dir/explain_given.out"
grep -q "figures: $dir/figures.json: calibrated" "$dir/explain_given.out" || fail "$(head -1 "$dir/explain_given.out")"
[[ $(grep -c "" "$dir/explain_given.out") -gt 3 ]] || fail "explain printed no candidates"
# A bad figures file: one line naming it, exit 2.
echo '{"format": "hiercoll-figures", "version": 1, "model": {"alpha_us": -1}}' >"$dir/bad.json"
if "$explain" --figures "$dir/bad.json" --ops allreduce --sizes 1K 2>"$dir/bad.err"; then fail "bad figures taken"; fi
grep -q "bad.json" "$dir/bad.err" || fail "bad figures: $(cat "$dir/bad.err")"
# simulate --out DIR makes DIR and its parents.
"$simulate" --nodes 2 --ppn 2 --ops bcast --sizes 8 --impls hier --out "$dir/made/a/b" >"$dir/out.out" ||
  fail "simulate --out: $(cat "$dir/out.out")"
grep -q '^bcast,8,2,2,hier,' "$dir/made/a/b/simulated.csv" || fail "no simulated.csv under new folders"
echo PASS
