"""The decision at scale, for tools/results_pages.py: `hiercoll explain` with
every candidate simulated whole (`--max-steps` past all of them) against the
runtime's decision, which costs a candidate past its step limit from smaller
layouts (decide/model_cost.h).  Each run folder holds the CSV explain wrote
(op,bytes,rank,method,predicted_us,source)."""
import glob
import math
import os
import statistics
from collections import OrderedDict

from results_render import read_csv, size_name, table, us_cell


def explain_costs(folder):
    """(op, bytes) -> OrderedDict method -> predicted µs, the winner first."""
    out = OrderedDict()
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.csv"), recursive=True)):
        for r in sorted(read_csv(path), key=lambda r: int(r["rank"])):
            if r["predicted_us"]:
                out.setdefault((r["op"], int(r["bytes"])), OrderedDict())[r["method"]] = float(r["predicted_us"])
    return out


def render_whole(costs):
    body = [[op, size_name(b), next(iter(c)), us_cell(next(iter(c.values()))), len(c)]
            for (op, b), c in costs.items()]
    return ["Each point's winner when every candidate is simulated whole, and how many were costed.", ""] + \
        table(["operation", "size", "winner", "predicted µs", "candidates"], body)


def render_against(costs, whole):
    body, regrets, errors, same = [], [], [], 0
    for key, mine in costs.items():
        theirs = whole.get(key)
        if not theirs:
            continue
        chosen, best = next(iter(mine)), next(iter(theirs))
        regret = theirs.get(chosen, math.nan) / theirs[best]
        regrets.append(regret)
        same += chosen == best
        errors += [mine[m] / theirs[m] - 1 for m in mine if m in theirs]
        body.append([key[0], size_name(key[1]), f"{best} ({us_cell(theirs[best])})",
                     f"{chosen} ({us_cell(mine[chosen])}; whole {us_cell(theirs.get(chosen, math.nan))})",
                     f"{regret:.2f}"])
    costs_in_all = len(errors)
    errors = sorted(e for e in errors if abs(e) > 1e-6)  # the candidates simulated whole agree exactly
    pct = lambda q: f"{100 * errors[min(len(errors) - 1, int(q * len(errors)))]:+.0f}%" if errors else "-"
    geo = math.exp(statistics.fmean(math.log(r) for r in regrets))
    return [f"The decision with costs derived past the step limit against every candidate simulated whole "
            f"(the run before): the same method at {same} of {len(regrets)} points; the derived choice, simulated "
            f"whole, costs {geo:.3f} times the best on geometric mean (at most {max(regrets):.2f}). Of "
            f"{costs_in_all} costs, {len(errors)} differ from their whole simulation (derived ones): median "
            f"{pct(0.5)}, 10th percentile {pct(0.1)}, 90th {pct(0.9)}, from {pct(0)} to {pct(1)}.", ""] + \
        table(["operation", "size", "whole: winner (µs)", "derived: winner (µs; simulated whole)",
               "whole time of the derived choice / best"], body)


def render_decide(folder, info):
    costs = explain_costs(folder)
    siblings = sorted(d for d in glob.glob(os.path.join(os.path.dirname(folder), "*"))
                      if os.path.isdir(d) and d < folder)
    whole = explain_costs(siblings[-1]) if siblings and "--max-steps" not in info["command"] else None
    heading = "Every candidate simulated whole" if whole is None else "Costs past the step limit derived"
    return heading, render_whole(costs) if whole is None else render_against(costs, whole)
