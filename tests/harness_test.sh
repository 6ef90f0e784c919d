#!/usr/bin/env bash
# Checks the MPI test main on a 2x2 emulated cluster: a passing test exits 0;
# a failure on rank 1 only fails the job and names rank 1, reported by rank 0;
# a hang is ended by the watchdog with a TIMEOUT message.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
bin=tests/harness_cases_bin
run() { tools/cluster.sh --nodes 2 --ppn 2 --timeout 120 -- "$bin" "$@" 2>&1; }
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }

out=$(run --gtest_filter=Harness.Passes); rc=$?
[ $rc -eq 0 ] || fail "passing test exited $rc"

out=$(run --gtest_also_run_disabled_tests --gtest_filter='*FailsOnRankOneOnly'); rc=$?
[ $rc -ne 0 ] || fail "a failure on rank 1 exited 0"
grep -q 'failed on rank(s) 1' <<<"$out" || fail "failing rank not named"
grep -q '^\[rank 1\] .*harness_cases.cc' <<<"$out" && grep -q 'rank one disagrees' <<<"$out" ||
  fail "rank 1's own failure not shown"
grep -q 'FAILED.*FailsOnRankOneOnly' <<<"$out" || fail "rank 0 did not report the test as failed"

out=$(HIERCOLL_TEST_TIMEOUT=3 run --gtest_also_run_disabled_tests --gtest_filter='*HangsOnRankZero'); rc=$?
[ $rc -ne 0 ] || fail "a hang exited 0"
grep -q 'TIMEOUT: test Harness.DISABLED_HangsOnRankZero' <<<"$out" || fail "no timeout message"
echo "harness checks passed"
