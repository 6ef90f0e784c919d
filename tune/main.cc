// hiercoll_tune: finds, by experiment on this machine and layout, the
// fastest method and segment size of each collective at each message size,
// with the autotuning paper's pruned search (select/search.h,
// select/size_grid.h), and writes the tuning file hiercoll then selects
// from (HIERCOLL_TUNING_FILE).  An MPI program: `./hiercoll tune` runs it on
// the emulated cluster; on a real cluster run it under your own mpirun.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "measure/clock.h"
#include "measure/link_model.h"
#include "measure/machine.h"
#include "measure/ops.h"
#include "runtime/figures_probe.h"
#include "select/tuning_file.h"
#include "topo/topology.h"
#include "tune/entry_file.h"
#include "tune/machine_figures.h"
#include "tune/model_command.h"
#include "tune/options.h"
#include "tune/plan.h"
#include "tune/show.h"
#include "tune/tuner.h"

namespace hctune {
namespace {

int show(const std::string& path) {
  hiercoll::TuningFile f;
  std::string error;
  if (!hiercoll::load_tuning_file(path, &f, &error)) {
    std::fprintf(stderr, "hiercoll_tune: %s\n", error.c_str());
    return 1;
  }
  std::fputs(decisions_table(f).c_str(), stdout);
  return 0;
}

// Summary of the search per operation (rank 0).
void print_summary(const std::vector<OpOutcome>& outcomes, double seconds, bool exhaustive) {
  std::printf("\n%-11s %8s %8s %12s %9s %10s  %s\n", "op", "sizes", "measured", "experiments", "samples", "time",
              exhaustive ? "(exhaustive)" : "(pruned)");
  for (const OpOutcome& o : outcomes) {
    if (!o.tuned) {
      std::printf("%-11s not tuned (budget spent)\n", o.op.c_str());
      continue;
    }
    std::printf("%-11s %8zu %8d %12d %9d %10s\n", o.op.c_str(), o.grid.decisions.size(), o.grid.points_measured,
                o.grid.experiments, o.grid.samples, duration_text(o.seconds).c_str());
    for (const std::string& b : o.broken) std::printf("  left out: %s\n", b.c_str());
  }
  std::printf("total %s\n\n", duration_text(seconds).c_str());
}

// The layout's entry: the machine's figures, measured (collective), and
// the command that made it.
hiercoll::TuningEntry new_entry(MPI_Comm ctrl, const hiercoll::LayoutKey& key, const hcbench::Machine& machine,
                                const hcbench::LinkModel& link_model, int argc, char** argv) {
  hiercoll::TuningEntry entry;
  entry.layout = key;
  entry.machine = measure_machine(ctrl, machine);
  entry.machine.source += "; link model: " + hcbench::describe_link_model(link_model);
  stamp_entry(&entry, "hiercoll_tune", argc, argv);
  return entry;
}

// What the run measures on and how it searches (rank 0).
void print_header(const TuneOptions& opt, const hiercoll::TuningEntry& entry, const hcbench::Machine& machine,
                  const hcbench::LinkModel& link_model, const std::string& model_error) {
  std::printf("hiercoll tune: layout %s; %s\n", hiercoll::layout_text(entry.layout).c_str(), machine.header().c_str());
  if (!model_error.empty()) std::printf("WARNING: %s; no link model assumed\n", model_error.c_str());
  std::printf("link model: %s\n", hcbench::describe_link_model(link_model).c_str());
  std::printf("machine: inter-node %.1f us + %.2f GB/s, intra-node %.2f us + %.2f GB/s, reduce %.2f GB/s\n",
              entry.machine.inter_latency_us, entry.machine.inter_bandwidth_gbps, entry.machine.intra_latency_us,
              entry.machine.intra_bandwidth_gbps, entry.machine.reduce_gbps);
  std::printf("search: %s, samples %d-%d per point, drop ratio %.2f, look past %d, scan steps %d, size stride %d%s\n",
              opt.exhaustive ? "exhaustive" : "pruned (MGD + SMGD, reduced sizes)", opt.min_samples, opt.max_samples,
              opt.drop_ratio, opt.look_past, opt.scan_steps, opt.stride,
              opt.budget_minutes > 0 ? (", budget " + std::to_string(opt.budget_minutes) + " min").c_str() : "");
  std::fflush(stdout);
}

// Every plan tuned in turn; the ranges of those tuned go into the entry.
std::vector<OpOutcome> tune_plans(Tuner& tuner, const std::vector<OpPlan>& plans, hiercoll::TuningEntry* entry) {
  std::vector<OpOutcome> outcomes;
  for (size_t i = 0; i < plans.size(); ++i) {
    outcomes.push_back(tuner.tune(plans[i], static_cast<int>(i), static_cast<int>(plans.size())));
    hiercoll::Op op;
    if (outcomes.back().tuned && hiercoll::op_from_name(plans[i].op->flat_op, &op))
      entry->ranges[static_cast<int>(op)] = outcomes.back().ranges;
  }
  return outcomes;
}

// Rank 0: the entry into the file, the summary and the decisions; the exit
// code.
int write_outcome(const TuneOptions& opt, const hiercoll::TuningEntry& entry, const std::vector<OpOutcome>& outcomes,
                  double seconds) {
  int rc = 0;
  std::string error;
  if (!put_entry_in_file(opt.out, entry, &error)) {
    std::fprintf(stderr, "hiercoll_tune: %s\n", error.c_str());
    rc = 1;
  }
  print_summary(outcomes, seconds, opt.exhaustive);
  hiercoll::TuningFile mine;
  mine.entries.push_back(entry);
  std::fputs(decisions_table(mine).c_str(), stdout);
  if (rc == 0) std::printf("\nwrote %s (and %s.points.csv)\n", opt.out.c_str(), opt.out.c_str());
  return rc;
}

int run(int argc, char** argv, const TuneOptions& opt) {
  MPI_Comm ctrl;
  PMPI_Comm_dup(MPI_COMM_WORLD, &ctrl);
  int rank = 0;
  PMPI_Comm_rank(ctrl, &rank);
  const double t0 = MPI_Wtime();

  const hiercoll::Topology* topo = nullptr;
  if (hiercoll::get_topology(MPI_COMM_WORLD, &topo) != MPI_SUCCESS) {
    if (rank == 0) std::fprintf(stderr, "hiercoll_tune: no topology\n");
    return 1;
  }
  const hiercoll::Layout& layout = *topo->layout;
  const hiercoll::LayoutKey key = hiercoll::layout_key(layout);

  std::string error;
  std::vector<OpPlan> plans;
  if (!make_plans(opt, key, &plans, &error)) {
    if (rank == 0) std::fprintf(stderr, "hiercoll_tune: %s\n", error.c_str());
    PMPI_Comm_free(&ctrl);
    return 2;
  }

  const hcbench::Machine machine = hcbench::discover_machine(ctrl);
  std::string model_error;
  const hcbench::LinkModel link_model = hcbench::link_model_from_env(&model_error);
  hiercoll::TuningEntry entry = new_entry(ctrl, key, machine, link_model, argc, argv);
  if (rank == 0) print_header(opt, entry, machine, link_model, model_error);

  hcbench::SyncClock clock(ctrl, false, machine.oversubscribed);
  FILE* csv = nullptr;
  if (rank == 0) {
    csv = std::fopen((opt.out + ".points.csv").c_str(), "w");
    if (csv) std::fprintf(csv, "op,bytes,method,segment,median_us,lo_us,hi_us,samples,best\n");
  }
  Tuner tuner(ctrl, opt, layout, hiercoll::machine_figures(), &clock, csv);
  const std::vector<OpOutcome> outcomes = tune_plans(tuner, plans, &entry);
  if (csv) std::fclose(csv);

  int rc = rank == 0 ? write_outcome(opt, entry, outcomes, MPI_Wtime() - t0) : 0;
  PMPI_Bcast(&rc, 1, MPI_INT, 0, ctrl);
  PMPI_Comm_free(&ctrl);
  return rc;
}

}  // namespace
}  // namespace hctune

int main(int argc, char** argv) {
  // --model: a layout's entry from the model alone, no MPI job.
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) != "--model") rest.push_back(argv[i]);
  if (static_cast<int>(rest.size()) < argc) return hctune::run_model_command(static_cast<int>(rest.size()), rest.data());
  hctune::TuneOptions opt;
  std::string error;
  if (!hctune::parse_tune_options(argc, argv, &opt, &error)) {
    std::fprintf(stderr, "hiercoll_tune: %s\n%s", error.c_str(), hctune::tune_usage().c_str());
    return 2;
  }
  if (opt.help) {
    std::fputs(hctune::tune_usage().c_str(), stdout);
    return 0;
  }
  if (!opt.show.empty()) return hctune::show(opt.show);
  MPI_Init(&argc, &argv);
  const int rc = hctune::run(argc, argv, opt);
  MPI_Finalize();
  return rc;
}
