#include "tests/tuning_job.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "select/machine.h"

namespace hiercoll::testing {

namespace {

// Made once by rank 0 under the test's temporary directory; every rank
// gets its name (the emulated nodes share the file system).
const std::string& job_dir() {
  static const std::string dir = [] {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[4096] = {};
    if (rank == 0) {
      const char* tmp = std::getenv("TEST_TMPDIR");
      const std::string pattern = std::string(tmp ? tmp : "/tmp") + "/tuning_XXXXXX";
      pattern.copy(name, sizeof name - 1);
      if (!mkdtemp(name)) name[0] = '\0';
    }
    PMPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    return std::string(name);
  }();
  return dir;
}

bool is_rank0() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

}  // namespace

const Layout& world_layout() {
  const Topology* t = nullptr;
  EXPECT_EQ(get_topology(MPI_COMM_WORLD, &t), MPI_SUCCESS);
  return *t->layout;
}

LayoutKey world_key() { return layout_key(world_layout()); }

std::string job_path(const std::string& name) {
  EXPECT_FALSE(job_dir().empty()) << "no temporary directory";
  return job_dir() + "/" + name;
}

std::string write_tuning(const std::string& name, const std::vector<RangeSpec>& ranges, const LayoutKey& key) {
  TuningEntry e;
  e.layout = key;
  e.machine = builtin_machine();
  for (const RangeSpec& s : ranges) {
    TunedRange r;
    r.from_bytes = s.from;
    r.to_bytes = s.to;
    std::string error;
    EXPECT_TRUE(parse_method(s.method, &r.method, &error)) << error;
    r.segment_bytes = s.segment_bytes;
    e.ranges[static_cast<int>(s.op)].push_back(r);
  }
  TuningFile f;
  f.entries.push_back(e);
  return write_text(name, tuning_to_text(f));
}

std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = job_path(name);
  if (is_rank0()) {
    std::ofstream out(path);
    out << text;
    EXPECT_TRUE(out.good()) << path;
  }
  PMPI_Barrier(MPI_COMM_WORLD);
  return path;
}

MPI_Comm comm_with(const std::vector<std::pair<std::string, std::string>>& hints) {
  MPI_Info info;
  MPI_Info_create(&info);
  for (const auto& h : hints) MPI_Info_set(info, h.first.c_str(), h.second.c_str());
  MPI_Comm comm;
  EXPECT_EQ(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm), MPI_SUCCESS);
  MPI_Info_free(&info);
  return comm;
}

}  // namespace hiercoll::testing
