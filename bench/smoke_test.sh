#!/usr/bin/env bash
# Smoke test of the whole benchmark binary on a 2x2 emulated cluster: a
# short run must finish, print its tables, confirm HAN, and write
# results.csv (exact header, one row per root for rooted operations),
# lower_bound.csv, gbench.json, summary.txt, the plots and report.html; the
# comparison of jobs reads it back and makes its page; --overlap writes
# overlap.csv; --persistent writes persistent.csv and its four
# implementations' rows. No timing is judged.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
out="${TEST_TMPDIR:-$(mktemp -d)}/bench-out"
rm -rf "$out"

log=$(tools/cluster.sh --nodes 2 --ppn 2 --timeout 300 -- bench/hiercoll_bench \
  --ops bcast,allreduce,barrier --sizes 8,64K --reps 3 --warmup 1 --out "$out" 2>&1)
rc=$?
echo "$log"
fail() { echo "FAIL: $*"; exit 1; }
((rc == 0)) || fail "hiercoll_bench exited $rc"

grep -q '^layout: 4 ranks on 2 nodes .* share [0-9]* cores\? of' <<<"$log" || fail "no layout header"
grep -q 'HAN active' <<<"$log" || fail "HAN not confirmed on the han communicator"
grep -q 'WRONG' <<<"$log" && fail "a checked call gave a wrong result"
grep -q '^bcast (µs' <<<"$log" || fail "no bcast table"
grep -q 'hier/native' <<<"$log" || fail "no speedup column"

csv="$out/results.csv"
[[ -s $csv ]] || fail "no results.csv"
[[ $(head -1 "$csv") == "op,bytes,nodes,ppn,impl,algorithm,root,median_us,min_us,max_us,reps" ]] ||
  fail "results.csv header: $(head -1 "$csv")"
# bcast: 2 sizes x 4 impls x 4 roots; allreduce: 2 x 4; barrier: 4.
rows=$(($(wc -l <"$csv") - 1))
((rows == 44)) || fail "results.csv has $rows rows, want 44"
(($(grep -c '^bcast,65536,2,2,hier,' "$csv") == 4)) || fail "want one bcast row per root"
grep -q '^allreduce,8,2,2,native,ompi:tuned_allreduce[^,]*,-1,' "$csv" || fail "native allreduce row"
grep -q '^bcast,8,2,2,han,ompi:han_bcast[^,]*,0,' "$csv" || fail "han bcast row"
awk -F, 'NR > 1 && ($11 != 3 || $8 !~ /^[0-9]+\.[0-9]+$/) { bad = 1 } END { exit bad }' "$csv" ||
  fail "every row needs 3 reps and a median"

[[ -s $out/lower_bound.csv ]] || fail "no lower_bound.csv"
grep -q '"benchmarks"' "$out/gbench.json" || fail "no Google Benchmark JSON"
grep -q '"name": "bcast/65536/hier/root:3' "$out/gbench.json" || fail "per-root series missing in gbench.json"
[[ -s $out/summary.txt ]] || fail "no summary.txt"
grep -q '^hiercoll benchmark [0-9]*\.[0-9]*\.[0-9]*, ' "$out/summary.txt" || fail "no version in the header"
grep -q '<img src="plots/bcast_speedup.png"' "$out/report.html" || fail "no report.html with the speedup plot"
for f in bcast.gp bcast_roots.gp bcast_per_root.gp allreduce.gp barrier.gp; do
  [[ -s $out/plots/$f ]] || fail "no plots/$f"
done
if command -v gnuplot >/dev/null; then
  for f in bcast.png bcast_roots.png bcast_per_root.png allreduce.png; do
    [[ -s $out/plots/$f ]] || fail "no plots/$f"
  done
