# shellcheck shell=bash
# The commands that install the library and make its Debian package
# (install, deb), sourced by ./hiercoll.
# ---------------------------------------------------------------------------
# install / deb / version

hiercoll_version() {
  sed -n 's/^HIERCOLL_VERSION = "\(.*\)"$/\1/p' version.bzl
}

# Builds what an install takes (tools/install/install.sh --targets).
build_install_targets() {
  cmd_deps
  local targets
  mapfile -t targets < <(tools/install/install.sh --targets)
  "$BAZEL" build "${targets[@]}"
}

# A path option's value, absolute against the caller's folder.
caller_path() {
  [[ $1 == /* ]] && echo "$1" || echo "$CALLER_DIR/$1"
}

cmd_install() {
  local args=()
  while (($# > 0)); do
    case $1 in
      --prefix | --destdir)
        (($# >= 2)) || die "$1 needs a value"
        args+=("$1" "$(caller_path "$2")")
        shift 2
        ;;
      --prefix=* | --destdir=*)
        args+=("${1%%=*}" "$(caller_path "${1#*=}")")
        shift
        ;;
      *) die "install: unknown argument '$1' (--prefix DIR, --destdir DIR)" ;;
    esac
  done
  build_install_targets
  tools/install/install.sh "${args[@]}"
}

cmd_deb() {
  local out=$CALLER_DIR
  case ${1:-} in
    --out) (($# == 2)) || die "deb: --out needs a folder"; out=$(caller_path "$2") ;;
    --out=*) out=$(caller_path "${1#*=}") ;;
    "") ;;
    *) die "deb: unknown argument '$1' (--out DIR)" ;;
  esac
  build_install_targets
  local stage
  stage=$(mktemp -d)
  tools/install/install.sh --prefix /usr --destdir "$stage" >/dev/null &&
    tools/install/deb.sh "$stage" "$out" || { rm -rf "$stage"; die "deb: packaging failed"; }
  rm -rf "$stage"
}
