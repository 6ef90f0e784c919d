#include "bench/impls.h"

#include <algorithm>

#include "bench/ompi_probe.h"
#include "flat/coll_args.h"
#include "flat/registry.h"
#include "hier/stats.h"

namespace hcbench {

namespace {

bool flat_op(const OpInfo& op, hiercoll::Op* out) { return hiercoll::op_from_name(op.flat_op, out); }

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
  if (!spec.algorithm.empty() &&
      std::find(forced_ops.begin(), forced_ops.end(), op.name) == forced_ops.end())
    return "no " + std::string(op.name) + " algorithm named '" + spec.algorithm + "'";
  return "";
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
        hiercoll::Op fop;
        if (!flat_op(op, &fop) || !hiercoll::find_algorithm(fop, s.algorithm)) continue;
        impl.forced_ops.push_back(op.name);
        const std::string key = std::string("hiercoll_") + op.flat_op + "_algorithm";
        if (std::none_of(hints.begin(), hints.end(), [&](const auto& h) { return h.first == key; }))
          hints.emplace_back(key, s.algorithm);
      }
      if (impl.forced_ops.empty()) {
        *error = "implementation '" + s.name + "': no operation has an algorithm named '" + s.algorithm +
                 "' (see ./hiercoll algorithms)";
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
