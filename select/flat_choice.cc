#include "select/flat_choice.h"

#include <algorithm>

#include "select/flat_rules.h"

namespace hiercoll {

namespace {

bool fits_request(const Algorithm& a, const CollArgs& args, const FlatRequest& req) {
  return algorithm_fits(a, args) && !(req.no_count_exchange && (a.restrictions & kAllCounts));
}

const Algorithm* fitting(std::string_view name, const CollArgs& args, const FlatRequest& req, const char** unfit) {
  if (name.empty()) return nullptr;
  const Algorithm* a = find_algorithm(args.op, name);
  if (a && fits_request(*a, args, req)) return a;
  *unfit = name.data();  // a std::string's characters (FlatRequest)
  return nullptr;
}

}  // namespace

FlatDecision decide_flat(const CollArgs& args, int64_t unit_bytes, const FlatRequest& req) {
  FlatDecision d;
  const int64_t bytes = selection_bytes(args.op, unit_bytes, args);
  d.algorithm = fitting(req.forced, args, req, &d.unfit_forced);
  // A forced name that does not fit gives way to the decided one.
  if (!d.algorithm && req.tuned_algorithm) {
    if (fits_request(*req.tuned_algorithm, args, req)) d.algorithm = req.tuned_algorithm;
    else d.unfit_tuned = req.tuned_algorithm->name;
  } else if (!d.algorithm) {
    d.algorithm = fitting(req.tuned, args, req, &d.unfit_tuned);
  }
  if (!d.algorithm) d.algorithm = default_algorithm(args, bytes, req.machine, req.links);
  if (req.no_count_exchange && (d.algorithm->restrictions & kAllCounts)) d.algorithm = find_algorithm(args.op, "linear");
  // seg_units stays 0 where the schedule ignores it (segmented_flag_test),
  // so that one cached schedule serves every segment-free call shape.
  if (unit_bytes <= 0 || !d.algorithm->segmented) return d;
  const bool tuned_here = (req.forced.empty() || d.unfit_forced) && !req.tuned.empty() && req.tuned == d.algorithm->name;
  const int64_t seg = req.segment_bytes > 0                  ? req.segment_bytes
                      : tuned_here && req.tuned_segment > 0  ? req.tuned_segment
                                                             : default_segment_bytes(*d.algorithm, bytes, args.size, req.machine);
  const int64_t asked = std::max<int64_t>(1, seg / unit_bytes);
  d.seg_units = bounded_seg_units(args, unit_bytes, asked);
  if (d.seg_units > asked) d.raised_segment_from = seg;
  return d;
}

}  // namespace hiercoll
