// Runs one fuzz case on its communicator through hiercoll (MPI_*) and
// through Open MPI (PMPI_*) on the same inputs and compares this rank's
// results: bit for bit (gaps of derived types included), floating-point
// sums and products to rounding.
#pragma once

#include <mpi.h>

#include <string>

#include "fuzz/fuzz_case.h"

namespace hiercoll::fuzz {

// "" when this rank's results agree, else what differs.
std::string run_case(const FuzzCase& c, MPI_Comm comm);

}  // namespace hiercoll::fuzz
