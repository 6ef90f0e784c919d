// Checked reading of JSON values for the tuning and profile files: each
// reader names the key path of a missing or ill-typed value by throwing
// BadValue, which the file's parser turns into its one-line error.  And
// the layout key, which both files carry.
#pragma once

#include <cstdint>
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
std::vector<int> int_list(const json& obj, const std::string& where, const char* key, int min);

// s with control characters escaped, so that a message quoting the file
// stays one line.
std::string one_line(const std::string& s);
// The whole file; false with "<path>: cannot be read" (a directory too).
bool read_text_file(const std::string& path, std::string* text, std::string* error);

LayoutKey read_layout(const json& j, const std::string& where);
json layout_json(const LayoutKey& k);

// The file's top level: an object with "format": format and a supported
// "version"; returns the version.
int64_t check_header(const json& j, const char* format, int64_t version);

}  // namespace json_fields
}  // namespace hiercoll
