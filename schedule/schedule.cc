#include "schedule/schedule.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

namespace hiercoll {

const char* step_kind_name(StepKind k) {
  switch (k) {
    case StepKind::kSend: return "send";
    case StepKind::kRecv: return "recv";
    case StepKind::kCopy: return "copy";
    case StepKind::kReduce: return "reduce";
  }
  return "?";
}

void Schedule::finalize() {
  const size_t n = steps.size();
  pred_count.assign(n, 0);
  std::vector<int32_t> out_degree(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Step& s = steps[i];
    pred_count[i] = static_cast<int32_t>(s.dep_count);
    for (uint32_t d = 0; d < s.dep_count; ++d) ++out_degree[deps[s.dep_begin + d]];
  }
  succ_begin.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) succ_begin[i + 1] = succ_begin[i] + out_degree[i];
  succ.assign(succ_begin[n], 0);
  std::vector<int32_t> fill(succ_begin.begin(), succ_begin.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    const Step& s = steps[i];
    for (uint32_t d = 0; d < s.dep_count; ++d) succ[fill[deps[s.dep_begin + d]]++] = static_cast<int32_t>(i);
  }
  one_round = std::all_of(pred_count.begin(), pred_count.end(), [](int32_t c) { return c == 0; });
  by_kind.clear();
  auto list = [&](auto wanted) {
    for (size_t i = 0; i < n; ++i)
      if (wanted(steps[i].kind)) by_kind.push_back(static_cast<int32_t>(i));
    return static_cast<int32_t>(by_kind.size());
  };
  sends = list([](StepKind k) { return k == StepKind::kSend; });
  receives = list([](StepKind k) { return k == StepKind::kRecv; }) - sends;
  list([](StepKind k) { return k == StepKind::kCopy || k == StepKind::kReduce; });
  post_after.assign(n, -1);
  std::unordered_map<int32_t, int32_t> last_send;  // peer -> latest send so far
  for (size_t i = 0; i < n; ++i) {
    const Step& s = steps[i];
    if (s.kind == StepKind::kSend) {
      last_send[s.peer] = static_cast<int32_t>(i);
    } else if (s.kind == StepKind::kRecv) {
      const auto it = last_send.find(s.peer);
      if (it != last_send.end()) post_after[i] = it->second;
    }
  }
}

static void print_span(std::ostringstream& os, const Span& s) {
  static const char* names[] = {"send", "recv", "tmp"};
  os << names[static_cast<int>(s.buf)] << "[" << s.off << "+" << s.n << "]";
}

std::string Schedule::to_string() const {
  std::ostringstream os;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    os << i << ": " << step_kind_name(s.kind);
    if (s.kind == StepKind::kSend || s.kind == StepKind::kRecv) os << " peer=" << s.peer << " seq=" << s.seq;
    if (s.kind != StepKind::kRecv) { os << " "; print_span(os, s.src); }
    if (s.kind != StepKind::kSend) { os << " -> "; print_span(os, s.dst); }
    if (s.kind == StepKind::kReduce) os << (s.src_first ? " (src op dst)" : " (dst op src)");
    if (s.dep_count) {
      os << " after";
      for (uint32_t d = 0; d < s.dep_count; ++d) os << " " << deps[s.dep_begin + d];
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace hiercoll
