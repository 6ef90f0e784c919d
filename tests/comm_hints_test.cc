// Per-communicator hints across the ways communicators are made: a
// duplicate keeps its parent's hints (those from MPI_Comm_set_info too, which
// Open MPI does not keep in the communicator's info), MPI_Comm_dup_with_info
// replaces them with its own, a split starts from the environment again,
// a communicator made on a freed one's handle starts afresh.
// "Which path ran" is read off last_algorithm() after a real allreduce whose
// result is checked.
#include <mpi.h>

#include <string>

#include "runtime/stats.h"
#include "tests/support/mpi_test.h"
#include "tests/support/sanitize_mode.h"

namespace hiercoll::testing {
namespace {

class CommHints : public MpiTest {
 protected:
  // Runs an allreduce on comm, checks its sum, returns what ran.
  static std::string path_of(MPI_Comm comm) {
    int size = 0, rank = 0, sum = -1;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    EXPECT_EQ(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    EXPECT_EQ(sum, size * (size - 1) / 2);
    return last_algorithm();
  }
  static MPI_Info info_of(const char* key, const char* value) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    return info;
  }
  static void set_hint(MPI_Comm comm, const char* key, const char* value) {
    MPI_Info info = info_of(key, value);
    MPI_Comm_set_info(comm, info);
    MPI_Info_free(&info);
  }
};

TEST_F(CommHints, DuplicateOfAnOffCommunicatorStaysOff) {
  MPI_Comm parent, dup, idup;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  ASSERT_NE(path_of(parent), "native");
  set_hint(parent, "hiercoll", "off");
  ASSERT_EQ(path_of(parent), "native");
  MPI_Comm_dup(parent, &dup);
  EXPECT_EQ(path_of(dup), "native");
  MPI_Request req;
  MPI_Comm_idup(parent, &idup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  EXPECT_EQ(path_of(idup), "native");
  for (MPI_Comm* c : {&parent, &dup, &idup}) MPI_Comm_free(c);
}

TEST_F(CommHints, DuplicateKeepsAForcedAlgorithm) {
  MPI_Info info = info_of("hiercoll", "flat");
  MPI_Info_set(info, "hiercoll_allreduce_algorithm", "ring");
  MPI_Comm parent, dup;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &parent);
  MPI_Info_free(&info);
  EXPECT_EQ(path_of(parent), "ring");
  MPI_Comm_dup(parent, &dup);
  EXPECT_EQ(path_of(dup), "ring");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&parent);
}

TEST_F(CommHints, DupWithInfoReplacesTheParentsHints) {
  MPI_Comm parent, child;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  set_hint(parent, "hiercoll", "off");
  MPI_Info info = info_of("hiercoll_allreduce_algorithm", "ring");
  MPI_Comm_dup_with_info(parent, info, &child);
  MPI_Info_free(&info);
  EXPECT_EQ(path_of(child), "ring");  // not off: the new info is all that counts
  MPI_Comm_free(&child);
  MPI_Comm_free(&parent);
}

TEST_F(CommHints, SplitStartsFromTheEnvironment) {
  MPI_Comm parent, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  set_hint(parent, "hiercoll", "off");
  MPI_Comm_split(parent, 0, 0, &split);
  EXPECT_NE(path_of(split), "native");
  MPI_Comm_free(&split);
  MPI_Comm_free(&parent);
}

// A freed communicator's handle often comes back for the next one made:
// the new communicator has its own state (here: not the freed one's "off"),
// although the thread remembers the last communicator it called on.
TEST_F(CommHints, ReusedHandleGetsItsOwnState) {
  int reused = 0;
  for (int round = 0; round < 4; ++round) {
    MPI_Comm off, next;
    MPI_Comm_dup(MPI_COMM_WORLD, &off);
    set_hint(off, "hiercoll", "off");
    ASSERT_EQ(path_of(off), "native");
    const MPI_Comm freed = off;
    MPI_Comm_free(&off);
    MPI_Comm_dup(MPI_COMM_WORLD, &next);
    reused += next == freed;
    EXPECT_NE(path_of(next), "native") << "round " << round << (next == freed ? ", same handle" : "");
    MPI_Comm_free(&next);
  }
  // Open MPI hands the freed object out again, so the remembered pair is
  // exercised (not under ASan, whose allocator holds freed memory back).
  if (!sanitize_mode()) {
    EXPECT_GT(reused, 0);
  }
}

}  // namespace
}  // namespace hiercoll::testing
