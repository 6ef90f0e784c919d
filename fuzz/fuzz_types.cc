#include "fuzz/fuzz_types.h"

#include <cstdint>
#include <cstring>

namespace hiercoll::fuzz {

namespace {

// The int offsets of a datatype the user operations run on travel with the
// datatype, as an attribute that MPI_Type_dup copies: the operations find
// them on duplicates too (hiercoll's side of a nonblocking case calls with
// duplicates of its own).  A datatype without them (size zero) has none.
int int_offsets_keyval() {
  static const int keyval = [] {
    int k;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k, nullptr);
    return k;
  }();
  return keyval;
}

const std::vector<int>& ints_of(MPI_Datatype t) {
  static const std::vector<int> none;
  void* offsets = nullptr;
  int found = 0;
  MPI_Type_get_attr(t, int_offsets_keyval(), &offsets, &found);
  return found ? *static_cast<const std::vector<int>*>(offsets) : none;
}

// Caches f's int offsets on its datatype (f stays where it is).
void cache_int_offsets(const FuzzType& f) {
  if (!f.int_offsets.empty())
    MPI_Type_set_attr(f.type, int_offsets_keyval(), const_cast<std::vector<int>*>(&f.int_offsets));
}

uint32_t load(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void store(char* p, uint32_t v) { std::memcpy(p, &v, 4); }

// Calls combine(x, y, offsets) for every element pair of a user
// operation's call: x from `in`, y from `inout`, offsets those of dt's ints.
template <typename Combine>
void each_element(void* in, void* inout, int len, MPI_Datatype dt, Combine combine) {
  const std::vector<int>& off = ints_of(dt);
  MPI_Aint lb, ext;
  MPI_Type_get_extent(dt, &lb, &ext);
  for (int e = 0; e < len; ++e)
    combine(static_cast<const char*>(in) + e * ext, static_cast<char*>(inout) + e * ext, off);
}

// inout = in + inout on every int (wrapping).
void usum(void* in, void* inout, int* len, MPI_Datatype* dt) {
  each_element(in, inout, *len, *dt, [](const char* x, char* y, const std::vector<int>& off) {
    for (int o : off) store(y + o, load(x + o) + load(y + o));
  });
}

// inout = in o inout on pairs (a, b) of ints, the maps x -> a x + b:
// (a1, b1) o (a2, b2) = (a1 a2, a1 b2 + b1).
void affine(void* in, void* inout, int* len, MPI_Datatype* dt) {
  each_element(in, inout, *len, *dt, [](const char* x, char* y, const std::vector<int>& off) {
    for (size_t k = 0; k + 1 < off.size(); k += 2) {
      const uint32_t a1 = load(x + off[k]), b1 = load(x + off[k + 1]);
      const uint32_t a2 = load(y + off[k]), b2 = load(y + off[k + 1]);
      store(y + off[k], a1 * a2);
      store(y + off[k + 1], a1 * b2 + b1);
    }
  });
}

MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}

MPI_Datatype resized(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent) {
  MPI_Datatype r;
  MPI_Type_create_resized(t, lb, extent, &r);
  MPI_Type_free(&t);
  return committed(r);
}

std::vector<FuzzType> make_types() {
  const int I = sizeof(int);
  std::vector<FuzzType> v = {
      {"int8", MPI_SIGNED_CHAR, Basic::kInt8, true, {}},
      {"uint8", MPI_UNSIGNED_CHAR, Basic::kUint8, true, {}},
      {"int16", MPI_SHORT, Basic::kInt16, true, {}},
      {"int", MPI_INT, Basic::kInt32, true, {0}},
      {"unsigned", MPI_UNSIGNED, Basic::kUint32, true, {}},
      {"int64", MPI_LONG_LONG, Basic::kInt64, true, {}},
      {"uint64", MPI_UINT64_T, Basic::kUint64, true, {}},
      {"byte", MPI_BYTE, Basic::kByte, true, {}},
      {"float", MPI_FLOAT, Basic::kFloat, true, {}},
      {"double", MPI_DOUBLE, Basic::kDouble, true, {}},
      {"2int", MPI_2INT, Basic::kPair, true, {0, I}},
      {"double_int", MPI_DOUBLE_INT, Basic::kPair, true, {}},
      {"float_int", MPI_FLOAT_INT, Basic::kPair, true, {}},
  };
  MPI_Datatype t;
  // Two ints three apart, extent of five ints.
  MPI_Type_vector(2, 1, 3, MPI_INT, &t);
  v.push_back({"vector", resized(t, 0, 5 * I), Basic::kInt32, false, {0, 3 * I}});
  // Ints 0, 1, 4 and 6 of an extent of eight.
  {
    const int lengths[3] = {2, 1, 1}, displs[3] = {0, 4, 6};
    MPI_Type_indexed(3, lengths, displs, MPI_INT, &t);
    v.push_back({"indexed", resized(t, 0, 8 * I), Basic::kInt32, false, {0, I, 4 * I, 6 * I}});
  }
  // Two ints listed out of memory order (type map: byte 8, then byte 0), extent 16.
  {
    const int lengths[2] = {1, 1};
    const MPI_Aint displs[2] = {2 * I, 0};
    const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, lengths, displs, types, &t);
    v.push_back({"struct", resized(t, 0, 4 * I), Basic::kInt32, false, {2 * I, 0}});
  }
  // Two contiguous ints with a lower bound of -8 and an extent of 16 bytes.
  MPI_Type_contiguous(2, MPI_INT, &t);
  v.push_back({"resized_lb", resized(t, -8, 16), Basic::kInt32, false, {0, I}});
  // A char, a double and an int with gaps between (data movement only).
  {
    const int lengths[3] = {1, 1, 1};
    const MPI_Aint displs[3] = {0, 8, 20};
    const MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, lengths, displs, types, &t);
    v.push_back({"struct_mixed", resized(t, 0, 32), Basic::kMixed, false, {}});
  }
  for (const FuzzType& f : v) cache_int_offsets(f);  // returning v moves no element
  return v;
}

