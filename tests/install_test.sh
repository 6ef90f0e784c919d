#!/usr/bin/env bash
# An install in a temporary prefix, laid out by tools/install/install.sh
# from the built artefacts as `./hiercoll install` does, then used in a
# private mount namespace where the source tree and Bazel's folders are
# covered by empty ones (as if moved away) and the install appears at its
# prefix, /opt/hiercoll:
#  - the layout: the library under its version, its SONAME and the link,
#    the headers, pkg-config, the tools, hiercoll-run, the docs, the module;
#  - the environment module (environment modules' modulecmd) sets PATH,
#    LD_LIBRARY_PATH and PKG_CONFIG_PATH, and everything below runs so;
#  - a C program built with `pkg-config --cflags --libs hiercoll` and linked
#    runs on the emulated cluster with hiercoll serving its collectives;
#  - a C and a Fortran program run through hiercoll-run under its mpirun;
#  - the installed tools run: hiercoll-tune writes the version into its
#    file, hiercoll-bench into its header and a report page,
#    hiercoll-bench-jobs, hiercoll-simulate, hiercoll-explain, hiercoll-fuzz.
set -uo pipefail
readonly PREFIX=/opt/hiercoll
# shellcheck source=tests/install_checks.sh
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/tests/install_checks.sh"

