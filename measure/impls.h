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
//   flat:<a> as flat with hiercoll_<op>_algorithm=<a> for every operation
//            that has a flat algorithm of that name
//   hier:<a> as hier with, per operation, hiercoll_<op>_composition=<a>
//            where <a> is one of its hierarchical compositions, else
//            hiercoll_<op>_inter_algorithm=<a> where <a> is a flat algorithm
//            its compositions can run among the node leaders
// plus the @key=value hints of the command line.  Operations a forced
// name means nothing to are skipped for that implementation.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "measure/impl_spec.h"
#include "measure/ops.h"

namespace hcbench {

struct Impl {
  ImplSpec spec;
  MPI_Comm comm = MPI_COMM_NULL;
  bool via_hiercoll = true;
  std::vector<std::string> forced_ops;  // forced name: the operations it is forced on

  // Why op cannot run on this implementation ("" = it can).
  std::string skip_reason(const OpInfo& op) const;
  // What ran in the last call of op on this process: hiercoll's
  // last_algorithm(), or "ompi:<function>" from Open MPI's coll table.
  std::string algorithm(const OpInfo& op) const;
  // The info hints given to the communicator, "key=value ...".
  std::string hints_text;
  // "" when `ran` (what the calls of an operation reported) is what the
  // forced name asked for, else a note saying what ran instead.
  std::string forced_note(const OpInfo& op, const std::string& ran) const;
};

// Collective over `base`. Creates one communicator per implementation;
// fails (returns false, message in *error) for a forced name that no
// operation knows.
bool create_impls(const std::vector<ImplSpec>& specs, MPI_Comm base, std::vector<Impl>* impls, std::string* error);
void free_impls(std::vector<Impl>* impls);

// "ompi:han_bcast_intra_dynamic" for comm's op ("" when unknown).
std::string ompi_function(MPI_Comm comm, const OpInfo& op);

}  // namespace hcbench
