// The implementations the tools compare, by their command-line names.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hcbench {

// One implementation to compare, parsed from its command-line name:
//   hier | flat | native | han          the four standard ones
//   mpi                                 Open MPI's own choice with no hint
//                                       (native unless MCA parameters
//                                       change the coll priorities)
//   hier:<name> | flat:<algorithm>      forced (studies; measure/impls.h):
//                                       a composition or inter-node
//                                       algorithm, a flat algorithm
// optionally followed by hints "@key=value" (repeatable): "@seg=64K" sets
// hiercoll_segment_bytes, any other key goes to the communicator's MPI_Info
// as is (e.g. "hier@hiercoll_bcast_inter_algorithm=twotree").
struct ImplSpec {
  enum Kind { kHier, kFlat, kNative, kHan, kMpi };
  std::string name;       // as given; the CSV's impl column
  Kind kind = kHier;
  std::string algorithm;  // forced name after "hier:" / "flat:" ("" = selection decides)
  bool tuned = false;     // "tuned": hier driven by the tuning file of --tuning
  std::vector<std::pair<std::string, std::string>> hints;  // info key, value
};

// False (and *error) for a name that is none of these or a malformed hint.
bool parse_impl(const std::string& text, ImplSpec* spec, std::string* error);

}  // namespace hcbench
