#include "runtime/profile.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/settings.h"
#include "select/profile_file.h"

namespace hiercoll {

namespace {

const char* profile_path() {
  const std::string& path = env_settings().profile_file;
  return path.empty() ? nullptr : path.c_str();
}

struct Recorder {
  std::mutex mu;
  std::vector<LayoutKey> layouts;
  std::map<std::tuple<int, int, int64_t>, int64_t> counts;  // (layout, op, bytes) -> calls

  Profile profile() {
    std::lock_guard<std::mutex> lock(mu);
    Profile p;
    for (const LayoutKey& k : layouts) p.entries.push_back({k, {}});
    for (const auto& kv : counts)
      p.entries[std::get<0>(kv.first)].counts.push_back(
          {api_op_name(static_cast<ApiOp>(std::get<1>(kv.first))), std::get<2>(kv.first), kv.second});
    return p;
  }
};

Recorder& recorder() {
  static Recorder* r = new Recorder;  // outlives every communicator
  return *r;
}

}  // namespace

bool profiling() { return profile_path() != nullptr; }

void profile_call(CommState* state, ApiOp op, int64_t bytes) {
  if (state->topology->rank != 0) return;
  Recorder& r = recorder();
  std::lock_guard<std::mutex> lock(r.mu);
  if (state->profile_layout < 0) {
    const LayoutKey key = layout_key(*state->topology->layout);
    int i = 0;
    while (i < static_cast<int>(r.layouts.size()) && !(r.layouts[i] == key)) ++i;
    if (i == static_cast<int>(r.layouts.size())) r.layouts.push_back(key);
    state->profile_layout = i;
  }
  ++r.counts[std::make_tuple(state->profile_layout, static_cast<int>(op), bytes)];
}

void write_profile() {
  if (!profiling()) return;
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mine = profile_to_text(recorder().profile());
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(size), offsets(size);
  PMPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (int i = 0; i < size; ++i) offsets[i] = total, total += lens[i];
    all.resize(total);
  }
  PMPI_Gatherv(mine.data(), len, MPI_CHAR, &all[0], lens.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  const std::string path = profile_path();
  Profile merged;
  std::string error;
  // Several runs add up; a file that is not a profile is not overwritten.
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    std::fclose(f);
    if (!load_profile(path, &merged, &error)) {
      std::fprintf(stderr, "hiercoll: profile not written: %s\n", error.c_str());
      return;
    }
  }
  for (int i = 0; i < size; ++i) {
    Profile p;
    if (parse_profile_text(all.substr(offsets[i], lens[i]), "rank " + std::to_string(i), &p, &error))
      merge_profile(&merged, p);
  }
  if (!save_profile(path, merged, &error)) std::fprintf(stderr, "hiercoll: profile not written: %s\n", error.c_str());
}

}  // namespace hiercoll
