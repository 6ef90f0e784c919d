"""Reading result folders and rendering their tables, for
tools/results_pages.py: a run's run.txt and CSV files, the cells and
tables every page shares, and one renderer per kind of run (the
benchmark's jobs, simulate's tables, the hierarchical paper's Table 1, a
tuning file against the rest).  Python's standard library only.
"""
import csv
import datetime
import glob
import os
import statistics
from collections import OrderedDict, defaultdict

# ---------------------------------------------------------------------------
# Reading

def read_run(folder):
    """run.txt of a run folder as a dict (keys as written, lower case)."""
    info = OrderedDict()
    with open(os.path.join(folder, "run.txt")) as f:
        for line in f:
            key, sep, value = line.partition(":")
            if sep:
                info[key.strip().lower()] = value.strip()
    for key in ("command", "started", "commit"):
        if key not in info:
            raise SystemExit(f"results_pages: {folder}/run.txt: no '{key}:' line")
    return info


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def runs_of(data_dir):
    """The run folders of a page's data folder, in name order."""
    return sorted(d for d in glob.glob(os.path.join(data_dir, "*")) if os.path.isdir(d)
                  and os.path.exists(os.path.join(d, "run.txt")))


# ---------------------------------------------------------------------------
# Formatting

def size_name(b):
    b = int(b)
    if b == 0:
        return "-"
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return f"{b >> shift} {unit}"
    return f"{b} B"


def ratio_cell(values):
    """median (lowest-highest) of ratios, or '-'."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def summary_cell(median, lo, hi):
    if median in ("", None):
        return "-"
    if lo == hi == median:
        return f"{float(median):.2f}"
    return f"{float(median):.2f} ({float(lo):.2f}-{float(hi):.2f})"


def us_cell(us):
    return f"{us:.3g}" if us < 1000 else f"{us:,.0f}"


def parse_utc(text):
    try:
        return datetime.datetime.strptime(text.replace(" UTC", ""), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None


def duration(info):
    start, end = parse_utc(info.get("started", "")), parse_utc(info.get("finished", ""))
    if not start or not end:
        return None
    s = int((end - start).total_seconds())
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def provenance(info):
    """The lines under a table's heading: the command, then commit, date, load."""
    when = info["started"]
    end = info.get("finished", "")
    if end:
        when = when.replace(" UTC", "") + " to " + (end[11:] if end[:10] == when[:10] else end)
    took = duration(info)
    text = f"Made by this command at commit {info['commit'][:7]}, {when}" + (f" ({took})" if took else "")
    cores = info.get("machine", "").split(",")[0]
    if cores:
        text += f", on {cores}"
    load = []
    if info.get("load average at start"):
        load.append(f"load average {info['load average at start'].split()[0]} at the start")
    during = info.get("load average during the run (1 minute, sampled every 10 s)")
    if during:
        load.append(f"one-minute load {during} during the run")
    if load:
        text += "; " + ", ".join(load)
    text += "."
    status = info.get("exit status", "0")
    if status == "124" and info.get("time limit"):
        text += f" It was stopped at its time limit of {info['time limit']}."
    elif status not in ("0", ""):
        text += f" It stopped with exit status {status}" + (" (its time limit)" if status == "124" else "") + "."
    return [f"    {info['command']}", "", text]


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


# ---------------------------------------------------------------------------
# Benchmark runs: `./hiercoll bench --jobs N` (jobs.csv, job*/results.csv,
# job*/lower_bound.csv)

IMPL_ORDER = ["native", "han", "flat", "mpi", "dynamic"]


def impl_key(impl):
    return (IMPL_ORDER.index(impl) if impl in IMPL_ORDER else len(IMPL_ORDER), impl)


def job_dirs(folder):
    return sorted((d for d in glob.glob(os.path.join(folder, "job*")) if os.path.isdir(d)),
                  key=lambda d: int("0" + "".join(c for c in os.path.basename(d) if c.isdigit())))


def job_points(rows):
    """(op, bytes, impl) -> (median over roots, worst root, best root, rooted)."""
    per = defaultdict(list)
    rooted = set()
    for r in rows:
        k = (r["op"], int(r["bytes"]), r["impl"])
        per[k].append(float(r["median_us"]))
        if int(r["root"]) >= 0:
            rooted.add(k)
    return {k: (statistics.median(v), max(v), min(v), k in rooted) for k, v in per.items()}


