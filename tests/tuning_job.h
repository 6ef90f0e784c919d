// Tuning files for the MPI tests of the tuning file: written by rank 0 into
// a directory of the job (then a barrier), for this job's layout or another.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "select/tuning_file.h"
#include "topo/topology.h"

namespace hiercoll::testing {

// One size range of a file: [from, to) bytes of op -> method.
struct RangeSpec {
  Op op;
  int64_t from;
  int64_t to;  // -1: no limit
  std::string method;
  int64_t segment_bytes = 0;
};

const Layout& world_layout();
LayoutKey world_key();

// Writes a file of one entry (layout `key`, the given ranges) under `name`
// in the job's directory; returns its path.  Collective over world.
std::string write_tuning(const std::string& name, const std::vector<RangeSpec>& ranges,
                         const LayoutKey& key = world_key());
// Writes `text` as is; returns its path.  Collective over world.
std::string write_text(const std::string& name, const std::string& text);
// The path `name` would have in the job's directory (nothing written).
std::string job_path(const std::string& name);

// A duplicate of MPI_COMM_WORLD with the given hints (free it).
MPI_Comm comm_with(const std::vector<std::pair<std::string, std::string>>& hints);

}  // namespace hiercoll::testing
