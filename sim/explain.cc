#include "sim/explain.h"

#include <cstdio>

#include "hier/hier_compose.h"
#include "measure/ops.h"

namespace hiercoll {

std::vector<ExplainRow> explain(const SimOptions& opt, const Layout& L, const Figures& figures,
                                const TuningEntry* tuning) {
  const LayoutFacts F = layout_facts(L);
  DecideInput in;
  in.layout = &L;
  in.facts = &F;
  in.figures = &figures;
  in.tuning = tuning;
  in.scope.machine = tuning ? &tuning->machine : nullptr;
  in.max_steps = opt.max_steps;
  std::vector<ExplainRow> rows;
  for (const std::string& op_text : opt.ops) {
    const hcbench::OpInfo& info = *hcbench::find_op(op_text);
    Op op;
    op_from_name(info.flat_op, &op);
    for (int64_t bytes : info.sized ? opt.sizes : std::vector<int64_t>{0}) {
      ExplainRow r;
      r.op = op_text;
      r.bytes = bytes;
      r.decision = decide_class(in, op, bytes, /*commutative=*/true);
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

namespace {

std::string us_text(double us) {
  if (us < 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", us);
  return b;
}

}  // namespace

void print_explain(std::ostream& out, const std::vector<ExplainRow>& rows) {
  for (const ExplainRow& r : rows) {
    const Costed& w = r.decision.chosen();
    out << r.op << " " << r.bytes << " B: " << candidate_text(w.candidate) << " (" << source_name(r.decision.source)
        << ")";
    if (!r.decision.note.empty()) out << "; " << r.decision.note;
    out << "\n";
    int rank = 1;
    for (const Costed& c : r.decision.ranked) {
      char line[256];
      std::snprintf(line, sizeof line, "  %3d  %-48s %12s us  %s", rank++, candidate_text(c.candidate).c_str(),
                    us_text(c.us).c_str(), source_name(c.source));
      out << line;
      if (!c.note.empty()) out << "  (" << c.note << ")";
      out << "\n";
    }
  }
}

void write_explain_csv(std::ostream& out, const std::vector<ExplainRow>& rows) {
  out << "op,bytes,rank,method,predicted_us,source\n";
  for (const ExplainRow& r : rows) {
    int rank = 1;
    for (const Costed& c : r.decision.ranked)
      out << r.op << "," << r.bytes << "," << rank++ << ",\"" << candidate_text(c.candidate) << "\","
          << (c.us < 0 ? "" : us_text(c.us)) << "," << source_name(c.source) << "\n";
  }
}

}  // namespace hiercoll
