#include "runtime/op_types.h"

#include <unordered_map>
#include <vector>

namespace hiercoll {

namespace {

// The type classes of MPI-3.1 §5.9.2, one bit each.
enum : unsigned {
  kCInteger = 1u << 0,
  kFortranInteger = 1u << 1,
  kFloating = 1u << 2,
  kLogical = 1u << 3,
  kComplex = 1u << 4,
  kByte = 1u << 5,
  kMultiLanguage = 1u << 6,
  kPair = 1u << 7,  // the value-index pairs of MINLOC and MAXLOC
};

// Which classes each predefined operation takes (MPI-3.1 §5.9.2).
struct OpRule {
  MPI_Op op;
  unsigned classes;
};
const OpRule kOpRules[] = {
    {MPI_MAX, kCInteger | kFortranInteger | kFloating | kMultiLanguage},
    {MPI_MIN, kCInteger | kFortranInteger | kFloating | kMultiLanguage},
    {MPI_SUM, kCInteger | kFortranInteger | kFloating | kComplex | kMultiLanguage},
    {MPI_PROD, kCInteger | kFortranInteger | kFloating | kComplex | kMultiLanguage},
    {MPI_LAND, kCInteger | kLogical},
    {MPI_LOR, kCInteger | kLogical},
    {MPI_LXOR, kCInteger | kLogical},
    {MPI_BAND, kCInteger | kFortranInteger | kByte | kMultiLanguage},
    {MPI_BOR, kCInteger | kFortranInteger | kByte | kMultiLanguage},
    {MPI_BXOR, kCInteger | kFortranInteger | kByte | kMultiLanguage},
    {MPI_MINLOC, kPair},
    {MPI_MAXLOC, kPair},
    // For one-sided accumulates only: Open MPI refuses them in collectives.
    {MPI_REPLACE, 0},
    {MPI_NO_OP, 0},
};

// The classes of each predefined datatype.  Open MPI 4.1 also reduces some
// types as C integers (with every integer operation) where the standard puts
// them in a smaller class or none: those carry kCInteger as well.  Types in
// no class (MPI_PACKED, MPI_WCHAR, MPI_2COMPLEX, ...) are absent.
struct TypeGroup {
  unsigned classes;
  std::vector<MPI_Datatype> types;
};
const std::vector<TypeGroup>& type_groups() {
  static const std::vector<TypeGroup> groups = {
      {kCInteger,
       {MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT,
        MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T, MPI_INT16_T,
        MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T}},
      {kCInteger, {MPI_CHAR, MPI_CHARACTER}},  // characters: no class in the standard
      {kFortranInteger, {MPI_INTEGER, MPI_INTEGER4}},
      {kFortranInteger | kCInteger, {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER8}},
      {kFloating,
       {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8}},
      {kLogical, {MPI_LOGICAL, MPI_LOGICAL4, MPI_C_BOOL, MPI_CXX_BOOL}},
      {kLogical | kCInteger, {MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL8}},
      {kComplex,
       {MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_COMPLEX8, MPI_COMPLEX16, MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX,
        MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX,
        MPI_CXX_LONG_DOUBLE_COMPLEX}},
#ifdef MPI_REAL16  // only where the Fortran compiler has a 16-byte real
      {kFloating, {MPI_REAL16}},
      {kComplex, {MPI_COMPLEX32}},
#endif
      {kByte | kCInteger, {MPI_BYTE}},
      {kMultiLanguage | kCInteger, {MPI_AINT, MPI_OFFSET, MPI_COUNT}},
      {kPair,
       {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2REAL,
        MPI_2DOUBLE_PRECISION, MPI_2INTEGER}},
  };
  return groups;
}

unsigned named_type_classes(MPI_Datatype type) {
  static const std::unordered_map<MPI_Datatype, unsigned> classes = [] {
    std::unordered_map<MPI_Datatype, unsigned> m;
    for (const TypeGroup& g : type_groups())
      for (MPI_Datatype t : g.types) m[t] = g.classes;
    return m;
  }();
  auto it = classes.find(type);
  return it == classes.end() ? 0 : it->second;
}

int combiner_of(MPI_Datatype type) {
  int ni, na, nd, combiner;
  PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
  return combiner;
}

// The classes of a predefined type; 0 for derived types.  The table first:
// the common types need no MPI query (predefined handles are never freed,
// so no derived type can share one).
unsigned type_classes(MPI_Datatype type) {
  if (const unsigned classes = named_type_classes(type)) return classes;
  switch (combiner_of(type)) {
    case MPI_COMBINER_NAMED: return 0;
    case MPI_COMBINER_F90_REAL: return kFloating;
    case MPI_COMBINER_F90_COMPLEX: return kComplex;
    case MPI_COMBINER_F90_INTEGER: return kFortranInteger | kCInteger;  // as INTEGER1/2/8 above
    default: return 0;
  }
}

}  // namespace

bool is_predefined_op(MPI_Op op) {
  for (const OpRule& r : kOpRules)
    if (r.op == op) return true;
  return false;
}

bool is_predefined_type(MPI_Datatype type) {
  if (named_type_classes(type) != 0) return true;
  switch (combiner_of(type)) {
    case MPI_COMBINER_NAMED: case MPI_COMBINER_F90_REAL: case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
      return true;
    default:
      return false;
  }
}

bool op_defined_on(MPI_Op op, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return false;
  for (const OpRule& r : kOpRules)
    if (r.op == op) return (r.classes & type_classes(type)) != 0;
  return false;
}

}  // namespace hiercoll
