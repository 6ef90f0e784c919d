// Open MPI's own collective as the model costs it: the algorithm Open
// MPI 4.1's coll/tuned picks by its fixed decision rules
// (coll_tuned_decision_fixed.c: by operation, communicator size,
// commutativity and the call's bytes), run as the registry's algorithm of
// the same shape.  Where coll/tuned's pick has no such algorithm here (its
// k-nomial or split binary tree bcast, its linear allreduce, ...) native
// is left out of the model's costs: only a tuning file's measurement
// costs it then.  Scan and exscan are coll/basic's linear chain (coll/tuned
// has none); reduce_scatter, the v-variants and alltoallw are left out.
#pragma once

#include <string>

#include "decide/candidate.h"
#include "decide/model_call.h"

namespace hiercoll {

struct NativeAlgorithm {
  std::string ompi_name;  // coll/tuned's name of its pick ("" where no rule applies)
  bool costed = false;    // the registry has its shape: `as` is it
  MethodChoice as;        // a flat method with its segment
};

// coll/tuned's pick for the call (bytes as select/tuning_file.h
// tuning_bytes counts them, which is coll/tuned's own measure for the
// operations above).
NativeAlgorithm native_algorithm(const SimCall& call);

}  // namespace hiercoll
