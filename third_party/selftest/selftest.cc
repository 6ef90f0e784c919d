// Sanity test of the third_party bindings: links GoogleTest, hwloc and Open
// MPI and calls into each (no MPI_Init needed for the calls used here).
#include <hwloc.h>
#include <mpi.h>

#include <gtest/gtest.h>

#include <string>

TEST(SelfTest, HwlocSeesAtLeastOnePu) {
  hwloc_topology_t topo;
  ASSERT_EQ(hwloc_topology_init(&topo), 0);
  ASSERT_EQ(hwloc_topology_load(topo), 0);
  const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  EXPECT_GE(pus, 1);
  EXPECT_GE(hwloc_topology_get_depth(topo), 2);
  hwloc_topology_destroy(topo);
}

TEST(SelfTest, HwlocHeaderMatchesLibraryMajorVersion) {
  // Header and library must come from the same hwloc major version.
  EXPECT_EQ(hwloc_get_api_version() >> 16, unsigned{HWLOC_API_VERSION} >> 16);
}

TEST(SelfTest, MpiLibraryIsOpenMpi) {
  // MPI_Get_library_version may be called before MPI_Init (MPI-3.1, 8.7).
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  ASSERT_EQ(MPI_Get_library_version(version, &len), MPI_SUCCESS);
  ASSERT_GT(len, 0);
  const std::string text(version, static_cast<std::size_t>(len));
  EXPECT_NE(text.find("Open MPI"), std::string::npos) << text;

  int major = 0;
  int minor = 0;
  ASSERT_EQ(MPI_Get_version(&major, &minor), MPI_SUCCESS);
  EXPECT_EQ(major, MPI_VERSION);
  EXPECT_EQ(minor, MPI_SUBVERSION);

  int initialized = 1;
  ASSERT_EQ(MPI_Initialized(&initialized), MPI_SUCCESS);
  EXPECT_EQ(initialized, 0);
}
