// What an MPI schedule run asks of the arrival-order session it serves
// (arrival/arrival_mpi.h, which implements it): the session lives above the
// executor, so the executor names only this interface.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "arrival/arrival_order.h"

namespace hiercoll {

class ArrivalHooks {
 public:
  // The block of rank-indexed data that belongs to `rank`.
  virtual int block_of(int rank) const = 0;
  // Which rank holds each position so far.
  virtual Relabelling& labels() = 0;
  // Requests the session posted since last asked, each with its handle.
  virtual void take_posted(std::vector<MPI_Request>* reqs, std::vector<int32_t>* handles) = 0;
  // Whether the session still waits for messages of its own.
  virtual bool busy() const = 0;
  // A request of the session's completed; steps that can now run go to `woken`.
  virtual int completed(int32_t handle, std::vector<int32_t>* woken) = 0;

 protected:
  ~ArrivalHooks() = default;
};

}  // namespace hiercoll
