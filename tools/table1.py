#!/usr/bin/env python3
"""The hierarchical paper's Table 1 (Zhu, Goodell, Gropp, Thakur, Balaji:
how much of a hierarchical collective's time the inter-node phase takes,
64 processes on 16 nodes, and so the most that shared-memory collectives
inside the node could save, by Amdahl's law) as the simulator predicts
it: each composition's time under the figures, and again with an ideal
node (no latency, unbounded bandwidth inside it); the ratio is the lower
bound on the time a shared-memory intra-node phase could reach
(docs/SIMULATION.md, "The hierarchical paper's Table 1").

    bazel build //sim:simulate
    tools/table1.py [--alpha 50 --bandwidth 0.117 --shm-alpha 1 --shm-bandwidth 1.17
                     --reduce-bandwidth 1] [--nodes 16 --ppn 4] [--out DIR]
"""
import argparse
import os
import tempfile

from simulated import simulated_rows

OPS = ['bcast', 'reduce', 'allreduce', 'barrier', 'scan']
SIZES = [4, 256 << 10, 1 << 20]  # the sizes of the paper's figures


def size_name(b):
    return f'{b >> 20} MiB' if b >= 1 << 20 else f'{b >> 10} KiB' if b >= 1024 else f'{b} B'


def simulate(args, shm_alpha, shm_bandwidth, out):
    rows = simulated_rows(['--nodes', args.nodes, '--ppn', args.ppn, '--ops', ','.join(OPS), '--sizes',
                           ','.join(str(s) for s in SIZES), '--impls', ','.join('hier:' + op for op in OPS),
                           '--alpha', args.alpha, '--bandwidth', args.bandwidth, '--shm-alpha', shm_alpha,
                           '--shm-bandwidth', shm_bandwidth, '--reduce-bandwidth', args.reduce_bandwidth], out)
    return {(r['op'], int(r['bytes'])): float(r['predicted_us']) for r in rows}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--alpha', type=float, default=50)
    ap.add_argument('--bandwidth', type=float, default=0.117)
    ap.add_argument('--shm-alpha', type=float, default=1)
    ap.add_argument('--shm-bandwidth', type=float, default=1.17)
    ap.add_argument('--reduce-bandwidth', type=float, default=1)
    ap.add_argument('--nodes', type=int, default=16)
    ap.add_argument('--ppn', type=int, default=4)
    ap.add_argument('--out')
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp()
    full = simulate(args, args.shm_alpha, args.shm_bandwidth, os.path.join(out, 'full'))
    # An ideal node: the intra-node phases cost nothing but their reductions.
    ideal = simulate(args, 0, 1e6, os.path.join(out, 'ideal_node'))
    print('| operation | size | time (us) | ideal node (us) | inter-node share | most saved |')
    print('| --- | --- | --- | --- | --- | --- |')
    for op in OPS:
        for b in sorted(b for (o, b) in full if o == op):  # barrier: one size, 0 bytes
            t, i = full[(op, b)], ideal[(op, b)]
            print(f'| {op} | {size_name(b) if op != "barrier" else "-"} | {t:.1f} | {i:.1f} | {100 * i / t:.0f}% '
                  f'| {100 * (1 - i / t):.0f}% |')


if __name__ == '__main__':
    main()