def bound_table(folder, reference):
    """The reference's time over the lower bounds (lower_bound.csv of each job), as rows of a table."""
    bounds = [read_csv(os.path.join(d, "lower_bound.csv")) for d in job_dirs(folder)
              if os.path.exists(os.path.join(d, "lower_bound.csv"))]
    if not bounds:
        return []
    per = defaultdict(lambda: ([], []))
    order = []
    for rows_ in bounds:
        for r in rows_:
            k = (r["op"], int(r["bytes"]))
            if k not in per:
                order.append(k)
            per[k][0].append(float(r["ratio"]))
            per[k][1].append(float(r["busy_ratio"]))
    out = ["", f"{reference} against the lower bound: {reference}'s time over the bound from the links' "
                "ping-pong, and over the bound with every link busy (1.00: at the bound), median "
                "(lowest-highest) over the jobs.", ""]
    out += table(["operation", "size", f"{reference} / bound", f"{reference} / busy bound"],
                 [[op, size_name(b), ratio_cell(per[(op, b)][0]), ratio_cell(per[(op, b)][1])]
                  for op, b in order])
    return out


def render_bench(folder, info, reference="hier"):
    jobs = [read_csv(os.path.join(d, "results.csv")) for d in job_dirs(folder)
            if os.path.exists(os.path.join(d, "results.csv"))]
    if not jobs:
        return "no results", ["No results.csv in this run."]
    points = [job_points(rows) for rows in jobs]
    first = jobs[0][0]
    layout = f"{first['nodes']} nodes x {first['ppn']} ranks"
    keys = list(OrderedDict.fromkeys((r["op"], int(r["bytes"])) for r in jobs[0]))
    impls = sorted({r["impl"] for rows in jobs for r in rows if r["impl"] != reference}, key=impl_key)
    jobs_csv = os.path.join(folder, "jobs.csv")
    summary = {}
    if os.path.exists(jobs_csv):
        for r in read_csv(jobs_csv):
            summary[(r["op"], int(r["bytes"]), r["impl"])] = r

    def ratios(op, b, impl, which=0):
        out = []
        for p in points:
            if (op, b, impl) in p and (op, b, reference) in p:
                out.append(p[(op, b, impl)][which] / p[(op, b, reference)][which])
        return out

    out = []
    out.append(f"Time of each implementation over {reference}'s (above 1: {reference} is faster), per job on the "
               f"median over roots, as median (lowest-highest) over the jobs; {reference}'s time in µs is the "
               "median over the jobs of each job's median over roots.")
    out.append("")
    rows = []
    for op, b in keys:
        hier_us = [p[(op, b, reference)][0] for p in points if (op, b, reference) in p]
        rows.append([op, size_name(b), us_cell(statistics.median(hier_us)) if hier_us else "-"]
                    + [ratio_cell(ratios(op, b, i)) for i in impls])
    out += table(["operation", "size", f"{reference} µs"] + [f"{i} / {reference}" for i in impls], rows)

    rooted = [(op, b) for op, b in keys if any(p.get((op, b, reference), (0, 0, 0, False))[3] for p in points)]
    if rooted:
        out += ["", f"Rooted operations: each implementation's worst root over {reference}'s worst root, and each "
                    "one's root spread (worst root / best root), median (lowest-highest) over the jobs."
                    + (" The worst-root ratios and hier's spread are also in jobs.csv." if summary else ""), ""]
        rows = []
        for op, b in rooted:
            spread = lambda impl: [p[(op, b, impl)][1] / p[(op, b, impl)][2] for p in points if (op, b, impl) in p]
            rows.append([op, size_name(b)] + [ratio_cell(ratios(op, b, i, 1)) for i in impls]
                        + [ratio_cell(spread(reference))] + [ratio_cell(spread(i)) for i in impls])
        out += table(["operation", "size"] + [f"{i} / {reference}, worst root" for i in impls]
                     + [f"spread {reference}"] + [f"spread {i}" for i in impls], rows)

    out += bound_table(folder, reference)
    return f"{layout}, {len(jobs)} job{'s' if len(jobs) != 1 else ''}", out


# ---------------------------------------------------------------------------
# Simulation tables: tools/sim_tables.py --out DIR (DIR/<layout>-<op>/simulated.csv)

