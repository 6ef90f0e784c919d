#include "select/profile_file.h"

#include <fstream>
#include <sstream>

#include "select/json_fields.h"

namespace hiercoll {

using namespace json_fields;

namespace {

constexpr const char* kFormat = "hiercoll-profile";
constexpr int kVersion = 1;

ProfileEntry read_entry(const json& j, const std::string& where) {
  if (!j.is_object()) bad(where, "expected an object");
  ProfileEntry e;
  e.layout = read_layout(object_at(j, where, "layout"), where + ".layout");
  const json& calls = array_at(j, where, "calls");
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string w = where + ".calls[" + std::to_string(i) + "]";
    if (!calls[i].is_object()) bad(w, "expected an object");
    ProfileCount c;
    c.op = string_at(calls[i], w, "op");
    c.bytes = integer_at(calls[i], w, "bytes", 0);
    c.calls = integer_at(calls[i], w, "calls", 0);
    e.counts.push_back(c);
  }
  return e;
}

}  // namespace

bool parse_profile_text(const std::string& text, const std::string& path, Profile* out, std::string* error) {
  return parse_checked(text, path, kFormat, kVersion, error, [&](const json& j, int64_t) {
    Profile p;
    const json& entries = array_at(j, "(top)", "entries");
    for (size_t i = 0; i < entries.size(); ++i)
      p.entries.push_back(read_entry(entries[i], "entries[" + std::to_string(i) + "]"));
    *out = std::move(p);
  });
}

bool load_profile(const std::string& path, Profile* out, std::string* error) {
  std::string text;
  return read_text_file(path, &text, error) && parse_profile_text(text, path, out, error);
}

std::string profile_to_text(const Profile& p) {
  json entries = json::array();
  for (const ProfileEntry& e : p.entries) {
    json calls = json::array();
    for (const ProfileCount& c : e.counts) calls.push_back({{"op", c.op}, {"bytes", c.bytes}, {"calls", c.calls}});
    entries.push_back({{"layout", layout_json(e.layout)}, {"calls", calls}});
  }
  return json({{"format", kFormat}, {"version", kVersion}, {"entries", entries}}).dump(2) + "\n";
}

bool save_profile(const std::string& path, const Profile& p, std::string* error) {
  std::ofstream out(path);
  out << profile_to_text(p);
  if (!out) {
    *error = path + ": cannot be written";
    return false;
  }
  return true;
}

void merge_profile(Profile* p, const Profile& more) {
  for (const ProfileEntry& e : more.entries) {
    ProfileEntry* mine = nullptr;
    for (ProfileEntry& m : p->entries)
      if (m.layout == e.layout) mine = &m;
    if (!mine) {
      p->entries.push_back(e);
      continue;
    }
    for (const ProfileCount& c : e.counts) {
      bool found = false;
      for (ProfileCount& m : mine->counts)
        if (m.op == c.op && m.bytes == c.bytes) {
          m.calls += c.calls;
          found = true;
        }
      if (!found) mine->counts.push_back(c);
    }
  }
}

}  // namespace hiercoll
