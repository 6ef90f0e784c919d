"""Model agreement on a layout, for tools/results_pages.py: an exhaustive
tuning's measurements of every candidate (`exhaustive.json.points.csv`)
beside `explain`'s ranking of the candidates under two sets of figures
(`model-file.csv`: a figures file; `model-builtin.csv`: the built-in ones),
as tools/agreement_study.sh makes them.

A method is compared without its segment: its measured time is its best
over the segments the tuning tried, and its place in the model's ranking is
that of its best-ranked row.  The model's ranking is taken over the methods
the tuning measured."""
import math
import os
import re

from results_render import read_csv, size_name, table

SEGMENT = re.compile(r" seg=\S+$")


def measured(folder):
    """(op, bytes) -> {method: best median us} from the tuning's points."""
    out = {}
    for row in read_csv(os.path.join(folder, "exhaustive.json.points.csv")):
        point = out.setdefault((row["op"], int(row["bytes"])), {})
        t = float(row["median_us"])
        m = row["method"]
        point[m] = min(t, point.get(m, t))
    return out


def ranking(path):
    """(op, bytes) -> the model's methods, cheapest first, each once."""
    out = {}
    for row in sorted(read_csv(path), key=lambda r: int(r["rank"])):
        order = out.setdefault((row["op"], int(row["bytes"])), [])
        m = SEGMENT.sub("", row["method"])
        if m not in order:
            order.append(m)
    return out


def by_order(points, ranked):
    """Pairs each measured point with the model's ranking at the same size:
    the tuning counts an operation's bytes as the benchmark does
    (effective bytes), explain by the sizes it was asked; both grow alike."""
    pairs = {}
    for op in sorted({op for op, _ in points}):
        mine = sorted(b for o, b in points if o == op)
        theirs = sorted(b for o, b in ranked if o == op)
        if len(mine) != len(theirs):
            raise SystemExit(f"results_pages: {op}: {len(mine)} measured sizes, {len(theirs)} ranked")
        pairs.update({(op, b): ranked[(op, e)] for b, e in zip(mine, theirs)})
    return pairs


# How many of the model's first methods a tuning guided by it would measure.
FIRST_K = (1, 3, 5, 10)


def judge(times, order):
    """(winner, model's first, winner's place in the model's order from 1,
    the first's measured time over the winner's, and for each k of FIRST_K
    the best of the model's first k methods' measured time over the
    winner's)."""
    order = [m for m in order if m in times]
    winner = min(times, key=times.get)
    place = order.index(winner) + 1 if winner in order else None
    first = order[0] if order else None
    best_of = {k: min(times[m] for m in order[:k]) / times[winner] for k in FIRST_K if order}
    return winner, first, place, (times[first] / times[winner]) if first else None, best_of


def summary(name, judged):
    n = len(judged)
    top1 = sum(j[2] == 1 for j in judged)
    top3 = sum(j[2] is not None and j[2] <= 3 for j in judged)
    ratios = [j[3] for j in judged if j[3]]
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    within = ", ".join(f"{k}: {sum(j[4].get(k, math.inf) <= 1.03 for j in judged)}" for k in FIRST_K)
    return (f"{name}: the measured winner is the model's first at {top1} of {n} points, among its first three "
            f"at {top3}; the model's first took {geo:.3f} of the winner's time on geometric mean; the best of "
            f"the model's first k methods is within 3% of the winner at (k: points) {within}")


# tune --guided (tune/guided.h): the methods predicted within GUIDED_RATIO
# of the model's best, at most GUIDED_METHODS, methods predicted alike
# counted once, each at the segments within an octave of the model's.
GUIDED_RATIO = 1.1
GUIDED_METHODS = 3
SEGMENT_BYTES = re.compile(r" seg=(\d+)([KM]?)$")


def segment_of(text):
    m = SEGMENT_BYTES.search(text)
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20}[m.group(2)] if m else 0


def guided_choice(rows, candidates):
    """The model's rows at one point -> {method: its segment (0: any)} a
    guided tuning measures of its `candidates`."""
    chosen, costs = {}, []
    for row in sorted(rows, key=lambda r: int(r["rank"])):
        us = float(row["predicted_us"]) if row["predicted_us"] not in ("", "-") else -1
        if us < 0 or len(chosen) == GUIDED_METHODS or (costs and us > costs[0] * GUIDED_RATIO):
            break
        m = SEGMENT.sub("", row["method"])
        if us in costs or m in chosen or m not in candidates:
            continue
        chosen[m] = segment_of(row["method"])
        costs.append(us)
    return chosen