def sim_rows(op, rows, size_cell=size_name):
    """One operation's rows of a prediction table, size by size: hier, flat
    (rules), the best flat algorithm, the best leaders' algorithm, best flat
    / hier (render_sim and tools/sim_tables.py)."""
    t = lambda r: float(r["predicted_us"])
    cell = lambda r: f"{us_cell(t(r))} ({r['algorithm']})" if r else "-"
    body = []
    for size in sorted({int(r["bytes"]) for r in rows}):
        at = {r["impl"]: r for r in rows if int(r["bytes"]) == size}
        flats = [r for i, r in at.items() if i.startswith("flat:")]
        leaders = [r for i, r in at.items() if i.startswith("hier:")]
        best = min(flats, key=t) if flats else None
        lead = min(leaders, key=t) if leaders else None
        hier = at.get("hier")
        ratio = f"{t(best) / t(hier):.2f}" if best and hier else "-"
        body.append([op, size_cell(size), cell(hier), cell(at.get("flat")), cell(best), cell(lead), ratio])
    return body


def composition_rows(op, rows, size_cell=size_name):
    """One operation's rows of the compositions' table: each composition
    forced against the best flat algorithm (render_compositions and
    tools/sim_tables.py --compositions)."""
    t = lambda r: float(r["predicted_us"])
    body = []
    for size in sorted({int(r["bytes"]) for r in rows}):
        at = [r for r in rows if int(r["bytes"]) == size]
        flats = [r for r in at if r["impl"].startswith("flat:")]
        best = min(flats, key=t) if flats else None
        flat = f"{us_cell(t(best))} ({best['algorithm']})" if best else "-"
        for r in at:
            if r["impl"].startswith("hier:"):
                ratio = f"{t(best) / t(r):.2f}" if best else "-"
                derived = " (derived)" if "(derived)" in r["algorithm"] else ""
                body.append([op, size_cell(size), r["impl"], us_cell(t(r)) + derived, flat, ratio])
    return body


def render_sim(folder, info):
    files = sorted(glob.glob(os.path.join(folder, "**", "simulated.csv"), recursive=True))
    rows = [r for f in files for r in read_csv(f)]
    if not rows:
        words = info["command"].split()
        opt = lambda name: words[words.index(name) + 1] if name in words[:-1] else "?"
        nodes, _, ppn = opt("--layouts").partition("x")
        return (f"{nodes} nodes x {ppn} ranks: {opt('--ops').replace(',', ', ')}",
                ["No predictions: the command wrote no simulated.csv before it stopped."])
    order = ["bcast", "reduce", "allreduce", "allgather", "alltoall", "scan", "barrier"]
    ops = sorted(OrderedDict.fromkeys(r["op"] for r in rows),
                 key=lambda op: (order.index(op) if op in order else len(order), op))
    t = lambda r: float(r["predicted_us"])
    body = [row for op in ops for row in sim_rows(op, [r for r in rows if r["op"] == op])]
    first = rows[0]
    heading = f"{first['nodes']} nodes x {first['ppn']} ranks: {', '.join(ops)}"
    out = ["Predicted µs, the algorithm in brackets. `hier` and `flat (rules)` are the runtime's decisions; "
           "`best flat` is the fastest flat algorithm forced (at its default segment), `best leaders' algorithm` "
           "the fastest composition with a forced leaders' algorithm. best flat / hier above 1: hier's choice "
           "beats every forced flat algorithm; where that choice is a composition (`hier:...`), hierarchy pays. "
           "`-`: no schedule within `--max-steps`, or no leaders' algorithm of the operation among those tried.",
           ""]
    out += table(["operation", "size", "hier", "flat (rules)", "best flat", "best leaders' algorithm",
                  "best flat / hier"], body)
    if len({int(r["bytes"]) for r in rows}) == 1:
        out += ["", "Every implementation of this run (one size), predicted µs:", ""]
        out += table(["operation", "size", "implementation", "algorithm", "predicted µs"],
                     [[r["op"], size_name(r["bytes"]), r["impl"], r["algorithm"], us_cell(t(r))]
                      for op in ops for r in rows if r["op"] == op])
    return heading, out


