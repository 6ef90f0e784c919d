// hiercoll for C++: typed convenience overloads of the C API (hiercoll.h)
// over contiguous containers (std::vector, std::array, or anything with
// data() and size()).  Element types map to MPI datatypes through
// hiercoll::mpi_type<T>() (arithmetic types; specialise it for others).
// Every function returns the MPI error code of the call.
#pragma once

#include <mpi.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "runtime/hiercoll.h"

namespace hiercoll {

template <typename T> MPI_Datatype mpi_type();
template <> inline MPI_Datatype mpi_type<char>() { return MPI_CHAR; }
template <> inline MPI_Datatype mpi_type<signed char>() { return MPI_SIGNED_CHAR; }
template <> inline MPI_Datatype mpi_type<unsigned char>() { return MPI_UNSIGNED_CHAR; }
template <> inline MPI_Datatype mpi_type<short>() { return MPI_SHORT; }
template <> inline MPI_Datatype mpi_type<unsigned short>() { return MPI_UNSIGNED_SHORT; }
template <> inline MPI_Datatype mpi_type<int>() { return MPI_INT; }
template <> inline MPI_Datatype mpi_type<unsigned>() { return MPI_UNSIGNED; }
template <> inline MPI_Datatype mpi_type<long>() { return MPI_LONG; }
template <> inline MPI_Datatype mpi_type<unsigned long>() { return MPI_UNSIGNED_LONG; }
template <> inline MPI_Datatype mpi_type<long long>() { return MPI_LONG_LONG; }
template <> inline MPI_Datatype mpi_type<unsigned long long>() { return MPI_UNSIGNED_LONG_LONG; }
template <> inline MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <> inline MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
template <> inline MPI_Datatype mpi_type<long double>() { return MPI_LONG_DOUBLE; }
template <> inline MPI_Datatype mpi_type<std::complex<float>>() { return MPI_C_FLOAT_COMPLEX; }
template <> inline MPI_Datatype mpi_type<std::complex<double>>() { return MPI_C_DOUBLE_COMPLEX; }

template <typename C> using elem_t = typename std::remove_reference_t<C>::value_type;

inline int comm_size(MPI_Comm comm) {
  int n = 0;
  MPI_Comm_size(comm, &n);
  return n;
}

// Broadcasts root's v (same size on every rank) in place.
template <typename C>
int bcast(C& v, int root, MPI_Comm comm) {
  return hiercoll_bcast(v.data(), static_cast<int>(v.size()), mpi_type<elem_t<C>>(), root, comm);
}

// out (resized on the root) = in(0) op ... op in(p-1); non-roots' out is untouched.
template <typename C>
int reduce(const C& in, std::vector<elem_t<C>>& out, MPI_Op op, int root, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root) out.resize(in.size());
  return hiercoll_reduce(in.data(), rank == root ? out.data() : nullptr, static_cast<int>(in.size()),
                         mpi_type<elem_t<C>>(), op, root, comm);
}

// out (resized) = in(0) op ... op in(p-1) on every rank.
template <typename C>
int allreduce(const C& in, std::vector<elem_t<C>>& out, MPI_Op op, MPI_Comm comm) {
  out.resize(in.size());
  return hiercoll_allreduce(in.data(), out.data(), static_cast<int>(in.size()), mpi_type<elem_t<C>>(), op, comm);
}

// v = v(0) op ... op v(p-1) on every rank, in place.
template <typename C>
int allreduce_in_place(C& v, MPI_Op op, MPI_Comm comm) {
  return hiercoll_allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), mpi_type<elem_t<C>>(), op, comm);
}

// Inclusive prefix: out (resized) = in(0) op ... op in(rank).
template <typename C>
int scan(const C& in, std::vector<elem_t<C>>& out, MPI_Op op, MPI_Comm comm) {
  out.resize(in.size());
  return hiercoll_scan(in.data(), out.data(), static_cast<int>(in.size()), mpi_type<elem_t<C>>(), op, comm);
}

// Exclusive prefix: out (resized) = in(0) op ... op in(rank-1); rank 0's is unspecified.
template <typename C>
int exscan(const C& in, std::vector<elem_t<C>>& out, MPI_Op op, MPI_Comm comm) {
  out.resize(in.size());
  return hiercoll_exscan(in.data(), out.data(), static_cast<int>(in.size()), mpi_type<elem_t<C>>(), op, comm);
}

// out (resized to p * in.size()) = every rank's in, in rank order.
template <typename C>
int allgather(const C& in, std::vector<elem_t<C>>& out, MPI_Comm comm) {
  const int n = static_cast<int>(in.size());
  out.resize(size_t(n) * comm_size(comm));
  const MPI_Datatype t = mpi_type<elem_t<C>>();
  return hiercoll_allgather(in.data(), n, t, out.data(), n, t, comm);
}

// The root's out (resized to p * in.size()) = every rank's in, in rank order.
template <typename C>
int gather(const C& in, std::vector<elem_t<C>>& out, int root, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  const int n = static_cast<int>(in.size());
  if (rank == root) out.resize(size_t(n) * comm_size(comm));
  const MPI_Datatype t = mpi_type<elem_t<C>>();
  return hiercoll_gather(in.data(), n, t, rank == root ? out.data() : nullptr, n, t, root, comm);
}

// out (size `count`) = block `rank` of the root's in (p * count elements).
template <typename C>
int scatter(const C& in, std::vector<elem_t<C>>& out, int count, int root, MPI_Comm comm) {
  out.resize(count);
  const MPI_Datatype t = mpi_type<elem_t<C>>();
  return hiercoll_scatter(in.data(), count, t, out.data(), count, t, root, comm);
}

// Block j of in (in.size() / p elements each) goes to rank j; out (resized) gets block i from rank i.
template <typename C>
int alltoall(const C& in, std::vector<elem_t<C>>& out, MPI_Comm comm) {
  const int p = comm_size(comm);
  const int n = static_cast<int>(in.size()) / p;
  out.resize(size_t(n) * p);
  const MPI_Datatype t = mpi_type<elem_t<C>>();
  return hiercoll_alltoall(in.data(), n, t, out.data(), n, t, comm);
}

// out (resized to in.size() / p) = block `rank` of the element-wise reduction of every rank's in.
template <typename C>
int reduce_scatter_block(const C& in, std::vector<elem_t<C>>& out, MPI_Op op, MPI_Comm comm) {
  const int n = static_cast<int>(in.size()) / comm_size(comm);
  out.resize(n);
  return hiercoll_reduce_scatter_block(in.data(), out.data(), n, mpi_type<elem_t<C>>(), op, comm);
}

inline int barrier(MPI_Comm comm) { return hiercoll_barrier(comm); }

}  // namespace hiercoll