fi
# The comparison of jobs (`./hiercoll bench --jobs N`), here over this one
# job given twice: every ratio has two equal samples.
jobs_out="$out/jobs"
mkdir -p "$jobs_out"
jobs_log=$(bench/hiercoll_bench_jobs "$jobs_out" "$out" "$out" 2>&1) || fail "hiercoll_bench_jobs: $jobs_log"
grep -q '^bcast: speedup of hier' <<<"$jobs_log" || fail "no bcast table across jobs"
[[ $(head -1 "$jobs_out/jobs.csv") == op,bytes,impl,jobs,speedup_median,* ]] || fail "jobs.csv header"
grep -q '^bcast,65536,native,2,' "$jobs_out/jobs.csv" || fail "no bcast 64K native row in jobs.csv"
grep -q '^barrier,0,han,2,[0-9.]*,[0-9.]*,[0-9.]*,,,,,,$' "$jobs_out/jobs.csv" || fail "barrier row in jobs.csv"
grep -q '<a href="../summary.txt">summary.txt (job 1)</a>' "$jobs_out/report.html" || fail "no report.html across jobs"

# --overlap: the progress thread measured, one row per implementation and
# thread state, every CPU share a number, the computation's above 0.
ov_out="$out/overlap"
ov_log=$(tools/cluster.sh --nodes 2 --ppn 2 --timeout 300 -- bench/hiercoll_bench --overlap \
  --ops allreduce --sizes 8 --reps 2 --out "$ov_out" 2>&1) || fail "hiercoll_bench --overlap: $ov_log"
ov="$ov_out/overlap.csv"
# The thread must really be switched on (MPI_THREAD_MULTIPLE kept to the end).
grep -q "progress thread measured on and off" <<<"$ov_log" || fail "--overlap did not run the progress thread: $ov_log"
[[ $(head -1 "$ov") == "op,bytes,impl,thread,pure_us,blocking_us,compute_us,compute_test_us,cpu_us,overlap_pct,overlap_test_pct,pure_busy_pct,cpu_busy_pct,compute_busy_pct" ]] ||
  fail "overlap.csv header: $(head -1 "$ov")"
(($(wc -l <"$ov") == 5)) || fail "overlap.csv: want hier and native, thread off and on"
awk -F, 'NR > 1 { for (i = 12; i <= 14; ++i) if ($i !~ /^[0-9]+\.[0-9]$/) bad = 1; if ($13 <= 0) bad = 1 }
  END { exit bad }' "$ov" || fail "overlap.csv: CPU shares must be numbers, the computation's above 0"

# --persistent: the four implementations' rows, every time above 0, no
# wrong result; the comparison of jobs reads its results.csv.
pe_out="$out/persistent"
pe_log=$(tools/cluster.sh --nodes 2 --ppn 2 --timeout 300 -- bench/hiercoll_bench --persistent \
  --ops allreduce,gatherv --sizes 8 --reps 2 --out "$pe_out" 2>&1) || fail "hiercoll_bench --persistent: $pe_log"
grep -q 'WRONG' <<<"$pe_log" && fail "--persistent: a checked call gave a wrong result: $pe_log"
pe="$pe_out/results.csv"
for impl in hier native hier-blocking native-blocking; do
  for op in allreduce gatherv; do
    grep -q "^${op}_init,8,2,2,$impl," "$pe" || fail "--persistent: no $op $impl row in results.csv"
  done
done
(($(wc -l <"$pe") == 9)) || fail "--persistent: results.csv wants 2 operations x 4 implementations"
awk -F, 'NR > 1 && !($8 > 0 && $9 > 0) { bad = 1 } END { exit bad }' "$pe" || fail "--persistent: times must be positive"
[[ $(head -1 "$pe_out/persistent.csv") == "op,bytes,reps,hier_persistent_us,native_persistent_us,hier_blocking_us,native_blocking_us,hier_init_us,native_init_us" ]] ||
  fail "persistent.csv header: $(head -1 "$pe_out/persistent.csv")"
(($(wc -l <"$pe_out/persistent.csv") == 3)) || fail "persistent.csv: want one row per operation"
pe_jobs=$(bench/hiercoll_bench_jobs "$pe_out/jobs" "$pe_out" "$pe_out" 2>&1) || fail "hiercoll_bench_jobs: $pe_jobs"
grep -q '^allreduce_init: speedup of hier' <<<"$pe_jobs" || fail "no persistent allreduce table across jobs: $pe_jobs"
echo "bench smoke test passed"
