#!/usr/bin/env python3
"""tuned against the best other implementation, per point, over the jobs of
`./hiercoll bench --jobs N --tuning FILE` (docs/TUNING.md).

usage: tuned_vs_best.py DIR [--exclude IMPL,...] [GRID_SIZES]

DIR holds job1..jobN/results.csv.  Per job and point, each implementation's
time is its median over roots; the ratio is tuned's time over the best of
the others (native, han, hier, flat and any other implementation run);
printed: the median ratio and its range over the jobs, which one was best,
and whether the size is in the tuning grid (GRID_SIZES, comma-separated
bytes; default every power of two).
"""
import csv
import glob
import statistics
import sys
from collections import defaultdict


def job_times(path):
    per = defaultdict(list)
    for row in csv.DictReader(open(path)):
        per[(row["op"], int(row["bytes"]), row["impl"])].append(float(row["median_us"]))
    return {k: statistics.median(v) for k, v in per.items()}


def main():
    args = sys.argv[1:]
    exclude = set()
    if len(args) > 2 and args[1] == "--exclude":
        exclude = set(args[2].split(","))
        del args[1:3]
    jobs = [job_times(p) for p in sorted(glob.glob(args[0] + "/job*/results.csv"))]
    grid = set(int(x) for x in args[1].split(",")) if len(args) > 1 else None
    points = sorted({(op, b) for j in jobs for (op, b, impl) in j if impl == "tuned"})
    print("%-10s %8s %5s  %-26s %s" % ("op", "bytes", "grid", "tuned / best other", "best other (per job)"))
    worst = []
    for op, b in points:
        ratios, bests = [], []
        for j in jobs:
            others = {impl: t for (o, bb, impl), t in j.items() if o == op and bb == b and impl != "tuned" and impl not in exclude}
            if (op, b, "tuned") not in j or not others:
                continue
            best = min(others, key=others.get)
            ratios.append(j[(op, b, "tuned")] / others[best])
            bests.append(best)
        if not ratios:
            continue
        in_grid = (b & (b - 1) == 0) if grid is None else b in grid
        med = statistics.median(ratios)
        worst.append((med, op, b, in_grid))
        print("%-10s %8d %5s  %.2f (%.2f-%.2f)%10s %s" % (op, b, "yes" if in_grid else "no", med, min(ratios),
                                                       max(ratios), "", ",".join(bests)))
    for label, pick in (("in the grid", True), ("off the grid", False)):
        sel = [w for w in worst if w[3] == pick]
        if sel:
            print("%s: %d points, tuned at most 3%% slower than the best other at %d, at most 10%% at %d; worst %.2f"
                  % (label, len(sel), sum(w[0] <= 1.03 for w in sel), sum(w[0] <= 1.10 for w in sel),
                     max(w[0] for w in sel)))


if __name__ == "__main__":
    main()
