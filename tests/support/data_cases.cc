#include "tests/support/data_cases.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {

namespace {

// 2x2 matrix product on unsigned 32-bit entries (wrapping), element layout
// {a, b, c, d} = [[a, b], [c, d]].  inout = in * inout, as MPI requires.
void matmul_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<uint32_t*>(in);
  auto* y = static_cast<uint32_t*>(inout);
  for (int e = 0; e < *len; ++e, x += 4, y += 4) {
    const uint32_t r0 = x[0] * y[0] + x[1] * y[2], r1 = x[0] * y[1] + x[1] * y[3];
    const uint32_t r2 = x[2] * y[0] + x[3] * y[2], r3 = x[2] * y[1] + x[3] * y[3];
    y[0] = r0, y[1] = r1, y[2] = r2, y[3] = r3;
  }
}

// Sum over the vector type below: two ints per element, at 0 and 3, with an
// extent of five ints.  (MPI's predefined operations only take predefined
// datatypes, so derived types come with their own operation.)
void vector_sum_op(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* x = static_cast<int*>(in);
  auto* y = static_cast<int*>(inout);
  for (int e = 0; e < *len; ++e)
    for (int k : {0, 3}) y[5 * e + k] += x[5 * e + k];
}

std::vector<DataCase> make_cases() {
  MPI_Datatype vec, vec_resized, mat;
  // Two ints three apart, then a gap: extent of five ints, size of two.
  MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 5 * sizeof(int), &vec_resized);
  MPI_Type_commit(&vec_resized);
  MPI_Type_free(&vec);
  MPI_Type_contiguous(4, MPI_INT, &mat);
  MPI_Type_commit(&mat);
  MPI_Op matmul, vector_sum;
  MPI_Op_create(&matmul_op, /*commute=*/0, &matmul);
  MPI_Op_create(&vector_sum_op, /*commute=*/1, &vector_sum);
  return {
      {"int_sum", MPI_INT, MPI_INT, 1, MPI_SUM, true},
      {"double_max", MPI_DOUBLE, MPI_DOUBLE, 1, MPI_MAX, true},
      {"vector_sum", vec_resized, MPI_INT, 2, vector_sum, true},
      {"2int_minloc", MPI_2INT, MPI_INT, 2, MPI_MINLOC, true},
      {"matmul", mat, MPI_INT, 4, matmul, false},
  };
}

std::vector<DataCase> make_typed_cases() {
  MPI_Datatype contig, dup_double, contig_of_dup, dup_chain, vec, vec_resized, permuted;
  MPI_Type_contiguous(3, MPI_DOUBLE, &contig);
  MPI_Type_dup(MPI_DOUBLE, &dup_double);
  MPI_Type_contiguous(3, dup_double, &contig_of_dup);
  MPI_Type_dup(contig_of_dup, &dup_chain);
  // Doubles 0, 2 and 4 of an extent of six.
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vec);
  MPI_Type_create_resized(vec, 0, 6 * sizeof(double), &vec_resized);
  // The type map lists the double at byte 16 first, then 0, then 8.
  const int lengths[3] = {1, 1, 1};
  const MPI_Aint displs[3] = {2 * sizeof(double), 0, sizeof(double)};
  const MPI_Datatype types[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_DOUBLE};
  MPI_Type_create_struct(3, lengths, displs, types, &permuted);
  for (MPI_Datatype* t : {&contig, &dup_chain, &vec_resized, &permuted}) MPI_Type_commit(t);
  for (MPI_Datatype* t : {&dup_double, &contig_of_dup, &vec}) MPI_Type_free(t);
  return {
      {"double", MPI_DOUBLE, MPI_DOUBLE, 1, MPI_OP_NULL, true},
      {"contiguous3", contig, MPI_DOUBLE, 3, MPI_OP_NULL, true},
      {"dup_chain3", dup_chain, MPI_DOUBLE, 3, MPI_OP_NULL, true},
      {"vector3", vec_resized, MPI_DOUBLE, 3, MPI_OP_NULL, true},
      {"permuted3", permuted, MPI_DOUBLE, 3, MPI_OP_NULL, true},
  };
}

