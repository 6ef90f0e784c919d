// The runtime's side of the tuning file (select/tuning_file.h): loaded once
// per path, its names checked against the registries, the entry of a
// communicator's layout found, and the decision for a call.  A file that
// cannot be used is said once on stderr (the file and what is wrong) and
// the built-in rules apply; a layout without an entry likewise, said once
// under HIERCOLL_VERBOSE=1.
#pragma once

#include <string>

#include "decide/figures.h"
#include "select/tuning_file.h"
#include "topo/topology.h"

namespace hiercoll {

// The entry for layout L in the file at path (null: none, or the file is
// unusable).  Entries live as long as the process.  `speak`: this process
// says what is wrong (rank 0 of the communicator, so a job prints one line).
// *figures (where given): the model's figures for L: its entry's, else
// those of the file's first entry that carries figures (a file measured
// on one layout serves every layout through the model), else the
// process's (HIERCOLL_FIGURES, runtime/figures_probe.h).
const TuningEntry* tuning_entry(const std::string& path, const Layout& L, bool verbose, bool speak,
                                const Figures** figures = nullptr);

// "" when every method the file names exists for its operation (flat
// algorithm, composition, inter-node algorithm), else the first that does
// not, with its key ("entries[0].ops.bcast[2].method: no bcast composition 'x'").
std::string check_tuning_names(const TuningFile& f);

}  // namespace hiercoll
