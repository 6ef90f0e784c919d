#!/usr/bin/env bash
# libhiercoll.so's Fortran symbols against Open MPI's Fortran libraries
# (nm -D of libmpi_mpifh and libmpi_usempif08):
#  - every Fortran name it exports, Open MPI exports too (no misspelling);
#  - for every routine it takes, every name Open MPI exports for that routine
#    (mpi_x_, mpi_x__, mpi_x, MPI_X, mpi_x_f08_) it exports too;
#  - every collective of the C API (runtime/hiercoll.h) has them, and so do
#    the process's start and end and the hints.
set -euo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib
fail() { echo "FAIL: $*"; exit 1; }
exports() { nm -D --defined-only "$@" | awk '{ print $3 }' | sort -u; }
ours=$(exports runtime/libhiercoll.so)
theirs=$(exports "$ompi/libmpi_mpifh.so" "$ompi/libmpi_usempif08.so")
fortran_names() { grep -E '^(mpi_[a-z0-9_]+|MPI_[A-Z0-9_]+)$' || true; }

missing=$(comm -23 <(fortran_names <<<"$ours") <(sort -u <<<"$theirs"))
[ -z "$missing" ] || fail "not Fortran names of Open MPI: $missing"

names_of() { grep -xE "$1(_|__|_f08_)?|${1^^}" || true; }
routines=$(grep -E '^mpi_[a-z0-9_]*[a-z0-9]$' <<<"$ours")
[ -n "$routines" ] || fail "no Fortran symbols in libhiercoll.so"
for r in $routines; do
  want=$(names_of "$r" <<<"$theirs" | sort)
  have=$(names_of "$r" <<<"$ours" | sort)
  [ "$(wc -l <<<"$want")" -eq 5 ] || fail "$r: Open MPI exports $(echo $want)"
  [ "$want" = "$have" ] || fail "$r: Open MPI exports $(echo $want), libhiercoll.so $(echo $have)"
done

# The nonblocking collectives are not among them: a Fortran program waits
# through Open MPI's Fortran MPI_Wait, which calls PMPI_Wait and would never
# see hiercoll's requests complete, so from Fortran they stay Open MPI's.
# Nor the persistent ones (MPIX_<op>_init): their requests start in the C
# MPI_Start only.
api=$(sed -n 's/^int hiercoll_\([a-z_]*\)(.*/mpi_\1/p' runtime/hiercoll.h | grep -v '^mpi_i' | grep -v '_init$' || true)
[ "$(wc -l <<<"$api")" -ge 12 ] || fail "the C API's collectives not found in runtime/hiercoll.h"
for r in $api mpi_init mpi_init_thread mpi_finalize mpi_comm_set_info mpi_comm_dup_with_info; do
  grep -qx "$r" <<<"$routines" || fail "no Fortran symbols for $r"
done
echo "$(wc -l <<<"$routines") routines, each under Open MPI's 5 Fortran names"
