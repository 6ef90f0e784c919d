#!/usr/bin/env python3
"""Compares a pruned tuning run with an exhaustive one (docs/TUNING.md).

usage: compare_tuning.py PRUNED_PREFIX EXHAUSTIVE_PREFIX [--from BYTES]

Each prefix is the --out FILE of a `hiercoll tune` run whose progress lines
were saved in PREFIX.err (FILE = PREFIX.json): the experiments per point come from those lines,
each method's best time per point from FILE.points.csv.  For every point
both runs measured: experiments of each, and the exhaustive run's time of
the pruned run's winning method against the exhaustive best (the same
measurements judge both choices, so run-to-run noise does not enter).
"""
import csv
import re
import sys
from collections import defaultdict

UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
LINE = re.compile(r"\] (\w+) \(op \d+/\d+\)(?: (\d+)([KMG]?))?: (.+?) [0-9.]+ us .*?; (\d+) experiments, (\d+) samples")


def progress(path):
    points = {}
    for line in open(path):
        m = LINE.search(line)
        if m:
            op, num, unit, method, exps, samples = m.groups()
            size = int(num) * UNITS[unit] if num else 0
            points[(op, size)] = (method.split(" segment ")[0], int(exps), int(samples))
    return points


def per_method(path):
    best = defaultdict(dict)
    for row in csv.DictReader(open(path)):
        key = (row["op"], int(row["bytes"]))
        t = float(row["median_us"])
        m = row["method"]
        if m not in best[key] or t < best[key][m]:
            best[key][m] = t
    return best


def main():
    pruned, exh = sys.argv[1], sys.argv[2]
    lo = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--from" else 0
    p, e = progress(pruned + ".err"), progress(exh + ".err")
    times = per_method(exh + ".json.points.csv")
    rows, same, within, within10, n = [], 0, 0, 0, 0
    pe = ee = 0
    for key in sorted(set(p) & set(e)):
        if key[1] < lo:
            continue
        pm, pexp, _ = p[key]
        em, eexp, _ = e[key]
        t = times.get(key, {})
        best = min(t.values()) if t else float("nan")
        ratio = t.get(pm, float("nan")) / best if t else float("nan")
        n += 1
        same += pm == em
        within += ratio <= 1.03
        within10 += ratio <= 1.10
        pe += pexp
        ee += eexp
        rows.append((key[0], key[1], pexp, eexp, eexp / max(1, pexp), pm, em, ratio))
    print("%-10s %9s %7s %7s %6s  %-45s %-45s %s" % ("op", "bytes", "pruned", "exhaust", "fewer", "pruned winner",
                                                     "exhaustive winner", "exh. time of pruned winner / best"))
    for r in rows:
        print("%-10s %9d %7d %7d %5.1fx  %-45s %-45s %.3f" % r)
    if n:
        print("\n%d points: experiments %d pruned vs %d exhaustive (%.1fx fewer); same winner %d, within 3%% %d (%.0f%%),"
              " within 10%% %d (%.0f%%)" % (n, pe, ee, ee / max(1, pe), same, within, 100.0 * within / n, within10,
                                          100.0 * within10 / n))


if __name__ == "__main__":
    main()
