// The datatypes and reduction operations the differential fuzzer draws
// from: predefined types with the predefined operations MPI defines for
// them, and derived types (vector, indexed, struct, resized, negative lower
// bound) made of ints, with two user operations over their ints: a wrapping
// sum (commutative) and the composition of affine maps x -> a x + b on
// pairs of ints (associative, not commutative); and datatypes of size zero
// for calls whose data is empty.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace hiercoll::fuzz {

// How the values of a type are drawn and compared.
enum class Basic { kInt8, kUint8, kInt16, kInt32, kUint32, kInt64, kUint64, kByte, kFloat, kDouble, kPair, kMixed };

struct FuzzType {
  std::string name;
  MPI_Datatype type;
  Basic basic;               // predefined: its class; derived: kInt32 (ints only) or kMixed
  bool predefined;
  std::vector<int> int_offsets;  // byte offsets of an element's ints (user operations); empty: none
};

struct FuzzOp {
  std::string name;
  MPI_Op op;
  bool commutative;
  bool user;  // one of the user operations (usum, affine)
  MPI_User_function* function = nullptr;  // a user operation's: MPI_Op_create makes another of it
};

// Created on first use (after MPI_Init); the same order on every rank.
const std::vector<FuzzType>& fuzz_types();
// Committed datatypes of size zero, each with its own construction: a
// zero-count contiguous, vector and struct, and a zero-size one resized to
// an extent of 8 bytes; created on first use, the same order on every rank.
const std::vector<FuzzType>& zero_size_types();
// The operations defined for t (MPI-3.1 5.9.2 for predefined operations;
// the user operations where t's ints allow them).
std::vector<FuzzOp> ops_for(const FuzzType& t);
// Whether results of (t, op) are compared to rounding (floating-point sums
// and products) rather than bit for bit.
bool compared_to_rounding(const FuzzType& t, MPI_Op op);

}  // namespace hiercoll::fuzz
