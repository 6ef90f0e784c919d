// The lookups every registry of the project shares: the flat algorithms'
// (algorithms/registry.h) and the compositions' (hier/hier_registry.h) are
// each a list of entries with an operation `op` and a `name`.
#pragma once

#include <string_view>
#include <vector>

#include "schedule/coll_args.h"

namespace hiercoll {

// The entry of `op` called `name`, or null.
template <class Entry>
const Entry* find_entry(const std::vector<Entry>& all, Op op, std::string_view name) {
  for (const Entry& e : all)
    if (e.op == op && name == e.name) return &e;
  return nullptr;
}

// The entries of `op`, in the list's order.
template <class Entry>
std::vector<const Entry*> entries_of(const std::vector<Entry>& all, Op op) {
  std::vector<const Entry*> v;
  for (const Entry& e : all)
    if (e.op == op) v.push_back(&e);
  return v;
}

}  // namespace hiercoll
