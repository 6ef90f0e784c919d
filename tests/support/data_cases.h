// Datatype/operation pairs the algorithm tests run with, and how to fill
// and read buffers of them.  Values are small integers, so sums are exact in
// any association order and results can be compared bit for bit.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace hiercoll::testing {

struct DataCase {
  std::string name;
  MPI_Datatype type;   // element type of the buffers
  MPI_Datatype basic;  // the basic type an element is made of
  int basics_per_elem;
  MPI_Op op;           // for reductions
  bool commutative;
};

// The cases of the test matrix: int/SUM, double/MAX, a
// non-contiguous vector type with a user-defined sum, MPI_2INT/MINLOC, and a non-commutative
// 2x2 integer matrix product.  Created on first use (needs MPI_Init).
// Sanitized (tests/support/sanitize_mode.h), the int, the vector and the
// matrix cases only; data_case() finds any of them.
const std::vector<DataCase>& data_cases();
const DataCase& data_case(const std::string& name);
// Bytes of one element of the case's type (a composition's unit size).
int type_bytes(const DataCase& dc);

// Datatypes of doubles for calls where ranks (or the two sides of a call)
// describe the same data with different datatypes of one type signature:
// "double"; "contiguous3" (3 doubles) and "dup_chain3" (a dup of a
// contiguous of a dup of MPI_DOUBLE), which are their bytes in order;
// "vector3" (3 doubles with holes between and after them) and "permuted3"
// (a struct of 3 adjacent doubles listed out of memory order), which are
// not.  basics_per_elem is the doubles per element; no operation.
const std::vector<DataCase>& typed_cases();
const DataCase& typed_case(const std::string& name);

// Copies scount elements of stype at src into dcount elements of dtype at
// dst (same type signature) through MPI_Pack/MPI_Unpack: no message, so
// threads may copy at once (a send-receive on MPI_COMM_SELF would let one
// thread's receive match another thread's send).
void copy_typed(const void* src, int scount, MPI_Datatype stype, void* dst, int dcount, MPI_Datatype dtype);

// Writes the deterministic input of (rank, element i) for n elements into a
// buffer of n elements of c.type.  `salt` varies the values between calls.
void fill_input(const DataCase& c, int rank, int salt, void* buf, int64_t n);

// A buffer of n elements of c.type, with every byte (gaps included) set to
// a sentinel so that writes outside the data are caught.
std::vector<char> sentinel_buffer(const DataCase& c, int64_t n);
// A sentinel buffer of n elements holding rank's input (fill_input).
std::vector<char> input_buffer(const DataCase& c, int rank, int salt, int64_t n);
// Address of element 0 inside a buffer made by sentinel_buffer.
void* elem0(const DataCase& c, std::vector<char>& buf);
// A datatype's extent.
MPI_Aint extent_of(MPI_Datatype t);

}  // namespace hiercoll::testing
