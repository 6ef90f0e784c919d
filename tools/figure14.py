#!/usr/bin/env python3
"""The MPICH paper's Figure 14 (Thakur, Rabenseifner, Gropp: the fastest
allreduce per process count and buffer size, MPI_DOUBLE, MPI_SUM, Cray
T3E 900) as the simulator predicts it, one rank per node, and how it
compares with what the paper's text says of the figure and of Figure 15
(docs/SIMULATION.md, "The MPICH paper's Figure 14").

    bazel build //sim:simulate
    tools/figure14.py [--alpha 10 --bandwidth 0.3 --reduce-bandwidth 0.5] [--ports duplex|simplex]
                      [--max-p 131] [--out DIR]
"""
import argparse
import math
import os
import tempfile

from simulated import simulated_rows

ALGS = {'recursive_doubling': 'RD', 'reduce_bcast': 'BT', 'rabenseifner': 'HD', 'binary_blocks': 'BB', 'ring': 'R'}
SIZES = [8, 32, 64, 256, 1 << 10, 4 << 10, 16 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20]
ROWS = [2, 3, 4, 5, 7, 8, 9, 11, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 66, 96, 97, 100, 128, 129, 131]


def size_name(b):
    return f'{b >> 20}M' if b >= 1 << 20 else f'{b >> 10}K' if b >= 1024 else str(b)


def delta_expo_max(p):
    """The paper's delta_expo,max: the largest gap between consecutive
    exponents of p's binary representation."""
    e = [i for i in range(p.bit_length()) if p >> i & 1][::-1]
    return max([a - b for a, b in zip(e, e[1:])], default=0)


def simulate(args, out):
    best = {}
    for p in range(2, args.max_p + 1):
        d = os.path.join(out, f'p{p}')
        rows = simulated_rows(['--nodes', p, '--ppn', 1, '--ops', 'allreduce', '--sizes', ','.join(str(s) for s in SIZES),
                               '--impls', ','.join('flat:' + a for a in ALGS), '--alpha', args.alpha, '--bandwidth',
                               args.bandwidth, '--reduce-bandwidth', args.reduce_bandwidth, '--ports', args.ports], d)
        times = {}
        for r in rows:
            times.setdefault(int(r['bytes']), {})[r['algorithm']] = float(r['predicted_us'])
        for b, t in times.items():
            best[(p, b)] = min(t, key=t.get)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--alpha', type=float, default=10)
    ap.add_argument('--bandwidth', type=float, default=0.3)
    ap.add_argument('--reduce-bandwidth', type=float, default=0.5)
    ap.add_argument('--max-p', type=int, default=131)
    ap.add_argument('--ports', choices=['duplex', 'simplex'], default='duplex')
    ap.add_argument('--out')
    args = ap.parse_args()
    best = simulate(args, args.out or tempfile.mkdtemp())
    print('| p | ' + ' | '.join(size_name(b) for b in SIZES) + ' |')
    print('| --- ' * (len(SIZES) + 1) + '|')
    for p in [r for r in ROWS if r <= args.max_p]:
        print(f'| {p} | ' + ' | '.join(ALGS[best[(p, b)]] for b in SIZES) + ' |')
    # The text's rules for Figure 14 (vendor cells, powers of two up to
    # 1 KB, have no counterpart and are left out).
    agree, strict, total, differ = 0, 0, 0, {}
    for (p, b), a in sorted(best.items()):
        pow2 = p & (p - 1) == 0
        if b <= 32:
            want = ('recursive_doubling',)
        elif b <= 1024 and not pow2:
            want = ('reduce_bcast', 'recursive_doubling')  # "not much better than recursive doubling"
        elif b >= 16 << 10 and p > 32 and not pow2 and delta_expo_max(p) < math.log2(b) / 2 - 2.5:
            want = ('binary_blocks',)
        else:
            continue
        total += 1
        strict += a == want[0]
        if a in want:
            agree += 1
        else:
            differ.setdefault((size_name(b), ALGS[a], ALGS[want[0]]), []).append(p)
    print(f'\ncells the text rules on: {agree} of {total} agree, {strict} naming its first choice')
    for (size, got, want), ps in sorted(differ.items(), key=lambda kv: -len(kv[1])):
        print(f'  {size}: {got} where the text says {want}, {len(ps)} cells (p {ps[0]}..{ps[-1]})')
    # Figure 15's text: at 32 KB the ring is fastest on 3, 5, 7, 9-11 and
    # 17 processes, recursive halving and doubling on 33, 65, 66, 97,
    # 128-131.
    for alg in ('ring', 'rabenseifner'):
        print(f'32K {ALGS[alg]}:', [p for p in range(2, args.max_p + 1) if best[(p, 32 << 10)] == alg])


if __name__ == '__main__':
    main()