outside() {
  cd "${TEST_SRCDIR}/${TEST_WORKSPACE}" || fail "no runfiles"
  local tmp
  tmp=$(realpath "${TEST_TMPDIR}")
  rm -rf "$tmp/stage" "$tmp/work"
  out=$(tools/install/install.sh --prefix "$PREFIX" --destdir "$tmp/stage" --built . --source . 2>&1) ||
    fail "install.sh failed"
  VERSION=$(sed -n 's/^HIERCOLL_VERSION = "\(.*\)"$/\1/p' version.bzl)
  copy_check_inputs "$tmp/work"
  # What to cover: the source tree (where the runfiles' links lead) and
  # Bazel's output root (the runfiles, bazel-bin, this test's folders).
  local src output_root
  src=$(dirname "$(dirname "$(readlink -f tools/cluster.sh)")")
  output_root=$(readlink -f runtime/libhiercoll.so)
  output_root=${output_root%%/execroot/*}
  output_root=$(dirname "$output_root")
  export VERSION WORK
  enter_private_mounts "$tmp/stage$PREFIX" "$src" "$output_root"
}

inside() {
  local staged=$1 src=$2 output_root=$3
  # The install at its prefix and the work folder on a tmpfs over /opt,
  # then the trees covered.
  mount -t tmpfs hiercoll-opt /opt && mkdir -p "$PREFIX" /opt/work && mount --bind "$staged" "$PREFIX" ||
    fail "cannot set up /opt"
  move_work /opt/work
  mount -t tmpfs hiercoll-gone "$src" && mount -t tmpfs hiercoll-gone "$output_root" ||
    fail "cannot cover $src and $output_root"
  [[ -z $(ls -A "$src") && -z $(ls -A "$output_root") ]] || fail "$src or $output_root is still visible"
  echo "covered $src and $output_root; install at $PREFIX"

  local so=libhiercoll.so.${VERSION%%.*}
  [[ -f $PREFIX/lib/libhiercoll.so.$VERSION && $(readlink "$PREFIX/lib/$so") == "libhiercoll.so.$VERSION" &&
    $(readlink "$PREFIX/lib/libhiercoll.so") == "$so" ]] || fail "the library's files and links"
  grep -q "SONAME.*\[$so\]" <<<"$(readelf -d "$PREFIX/lib/$so")" || fail "SONAME is not $so"
  for f in include/hiercoll.h include/hiercoll.hpp lib/pkgconfig/hiercoll.pc share/doc/hiercoll/README.md \
    share/doc/hiercoll/docs/ARCHITECTURE.md "share/modulefiles/hiercoll/$VERSION" bin/hiercoll-run \
    bin/hiercoll-bench bin/hiercoll-bench-jobs bin/hiercoll-tune bin/hiercoll-simulate bin/hiercoll-explain bin/hiercoll-fuzz; do
    [[ -s $PREFIX/$f ]] || fail "$PREFIX/$f is missing"
  done
  if grep -q 'R\(UN\)\?PATH' <<<"$(for f in "$PREFIX"/bin/* "$PREFIX/lib/$so"; do readelf -d "$f" 2>/dev/null; done)"; then
    fail "an installed binary keeps a run-time search path (into Bazel's tree)"
  fi

  eval "$(MODULEPATH=$PREFIX/share/modulefiles modulecmd bash load "hiercoll/$VERSION")"
  [[ $PATH == "$PREFIX/bin:"* && $LD_LIBRARY_PATH == "$PREFIX/lib"* && $PKG_CONFIG_PATH == "$PREFIX/lib/pkgconfig"* ]] ||
    fail "the module did not set PATH, LD_LIBRARY_PATH, PKG_CONFIG_PATH"
  [[ $(command -v hiercoll-run) == "$PREFIX/bin/hiercoll-run" ]] || fail "hiercoll-run not found through PATH"

  check_linked_program
  check_run_wrapper
  check_tools
  echo "install checks passed"
}

check_tools() {
  cd "$WORK" || fail "no $WORK"
  out=$(hiercoll-simulate --nodes 4 --ppn 2 --ops bcast --sizes 1K --impls hier --out sim 2>&1) ||
    fail "hiercoll-simulate failed"
  [[ -s sim/simulated.csv ]] || fail "hiercoll-simulate wrote no sim/simulated.csv"
  out=$(hiercoll-explain --nodes 4 --ppn 2 --ops allreduce --sizes 1K --csv explain.csv 2>&1) ||
    fail "hiercoll-explain failed"
  grep -q '^allreduce,1024,1,' explain.csv || fail "hiercoll-explain wrote no chosen row"
  out=$(hiercoll-tune --model --nodes 16 --ppn 8 --ops allreduce --sizes 8,1K --out model.json 2>&1) ||
    fail "hiercoll-tune --model failed: $out"
  grep -q '"model": {' model.json || fail "hiercoll-tune --model wrote no entry with figures"
  out=$(cluster hiercoll-fuzz --cases 30 --seed 1) || fail "hiercoll-fuzz failed"
  grep -q ': 0 mismatches' <<<"$out" || fail "hiercoll-fuzz: no summary"
  out=$(cluster hiercoll-tune --ops bcast --sizes 8 --max-samples 3 --out tuning.json) || fail "hiercoll-tune failed"
  grep -q "\"hiercoll_version\": \"$VERSION\"" tuning.json || fail "the tuning file lacks the version"
  out=$(hiercoll-tune --show tuning.json) && grep -q "by hiercoll $VERSION)" <<<"$out" ||
    fail "hiercoll-tune --show: no version"
  # The file has one method for every bcast on the world (2x2: 64 calls);
  # the halves' layout has no entry and keeps the rules.
  local method native=0
  method=$(awk '$1 == "bcast" && $2 == "0" { print $5 }' <<<"$out")
  [[ -n $method ]] || fail "hiercoll-tune --show: no bcast decision"
  [[ $method != native ]] || native=64
  out=$(cluster hiercoll-run --tuning tuning.json --stats -- ./probe_plain) || fail "hiercoll-run --tuning failed"
  check_probe_output "C program under hiercoll-run --tuning (bcast: $method)" "$native"
  out=$(cluster hiercoll-bench --ops bcast,allreduce --sizes 8,64K --reps 2 --warmup 1 --out bench) ||
    fail "hiercoll-bench failed"
  grep -q "^hiercoll benchmark $VERSION, " <<<"$out" || fail "no version in the benchmark's header"
  for f in report.html plots/bcast.png plots/bcast_speedup.png plots/allreduce_bound.png; do
    [[ -s bench/$f ]] || fail "hiercoll-bench wrote no bench/$f"
  done
  out=$(hiercoll-bench-jobs jobs bench bench 2>&1) || fail "hiercoll-bench-jobs failed"
  [[ -s jobs/report.html && -s jobs/plots/bcast_speedup.png ]] || fail "hiercoll-bench-jobs wrote no report"
  echo "installed tools ran: simulate, fuzz, tune, bench, bench-jobs"
}

run_stages "$@"
