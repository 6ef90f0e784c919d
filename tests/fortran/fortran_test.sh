#!/usr/bin/env bash
# The Fortran programs of tests/fortran/BUILD on one emulated layout (the
# arguments: tools/cluster.sh's layout options), each binding (mpif.h,
# `use mpi`, `use mpi_f08`) with libhiercoll.so preloaded, and the mpif.h
# and mpi_f08 ones linked with it instead:
#  - the program's own checks pass (results of the blocking, nonblocking
#    and persistent calls, MPI_IN_PLACE, MPI_BOTTOM, roots, requests and
#    statuses, error classes in ierror, hints set from Fortran);
#  - HIERCOLL_STATS counts, for every operation and summed over ranks,
#    exactly the calls the program made that hiercoll serves (hier + flat)
#    and that its hints hand to MPI (native): every Fortran call went
#    through hiercoll.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
export HIERCOLL_PRELOAD_LIB="$PWD/runtime/libhiercoll.so"
layout=("$@")
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
# shellcheck source=tests/fortran/check_output.sh
source tests/fortran/check_output.sh

# check PROGRAM [tools/cluster.sh options]
check() {
  local prog=tests/fortran/$1; shift
  out=$(HIERCOLL_STATS=1 tools/cluster.sh "${layout[@]}" "$@" --timeout 300 -- "$prog" 2>&1) || fail "$prog failed"
  check_fortran_output "$prog"
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
