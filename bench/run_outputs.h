// The files of a comparison run, written by rank 0: results.csv,
// lower_bound.csv, gbench.json, plots/, report.html and summary.txt.
#pragma once

#include <string>
#include <vector>

#include "bench/log.h"
#include "bench/options.h"
#include "measure/link_model.h"
#include "measure/machine.h"
#include "measure/ops.h"
#include "measure/pingpong.h"
#include "measure/results.h"

namespace hcbench {

struct RunOutputs {
  std::string dir;
  const Options* opt = nullptr;
  const Machine* machine = nullptr;
  const Results* results = nullptr;
  const Links* links = nullptr;  // measured where opt->lower_bound
  const LinkModel* link_model = nullptr;
  const std::vector<const OpInfo*>* ops = nullptr;
  std::vector<std::string> impl_names;
  int ranks = 0;
  double began = 0;  // MPI_Wtime at the start
};

void write_run_outputs(const RunOutputs& o, Log& log);

}  // namespace hcbench
