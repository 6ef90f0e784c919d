// A layout's entry as the tuner writes it: stamped with when, by which
// command and by which version, and put into the tuning file, keeping the
// other layouts' entries (tune/main.cc measures it, tune/model_command.cc
// takes it from the model).
#pragma once

#include <string>

#include "select/tuning_file.h"

namespace hctune {

// Sets e's created, tool ("<program> <argv[1..]>") and hiercoll_version.
void stamp_entry(hiercoll::TuningEntry* e, const std::string& program, int argc, char** argv);

// Adds e to the file at path (a new file if it is missing or unreadable),
// replacing the entry of its layout; false with one line in *error.
bool put_entry_in_file(const std::string& path, const hiercoll::TuningEntry& e, std::string* error);

}  // namespace hctune
