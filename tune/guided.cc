#include "tune/guided.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "decide/decide.h"
#include "select/method.h"

namespace hctune {

namespace {

// The segments within one octave of the model's (all where the model left
// the segment to the runtime's default); the nearest one where none is.
std::vector<int64_t> near_segment(const std::vector<int64_t>& segments, int64_t model_segment) {
  if (model_segment <= 0 || segments.size() <= 1) return segments;
  std::vector<int64_t> out;
  for (int64_t s : segments)
    if (s > 0 && s >= model_segment / 2 && s <= model_segment * 2) out.push_back(s);
  if (!out.empty()) return out;
  const auto nearest = std::min_element(segments.begin(), segments.end(), [&](int64_t a, int64_t b) {
    return std::llabs(a - model_segment) < std::llabs(b - model_segment);
  });
  return {*nearest};
}

}  // namespace

std::vector<hiercoll::Candidate> model_guided(const std::vector<hiercoll::Candidate>& all, hiercoll::Op op,
                                              const hiercoll::Layout& layout, const hiercoll::Figures& figures,
                                              int64_t bytes) {
  const hiercoll::LayoutFacts facts = hiercoll::layout_facts(layout);
  hiercoll::DecideInput in;
  in.layout = &layout;
  in.facts = &facts;
  in.figures = &figures;
  in.file_ranges = false;
  const hiercoll::Decision d = hiercoll::decide_class(in, op, bytes, /*commutative=*/true);
  std::vector<hiercoll::Candidate> out;
  auto find = [](const std::vector<hiercoll::Candidate>& v, const std::string& name) {
    return std::find_if(v.begin(), v.end(), [&](const hiercoll::Candidate& c) { return c.name == name; });
  };
  std::vector<double> costs;  // of the ones taken
  for (const hiercoll::Costed& c : d.ranked) {
    if (c.us < 0 || static_cast<int>(out.size()) == kGuidedMethods) break;
    if (!costs.empty() && c.us > costs.front() * kGuidedRatio) break;
    if (std::find(costs.begin(), costs.end(), c.us) != costs.end()) continue;  // the same schedules
    const auto it = find(all, hiercoll::method_text(c.candidate.method));
    if (it == all.end() || find(out, it->name) != out.end()) continue;
    hiercoll::Candidate k = *it;
    k.segments = near_segment(k.segments, c.candidate.segment_bytes);
    out.push_back(std::move(k));
    costs.push_back(c.us);
  }
  return out.empty() ? all : out;
}

}  // namespace hctune
