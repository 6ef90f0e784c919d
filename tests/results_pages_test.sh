#!/usr/bin/env bash
# The pages of measured figures, docs/results/*.md, are what
# tools/results_pages.py makes of the result folders under docs/results/data/:
# regenerated into a temporary folder, every page equals the committed one,
# and no committed page lacks its data. Python's standard library only, no MPI.
set -euo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
exec python3 tools/results_pages.py --root . --check
