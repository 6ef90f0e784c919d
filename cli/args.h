// Command-line reading shared by the tools (bench, tune, simulate, fuzz): each
// option "--name value" or "--name=value", flags without a value, numbers
// checked against a range; a refusal is one line naming the option.
// Options are rows of a table (name, handler), so a parser is its table.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace hccli {

class Args {
 public:
  Args(int argc, char** argv) : argc_(argc), argv_(argv) {}
  // Moves to the next argument; false after the last.
  bool next();
  // The option as given, without "=value"; and the whole argument.
  const std::string& name() const { return name_; }
  const std::string& raw() const { return raw_; }
  // Whether "=value" came with it (a flag takes none).
  bool has_inline_value() const { return inline_; }
  // The option's value: after '=', else the next argument.
  bool text(std::string* v);
  // The value, not empty.
  bool nonempty_text(std::string* v, const char* what);
  // A whole number in [lo, hi] (hi LLONG_MAX: at least lo).
  bool whole(long long lo, long long hi, long long* out);
  bool whole(long long lo, long long hi, int* out);
  // A number in [lo, hi].
  bool number(double lo, double hi, double* out, const char* expected);
  // Records "<name> <value>: why" (or "<name>: why" without a value read)
  // and returns false.
  bool fail(const std::string& why);
  // Records `message` as it is (one that already names the option).
  bool refuse(const std::string& message) {
    error_ = message;
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string raw_, name_, value_;
  bool inline_ = false;
  bool read_ = false;  // the value was taken
  std::string error_;
};

// One option of a tool: its names ("--reps", or "-h|--help") and what it
// does to the tool's state S.  `flag`: it takes no value.
template <typename S>
struct OptionRow {
  const char* names;
  bool flag;
  std::function<bool(Args&, S&)> handle;
};

// A tool's table from groups of rows, in order.
template <typename S>
std::vector<OptionRow<S>> join_rows(std::initializer_list<std::vector<OptionRow<S>>> groups) {
  std::vector<OptionRow<S>> all;
  for (const std::vector<OptionRow<S>>& group : groups) all.insert(all.end(), group.begin(), group.end());
  return all;
}

// Whether `name` is one of row's '|'-separated names.
bool names_match(const char* names, const std::string& name);

// Reads every argument through its row; false with *error at the first
// unknown or refused one.
template <typename S>
bool read_args(int argc, char** argv, const std::vector<OptionRow<S>>& rows, S* state, std::string* error) {
  Args args(argc, argv);
  while (args.next()) {
    const OptionRow<S>* row = nullptr;
    for (const OptionRow<S>& r : rows)
      if (names_match(r.names, args.name()) && !(r.flag && args.has_inline_value())) row = &r;
    if (!row) {
      *error = "unknown argument '" + args.raw() + "' (see --help)";
      return false;
    }
    if (!row->handle(args, *state)) {
      *error = args.error();
      return false;
    }
  }
  return true;
}

// A flag's handler: sets it, and succeeds.
inline bool set(bool* flag, bool value) {
  *flag = value;
  return true;
}

// "a,b,c" as its parts (a trailing separator gives an empty last part).
std::vector<std::string> split_list(const std::string& s, char sep);

}  // namespace hccli
