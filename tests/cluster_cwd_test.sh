#!/usr/bin/env bash
# `./hiercoll cluster` starts every rank in the caller's folder, as mpirun
# does: run from a folder outside the repository, a program given by a
# relative path reads its input by a relative path on every rank (as
# `lmp -in in.melt` does).
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
hiercoll=$PWD/hiercoll
work=$(realpath "${TEST_TMPDIR}")/case
rm -rf "$work"
mkdir -p "$work/bin" && cp tests/apps/relative_input "$work/bin/" && echo 5 >"$work/input.txt" || fail "setup"
cd "$work" || fail "no $work"
out=$("$hiercoll" cluster --nodes 2 --ppn 2 --timeout 120 -- bin/relative_input input.txt 2>&1) ||
  fail "the job failed"
grep -qx "relative_input: 4 ranks read input.txt in $work, sum 20" <<<"$out" || fail "unexpected output"
echo "ranks started in $work"
