// Timed samples of one method at one message size, for the search.  Every
// (method, segment) gets its own duplicate of the job's communicator whose
// info hints make hiercoll run that method (native: Open MPI's own
// collective); its first call is a warm-up that checks the result and
// that the method really ran.  A sample is one call from a synchronized
// start; its time is the slowest rank's, the same value on every rank (the
// search's decisions must agree across ranks).  Rooted operations rotate
// the root from sample to sample.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "measure/calls.h"
#include "measure/clock.h"
#include "measure/impls.h"
#include "measure/ops.h"
#include "select/method.h"

namespace hctune {

// A sample of a method that failed its warm-up: far worse than anything.
constexpr double kBrokenUs = 1e12;

class Sampler {
 public:
  // Collective over ctrl (a duplicate of the job's communicator, used for
  // the clock and agreement).  bench_bytes: the benchmark's size.
  Sampler(MPI_Comm ctrl, const hcbench::OpInfo& op, int64_t bench_bytes, const std::vector<int>& roots,
          hcbench::SyncClock* clock);
  ~Sampler();  // frees the communicators (collective)
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // One sample in microseconds.  Collective over ctrl.
  double sample(const std::string& method_name, int64_t segment);
  // Methods whose warm-up failed, with why ("flat:x: ran flat:y").
  const std::vector<std::string>& broken() const { return broken_; }

 private:
  struct Slot {
    std::vector<hcbench::Impl> impl;  // one: the method's communicator
    MPI_Comm comm = MPI_COMM_NULL;
    hiercoll::Method method;
    int samples = 0;
    bool ok = false;
  };
  Slot& slot(const std::string& method_name, int64_t segment);
  bool warm_up(Slot& s, const std::string& what);

  MPI_Comm ctrl_;
  const hcbench::OpInfo& op_;
  hcbench::OpBuffers buf_;
  std::vector<int> roots_;
  hcbench::SyncClock* clock_;
  int rank_ = 0, size_ = 1;
  std::map<std::pair<std::string, int64_t>, Slot> slots_;
  std::vector<std::string> broken_;
};

// The benchmark implementation (measure/impls.h) that runs method m with
// segment (0: the rules').
hcbench::ImplSpec method_spec(const hcbench::OpInfo& op, const hiercoll::Method& m, int64_t segment);

}  // namespace hctune
