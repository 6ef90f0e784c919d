"""`hiercoll simulate` from the tools that make docs/SIMULATION.md's tables
(sim_tables.py, figure14.py, table1.py): runs bazel-bin/sim/simulate with
the options given, writing into `out`, and returns the rows of its
simulated.csv (op, bytes, nodes, ppn, impl, algorithm, predicted_us)."""
import csv
import os
import subprocess


def simulated_rows(options, out, quiet_errors=False):
    subprocess.run(['bazel-bin/sim/simulate'] + [str(o) for o in options] + ['--out', out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if quiet_errors else None)
    with open(os.path.join(out, 'simulated.csv')) as f:
        return list(csv.DictReader(f))
