# Sourced by the tests that run tests/fortran/collectives_check*:
# check_fortran_output NAME judges a run's output, in $out, with
# HIERCOLL_STATS=1 (the caller's fail() reports):
#  - the program's own checks pass;
#  - for every operation, the statistics count (summed over ranks) exactly
#    the calls the program says hiercoll serves (hier + flat) and those its
#    hints hand to MPI (native): every Fortran call went through hiercoll.
check_fortran_output() {
  local prog=$1 summary ranks
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
  ((ops == 17)) || fail "$prog: expected 17 operations, got $ops"
  echo "$prog: $summary"
}
