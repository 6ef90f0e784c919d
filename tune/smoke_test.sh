#!/usr/bin/env bash
# The tuner end to end on a 2x2 emulated cluster (no timing is judged):
# a profiled run records its calls; `hiercoll_tune --profile` tunes those
# and writes a tuning file; --show prints its decisions; the benchmark's
# `tuned` implementation then runs exactly the method the file names for
# each operation; an exhaustive run measures at least as many experiments
# as the pruned one; bad command lines are refused before anything starts.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}/tune"
rm -rf "$tmp"
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
cluster() { tools/cluster.sh --nodes 2 --ppn 2 --timeout 300 -- "$@"; }

# 1. A profiled run: bcast and allreduce at 64K, barrier.
HIERCOLL_PROFILE="$tmp/profile.json" cluster bench/hiercoll_bench --ops bcast,allreduce,barrier --sizes 64K \
  --impls hier --reps 2 --warmup 1 --no-plots --no-lower-bound --out "$tmp/b1" >"$tmp/b1.log" 2>&1 ||
  { cat "$tmp/b1.log"; fail "profiled benchmark run"; }
grep -q '"format": "hiercoll-profile"' "$tmp/profile.json" || fail "no profile written"
for op in bcast allreduce barrier; do
  grep -q "\"op\": \"$op\"" "$tmp/profile.json" || fail "profile lacks $op"
done

# 2. Tune what was recorded.
log=$(cluster tune/hiercoll_tune --profile "$tmp/profile.json" --max-samples 5 --out "$tmp/t.json" 2>&1)
rc=$?
echo "$log"
((rc == 0)) || fail "hiercoll_tune --profile exited $rc"
grep -q '^hiercoll tune: layout 2x2 slot' <<<"$log" || fail "no layout line"
grep -q '^link model: ' <<<"$log" || fail "no link model line"
grep -q '^\[tune .*\] bcast (op 1/3) 64K: ' <<<"$log" || fail "no progress line for bcast 64K (most frequent first)"
grep -q "^wrote $tmp/t.json" <<<"$log" || fail "file not written"
[[ $(head -1 "$tmp/t.json.points.csv") == "op,bytes,method,segment,median_us,lo_us,hi_us,samples,best" ]] ||
  fail "points CSV header"

# 3. --show: one decision per operation (a single size was measured).
show=$(tune/hiercoll_tune --show "$tmp/t.json") || fail "--show failed"
echo "$show"
method_of() { awk -v op="$1" '$1 == op && $2 == "0" && $3 == "-" && $4 == "..." { print $5 }' <<<"$show"; }
for op in bcast allreduce barrier; do
  [[ -n $(method_of $op) ]] || fail "--show has no single range for $op"
done

# 4. The benchmark's tuned implementation runs the file's method.
cluster bench/hiercoll_bench --ops bcast,allreduce,barrier --sizes 64K --impls tuned --tuning "$tmp/t.json" \
  --reps 2 --warmup 1 --no-plots --no-lower-bound --out "$tmp/b2" >"$tmp/b2.log" 2>&1 ||
  { cat "$tmp/b2.log"; fail "benchmark with --tuning"; }
for op in bcast allreduce barrier; do
  want=$(method_of $op)
  ran=$(awk -F, -v op="$op" '$1 == op && $5 == "tuned" { print $6; exit }' "$tmp/b2/results.csv")
  case $want in
    native) [[ $ran == native || $ran == ompi:* ]] || fail "$op: file says native, tuned ran '$ran'" ;;
    flat:*) [[ $ran == "${want#flat:}" ]] || fail "$op: file says $want, tuned ran '$ran'" ;;
    hier:*) [[ $ran == "$want"* ]] || fail "$op: file says $want, tuned ran '$ran'" ;;
    *) fail "$op: unexpected method '$want'" ;;
  esac
done

# 5. Exhaustive against pruned on one point.
experiments() { awk '$1 == "allreduce" && $2 ~ /^[0-9]+$/ { print $4; exit }' <<<"$1"; }
pruned=$(cluster tune/hiercoll_tune --ops allreduce --sizes 256K --max-samples 4 --out "$tmp/p.json" 2>&1) ||
  fail "pruned run"
full=$(cluster tune/hiercoll_tune --ops allreduce --sizes 256K --max-samples 4 --exhaustive --out "$tmp/e.json" 2>&1) ||
  fail "exhaustive run"
p=$(experiments "$pruned")
e=$(experiments "$full")
echo "allreduce 256K: pruned $p experiments, exhaustive $e"
[[ -n $p && -n $e ]] && ((p > 0 && e >= p)) || fail "experiments: pruned '$p', exhaustive '$e'"

# 6. A budget that runs out: the operations not tuned are said and left out.
budget=$(cluster tune/hiercoll_tune --ops allreduce,bcast --sizes 8-4M --budget 0.01 --out "$tmp/b.json" 2>&1) ||
  fail "budget run"
grep -q '^allreduce *not tuned (budget spent)' <<<"$budget" || fail "budget: allreduce not said to be untuned"
grep -q 'budget spent, not tuned' <<<"$budget" || fail "budget: no progress line about the budget"
tune/hiercoll_tune --show "$tmp/b.json" | grep -q '^  allreduce ' && fail "budget: allreduce in the file"

# 7. Refused before anything starts.
for bad in "--ops nosuchop --out x" "--sizes 1Q --out x" "--budget -1 --out x" "--ops bcast" \
  "--profile x --ops bcast --out y"; do
  # shellcheck disable=SC2086
  tune/hiercoll_tune $bad >/dev/null 2>"$tmp/err" && fail "accepted: $bad"
  grep -q '^hiercoll_tune: ' "$tmp/err" || fail "no clear error for: $bad"
done
tune/hiercoll_tune --show "$tmp/nonexistent.json" 2>"$tmp/err" && fail "--show of a missing file"
grep -q 'cannot be read' "$tmp/err" || fail "--show of a missing file: $(cat "$tmp/err")"
echo "tune smoke test passed"
