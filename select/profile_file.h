// The profile file: which collectives an application called, at which
// sizes, how often, per layout (HIERCOLL_PROFILE=FILE; `hiercoll tune
// --profile FILE` tunes those, most frequent first).  JSON:
//
//   { "format": "hiercoll-profile", "version": 1,
//     "entries": [ { "layout": { ... as in the tuning file ... },
//                    "calls": [ { "op": "allreduce", "bytes": 65536, "calls": 1200 }, ... ] } ] }
//
// "op" is the MPI operation's name without MPI_ (bcast, reduce_scatter_block,
// ...); "bytes" the size as the tuning file counts it (tuning_bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "select/tuning_file.h"

namespace hiercoll {

struct ProfileCount {
  std::string op;
  int64_t bytes = 0;
  int64_t calls = 0;
};

struct ProfileEntry {
  LayoutKey layout;
  std::vector<ProfileCount> counts;
};

struct Profile {
  std::vector<ProfileEntry> entries;
};

bool parse_profile_text(const std::string& text, const std::string& path, Profile* out, std::string* error);
bool load_profile(const std::string& path, Profile* out, std::string* error);
std::string profile_to_text(const Profile& p);
bool save_profile(const std::string& path, const Profile& p, std::string* error);
// Adds the counts of `more` to *p (same layout, op and bytes summed).
void merge_profile(Profile* p, const Profile& more);

}  // namespace hiercoll