def guided_replay(folder, model_file):
    """What a guided tuning measures of the exhaustive tuning's experiments,
    and whether it holds the winner or one within 3%: per point (bytes,
    experiments all, experiments guided, best guided over the winner)."""
    experiments = {}
    for row in read_csv(os.path.join(folder, "exhaustive.json.points.csv")):
        experiments.setdefault((row["op"], int(row["bytes"])), []).append(
            (row["method"], int(row["segment"]), float(row["median_us"])))
    model = {}
    for row in read_csv(os.path.join(folder, model_file)):
        model.setdefault((row["op"], int(row["bytes"])), []).append(row)
    pairs = by_order({k: None for k in experiments}, model)
    out = []
    for key, runs in experiments.items():
        chosen = guided_choice(pairs[key], {m for m, _, _ in runs})
        taken = []
        for m, seg, t in runs:
            if m not in chosen:
                continue
            segs = sorted({s for m2, s, _ in runs if m2 == m})
            want = chosen[m]
            if want and len(segs) > 1:
                near = [s for s in segs if 0 < s and want / 2 <= s <= want * 2] or \
                    [min(segs, key=lambda s: abs(s - want))]
                if seg not in near:
                    continue
            taken.append(t)
        best = min(t for _, _, t in runs)
        out.append((key[1], len(runs), len(taken), min(taken) / best if taken else math.inf))
    return out


def guided_summary(name, replay):
    def part(points):
        within = sum(r[3] <= 1.03 for r in points)
        ratio = sum(r[1] for r in points) / max(1, sum(r[2] for r in points))
        return (f"{sum(r[2] for r in points)} of {sum(r[1] for r in points)} experiments ({ratio:.1f}x fewer), "
                f"the winner or one within 3% at {within} of {len(points)} points")
    large = [r for r in replay if r[0] >= 1 << 20]
    return f"{name}: a tuning guided by the model (`tune --guided`) measures {part(replay)}; from 1 MiB {part(large)}"


def render_agreement(folder, info):
    points = measured(folder)
    models = [(label, by_order(points, ranking(os.path.join(folder, f))))
              for label, f in (("2x2 figures", "model-file.csv"), ("built-in figures", "model-builtin.csv"))]
    judged = {label: {} for label, _ in models}
    rows = []
    for op, b in sorted(points, key=lambda k: (k[0], k[1])):
        row = [op, size_name(b)]
        for label, pairs in models:
            winner, first, place, ratio, best_of = judge(points[(op, b)], pairs[(op, b)])
            judged[label][(op, b)] = (winner, first, place, ratio, best_of)
            if len(row) == 2:
                row.append(winner)
            row += [first if first != winner else "(same)", place or "-", f"{ratio:.2f}" if ratio else "-"]
        rows.append(row)
    explain = dict(line.split(": ", 1) for line in open(os.path.join(folder, "explain.txt")).read().splitlines()
                   if ": " in line)
    heading = os.path.basename(folder).split("-", 1)[1].replace("-", ",")
    if "map-by node" in info["command"]:
        heading += " round-robin"
    commit = f" at commit {explain['commit'][:7]}" if "commit" in explain else ""
    out = [f"The model's rankings{commit}: "
           + "; ".join(f"`{explain[f]}`" for f in ("model-file.csv", "model-builtin.csv")) + ". Per point: the method the tuning measured fastest; under each figures the model's first "
           "method, the winner's place in the model's ranking and the first's measured time over the "
           "winner's.", ""]
    out += table(["operation", "size", "measured winner", "2x2: model's first", "place", "time",
                  "built-in: model's first", "place", "time"], rows)
    out += [""] + [summary(label, list(judged[label].values())) + "." for label, _ in models]
    out += [""] + [guided_summary(label, guided_replay(folder, f)) + "."
                   for label, f in (("2x2 figures", "model-file.csv"), ("built-in figures", "model-builtin.csv"))]
    return f"{heading}: {len(rows)} points", out
