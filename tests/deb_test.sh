#!/usr/bin/env bash
# The Debian package, made as `./hiercoll deb` makes it (install.sh into a
# staging folder with prefix /usr, then tools/install/deb.sh), installed with
# `apt-get install ./hiercoll_<version>_<arch>.deb` and removed again, in a
# private mount namespace whose /usr, /etc and /var are overlays on a tmpfs:
# the machine's own stay untouched whatever happens. Checked:
#  - the package's fields: version, dependencies from the shared libraries;
#  - installed: the library is known to the dynamic loader, a C program
#    built with pkg-config's flags (no PKG_CONFIG_PATH needed under /usr)
#    runs linked with it, and a C and a Fortran program through hiercoll-run;
#  - removed (purge): no file or folder of the package is left, the loader
#    forgets the library, dpkg knows no hiercoll.
set -uo pipefail
# shellcheck source=tests/install_checks.sh
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/tests/install_checks.sh"

outside() {
  cd "${TEST_SRCDIR}/${TEST_WORKSPACE}" || fail "no runfiles"
  local tmp
  tmp=$(realpath "${TEST_TMPDIR}")
  rm -rf "$tmp/stage" "$tmp/work" "$tmp/debs"
  out=$(tools/install/install.sh --prefix /usr --destdir "$tmp/stage" --built . --source . 2>&1) ||
    fail "install.sh failed"
  out=$(tools/install/deb.sh "$tmp/stage" "$tmp/debs" 2>&1) || fail "deb.sh failed"
  VERSION=$(sed -n 's/^HIERCOLL_VERSION = "\(.*\)"$/\1/p' version.bzl)
  local deb
  deb="$tmp/debs/hiercoll_${VERSION}_$(dpkg --print-architecture).deb"
  [[ $out == "$deb" && -s $deb ]] || fail "no $deb"
  out=$(dpkg-deb -f "$deb" Version Depends)
  grep -qx "Version: $VERSION" <<<"$out" || fail "the package's version"
  for p in libopenmpi3 libhwloc15 libc6; do
    grep -q "^Depends: .*\b$p\b" <<<"$out" || fail "the package does not depend on $p"
  done
  copy_check_inputs "$tmp/work"
  export VERSION WORK
  enter_private_mounts "$deb"
}

inside() {
  local deb=$1 layer=$WORK/layers d
  mkdir -p "$layer" && mount -t tmpfs hiercoll-layers "$layer" || fail "cannot mount a tmpfs"
  for d in usr etc var; do
    mkdir -p "$layer/$d/upper" "$layer/$d/work" &&
      mount -t overlay overlay -o "lowerdir=/$d,upperdir=$layer/$d/upper,workdir=$layer/$d/work" "/$d" ||
      fail "cannot lay an overlay over /$d"
  done
  # What the package holds that the machine does not have yet: all of it
  # must be gone again after the purge.
  local new=()
  mapfile -t new < <(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' |
    while read -r p; do [[ -n $p && ! -e $p && ! -L $p ]] && echo "$p"; done)
  ((${#new[@]} > 5)) || fail "the package brings almost nothing new: ${new[*]}"

  cd "$(dirname "$deb")" || fail "no $(dirname "$deb")"
  out=$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")" 2>&1) ||
    fail "apt-get install ./$(basename "$deb") failed"
  [[ $(dpkg-query -W -f '${Status} ${Version}' hiercoll) == "install ok installed $VERSION" ]] ||
    fail "dpkg does not know hiercoll $VERSION as installed"
  # (grep reads a variable: with pipefail, an early grep -q would fail a
  # pipe by SIGPIPE.)
  grep -q "libhiercoll\.so\.${VERSION%%.*} " <<<"$(ldconfig -p)" || fail "the loader does not know the library"
  [[ $(command -v hiercoll-run) == /usr/bin/hiercoll-run ]] || fail "no /usr/bin/hiercoll-run"
  check_linked_program
  check_run_wrapper

  cd / || fail "cannot leave"
  out=$(DEBIAN_FRONTEND=noninteractive apt-get purge -y -q hiercoll 2>&1) || fail "apt-get purge hiercoll failed"
  local left=()
  for d in "${new[@]}"; do [[ -e $d || -L $d ]] && left+=("$d"); done
  ((${#left[@]} == 0)) || fail "left behind: ${left[*]}"
  ! grep -q libhiercoll <<<"$(ldconfig -p)" || fail "the loader still knows libhiercoll"
  ! dpkg-query -W hiercoll >/dev/null 2>&1 || fail "dpkg still knows hiercoll"
  echo "deb checks passed: installed, ran, purged without leftovers (${#new[@]} paths came and went)"
}

run_stages "$@"
