// The communicator of a fuzz case, made the way the case says (a duplicate
// of MPI_COMM_WORLD, MPI_Comm_split, MPI_Comm_create_group) and given the
// case's hiercoll hints through MPI_Comm_set_info.  Collective over
// MPI_COMM_WORLD.
#pragma once

#include <mpi.h>

#include <string>

#include "fuzz/fuzz_case.h"

namespace hiercoll::fuzz {

// The mode a case's communicator gets: HIERCOLL_MODE from the environment
// where it is set (`off`: both sides of the comparison are Open MPI's, a
// check of the fuzzer itself), else the case's.
std::string case_mode(const FuzzCase& c);
// Whether hiercoll's side of case c goes to Open MPI too (mode off).
bool hiercoll_off(const FuzzCase& c);

// MPI_COMM_NULL on ranks that are not members.  Errors return (MPI_ERRORS_RETURN).
MPI_Comm make_case_comm(const FuzzCase& c);

}  // namespace hiercoll::fuzz
