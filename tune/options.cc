#include "tune/options.h"

#include "cli/args.h"
#include "measure/ops.h"
#include "measure/sizes.h"

namespace hctune {

std::string tune_usage() {
  return "usage: hiercoll_tune [--ops LIST] [--sizes LIST] [--budget MINUTES] [--exhaustive] [--guided]\n"
         "                     [--profile FILE] --out FILE\n"
         "       hiercoll_tune --show FILE\n"
         "  --ops LIST         operations (default bcast,reduce,allreduce,allgather,alltoall,scan,barrier;\n"
         "                     known: " +
         hcbench::op_names() +
         ")\n"
         "  --sizes LIST       message sizes as ./hiercoll bench counts them (default 8-4M: every power of two)\n"
         "  --budget MINUTES   stop measuring after this long; operations not tuned by then keep the built-in rules\n"
         "  --exhaustive       measure every method at every segment size and every size (no pruning)\n"
         "  --guided           measure only the methods the model ranks first (within 1.1x of its best, at\n"
         "                     most 3; figures of HIERCOLL_FIGURES), at segments within an octave of its\n"
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

namespace {

using hccli::Args;

// What the rows edit: the options, the sizes' text and whether --ops came.
struct TuneArgs {
  TuneOptions* o;
  std::string sizes = kDefaultSizes;
  bool ops_given = false;
};

bool read_ops(Args& a, TuneArgs& s) {
  std::string v;
  if (!a.text(&v)) return false;
  s.ops_given = true;
  s.o->ops.clear();
  for (const std::string& op : hccli::split_list(v, ',')) {
    if (!hcbench::find_op(op)) return a.fail("unknown operation '" + op + "' (known: " + hcbench::op_names() + ")");
    s.o->ops.push_back(op);
  }
  return !s.o->ops.empty() || a.fail("no operation");
}

// A row for a search knob counted from 1.
hccli::OptionRow<TuneArgs> count_row(const char* name, int TuneOptions::*field) {
  return {name, false, [field](Args& a, TuneArgs& s) { return a.whole(1, 1000, &(s.o->*field)); }};
}

const std::vector<hccli::OptionRow<TuneArgs>>& tune_rows() {
  using R = hccli::OptionRow<TuneArgs>;
  using hccli::set;
  static const std::vector<R> rows = {
      {"-h|--help", true, [](Args&, TuneArgs& s) { return set(&s.o->help, true); }},
      {"--exhaustive", true, [](Args&, TuneArgs& s) { return set(&s.o->exhaustive, true); }},
      {"--guided", true, [](Args&, TuneArgs& s) { return set(&s.o->guided, true); }},
      {"--ops", false, read_ops},
      {"--sizes", false, [](Args& a, TuneArgs& s) { return a.text(&s.sizes); }},
      {"--budget", false,
       [](Args& a, TuneArgs& s) { return a.number(0.01, 1e6, &s.o->budget_minutes, "minutes (a positive number)"); }},
      {"--profile", false, [](Args& a, TuneArgs& s) { return a.text(&s.o->profile); }},
      {"--out", false, [](Args& a, TuneArgs& s) { return a.text(&s.o->out); }},
      {"--show", false, [](Args& a, TuneArgs& s) { return a.text(&s.o->show); }},
      {"--between", false, [](Args& a, TuneArgs& s) { return a.whole(0, 1, &s.o->between); }},
      {"--segment-window", false, [](Args& a, TuneArgs& s) { return a.whole(0, 30, &s.o->segment_window); }},
      count_row("--min-samples", &TuneOptions::min_samples),
      count_row("--max-samples", &TuneOptions::max_samples),
      count_row("--look-past", &TuneOptions::look_past),
      count_row("--scan-steps", &TuneOptions::scan_steps),
      count_row("--stride", &TuneOptions::stride),
      {"--carry-ratio", false,
       [](Args& a, TuneArgs& s) {
         const char* expected = "0 (off) or a number from 1";
         double& r = s.o->carry_ratio;
         return a.number(0, 1000, &r, expected) && (r == 0 || r >= 1 || a.fail(std::string("expected ") + expected));
       }},
      {"--drop-ratio", false,
       [](Args& a, TuneArgs& s) { return a.number(0, 100, &s.o->drop_ratio, "a number from 0"); }},
  };
  return rows;
}

}  // namespace

bool parse_tune_options(int argc, char** argv, TuneOptions* opt, std::string* error) {
  TuneArgs s{opt};
  if (!hccli::read_args(argc, argv, tune_rows(), &s, error)) return false;
  if (opt->help || !opt->show.empty()) return true;
  if (opt->max_samples < opt->min_samples) {
    *error = "--max-samples must be at least --min-samples";
    return false;
  }
  if (!opt->profile.empty() && s.ops_given) {
    *error = "--profile and --ops exclude each other (the profile says which operations)";
    return false;
  }
  if (opt->out.empty()) {
    *error = "--out FILE is required";
    return false;
  }
  return hcbench::parse_size_list(s.sizes, &opt->sizes, error);
}

}  // namespace hctune
