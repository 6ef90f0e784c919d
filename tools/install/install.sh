#!/usr/bin/env bash
# tools/install/install.sh — lays out an install of hiercoll from Bazel's
# outputs and the sources (`./hiercoll install`, `./hiercoll deb`, and the
# install tests, which pass their runfiles as both):
#
#   install.sh --prefix PREFIX [--destdir DIR] [--built DIR] [--source DIR]
#   install.sh --targets       the Bazel targets an install takes
#
#   PREFIX/lib/libhiercoll.so.<VERSION>, .so.<MAJOR> (the SONAME), .so
#   PREFIX/lib/pkgconfig/hiercoll.pc
#   PREFIX/include/hiercoll.h, hiercoll.hpp
#   PREFIX/bin/hiercoll-run, hiercoll-bench, hiercoll-bench-jobs,
#              hiercoll-tune (--model too), hiercoll-simulate, hiercoll-explain, hiercoll-fuzz
#   PREFIX/share/doc/hiercoll/README.md, docs/*.md
#   PREFIX/share/modulefiles/hiercoll/<VERSION>
#
# Files go to DESTDIR/PREFIX (staging: packages) and name PREFIX. Copies
# carry no link into the source tree or Bazel's cache: Bazel's run-time
# search paths into its own tree are removed (chrpath), and hiercoll-run
# finds the library beside itself (../lib).
set -euo pipefail

here=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")

# Installed name and Bazel target (its output is bazel-bin/<package>/<name>).
readonly BINARIES=(
  "hiercoll-bench //bench:hiercoll_bench"
  "hiercoll-bench-jobs //bench:hiercoll_bench_jobs"
  "hiercoll-tune //tune:hiercoll_tune"
  "hiercoll-simulate //sim:simulate"
  "hiercoll-explain //sim:explain"
  "hiercoll-fuzz //fuzz:hiercoll_fuzz"
)
readonly LIBRARY=//runtime:libhiercoll.so

die() {
  echo "install.sh: $*" >&2
  exit 2
}

# bazel-bin relative path of a target: //pkg:name -> pkg/name.
output_of() {
  local t=${1#//}
  echo "${t%%:*}/${t#*:}"
}

# The version, from version.bzl (its one source).
read_version() {
  local v
  v=$(sed -n 's/^HIERCOLL_VERSION = "\(.*\)"$/\1/p' "$1/version.bzl")
  [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "$1/version.bzl: no HIERCOLL_VERSION = \"MAJOR.MINOR.PATCH\""
  echo "$v"
}

# Copies a template, replacing @PREFIX@, @VERSION@ and @SONAME@.
fill() {   # template destination mode
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@SONAME@|$soname|g" \
    -e "s|@PRELOAD_FIRST@|$preload_first|g" "$1" >"$2"
  chmod "$3" "$2"
}

# Copies an ELF file without Bazel's RUNPATH (it points into Bazel's tree;
# the system's libraries are found the usual way).
copy_elf() {   # source destination
  [[ -f $1 ]] || die "$1 is missing (build it first: ./hiercoll build)"
  install -m 755 "$1" "$2"
  # (grep reads a variable: with pipefail, an early grep -q would fail the
  # pipe by SIGPIPE.)
  if grep -qE '\((RPATH|RUNPATH)\)' <<<"$(readelf -d "$2")"; then chrpath -d "$2" >/dev/null; fi
}

prefix=/usr/local destdir="" source="$here/../.." built=""
while (($# > 0)); do
  case $1 in
    --targets)
      echo "$LIBRARY"
      for b in "${BINARIES[@]}"; do echo "${b#* }"; done
      exit 0
      ;;
    --prefix | --destdir | --built | --source)
      (($# >= 2)) || die "$1 needs a value"
      declare "${1#--}=$2"
      shift 2
      ;;
    *) die "unknown argument '$1' (see the comment at the top of $0)" ;;
  esac
done
[[ $prefix == /* ]] || die "--prefix must be an absolute path, not '$prefix'"
# LD_LIBRARY_PATH, LD_PRELOAD and the module file split on these.
[[ $prefix != *[[:space:]:\;]* ]] || die "--prefix must not contain blanks, ':' or ';'"
prefix=${prefix%/}
[[ -n $built ]] || built="$source/bazel-bin"
command -v chrpath >/dev/null || die "chrpath is missing (./hiercoll deps installs it)"

version=$(read_version "$source")
soname=libhiercoll.so.${version%%.*}
root="$destdir$prefix"
lib="$built/$(output_of "$LIBRARY")"
# A library built with AddressSanitizer (./hiercoll test --sanitize) needs
# its runtime loaded first: hiercoll-run preloads it before the library.
preload_first=$(ldd "$lib" 2>/dev/null | awk '$1 ~ /^libasan\.so/ { printf "%s:", $3 }')

install -d "$root/bin" "$root/lib/pkgconfig" "$root/include" "$root/share/doc/hiercoll/docs" \
  "$root/share/modulefiles/hiercoll"
copy_elf "$lib" "$root/lib/libhiercoll.so.$version"
ln -sfn "libhiercoll.so.$version" "$root/lib/$soname"
ln -sfn "$soname" "$root/lib/libhiercoll.so"
for b in "${BINARIES[@]}"; do
  copy_elf "$built/$(output_of "${b#* }")" "$root/bin/${b%% *}"
done
fill "$here/hiercoll-run.in" "$root/bin/hiercoll-run" 755
fill "$here/hiercoll.pc.in" "$root/lib/pkgconfig/hiercoll.pc" 644
fill "$here/modulefile.in" "$root/share/modulefiles/hiercoll/$version" 644

install -m 644 "$source/runtime/hiercoll.h" "$root/include/hiercoll.h"
# In the tree the C++ header includes "runtime/hiercoll.h"; installed, the
# two lie side by side.
sed 's|#include "runtime/hiercoll.h"|#include "hiercoll.h"|' "$source/runtime/hiercoll.hpp" >"$root/include/hiercoll.hpp"
chmod 644 "$root/include/hiercoll.hpp"
install -m 644 "$source/README.md" "$root/share/doc/hiercoll/README.md"
install -m 644 "$source"/docs/*.md "$root/share/doc/hiercoll/docs/"

echo "installed hiercoll $version into $root"
