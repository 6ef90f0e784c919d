// A tuning file's decisions as a readable table (`hiercoll tune --show`).
#pragma once

#include <string>

#include "select/tuning_file.h"

namespace hctune {

std::string decisions_table(const hiercoll::TuningFile& f);

}  // namespace hctune
