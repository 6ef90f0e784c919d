// gnuplot's side of the plots: the pieces every script shares, and running
// the scripts. Scripts use the pngcairo terminal and relative file names,
// so that they run inside their folder (`gnuplot <name>.gp`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcbench {

struct TextFile {
  std::string name;
  std::string content;
};

// A number for a data file ("-", gnuplot's missing value, for NaN and inf).
std::string gp_number(double v);
// A gnuplot string literal (double quotes, escaped).
std::string gp_quoted(const std::string& s);
// Text for enhanced mode, where _ ^ @ & { } are special.
std::string gp_plain(const std::string& s);
// The start of a script drawing `png` (width x height pixels): terminal,
// output, missing values, grid, key.
std::string gp_header(const std::string& png, int width, int height);
// Size tics at the measured sizes ("8", "64K", ...).
std::string gp_size_tics(const std::vector<int64_t>& sizes);
// The x axis over bytes per rank: log scale with the sizes as tics (a single
// size gets an octave either side); barrier's "size" 0 gets one labelled tic.
std::string gp_size_axis(const std::vector<int64_t>& sizes);

struct GnuplotRun {
  bool available = false;            // gnuplot found
  int made = 0;                      // scripts that ran
  std::vector<std::string> failed;   // scripts that failed
};
// Runs every script (a name in dir) with gnuplot inside dir.
GnuplotRun run_gnuplot(const std::string& dir, const std::vector<std::string>& scripts);
// The names of the scripts (*.gp) among files.
std::vector<std::string> gp_scripts(const std::vector<TextFile>& files);

}  // namespace hcbench
