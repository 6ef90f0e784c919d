#include "select/json_fields.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hiercoll {
namespace json_fields {

void bad(const std::string& where, const std::string& what) { throw BadValue{where + ": " + what}; }

const json& member(const json& obj, const std::string& where, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) bad(where, std::string("missing key \"") + key + "\"");
  return *it;
}

const json& object_at(const json& obj, const std::string& where, const char* key) {
  const json& v = member(obj, where, key);
  if (!v.is_object()) bad(where + "." + key, "expected an object");
  return v;
}

const json& array_at(const json& obj, const std::string& where, const char* key) {
  const json& v = member(obj, where, key);
  if (!v.is_array()) bad(where + "." + key, "expected an array");
  return v;
}

double number_at(const json& obj, const std::string& where, const char* key, double min) {
  const json& v = member(obj, where, key);
  if (!v.is_number()) bad(where + "." + key, "expected a number");
  const double d = v.get<double>();
  if (!(d >= min)) bad(where + "." + key, "must be at least " + std::to_string(min));
  return d;
}

int64_t integer_at(const json& obj, const std::string& where, const char* key, int64_t min) {
  const json& v = member(obj, where, key);
  if (!v.is_number_integer()) bad(where + "." + key, "expected an integer");
  const int64_t i = v.get<int64_t>();
  if (i < min) bad(where + "." + key, "must be at least " + std::to_string(min));
  return i;
}

std::string string_at(const json& obj, const std::string& where, const char* key, bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) bad(where, std::string("missing key \"") + key + "\"");
    return "";
  }
  if (!it->is_string()) bad(where + "." + key, "expected a string");
  return it->get<std::string>();
}

bool boolean_at(const json& obj, const std::string& where, const char* key) {
  const json& v = member(obj, where, key);
  if (!v.is_boolean()) bad(where + "." + key, "expected true or false");
  return v.get<bool>();
}

std::vector<int> int_list(const json& obj, const std::string& where, const char* key, int min) {
  const json& a = array_at(obj, where, key);
  std::vector<int> v;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string w = where + "." + key + "[" + std::to_string(i) + "]";
    if (!a[i].is_number_integer() || a[i].get<int64_t>() < min || a[i].get<int64_t>() > (1 << 30))
      bad(w, "expected an integer of at least " + std::to_string(min));
    v.push_back(a[i].get<int>());
  }
  return v;
}

LayoutKey read_layout(const json& j, const std::string& where) {
  LayoutKey k;
  k.ranks_per_node = int_list(j, where, "ranks_per_node", 1);
  if (k.ranks_per_node.empty()) bad(where + ".ranks_per_node", "no nodes");
  const int64_t nodes = integer_at(j, where, "nodes", 1);
  if (nodes != static_cast<int64_t>(k.ranks_per_node.size()))
    bad(where + ".nodes", "does not match ranks_per_node's " + std::to_string(k.ranks_per_node.size()) + " nodes");
  k.placement = string_at(j, where, "placement");
  if (k.placement == "list") {
    k.node_of = int_list(j, where, "node_of", 0);
    std::vector<int> count(k.ranks_per_node.size(), 0);
    for (int n : k.node_of) {
      if (n >= static_cast<int>(count.size())) bad(where + ".node_of", "node " + std::to_string(n) + " out of range");
      ++count[n];
    }
    if (count != k.ranks_per_node) bad(where + ".node_of", "does not match ranks_per_node");
    // Nodes are numbered by their lowest rank, as layout_key numbers them:
    // another numbering would never match a communicator.
    for (int r = 0, next = 0; r < static_cast<int>(k.node_of.size()); ++r) {
      if (k.node_of[r] > next) bad(where + ".node_of", "nodes must be numbered in the order of their lowest rank");
      if (k.node_of[r] == next) ++next;
    }
    // Likewise a list that is the slot or round-robin placement.
    for (const char* other : {"slot", "node"}) {
      LayoutKey o = k;
      o.placement = other;
      if (nodes_of(o) == k.node_of) bad(where + ".placement", std::string("node_of is placement \"") + other + "\"");
    }
  } else if (k.placement != "slot" && k.placement != "node") {
    bad(where + ".placement", "expected \"slot\", \"node\" or \"list\"");
  }
  return k;
}

std::string one_line(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    if (ch == '\n') out += "\\n";
    else if (ch == '\t') out += "\\t";
    else if (ch < 0x20 || ch == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", ch);
      out += hex;
    } else out += static_cast<char>(ch);
  }
  return out;
}

bool read_text_file(const std::string& path, std::string* text, std::string* error) {
  // A directory opens as a stream, and reads as empty.
  std::error_code ec;
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path, ec)) {
    *error = path + ": cannot be read";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    *error = path + ": cannot be read";
    return false;
  }
  *text = ss.str();
  return true;
}

bool write_text_file(const std::string& path, const std::string& text, std::string* error) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) {
      *error = tmp + ": cannot be written";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = path + ": cannot be written";
    return false;
  }
  return true;
}

json layout_json(const LayoutKey& k) {
  json layout = {{"nodes", k.ranks_per_node.size()}, {"ranks_per_node", k.ranks_per_node}, {"placement", k.placement}};
  if (k.placement == "list") layout["node_of"] = k.node_of;
  return layout;
}

bool parse_checked(const std::string& text, const std::string& path, const char* format, int64_t version,
                   std::string* error, const std::function<void(const json&, int64_t)>& read) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message names the line and column.
    *error = path + ": not valid JSON: " + e.what();
    return false;
  }
  try {
    if (!j.is_object()) bad("(top)", "expected an object");
    if (string_at(j, "(top)", "format") != format) bad("format", std::string("expected \"") + format + "\"");
    const int64_t v = integer_at(j, "(top)", "version", 1);
    if (v != version)
      bad("version", "version " + std::to_string(v) + " is not supported (this hiercoll reads version " +
                         std::to_string(version) + ")");
    read(j, v);
    return true;
  } catch (const BadValue& b) {
    *error = path + ": " + one_line(b.what);
    return false;
  }
}

}  // namespace json_fields
}  // namespace hiercoll
