#!/usr/bin/env bash
# libhiercoll.so's Fortran symbols against Open MPI's Fortran libraries
# (nm -D of libmpi_mpifh and libmpi_usempif08):
#  - every Fortran name it exports, Open MPI exports too (no misspelling);
#  - for every routine it takes, every name Open MPI exports for that routine
#    (mpi_x_, mpi_x__, mpi_x, MPI_X, mpi_x_f08_) it exports too;
#  - every collective of the C API (runtime/hiercoll.h), blocking,
#    nonblocking (mpi_i<op>) and persistent (hiercoll_<op>_init: Open MPI's
#    mpix_<op>_init), has them, and so do the process's start and end, the
#    hints, and the request and handle functions hiercoll interposes in C
#    (the Wait and Test families, starts, frees).
set -euo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib
fail() { echo "FAIL: $*"; exit 1; }
exports() { nm -D --defined-only "$@" | awk '{ print $3 }' | sort -u; }
ours=$(exports runtime/libhiercoll.so)
theirs=$(exports "$ompi/libmpi_mpifh.so" "$ompi/libmpi_usempif08.so")
fortran_names() { grep -E '^(mpix?_[a-z0-9_]+|MPIX?_[A-Z0-9_]+)$' || true; }

missing=$(comm -23 <(fortran_names <<<"$ours") <(sort -u <<<"$theirs"))
[ -z "$missing" ] || fail "not Fortran names of Open MPI: $missing"

names_of() { grep -xE "$1(_|__|_f08_)?|${1^^}" || true; }
routines=$(grep -E '^mpix?_[a-z0-9_]*[a-z0-9]$' <<<"$ours")
[ -n "$routines" ] || fail "no Fortran symbols in libhiercoll.so"
for r in $routines; do
  want=$(names_of "$r" <<<"$theirs" | sort)
  have=$(names_of "$r" <<<"$ours" | sort)
  [ "$(wc -l <<<"$want")" -eq 5 ] || fail "$r: Open MPI exports $(echo $want)"
  [ "$want" = "$have" ] || fail "$r: Open MPI exports $(echo $want), libhiercoll.so $(echo $have)"
done

api=$(sed -n 's/^int hiercoll_\([a-z_]*\)(.*/\1/p' runtime/hiercoll.h | sed 's/^\(.*\)_init$/mpix_\1_init/; /^mpix_/!s/^/mpi_/' || true)
[ "$(grep -c '^mpi_i' <<<"$api")" -ge 12 ] || fail "the C API's nonblocking collectives not found in runtime/hiercoll.h"
[ "$(grep -c '^mpix_' <<<"$api")" -ge 12 ] || fail "the C API's persistent collectives not found in runtime/hiercoll.h"
requests="mpi_wait mpi_test mpi_waitall mpi_testall mpi_waitany mpi_testany mpi_waitsome mpi_testsome
  mpi_request_get_status mpi_start mpi_startall mpi_request_free mpi_type_free mpi_op_free mpi_comm_free"
for r in $api mpi_init mpi_init_thread mpi_finalize mpi_comm_set_info mpi_comm_dup_with_info $requests; do
  grep -qx "$r" <<<"$routines" || fail "no Fortran symbols for $r"
done
echo "$(wc -l <<<"$routines") routines, each under Open MPI's 5 Fortran names"
