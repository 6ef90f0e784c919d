// The form of every registry of the project: a list of entries, each with
// an operation `op` and a `name`, in a fixed order (the decision's
// tie-break, the listings').  The flat algorithms (algorithms/registry.h)
// and the compositions (hier/hier_registry.h) are each one RegistryTable.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "schedule/coll_args.h"

namespace hiercoll {

template <class Entry>
class RegistryTable {
 public:
  template <size_t N>
  explicit RegistryTable(const Entry (&rows)[N]) : all_(rows, rows + N) {}

  // Every entry, in the list's order.
  const std::vector<Entry>& all() const { return all_; }

  // The entry of `op` called `name`, or null.
  const Entry* find(Op op, std::string_view name) const {
    for (const Entry& e : all_)
      if (e.op == op && name == e.name) return &e;
    return nullptr;
  }

  // The entries of `op`, in the list's order.
  std::vector<const Entry*> of(Op op) const {
    std::vector<const Entry*> v;
    for (const Entry& e : all_)
      if (e.op == op) v.push_back(&e);
    return v;
  }

 private:
  std::vector<Entry> all_;
};

}  // namespace hiercoll
