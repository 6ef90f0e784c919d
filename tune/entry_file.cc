#include "tune/entry_file.h"

#include <ctime>

#include "hiercoll_version.h"

namespace hctune {

void stamp_entry(hiercoll::TuningEntry* e, const std::string& program, int argc, char** argv) {
  char when[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  e->created = when;
  e->tool = program;
  for (int i = 1; i < argc; ++i) e->tool += std::string(" ") + argv[i];
  e->hiercoll_version = HIERCOLL_VERSION;
}

bool put_entry_in_file(const std::string& path, const hiercoll::TuningEntry& e, std::string* error) {
  hiercoll::TuningFile file;
  std::string load_error;
  if (!hiercoll::load_tuning_file(path, &file, &load_error)) file = hiercoll::TuningFile{};
  hiercoll::put_entry(&file, e);
  return hiercoll::save_tuning_file(path, file, error);
}

}  // namespace hctune
