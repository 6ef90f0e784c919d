// Runs one fuzz case on its communicator through hiercoll (MPI_*, blocking
// or nonblocking, one call or several in flight) and through Open MPI
// (PMPI_*, blocking) on the same inputs and compares this rank's results
// call by call: bit for bit (gaps of derived types included),
// floating-point sums and products to rounding.
#pragma once

#include <mpi.h>

#include <string>

#include "fuzz/fuzz_case.h"

namespace hiercoll::fuzz {

// "" when this rank's results agree, else what differs.
std::string run_case(const FuzzCase& c, MPI_Comm comm);

}  // namespace hiercoll::fuzz
