// The header of a comparison run (the console's and summary.txt's first
// lines): library, layout, load, nodes, link model, what is measured, and
// what Open MPI runs for each implementation.
#pragma once

#include <string>
#include <vector>

#include "bench/log.h"
#include "bench/options.h"
#include "measure/impls.h"
#include "measure/link_model.h"
#include "measure/machine.h"
#include "measure/ops.h"

namespace hcbench {

struct RunHeader {
  const Options* opt = nullptr;
  const Machine* machine = nullptr;
  const std::vector<Impl>* impls = nullptr;
  const std::vector<const OpInfo*>* ops = nullptr;
  const LinkModel* link_model = nullptr;
  std::string link_model_error = {};  // why the environment's link model was not taken
  const std::vector<int>* roots = nullptr;
};

void say_run_header(const RunHeader& h, Log& log);

}  // namespace hcbench