def render_compositions(folder, info):
    """`tools/sim_tables.py --compositions`: every composition forced against the best flat algorithm."""
    files = sorted(glob.glob(os.path.join(folder, "**", "simulated.csv"), recursive=True))
    rows = [r for f in files for r in read_csv(f)]
    words = info["command"].split()
    layout = words[words.index("--layouts") + 1] if "--layouts" in words[:-1] else "?"
    nodes, _, ppn = layout.partition("x")
    heading = f"{nodes} nodes x {ppn} ranks: every composition of the block collectives"
    if not rows:
        return heading, ["No predictions: the command wrote no simulated.csv before it stopped."]
    body = [row for op in OrderedDict.fromkeys(r["op"] for r in rows)
            for row in composition_rows(op, [r for r in rows if r["op"] == op])]
    out = ["Predicted µs. Each composition of the operation forced (`hier:<composition>`, its phases' "
           "algorithms as the runtime chooses them) against the fastest flat algorithm forced (`best flat`, "
           "at its default segment). A method whose whole schedules pass `--max-steps` is costed from "
           "smaller layouts, marked `(derived)`: a fit of its growth over 2, 4, 8, ... nodes, blind to a "
           "change of regime past its samples (docs/SIMULATION.md, \"Deciding at scale\"). "
           "best flat / composition above 1: the composition is the faster.", ""]
    return heading, out + table(["operation", "size", "composition", "predicted", "best flat",
                                 "best flat / composition"], body)


# ---------------------------------------------------------------------------
# The hierarchical paper's Table 1: tools/table1.py --out DIR (DIR/full and
# DIR/ideal_node, each a simulated.csv)

def render_table1(folder, info):
    def times(sub):
        paths = glob.glob(os.path.join(folder, "**", sub, "simulated.csv"), recursive=True)
        return OrderedDict(((r["op"], int(r["bytes"])), float(r["predicted_us"])) for r in read_csv(paths[0])) \
            if paths else {}
    full, ideal = times("full"), times("ideal_node")
    if not full or not ideal:
        return "no predictions", ["No simulated.csv in this run."]
    body = []
    for (op, b), t in full.items():
        i = ideal.get((op, b))
        if i is None:
            continue
        body.append([op, "-" if op == "barrier" else size_name(b), f"{t:.1f}", f"{i:.1f}", f"{100 * i / t:.0f}%",
                     f"{100 * (1 - i / t):.0f}%"])
    first = read_csv(glob.glob(os.path.join(folder, "**", "full", "simulated.csv"), recursive=True)[0])[0]
    out = ["Each composition's predicted time, the same on an ideal node (no latency, unbounded bandwidth inside "
           "it; reductions still cost), the inter-node phase's share (ideal / time) and so the most that a "
           "perfect intra-node phase could save.", ""]
    return (f"{first['nodes']} nodes x {first['ppn']} ranks",
            out + table(["operation", "size", "time (µs)", "ideal node (µs)", "inter-node share", "most saved"],
                        body))


# ---------------------------------------------------------------------------
# Tuned against the rest: `./hiercoll bench --jobs N --tuning FILE`

def render_tuned(folder, info):
    jobs = [job_points(read_csv(os.path.join(d, "results.csv"))) for d in job_dirs(folder)
            if os.path.exists(os.path.join(d, "results.csv"))]
    if not jobs:
        return "the tuning run", ["The tuner's run: it writes the tuning file that the benchmark below reads."]
    keys = list(OrderedDict.fromkeys((op, b) for j in jobs for (op, b, impl) in j if impl == "tuned"))
    others = sorted({impl for j in jobs for (_, _, impl) in j if impl != "tuned"}, key=impl_key)
    body = []
    for op, b in keys:
        ratios, bests = [], []
        versus = defaultdict(list)
        for j in jobs:
            times = {impl: v[0] for (o, bb, impl), v in j.items() if o == op and bb == b and impl != "tuned"}
            if (op, b, "tuned") not in j or not times:
                continue
            tuned = j[(op, b, "tuned")][0]
            best = min(times, key=times.get)
            ratios.append(tuned / times[best])
            bests.append(best)
            for impl, t in times.items():
                versus[impl].append(t / tuned)
        body.append([op, size_name(b), ratio_cell(ratios), ", ".join(bests)]
                    + [ratio_cell(versus[i]) for i in others])
    out = ["tuned's time over the fastest other implementation of the same job (above 1: tuned is slower), "
           "median (lowest-highest) over the jobs, and which implementation that was in each job; then each "
           "implementation's time over tuned's (above 1: tuned is faster); per job on the median over roots.", ""]
    first = read_csv(os.path.join(job_dirs(folder)[0], "results.csv"))[0]
    heading = f"tuned on {first['nodes']} nodes x {first['ppn']} ranks, {len(jobs)} jobs"
    return heading, out + table(["operation", "size", "tuned / best other", "best other (per job)"]
                                + [f"{i} / tuned" for i in others], body)
