#!/usr/bin/env bash
# What a job says about its tuning files on stderr (2x2 emulated cluster,
# HIERCOLL_VERBOSE=1): one line per unusable file, naming the file and what
# is wrong (the line of bad JSON, the key of a bad method), however many
# calls use it; one line per file without an entry for the layout.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
filter='TuningMpi.UnusableFile*:TuningMpi.NoEntryForTheLayout*'
out=$(HIERCOLL_VERBOSE=1 tools/cluster.sh --nodes 2 --ppn 2 --timeout 120 -- tests/tuning_mpi_test_bin \
  --gtest_filter="$filter" 2>&1)
rc=$?
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
[ $rc -eq 0 ] || fail "the job exited $rc"

# Exactly one line matching $2 (a grep -E pattern) about the file named $1.
one_line() {
  local n
  n=$(grep -E "^hiercoll: tuning file [^ ]*/$1[:;]? .*$2" <<<"$out" | wc -l)
  [ "$n" -eq 1 ] || fail "$n lines about $1 matching '$2' (want 1)"
}
one_line not_json.json 'not valid JSON: .*line 2.*; using the built-in rules$'
one_line version2.json 'version 2 is not supported.*; using the built-in rules$'
one_line unknown_algorithm.json "entries\[0\]\.ops\.allreduce\[0\]\.method: no allreduce algorithm 'rings'"
one_line unknown_composition.json "entries\[0\]\.ops\.allreduce\[0\]\.method: no allreduce composition"
one_line missing.json 'cannot be read; using the built-in rules$'
one_line broken_twice.json 'not valid JSON: .*; using the built-in rules$'
one_line other_layout0.json 'has no entry for layout 2x2 slot; using the built-in rules$'
one_line other_layout1.json 'has no entry for layout 2x2 slot; using the built-in rules$'
n=$(grep -c '^hiercoll: tuning file' <<<"$out")
[ "$n" -eq 9 ] || fail "$n lines about tuning files (want 9: seven unusable, two without the layout)"
echo "tuning file messages checked"
