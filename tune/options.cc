#include "tune/options.h"

#include <cstdlib>
#include <sstream>

#include "bench/ops.h"
#include "bench/options.h"

namespace hctune {

namespace {

bool number(const std::string& s, double lo, double hi, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && *v >= lo && *v <= hi;
}

}  // namespace

std::string tune_usage() {
  return "usage: hiercoll_tune [--ops LIST] [--sizes LIST] [--budget MINUTES] [--exhaustive]\n"
         "                     [--profile FILE] --out FILE\n"
         "       hiercoll_tune --show FILE\n"
         "  --ops LIST         operations (default bcast,reduce,allreduce,allgather,alltoall,scan,barrier;\n"
         "                     known: " +
         hcbench::op_names() +
         ")\n"
         "  --sizes LIST       message sizes as ./hiercoll bench counts them (default 8-4M: every power of two)\n"
         "  --budget MINUTES   stop measuring after this long; operations not tuned by then keep the built-in rules\n"
         "  --exhaustive       measure every method at every segment size and every size (no pruning)\n"
         "  --profile FILE     tune the operations and sizes a HIERCOLL_PROFILE run recorded, most frequent first\n"
         "  --out FILE         the tuning file to write (an existing one keeps its other layouts' entries)\n"
         "  --show FILE        print the decisions of a tuning file as a table\n"
         "search knobs: --min-samples N (3) --max-samples N (15) --drop-ratio R (0.5) --look-past N (2)\n"
         "              --scan-steps N (2) --stride N (2: every other size measured before refining)\n"
         "              --carry-ratio R (1.5; 0: off; skip methods R times slower at the neighbouring measured size)\n"
         "              --between 0|1 (1: a size between neighbouring grid sizes, measured where their winners differ)\n"
         "              --segment-window N (2: walk segments within N octaves of the neighbouring size's best,\n"
         "              scaled by sqrt of the size ratio; 0: every power of two below the message)\n";
}

bool parse_tune_options(int argc, char** argv, TuneOptions* opt, std::string* error) {
  std::string sizes = kDefaultSizes;
  bool ops_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= argc) {
        *error = a + " needs a value";
        return false;
      }
      *v = argv[++i];
      return true;
    };
    std::string v;
    double d = 0;
    if (a == "-h" || a == "--help") {
      opt->help = true;
    } else if (a == "--exhaustive") {
      opt->exhaustive = true;
    } else if (a == "--ops") {
      if (!value(&v)) return false;
      ops_given = true;
      opt->ops.clear();
      std::istringstream in(v);
      std::string op;
      while (std::getline(in, op, ',')) {
        if (!hcbench::find_op(op)) {
          *error = "unknown operation '" + op + "' (known: " + hcbench::op_names() + ")";
          return false;
        }
        opt->ops.push_back(op);
      }
      if (opt->ops.empty()) {
        *error = "--ops: no operation";
        return false;
      }
    } else if (a == "--sizes") {
      if (!value(&sizes)) return false;
    } else if (a == "--budget") {
      if (!value(&v)) return false;
      if (!number(v, 0.01, 1e6, &opt->budget_minutes)) {
        *error = "--budget " + v + ": expected minutes (a positive number)";
        return false;
      }
    } else if (a == "--profile" || a == "--out" || a == "--show") {
      if (!value(&v)) return false;
      (a == "--profile" ? opt->profile : a == "--out" ? opt->out : opt->show) = v;
    } else if (a == "--between") {
      if (!value(&v)) return false;
      if (!number(v, 0, 1, &d) || d != static_cast<int>(d)) {
        *error = "--between " + v + ": expected 0 or 1";
        return false;
      }
      opt->between = static_cast<int>(d);
    } else if (a == "--segment-window") {
      if (!value(&v)) return false;
      if (!number(v, 0, 30, &d) || d != static_cast<int>(d)) {
        *error = "--segment-window " + v + ": expected a whole number of octaves (0: off)";
        return false;
      }
      opt->segment_window = static_cast<int>(d);
    } else if (a == "--min-samples" || a == "--max-samples" || a == "--look-past" || a == "--scan-steps" ||
               a == "--stride") {
      if (!value(&v)) return false;
      if (!number(v, 1, 1000, &d) || d != static_cast<int>(d)) {
        *error = a + " " + v + ": expected a whole number from 1";
        return false;
      }
      (a == "--min-samples" ? opt->min_samples
       : a == "--max-samples" ? opt->max_samples
       : a == "--look-past"   ? opt->look_past
       : a == "--scan-steps"  ? opt->scan_steps
                              : opt->stride) = static_cast<int>(d);
    } else if (a == "--carry-ratio") {
      if (!value(&v)) return false;
      if (!number(v, 0, 1000, &opt->carry_ratio) || (opt->carry_ratio > 0 && opt->carry_ratio < 1)) {
        *error = "--carry-ratio " + v + ": expected 0 (off) or a number from 1";
        return false;
      }
    } else if (a == "--drop-ratio") {
      if (!value(&v)) return false;
      if (!number(v, 0, 100, &opt->drop_ratio)) {
        *error = "--drop-ratio " + v + ": expected a number from 0";
        return false;
      }
    } else {
      *error = "unknown argument '" + a + "'";
      return false;
    }
  }
  if (opt->help || !opt->show.empty()) return true;
  if (opt->max_samples < opt->min_samples) {
    *error = "--max-samples must be at least --min-samples";
    return false;
  }
  if (!opt->profile.empty() && ops_given) {
    *error = "--profile and --ops exclude each other (the profile says which operations)";
    return false;
  }
  if (opt->out.empty()) {
    *error = "--out FILE is required";
    return false;
  }
  return hcbench::parse_size_list(sizes, &opt->sizes, error);
}

}  // namespace hctune