std::vector<FuzzType> make_zero_size_types() {
  MPI_Datatype contiguous, vector, structure, empty;
  MPI_Type_contiguous(0, MPI_INT, &contiguous);
  MPI_Type_vector(0, 1, 2, MPI_INT, &vector);
  const int length = 1;
  const MPI_Aint displ = 0;
  const MPI_Datatype member = MPI_INT;
  MPI_Type_create_struct(0, &length, &displ, &member, &structure);
  MPI_Type_contiguous(0, MPI_INT, &empty);
  return {{"contiguous0", committed(contiguous), Basic::kByte, false, {}},
          {"vector0", committed(vector), Basic::kByte, false, {}},
          {"struct0", committed(structure), Basic::kByte, false, {}},
          {"resized0", resized(empty, 0, 8), Basic::kByte, false, {}}};
}

MPI_Op user_op(MPI_User_function* f, bool commutative) {
  MPI_Op op;
  MPI_Op_create(f, commutative, &op);
  return op;
}

}  // namespace

const std::vector<FuzzType>& fuzz_types() {
  static const std::vector<FuzzType> types = make_types();
  return types;
}

const std::vector<FuzzType>& zero_size_types() {
  static const std::vector<FuzzType> types = make_zero_size_types();
  return types;
}

std::vector<FuzzOp> ops_for(const FuzzType& t) {
  static const FuzzOp kUsum{"usum", user_op(usum, true), true, true, usum};
  static const FuzzOp kAffine{"affine", user_op(affine, false), false, true, affine};
  std::vector<FuzzOp> v;
  auto add = [&](std::initializer_list<std::pair<const char*, MPI_Op>> ops) {
    for (const auto& o : ops) v.push_back({o.first, o.second, true, false});
  };
  switch (t.basic) {
    case Basic::kFloat: case Basic::kDouble:
      add({{"sum", MPI_SUM}, {"prod", MPI_PROD}, {"min", MPI_MIN}, {"max", MPI_MAX}});
      break;
    case Basic::kPair: add({{"minloc", MPI_MINLOC}, {"maxloc", MPI_MAXLOC}}); break;
    case Basic::kByte: add({{"band", MPI_BAND}, {"bor", MPI_BOR}, {"bxor", MPI_BXOR}}); break;
    case Basic::kMixed: break;
    default:
      if (!t.predefined) break;
      add({{"sum", MPI_SUM}, {"prod", MPI_PROD}, {"min", MPI_MIN}, {"max", MPI_MAX}, {"band", MPI_BAND},
           {"bor", MPI_BOR}, {"bxor", MPI_BXOR}, {"land", MPI_LAND}, {"lor", MPI_LOR}, {"lxor", MPI_LXOR}});
  }
  if (!t.int_offsets.empty()) v.push_back(kUsum);
  if (!t.int_offsets.empty() && t.int_offsets.size() % 2 == 0) v.push_back(kAffine);
  return v;
}

bool compared_to_rounding(const FuzzType& t, MPI_Op op) {
  return (t.basic == Basic::kFloat || t.basic == Basic::kDouble) && (op == MPI_SUM || op == MPI_PROD);
}

}  // namespace hiercoll::fuzz
