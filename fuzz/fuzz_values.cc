#include "fuzz/fuzz_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace hiercoll::fuzz {

TypedBuffer::TypedBuffer(const FuzzType& t, int64_t elems) {
  MPI_Type_get_extent(t.type, &lb_, &extent_);
  bytes_.assign(size_t(std::max<int64_t>(elems, 1) * extent_), char(0x5b));
}

namespace {

template <typename T>
void put(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

int64_t uniform(std::mt19937_64& rng, int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); }
double real(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * double(rng() >> 11) / double(uint64_t(1) << 53);
}

// A signed integer for op: sums and products small enough that no
// contribution order overflows (8 ranks at most per communicator here,
// with room to spare for more).
int64_t signed_value(std::mt19937_64& rng, MPI_Op op, int64_t max_sum) {
  if (op == MPI_SUM) return uniform(rng, -max_sum, max_sum);
  if (op == MPI_PROD) return uniform(rng, -1, 1) | 1;  // -1 or 1
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return uniform(rng, 0, 2);
  return int64_t(rng());  // truncated to the type: any value
}

template <typename T>
T float_value(std::mt19937_64& rng, MPI_Op op) {
  if (op == MPI_SUM) return T(real(rng, -1000, 1000));
  if (op == MPI_PROD) return T((rng() & 1 ? -1 : 1) * real(rng, 0.5, 2));
  return T(real(rng, -1e6, 1e6));
}

void fill_element(const FuzzType& t, const FuzzOp& fop, std::mt19937_64& rng, char* e) {
  if (fop.user) {
    for (int o : t.int_offsets) put(e + o, uint32_t(rng()));  // the user operations wrap
    return;
  }
  const MPI_Op op = fop.op;
  switch (t.basic) {
    case Basic::kInt8: put(e, int8_t(signed_value(rng, op, 15))); break;
    case Basic::kUint8: {
      const int64_t v = op == MPI_SUM ? uniform(rng, 0, 30) : op == MPI_PROD ? uniform(rng, 0, 1) : int64_t(rng());
      put(e, uint8_t(v));
      break;
    }
    case Basic::kInt16: put(e, int16_t(signed_value(rng, op, 4000))); break;
    case Basic::kInt32: put(e, int32_t(signed_value(rng, op, 100000000))); break;
    case Basic::kInt64: put(e, int64_t(signed_value(rng, op, int64_t(1) << 56))); break;
    case Basic::kUint32: put(e, uint32_t(rng())); break;  // unsigned arithmetic wraps
    case Basic::kUint64: put(e, uint64_t(rng())); break;
    case Basic::kByte: put(e, uint8_t(rng())); break;
    case Basic::kFloat: put(e, float_value<float>(rng, op)); break;
    case Basic::kDouble: put(e, float_value<double>(rng, op)); break;
    case Basic::kPair:
      // Few distinct values so that ties (lowest index wins) are common.
      if (t.type == MPI_2INT) put(e, int32_t(uniform(rng, 0, 5)));
      else if (t.type == MPI_DOUBLE_INT) put(e, 0.5 * double(uniform(rng, 0, 5)));
      else put(e, 0.5f * float(uniform(rng, 0, 5)));
      put(e + (t.type == MPI_DOUBLE_INT ? 8 : 4), int32_t(uniform(rng, 0, 50)));
      break;
    case Basic::kMixed: break;  // no operation
  }
}

}  // namespace

void fill_input(const FuzzType& t, const FuzzOp* op, std::mt19937_64& rng, TypedBuffer* buf) {
  std::vector<char>& b = buf->bytes();
  if (!op) {
    for (char& x : b) x = char(rng());
    return;
  }
  const int64_t elems = int64_t(b.size()) / buf->extent();
  for (int64_t i = 0; i < elems; ++i) fill_element(t, *op, rng, buf->elem0() + i * buf->extent());
}

std::string compare_to_rounding(const FuzzType& t, const std::vector<char>& a, const std::vector<char>& b,
                                int ranks) {
  const bool is_float = t.basic == Basic::kFloat;
  const size_t size = is_float ? sizeof(float) : sizeof(double);
  const double eps = is_float ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  for (size_t i = 0; i * size < a.size(); ++i) {
    double x, y;
    if (is_float) {
      float fx, fy;
      std::memcpy(&fx, &a[i * size], size);
      std::memcpy(&fy, &b[i * size], size);
      x = fx, y = fy;
    } else {
      std::memcpy(&x, &a[i * size], size);
      std::memcpy(&y, &b[i * size], size);
    }
    // Each of the ranks-1 combinations rounds once; sums of values up to
    // 1000 in magnitude, products relative.
    const double tol = 4 * ranks * eps * (ranks * 1000.0 + std::max(std::fabs(x), std::fabs(y)));
    if (!(std::fabs(x - y) <= tol))
      return "element " + std::to_string(i) + ": " + std::to_string(x) + " vs MPI's " + std::to_string(y);
  }
  return "";
}

}  // namespace hiercoll::fuzz
