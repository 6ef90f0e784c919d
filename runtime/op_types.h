// Which predefined reduction operations are defined on which datatypes: the
// type classes of MPI-3.1 §5.9.2, as Open MPI 4.1 applies them.  Checked up
// front on every rank, so a bad pair is MPI_ERR_OP everywhere before anything
// is sent (MPI_Reduce_local would refuse it only on the ranks that reduce).
#pragma once

#include <mpi.h>

namespace hiercoll {

// One of MPI's predefined operations (MPI_MAX ... MPI_NO_OP).
bool is_predefined_op(MPI_Op op);

// A predefined datatype: a named one, or a parameterised Fortran 90 type
// (MPI_Type_create_f90_*), which MPI counts as predefined.
bool is_predefined_type(MPI_Datatype type);

// Whether the predefined operation `op` is defined on `type`; false for
// derived datatypes and MPI_DATATYPE_NULL, as in Open MPI.
bool op_defined_on(MPI_Op op, MPI_Datatype type);

}  // namespace hiercoll
