#include "measure/impls.h"

#include <algorithm>

#include "algorithms/registry.h"
#include "hier/hier_registry.h"
#include "measure/ompi_probe.h"
#include "runtime/stats.h"
#include "schedule/coll_args.h"

namespace hcbench {

namespace {

bool flat_op(const OpInfo& op, hiercoll::Op* out) { return hiercoll::op_from_name(op.flat_op, out); }

// Which hiercoll knob a forced name sets for op ("algorithm", "composition",
// "inter_algorithm"; "" when the name means nothing to op): flat:<a> a flat
// algorithm of op; hier:<a> a composition of op, else a flat algorithm of
// one of its compositions' inter-node phases.
std::string forced_knob(const ImplSpec& spec, const OpInfo& op) {
  hiercoll::Op fop;
  if (spec.algorithm.empty() || !flat_op(op, &fop)) return "";
  const std::string& a = spec.algorithm;
  if (spec.kind != ImplSpec::kHier) return hiercoll::find_algorithm(fop, a) ? "algorithm" : "";
  if (hiercoll::find_composition(fop, a)) return "composition";
  const std::vector<std::string> inter = hiercoll::inter_algorithm_names(fop);
  return std::find(inter.begin(), inter.end(), a) != inter.end() ? "inter_algorithm" : "";
}

// "compositions: bcast, ...; inter-node algorithms: binomial, ..." (for
// the error on an unknown hier:<name>).
std::string hier_names() {
  std::vector<std::string> comps, inter;
  auto add = [](std::vector<std::string>* v, const std::string& n) {
    if (std::find(v->begin(), v->end(), n) == v->end()) v->push_back(n);
  };
  for (const hiercoll::HierComposition& c : hiercoll::all_compositions()) add(&comps, c.name);
  for (int i = 0; i < hiercoll::kNumOps; ++i)
    for (const std::string& n : hiercoll::inter_algorithm_names(static_cast<hiercoll::Op>(i))) add(&inter, n);
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& n : v) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  return "compositions: " + join(comps) + "; inter-node algorithms: " + join(inter);
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

std::string ompi_function(MPI_Comm comm, const OpInfo& op) {
  const char* f = hcb_ompi_coll_function(comm, op.name);
  if (!f) return "";
  std::string s = f;
  for (const char* prefix : {"mca_coll_", "ompi_coll_"})
    if (s.rfind(prefix, 0) == 0) s = s.substr(std::string(prefix).size());
  return "ompi:" + s;
}

std::string Impl::skip_reason(const OpInfo& op) const {
  if (spec.algorithm.empty() || std::find(forced_ops.begin(), forced_ops.end(), op.name) != forced_ops.end())
    return "";
  if (spec.kind == ImplSpec::kHier)
    return "no " + std::string(op.name) + " composition or inter-node algorithm named '" + spec.algorithm + "'";
  return "no " + std::string(op.name) + " algorithm named '" + spec.algorithm + "'";
}

std::string Impl::forced_note(const OpInfo& op, const std::string& ran) const {
  const std::string knob = forced_knob(spec, op);
  const std::string& want = spec.algorithm;
  if (knob.empty() || ran.empty()) return "";
  // What last_algorithm() says when the knob was honoured (hier:<name>,
  // with " inter=<algorithm>" when that one is forced too).
  const bool honoured = knob == "algorithm"     ? ran == want
                        : knob == "composition" ? ran == "hier:" + want || ran.rfind("hier:" + want + " ", 0) == 0
                                                : ran.rfind("hier:", 0) == 0 && ends_with(ran, " inter=" + want);
  if (honoured) return "";
  const std::string what = knob == "algorithm" ? "" : knob == "composition" ? "composition " : "inter-node algorithm ";
  return spec.name + " ran " + ran + " (fallback: " + what + want + " does not fit this call)";
}

std::string Impl::algorithm(const OpInfo& op) const {
  if (via_hiercoll) return hiercoll::last_algorithm();
  const std::string f = ompi_function(comm, op);
  return f.empty() ? spec.name : f;
}

bool create_impls(const std::vector<ImplSpec>& specs, MPI_Comm base, std::vector<Impl>* impls, std::string* error) {
  impls->clear();
  for (const ImplSpec& s : specs) {
    Impl impl;
    impl.spec = s;
    std::vector<std::pair<std::string, std::string>> hints;
    switch (s.kind) {
      case ImplSpec::kHier: hints.emplace_back("hiercoll", "hier"); break;
      case ImplSpec::kFlat: hints.emplace_back("hiercoll", "flat"); break;
      case ImplSpec::kNative:
        impl.via_hiercoll = false;
        hints.emplace_back("hiercoll", "off");
        hints.emplace_back("ompi_comm_coll_preference", "^han");
        break;
      case ImplSpec::kMpi:
        impl.via_hiercoll = false;
        hints.emplace_back("hiercoll", "off");
        break;
      case ImplSpec::kHan:
        impl.via_hiercoll = false;
        hints.emplace_back("hiercoll", "off");
        hints.emplace_back("ompi_comm_coll_preference", "han");
        break;
    }
    if (!s.algorithm.empty()) {
      for (const OpInfo& op : all_ops()) {
        const std::string knob = forced_knob(s, op);
        if (knob.empty()) continue;
        impl.forced_ops.push_back(op.name);
        const std::string key = std::string("hiercoll_") + op.flat_op + "_" + knob;
        if (std::none_of(hints.begin(), hints.end(), [&](const auto& h) { return h.first == key; }))
          hints.emplace_back(key, s.algorithm);
      }
      if (impl.forced_ops.empty()) {
        *error = "implementation '" + s.name + "': no operation has " +
                 (s.kind == ImplSpec::kHier ? "a composition or inter-node algorithm named '" + s.algorithm +
                                                  "' (" + hier_names() + ")"
                                            : "an algorithm named '" + s.algorithm + "' (see ./hiercoll algorithms)");
        free_impls(impls);
        return false;
      }
    }
    for (const auto& h : s.hints) hints.push_back(h);
    MPI_Info info;
    MPI_Info_create(&info);
    for (const auto& h : hints) {
      MPI_Info_set(info, h.first.c_str(), h.second.c_str());
      impl.hints_text += (impl.hints_text.empty() ? "" : " ") + h.first + "=" + h.second;
    }
    PMPI_Comm_dup_with_info(base, info, &impl.comm);
    MPI_Info_free(&info);
    impls->push_back(impl);
  }
  return true;
}

void free_impls(std::vector<Impl>* impls) {
  for (Impl& i : *impls)
    if (i.comm != MPI_COMM_NULL) PMPI_Comm_free(&i.comm);
  impls->clear();
}

}  // namespace hcbench
