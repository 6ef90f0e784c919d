#!/usr/bin/env python3
"""Prediction tables of docs/SIMULATION.md: hier vs flat vs the best flat
algorithm, and the best leaders' algorithm of the compositions, per
operation and size, simulated on large layouts by `hiercoll simulate` (the
runtime's own schedules). Every flat algorithm of an operation
(`list_algorithms`) is tried as flat:<name> and as hier:<name> (the
simulator skips names that are no leaders' algorithm of the operation, and
calls whose schedules exceed --max-steps).

  tools/sim_tables.py [--layouts 64x16,1024x64] [--sizes 8,1K,64K,1M,16M]
                      [--ops bcast,...] [--algorithms a,b] [--out DIR]
                      [--compositions] [-- figures for simulate]

With --compositions, every composition of the operation forced
(hier:<composition>, from `list_compositions`) against the best flat
algorithm instead: the table of the node-aware block collectives.

Run from the repository root after `bazel build //sim:simulate
//algorithms:list_algorithms`; prints Markdown, keeps each run's CSV in DIR.
Rooted operations at root 0 only."""
import argparse
import os
import subprocess
import sys

from results_render import composition_rows, sim_rows
from simulated import simulated_rows


def listed(tool, op):
    """Second words of the tool's lines for op (reduce_scatter_block: reduce_scatter's)."""
    op = "reduce_scatter" if op == "reduce_scatter_block" else op
    out = subprocess.run([tool], capture_output=True, text=True, check=True).stdout
    return [line.split()[1] for line in out.splitlines() if line.split()[:1] == [op]]


def algorithms(op):
    return listed("bazel-bin/algorithms/list_algorithms", op)


def compositions(op):
    return listed("bazel-bin/hier/list_compositions", op)  # spelled hier:<name>


def simulate(nodes, ppn, op, sizes, impls, out, extra):
    return simulated_rows(["--nodes", nodes, "--ppn", ppn, "--ops", op, "--sizes", sizes, "--impls", ",".join(impls),
                           "--roots", "0"] + extra, out, quiet_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layouts", default="64x16,1024x64")
    ap.add_argument("--sizes", default="8,1K,64K,1M,16M")
    ap.add_argument("--ops", default="bcast,reduce,allreduce,allgather,scan,barrier")
    ap.add_argument("--out", default="results/sim-tables")
    ap.add_argument("--algorithms", default="", help="only these algorithms (default: all of each operation)")
    ap.add_argument("--compositions", action="store_true",
                    help="every composition of the operation forced, against the best flat algorithm")
    ap.add_argument("extra", nargs="*", help="figures passed to simulate (after --)")
    a = ap.parse_args()
    if a.compositions:
        return composition_tables(a)
    header = ["op", "bytes", "hier", "flat (rules)", "best flat", "best leaders' algorithm", "best flat / hier"]
    impls_of = lambda op, algs: ["hier", "flat"] + [f"flat:{x}" for x in algs] + [f"hier:{x}" for x in algs]
    for op, rows in simulated_ops(a, header, impls_of):
        print_rows(sim_rows(op, rows, size_cell=str))


def print_rows(body):
    for row in body:
        print("| " + " | ".join(row) + " |")


def simulated_ops(a, header, impls_of):
    """Per layout of a: prints the table's header; per operation: simulates
    impls_of(op, algorithms) into OUT/<layout>-<op> and yields (op, rows)."""
    for layout in a.layouts.split(","):
        nodes, ppn = (int(x) for x in layout.split("x"))
        print(f"\n### {nodes} nodes x {ppn} ranks\n")
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join("---" for _ in header) + " |")
        for op in a.ops.split(","):
            algs = [x for x in algorithms(op) if not a.algorithms or x in a.algorithms.split(",")]
            out = os.path.join(a.out, f"{layout}-{op}")
            os.makedirs(out, exist_ok=True)
            yield op, simulate(nodes, ppn, op, a.sizes, impls_of(op, algs), out, a.extra)
            sys.stdout.flush()


def composition_tables(a):
    header = ["op", "bytes", "composition", "predicted", "best flat", "best flat / composition"]
    impls_of = lambda op, algs: [f"flat:{x}" for x in algs] + compositions(op)
    for op, rows in simulated_ops(a, header, impls_of):
        print_rows(composition_rows(op, rows, size_cell=str))


if __name__ == "__main__":
    main()
