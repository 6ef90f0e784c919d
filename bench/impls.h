// The implementations under comparison, each on its own duplicate of the
// job's communicator, told apart by the duplicate's MPI_Info:
//   hier     hiercoll API, info hiercoll=hier
//   flat     hiercoll API, info hiercoll=flat
//   native   PMPI_* (Open MPI's own), info ompi_comm_coll_preference=^han
//            (coll/tuned, as Open MPI chooses by default)
//   mpi      PMPI_*, no hint: whatever Open MPI selects by itself
//   han      PMPI_*, info ompi_comm_coll_preference=han: Open MPI 4.1 puts
//            the listed coll components first when it selects the
//            communicator's collectives, so this one communicator runs HAN
//            while the others keep tuned, in the same job (no MCA parameter)
//   hier:<a>, flat:<a>  as hier / flat with hiercoll_<op>_algorithm=<a> for
//            every operation that has an algorithm of that name
// plus the @key=value hints of the command line.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "bench/options.h"
#include "bench/ops.h"

namespace hcbench {

struct Impl {
  ImplSpec spec;
  MPI_Comm comm = MPI_COMM_NULL;
  bool via_hiercoll = true;
  std::vector<std::string> forced_ops;  // forced algorithm: the operations that have it

  // Why op cannot run on this implementation ("" = it can).
  std::string skip_reason(const OpInfo& op) const;
  // What ran in the last call of op on this process: hiercoll's
  // last_algorithm(), or "ompi:<function>" from Open MPI's coll table.
  std::string algorithm(const OpInfo& op) const;
  // The info hints given to the communicator, "key=value ...".
  std::string hints_text;
};

// Collective over `base`. Creates one communicator per implementation;
// fails (returns false, message in *error) for a forced algorithm that no
// operation knows.
bool create_impls(const std::vector<ImplSpec>& specs, MPI_Comm base, std::vector<Impl>* impls, std::string* error);
void free_impls(std::vector<Impl>* impls);

// "ompi:han_bcast_intra_dynamic" for comm's op ("" when unknown).
std::string ompi_function(MPI_Comm comm, const OpInfo& op);

}  // namespace hcbench
