"""Regret of the decision on a layout, for tools/results_pages.py: one
`./hiercoll bench --jobs N` run per layout with hier deciding from a tuning
file's figures (`hier@hiercoll_tuning_file=FILE`), hier with the built-in
figures (`hier`), an exhaustive tuning of that very layout (`tuned`) and
Open MPI's own (`native`), as tools/heldout_study.sh makes them.  A point's
regret, per job, is the implementation's time over the fastest of itself,
tuned and native (the other hier left out); the table gives its median over
the jobs."""
import math
import os
import statistics

from results_render import job_dirs, job_points, read_csv, ratio_cell, size_name, table

FILE_HIER = "hier@hiercoll_tuning_file="


def regrets(jobs, me, peers):
    """(op, bytes) -> per-job regret of `me` against `peers`, and the fastest per job."""
    out = {}
    for op, b in sorted({(op, b) for j in jobs for (op, b, impl) in j if impl == me}):
        per_job, fastest = [], []
        for j in jobs:
            if (op, b, me) not in j:
                continue
            times = {impl: j[(op, b, impl)][0] for impl in [me] + peers if (op, b, impl) in j}
            best = min(times, key=times.get)
            per_job.append(times[me] / times[best])
            fastest.append(best)
        out[(op, b)] = (per_job, fastest)
    return out


def summary(name, points):
    med = {k: statistics.median(v[0]) for k, v in points.items()}
    large = [r for (op, b), r in med.items() if b >= 65536]
    geo = math.exp(sum(math.log(r) for r in med.values()) / len(med))
    text = f"{name}: regret {geo:.3f} on geometric mean over {len(med)} points"
    if large:
        within = sum(r <= 1.10 for r in large)
        text += (f"; from 64 KiB at most 1.10 at {within} of {len(large)} ({100.0 * within / len(large):.0f}%), "
                 f"worst {max(large):.2f}")
    return text + "."


def render_regret(folder, info):
    jobs = [job_points(read_csv(os.path.join(d, "results.csv"))) for d in job_dirs(folder)
            if os.path.exists(os.path.join(d, "results.csv"))]
    impls = {impl for j in jobs for (_, _, impl) in j}
    file_hier = next((i for i in sorted(impls) if i.startswith(FILE_HIER)), None)
    if not jobs or not file_hier:
        raise SystemExit(f"results_pages: {folder}: no jobs of {FILE_HIER}FILE")
    peers = [i for i in ("tuned", "native") if i in impls]
    by_file = regrets(jobs, file_hier, peers)
    built_in = regrets(jobs, "hier", peers) if "hier" in impls else {}
    versus_native = []
    for (op, b), _ in by_file.items():
        for who in (file_hier, "hier"):
            ratios = [j[(op, b, who)][0] / j[(op, b, "native")][0] for j in jobs
                      if (op, b, who) in j and (op, b, "native") in j]
            if ratios and b >= 65536:
                versus_native.append((statistics.median(ratios), who, op, b))
    body = [[op, size_name(b), ratio_cell(by_file[(op, b)][0]),
             ratio_cell(built_in[(op, b)][0]) if (op, b) in built_in else "-",
             ", ".join(by_file[(op, b)][1])] for op, b in by_file]
    first = read_csv(os.path.join(job_dirs(folder)[0], "results.csv"))[0]
    placement = " round-robin" if "map-by node" in info["command"] else ""
    heading = f"{first['nodes']} nodes of {first['ppn'].replace('+', ', ')} ranks{placement}, {len(jobs)} jobs"
    out = [f"`{FILE_HIER}...` is shown as hier (file): its figures are the file's "
           f"(`{file_hier[len(FILE_HIER):]}`). Regret: time over the fastest of itself, tuned and native in "
           "the same job (1: it was the fastest), per job on the median over roots, median "
           "(lowest-highest) over the jobs; then the fastest of hier (file), tuned and native in each job.", ""]
    out += table(["operation", "size", "hier (file)", "hier (built-in figures)", "fastest (per job)"],
                 [[c.replace(file_hier, "hier (file)") for c in map(str, row)] for row in body])
    out += ["", summary("hier (file)", by_file)]
    if built_in:
        out += ["", summary("hier (built-in figures)", built_in)]
    for who, label in ((file_hier, "hier (file)"), ("hier", "hier (built-in figures)")):
        mine = [v for v in versus_native if v[1] == who]
        if mine:
            worst = max(mine)
            out += ["", f"{label} over native from 64 KiB: at most {worst[0]:.2f} ({worst[2]} {size_name(worst[3])})."]
    return heading, out
