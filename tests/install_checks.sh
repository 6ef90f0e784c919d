# Sourced by tests/install_test.sh and tests/deb_test.sh: the checks of an
# installed hiercoll, run in a private mount namespace where the install is
# the only hiercoll there is. WORK is a folder of copies of what the checks
# need (copy_check_inputs); the installed programs are on PATH; out holds
# the last output, which fail() shows.

fail() {
  echo "FAIL: $*"
  echo "${out:-}"
  exit 1
}

# Runs the calling script again in a private mount namespace (its first
# argument: --inside): what it mounts there, its own processes see alone,
# and it all goes with them.
enter_private_mounts() {
  exec unshare --mount --propagation private -- bash "$0" --inside "$@"
}

# The calling script's two stages: its function outside, which ends in
# enter_private_mounts, then its function inside, there.
run_stages() {
  if [[ ${1:-} == --inside ]]; then
    shift
    inside "$@"
  else
    outside
  fi
}

# Copies into $1 what the checks need, from the runfiles (the current
# folder), and the sanitizers' suppression files that ./hiercoll test
# --sanitize names in the source tree; WORK becomes $1.
copy_check_inputs() {
  mkdir -p "$1/tools" || fail "cannot create $1"
  cp tools/cluster*.sh "$1/tools/" &&
    cp tests/apps/collectives_probe.c tests/fortran/check_output.sh tests/fortran/collectives_check_use_mpi "$1/" ||
    fail "cannot copy the checks' inputs"
  local var dir
  for var in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
    [[ ${!var:-} == *suppressions=* ]] || continue
    dir=$(sed 's|.*suppressions=\([^:]*\)/[^/:]*.*|\1|' <<<"${!var}")
    mkdir -p "$1/sanitize" && cp "$dir"/* "$1/sanitize/" || fail "cannot copy $dir"
    export "$var=${!var//$dir/$1/sanitize}"
  done
  WORK=$1
}

# Moves WORK's copies to $1 (the variables naming them follow).
move_work() {
  cp -a "$WORK/." "$1/" || fail "cannot copy $WORK to $1"
  local var
  for var in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
    [[ -z ${!var:-} ]] || export "$var=${!var//$WORK/$1}"
  done
  WORK=$1
}

cluster() {
  "$WORK/tools/cluster.sh" --nodes 2 --ppn 2 --timeout 300 -- "$@" 2>&1
}

# The probe's own checks passed, and hiercoll served its collectives: on 4
# ranks every rank calls bcast once per root on the world and on its half,
# for 4 counts (tests/preload_test.sh): 96 calls, of which $2 (default 0)
# go to MPI (native).
check_probe_output() {
  grep -q '^probe digest [0-9a-f]*, 0 failed checks$' <<<"$out" || fail "$1: the probe's checks failed"
  local line hier flat native
  line=$(grep '^hiercoll-stats: bcast hier=[0-9]* flat=[0-9]* native=[0-9]*$' <<<"$out") ||
    fail "$1: no statistics of bcast"
  read -r hier flat native < <(sed 's/.* hier=\([0-9]*\) flat=\([0-9]*\) native=\([0-9]*\)$/\1 \2 \3/' <<<"$line")
  ((hier + flat + native == 96 && native == ${2:-0})) ||
    fail "$1: $line, expected 96 calls, $((96 - ${2:-0})) served by hiercoll"
  grep -q '^hiercoll-stats: gatherv hier=[0-9]* flat=[0-9]* native=0$' <<<"$out" || fail "$1: gatherv not served"
  echo "$1: served as expected ($line)"
}

# A C program built with `pkg-config --cflags --libs hiercoll` and linked
# with the library (no preload): hiercoll_version() says VERSION, and on
# the emulated cluster hiercoll serves its collectives.
check_linked_program() {
  local san=()
  # A sanitized library (./hiercoll test --sanitize) needs the sanitizers'
  # runtime first: the program links it.
  [[ ${HIERCOLL_TEST_SANITIZE:-} == 1 ]] && san=(-fsanitize=address,undefined)
  local flags
  flags=$(pkg-config --cflags --libs hiercoll) || fail "pkg-config does not know hiercoll"
  [[ $(pkg-config --modversion hiercoll) == "$VERSION" ]] || fail "pkg-config --modversion: not $VERSION"
  printf '#include <hiercoll.h>\n#include <stdio.h>\nint main(void) { puts(hiercoll_version()); return 0; }\n' \
    >"$WORK/version.c"
  # shellcheck disable=SC2086  # pkg-config's flags are words
  gcc "${san[@]}" -o "$WORK/version" "$WORK/version.c" $flags &&
    gcc -O2 "${san[@]}" -o "$WORK/probe_linked" "$WORK/collectives_probe.c" $flags ||
    fail "cannot build with pkg-config's flags: $flags"
  out=$("$WORK/version" 2>&1)
  [[ $out == "$VERSION" ]] || fail "hiercoll_version() is not $VERSION"
  grep -q "NEEDED.*\[libhiercoll\.so\.${VERSION%%.*}\]" <<<"$(readelf -d "$WORK/probe_linked")" ||
    fail "the program does not need libhiercoll.so.${VERSION%%.*}"
  out=$(cd "$WORK" && HIERCOLL_STATS=1 cluster ./probe_linked) || fail "the linked program failed"
  check_probe_output "C program linked with pkg-config's flags"
}

# hiercoll-run under the emulated cluster's mpirun: a C program built
# without hiercoll, with the knobs --stats and --mode, and a Fortran one.
check_run_wrapper() {
  [[ $(hiercoll-run --version) == "hiercoll-run $VERSION "* ]] || fail "hiercoll-run --version: $(hiercoll-run --version)"
  mpicc -O2 -o "$WORK/probe_plain" "$WORK/collectives_probe.c" || fail "mpicc failed"
  out=$(cd "$WORK" && cluster hiercoll-run --stats -- ./probe_plain) || fail "hiercoll-run on the C program failed"
  check_probe_output "C program under hiercoll-run"
  out=$(cd "$WORK" && cluster hiercoll-run --stats --mode off -- ./probe_plain) || fail "hiercoll-run --mode off failed"
  grep -q '^hiercoll-stats: bcast hier=0 flat=0 native=96$' <<<"$out" || fail "--mode off did not hand calls to MPI"
  out=$(cd "$WORK" && cluster hiercoll-run --stats -- ./collectives_check_use_mpi) ||
    fail "hiercoll-run on the Fortran program failed"
  # shellcheck source=tests/fortran/check_output.sh
  source "$WORK/check_output.sh"
  check_fortran_output "Fortran program (use mpi) under hiercoll-run"
}
