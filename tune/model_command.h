// `hiercoll tune --model` (tune/model_entry.h), no MPI:
//   hiercoll_tune --model [--nodes N --ppn P | --ppn-list L --map-by slot|node]
//                 [--ops LIST] [--sizes LIST] [--figures FILE | figures] --out FILE
// Writes (or replaces) the layout's entry in FILE, keeping its other entries.
#pragma once

namespace hctune {

// argv without "--model"; the exit code.
int run_model_command(int argc, char** argv);

}  // namespace hctune
