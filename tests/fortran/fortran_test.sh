#!/usr/bin/env bash
# The Fortran programs of tests/fortran/BUILD on one emulated layout (the
# arguments: tools/cluster.sh's layout options), each binding (mpif.h,
# `use mpi`, `use mpi_f08`) with libhiercoll.so preloaded, and the mpif.h
# and mpi_f08 ones linked with it instead:
#  - the program's own checks pass (results, MPI_IN_PLACE, MPI_BOTTOM,
#    roots, error classes in ierror, hints set from Fortran);
#  - HIERCOLL_STATS counts, for every operation and summed over ranks,
#    exactly the calls the program made that hiercoll serves (hier + flat)
#    and that its hints hand to MPI (native): every Fortran call went
#    through hiercoll.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
export HIERCOLL_PRELOAD_LIB="$PWD/runtime/libhiercoll.so"
layout=("$@")
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }

# check PROGRAM [tools/cluster.sh options]
check() {
  local prog=tests/fortran/$1; shift
  out=$(HIERCOLL_STATS=1 tools/cluster.sh "${layout[@]}" "$@" --timeout 300 -- "$prog" 2>&1) || fail "$prog failed"
  local summary ranks
  summary=$(grep '^fortran .* checks, ' <<<"$out") || fail "$prog: no summary"
  grep -q ': [1-9][0-9]* checks, 0 failed on [0-9]* ranks$' <<<"$summary" || fail "$prog: $summary"
  ranks=$(sed 's/.* on \([0-9]*\) ranks$/\1/' <<<"$summary")
  local ops=0 op served native line hier flat nat
  while read -r _ op served native; do
    served=${served#served=}
    native=${native#native=}
    ((served > 0)) || fail "$prog: no $op call served"
    line=$(grep "^hiercoll-stats: $op " <<<"$out") || fail "$prog: no statistics for $op"
    read -r hier flat nat < <(sed 's/.* hier=\([0-9]*\) flat=\([0-9]*\) native=\([0-9]*\)$/\1 \2 \3/' <<<"$line")
    ((hier + flat == served * ranks && nat == native * ranks)) ||
      fail "$prog: '$line', expected hier + flat = $((served * ranks)), native = $((native * ranks))"
    ops=$((ops + 1))
  done < <(grep '^fortran-expect: ' <<<"$out")
  ((ops == 16)) || fail "$prog: expected 16 operations, got $ops"
  echo "$prog: $summary"
}

check collectives_check_mpif_h --preload
check collectives_check_use_mpi --preload
check collectives_check_mpi_f08 --preload
# Sanitized (./hiercoll test --sanitize), libhiercoll.so needs the ASan
# runtime first in the library list: the preload path puts it there
# (tools/cluster.sh); a program linked with it, built by mpifort without
# ASan, would stop at start-up, so only the preloaded ones run there.
if [[ ${HIERCOLL_TEST_SANITIZE:-} == 1 ]]; then
  echo "sanitize mode: the linked programs are not run (ASan must come first; only the preload arranges that)"
else
  check collectives_check_mpif_h_linked
  check collectives_check_mpi_f08_linked
fi
echo "fortran checks passed"