// The value of basic component k of element i on rank r.
int64_t value_of(const DataCase& c, int r, int salt, int64_t i, int k) {
  if (c.op == MPI_MINLOC) {
    if (k == 1) return r;                          // location: the rank
    return (i * 31 + r * 17 + salt) % 13;          // many ties: lowest rank wins
  }
  if (!c.commutative) return (i * 7 + r * 5 + k * 3 + salt) % 9;  // small matrices
  return (i * 131 + r * 977 + k * 17 + salt * 7) % 2001 - 1000;
}

}  // namespace

namespace {
const std::vector<DataCase>& all_data_cases() {
  static const std::vector<DataCase> cases = make_cases();
  return cases;
}
}  // namespace

const std::vector<DataCase>& data_cases() {
  static const std::vector<DataCase> cases = [] {
    if (!sanitize_mode()) return all_data_cases();
    // The datatypes' and operations' paths: a predefined contiguous type,
    // a non-contiguous type with a user operation, a non-commutative one.
    std::vector<DataCase> some;
    for (const DataCase& c : all_data_cases())
      if (c.name == "int_sum" || c.name == "vector_sum" || c.name == "matmul") some.push_back(c);
    return some;
  }();
  return cases;
}

static const DataCase& find_case(const std::vector<DataCase>& cases, const std::string& name) {
  for (const DataCase& c : cases)
    if (c.name == name) return c;
  throw std::invalid_argument("no data case " + name);
}

int type_bytes(const DataCase& dc) {
  int s = 0;
  MPI_Type_size(dc.type, &s);
  return s;
}

const DataCase& data_case(const std::string& name) { return find_case(all_data_cases(), name); }

const std::vector<DataCase>& typed_cases() {
  static const std::vector<DataCase> cases = make_typed_cases();
  return cases;
}

const DataCase& typed_case(const std::string& name) { return find_case(typed_cases(), name); }

void fill_input(const DataCase& c, int rank, int salt, void* buf, int64_t n) {
  if (n == 0) return;
  const int64_t basics = n * c.basics_per_elem;
  std::vector<char> flat;
  if (c.basic == MPI_DOUBLE) {
    std::vector<double> v(basics);
    for (int64_t j = 0; j < basics; ++j) v[j] = double(value_of(c, rank, salt, j / c.basics_per_elem, j % c.basics_per_elem));
    flat.assign(reinterpret_cast<char*>(v.data()), reinterpret_cast<char*>(v.data() + basics));
  } else {
    std::vector<int> v(basics);
    for (int64_t j = 0; j < basics; ++j) v[j] = int(value_of(c, rank, salt, j / c.basics_per_elem, j % c.basics_per_elem));
    flat.assign(reinterpret_cast<char*>(v.data()), reinterpret_cast<char*>(v.data() + basics));
  }
  // Scatter the flat basics into the (possibly non-contiguous) layout.
  copy_typed(flat.data(), int(basics), c.basic, buf, int(n), c.type);
}

void copy_typed(const void* src, int scount, MPI_Datatype stype, void* dst, int dcount, MPI_Datatype dtype) {
  int bytes = 0, pos = 0;
  MPI_Pack_size(scount, stype, MPI_COMM_SELF, &bytes);
  std::vector<char> packed(static_cast<size_t>(bytes));
  MPI_Pack(src, scount, stype, packed.data(), bytes, &pos, MPI_COMM_SELF);
  const int used = pos;
  pos = 0;
  MPI_Unpack(packed.data(), used, &pos, dst, dcount, dtype, MPI_COMM_SELF);
}

std::vector<char> sentinel_buffer(const DataCase& c, int64_t n) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c.type, &lb, &extent);
  std::vector<char> v(static_cast<size_t>(std::max<int64_t>(n, 1) * extent), char(0x5b));
  return v;
}

MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(t, &lb, &ext);
  return ext;
}

void* elem0(const DataCase& c, std::vector<char>& buf) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(c.type, &lb, &extent);
  return buf.data() - lb;
}

std::vector<char> input_buffer(const DataCase& c, int rank, int salt, int64_t n) {
  std::vector<char> b = sentinel_buffer(c, n);
  fill_input(c, rank, salt, elem0(c, b), n);
  return b;
}

}  // namespace hiercoll::testing
