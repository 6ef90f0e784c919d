# shellcheck shell=bash
# The commands that install the packages, build and test (deps, build,
# test), sourced by ./hiercoll.
# ---------------------------------------------------------------------------
# deps

# The packages among "$@" that are not installed.
missing_packages() {
  # One dpkg-query call for all packages; unknown ones are reported on stderr
  # and simply do not appear as installed.
  local installed
  installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "$@" 2>/dev/null |
    awk '$2 == "ii" { sub(/:.*/, "", $1); print $1 }' || true)
  local p
  for p in "$@"; do
    grep -qx -- "$p" <<<"$installed" || echo "$p"
  done
}

# Installs what is missing of DEPS and the packages given.
cmd_deps() {
  command -v dpkg-query >/dev/null || die "deps: dpkg-query not found (this needs Debian 12)"
  local wanted=("${DEPS[@]}" "$@") missing
  mapfile -t missing < <(missing_packages "${wanted[@]}")
  ((${#missing[@]} == 0)) && return 0

  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null ||
      die "deps: missing packages (${missing[*]}); run as root to install them"
    sudo=(sudo)
  fi
  echo "hiercoll: installing ${missing[*]}" >&2
  local log
  log=$(mktemp)
  if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "deps: apt-get failed"
  fi
  rm -f "$log"
  mapfile -t missing < <(missing_packages "${wanted[@]}")
  ((${#missing[@]} == 0)) || die "deps: still missing after install: ${missing[*]}"
}

# ---------------------------------------------------------------------------
# build / test

cmd_build() {
  cmd_deps
  (($# > 0)) || set -- //...
  "$BAZEL" build "$@"
}

# Options of `test --sanitize`: the sanitize config (.bazelrc) and where the
# sanitizers find their settings and suppression files (tools/sanitize/).
sanitize_options() {
  local supp=$PWD/tools/sanitize
  echo --config=sanitize
  # Only what the sanitized tests need (every target is built unsanitized).
  echo --build_tests_only
  # Full stacks at every allocation: Open MPI has no frame pointers, and a
  # leak must show its Open MPI frames to be matched by the suppressions.
  # Tests that never start MPI re-execute themselves with fast unwinding
  # (tests/support/fast_unwind.cc).
  echo "--test_env=ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:suppressions=$supp/asan.supp"
  echo "--test_env=LSAN_OPTIONS=suppressions=$supp/lsan.supp:print_suppressions=0"
  echo "--test_env=UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
}

cmd_test() {
  cmd_deps "${TEST_DEPS[@]}"
  local opts=()
  if [[ ${1:-} == --sanitize ]]; then
    shift
    mapfile -t opts < <(sanitize_options)
  fi
  (($# > 0)) || set -- //...
  set -- "${opts[@]}" "$@"
  local log rc
  log=$(mktemp)
  set +e
  "$BAZEL" test "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  # Bazel's summary has one line per test target:
  #   //pkg:name    (cached) PASSED in 0.4s
  #   //pkg:name    FAILED in 3 out of 3 in 1.2s   (also TIMEOUT, FLAKY,
  #   NO STATUS, FAILED TO BUILD, INCOMPLETE, REMOTE FAILURE)
  local passed failed
  passed=$(grep -cE '^(//|@)[^ ]+ +(\(cached\) )?PASSED( |$)' "$log" || true)
  failed=$(grep -E '^(//|@)[^ ]+ +(\(cached\) )?[A-Z]' "$log" |
    grep -cvE '^(//|@)[^ ]+ +(\(cached\) )?PASSED( |$)' || true)
  rm -f "$log"
  echo "${passed} passed, ${failed} failed"
  if ((rc == 0 && failed > 0)); then
    rc=1
  fi
  return "$rc"
}
