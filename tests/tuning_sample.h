// A small tuning file with every feature of the format (three entries: a
// uniform "slot" layout, an uneven round-robin "node" one and a "list" one;
// every kind of method; open-ended ranges), and field-by-field comparison
// of tuning files, for the unit tests of select/tuning_file.h.
#pragma once

#include "select/tuning_file.h"

namespace hiercoll::testing {

TuningFile sample_tuning_file();

// Adds a GoogleTest failure per field that differs (prefixed with where).
void expect_same_file(const TuningFile& want, const TuningFile& got);

}  // namespace hiercoll::testing
