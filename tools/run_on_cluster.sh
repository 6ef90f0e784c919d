#!/usr/bin/env bash
# Test wrapper for `bazel test`: runs tools/cluster.sh (from the runfiles)
# with the given arguments; the program path is relative to the runfiles.
set -euo pipefail
here="${TEST_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/${TEST_WORKSPACE:-hiercoll}"
cd "$here"
exec ./tools/cluster.sh "$@"
