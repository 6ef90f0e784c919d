#!/usr/bin/env bash
# The drop-in library on unmodified programs (tests/apps), on an uneven
# round-robin layout and on 2x2:
#  - results (a digest of every collective's output) are identical with and
#    without the preloaded library, and the program's own checks pass;
#  - HIERCOLL_STATS=1 prints one line per operation in the documented form,
#    counting every call (summed over ranks) as served by hiercoll;
#  - HIERCOLL_MODE=off hands every call to MPI (native);
#  - bad input under the default error handler aborts the job with a clear
#    message and the MPI error class.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
export HIERCOLL_PRELOAD_LIB="$PWD/runtime/libhiercoll.so"
probe=tests/apps/collectives_probe
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }

check_layout() {
  local p=$1; shift
  local layout=("$@")
  out=$(tools/cluster.sh "${layout[@]}" --timeout 300 -- "$probe" 2>&1) || fail "plain run failed"
  local plain; plain=$(grep '^probe digest' <<<"$out") || fail "no digest"
  grep -q ', 0 failed checks' <<<"$plain" || fail "plain run's checks failed"
  grep -q 'hiercoll-stats' <<<"$out" && fail "stats printed without the library"

  out=$(HIERCOLL_STATS=1 tools/cluster.sh "${layout[@]}" --preload --timeout 300 -- "$probe" 2>&1) || fail "preloaded run failed"
  [ "$(grep '^probe digest' <<<"$out")" = "$plain" ] || fail "results differ with the library preloaded"
  [ "$(grep -c '^hiercoll-stats: [a-z_]* hier=[0-9]* flat=[0-9]* native=[0-9]*$' <<<"$out")" -eq 17 ] ||
    fail "expected 17 stats lines in the documented form"
  # Every rank calls bcast once per root, on the world and on its half, for 4 counts.
  local expect=$((4 * p * p + 4 * p * (p / 2)))
  local line; line=$(grep '^hiercoll-stats: bcast ' <<<"$out")
  local hier flat native
  hier=$(sed 's/.*hier=\([0-9]*\).*/\1/' <<<"$line"); flat=$(sed 's/.*flat=\([0-9]*\).*/\1/' <<<"$line")
  native=$(sed 's/.*native=\([0-9]*\).*/\1/' <<<"$line")
  [ $((hier + flat)) -eq "$expect" ] && [ "$native" -eq 0 ] || fail "bcast counts: $line, expected $expect served"
  # The v-variants go through hiercoll too (8 calls per rank each).
  for op in allgatherv gatherv; do
    grep -q "^hiercoll-stats: $op hier=[0-9]* flat=[0-9]* native=0\$" <<<"$out" || fail "$op not served by hiercoll"
  done

  out=$(HIERCOLL_MODE=off HIERCOLL_STATS=1 tools/cluster.sh "${layout[@]}" --preload --timeout 300 -- "$probe" 2>&1) ||
    fail "HIERCOLL_MODE=off run failed"
  [ "$(grep '^probe digest' <<<"$out")" = "$plain" ] || fail "results differ with HIERCOLL_MODE=off"
  grep -q "^hiercoll-stats: bcast hier=0 flat=0 native=$expect\$" <<<"$out" || fail "HIERCOLL_MODE=off did not go native"
}

check_layout 6 --ppn-list 3,1,2 --map-by node
check_layout 4 --nodes 2 --ppn 2

out=$(tools/cluster.sh --nodes 2 --ppn 2 --preload --timeout 120 -- tests/apps/error_probe 2>&1); rc=$?
[ $rc -ne 0 ] || fail "a negative count did not abort the job"
grep -q 'hiercoll: MPI_Bcast: negative count (-5)' <<<"$out" || fail "no hiercoll message"
grep -q 'MPI_ERR_COUNT' <<<"$out" || fail "no MPI error class in the abort message"
# A forced algorithm from the environment serves the calls; an unknown name
# is an error that names the known ones, not a silent fallback.
out=$(HIERCOLL_MODE=flat HIERCOLL_BCAST_ALGORITHM=twotree HIERCOLL_ALLREDUCE_ALGORITHM=ring HIERCOLL_STATS=1 \
  tools/cluster.sh --nodes 2 --ppn 2 --preload --timeout 300 -- "$probe" 2>&1) || fail "forced algorithms run failed"
grep -q ', 0 failed checks' <<<"$out" || fail "forced algorithms gave wrong results"
grep -q '^hiercoll-stats: bcast hier=0 flat=96 native=0$' <<<"$out" || fail "forced bcast not served flat"
out=$(HIERCOLL_BCAST_ALGORITHM=nope tools/cluster.sh --nodes 2 --ppn 2 --preload --timeout 120 -- "$probe" 2>&1)
[ $? -ne 0 ] || fail "an unknown algorithm name did not fail"
grep -q 'HIERCOLL_BCAST_ALGORITHM=nope: unknown bcast algorithm (known: binomial, ' <<<"$out" || fail "no clear message"
echo "preload checks passed"
