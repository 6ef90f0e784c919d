// Checked reading of JSON values for the tuning and profile files: each
// reader names the key path of a missing or ill-typed value by throwing
// BadValue, which the file's parser turns into its one-line error.  And
// the layout key, which both files carry.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "select/tuning_file.h"

namespace hiercoll {
namespace json_fields {

using json = nlohmann::json;

struct BadValue {
  std::string what;
};

[[noreturn]] void bad(const std::string& where, const std::string& what);
const json& member(const json& obj, const std::string& where, const char* key);
const json& object_at(const json& obj, const std::string& where, const char* key);
const json& array_at(const json& obj, const std::string& where, const char* key);
double number_at(const json& obj, const std::string& where, const char* key, double min);
int64_t integer_at(const json& obj, const std::string& where, const char* key, int64_t min);
std::string string_at(const json& obj, const std::string& where, const char* key, bool required = true);
bool boolean_at(const json& obj, const std::string& where, const char* key);
std::vector<int> int_list(const json& obj, const std::string& where, const char* key, int min);

// s with control characters escaped, so that a message quoting the file
// stays one line.
std::string one_line(const std::string& s);
// The whole file; false with "<path>: cannot be read" (a directory too).
bool read_text_file(const std::string& path, std::string* text, std::string* error);
// Writes text to path through a temporary file renamed over it, so a
// reader never sees half a file; false with "<path>: cannot be written".
bool write_text_file(const std::string& path, const std::string& text, std::string* error);

LayoutKey read_layout(const json& j, const std::string& where);
json layout_json(const LayoutKey& k);

// Parses text as JSON, checks the header ("format": format, "version":
// version) and calls read(json, version), which throws BadValue on a bad
// value.  False with one line in *error ("<path>: <line or key>: <what>")
// on any problem.
bool parse_checked(const std::string& text, const std::string& path, const char* format, int64_t version,
                   std::string* error, const std::function<void(const json&, int64_t)>& read);

}  // namespace json_fields
}  // namespace hiercoll
