#!/usr/bin/env bash
# tools/install/deb.sh STAGE OUT_DIR — packages an install staged with
# `install.sh --prefix /usr --destdir STAGE` as OUT_DIR/hiercoll_<version>_<arch>.deb
# and prints its path. The version is the staged pkg-config file's; the
# dependencies are the Debian packages of the shared libraries its
# programs and library load (dpkg-shlibdeps), and what running and
# building with it needs besides (Recommends). STAGE gets a DEBIAN/ folder.
set -euo pipefail

die() {
  echo "deb.sh: $*" >&2
  exit 2
}

(($# == 2)) || die "usage: deb.sh STAGE OUT_DIR"
stage=$(readlink -f -- "$1")
out=$(readlink -f -- "$2")
pc="$stage/usr/lib/pkgconfig/hiercoll.pc"
[[ -f $pc ]] || die "$pc is missing: stage with install.sh --prefix /usr --destdir $1"
version=$(sed -n 's/^Version: //p' "$pc")
arch=$(dpkg --print-architecture)

# dpkg-shlibdeps reads debian/control of the folder it runs in.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
printf 'Source: hiercoll\n\nPackage: hiercoll\nArchitecture: any\n' >"$work/debian/control"
mapfile -t elves < <(find "$stage/usr" -type f -exec sh -c 'head -c 4 "$1" | grep -q ELF' _ {} \; -print)
depends=$(cd "$work" && dpkg-shlibdeps -O "${elves[@]/#/-e}" 2>"$work/shlibdeps.log" |
  sed -n 's/^shlibs:Depends=//p') || { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
[[ -n $depends ]] || die "dpkg-shlibdeps found no dependencies"

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<EOF
Package: hiercoll
Version: $version
Architecture: $arch
Maintainer: hiercoll developers <root@localhost>
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Depends: $depends
Recommends: openmpi-bin, libopenmpi-dev, pkg-config, gnuplot-nox
Suggests: environment-modules | lmod
Section: libs
Priority: optional
Description: hierarchy-aware MPI collectives for Open MPI
 hiercoll runs the collectives of MPI programs in two or three levels
 (inside each node, among the nodes' leaders, inside each node again).
 Programs link libhiercoll (pkg-config hiercoll) or run under hiercoll-run,
 which preloads it; hiercoll-bench, hiercoll-tune, hiercoll-simulate,
 hiercoll-explain and hiercoll-fuzz measure, tune, predict, explain and check it.
EOF
# ldconfig learns of the library (and forgets it on removal).
echo "activate-noawait ldconfig" >"$stage/DEBIAN/triggers"
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) >"$stage/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/hiercoll_${version}_${arch}.deb"
# zstd (dpkg 1.21.18 and later: Debian 12): xz takes a hundred times as long
# and a minute for a sanitized build's 80 MiB.
dpkg-deb --root-owner-group -Zzstd --build "$stage" "$deb" >/dev/null
echo "$deb"
