#include "runtime/handle_pins.h"

#include <mutex>
#include <unordered_map>

#include "runtime/comm_registry.h"
#include "runtime/op_types.h"

namespace hiercoll {

namespace {

enum class Kind { kType, kOp, kComm };

struct Pin {
  Kind kind;
  int count = 0;
  bool freed = false;  // the program freed it: free it with the last pin
};

std::mutex g_mu;
std::unordered_map<void*, Pin> g_pins;

void* key_of(MPI_Datatype t) { return static_cast<void*>(t); }
void* key_of(MPI_Op o) { return static_cast<void*>(o); }
void* key_of(MPI_Comm c) { return static_cast<void*>(c); }

void pin(void* key, Kind kind, std::vector<void*>* held) {
  for (void* h : *held)
    if (h == key) return;
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_pins.try_emplace(key, Pin{kind}).first;
  ++it->second.count;
  held->push_back(key);
}

// The deferred free, once nothing pins the handle.
void free_now(void* key, Kind kind) {
  switch (kind) {
    case Kind::kType: {
      MPI_Datatype t = static_cast<MPI_Datatype>(key);
      PMPI_Type_free(&t);
      break;
    }
    case Kind::kOp: {
      MPI_Op o = static_cast<MPI_Op>(key);
      PMPI_Op_free(&o);
      break;
    }
    case Kind::kComm: {
      MPI_Comm c = static_cast<MPI_Comm>(key);
      if (PMPI_Comm_free(&c) == MPI_SUCCESS) note_comm_freed(static_cast<MPI_Comm>(key));
      break;
    }
  }
}

bool defer_free(void* key) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_pins.find(key);
  if (it == g_pins.end()) return false;
  it->second.freed = true;
  return true;
}

}  // namespace

void HandlePins::pin_type(MPI_Datatype type) {
  if (type != MPI_DATATYPE_NULL && !is_predefined_type(type)) pin(key_of(type), Kind::kType, &handles_);
}

void HandlePins::pin_op(MPI_Op op) {
  if (op != MPI_OP_NULL && !is_predefined_op(op)) pin(key_of(op), Kind::kOp, &handles_);
}

void HandlePins::pin_comm(MPI_Comm comm) {
  if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
    pin(key_of(comm), Kind::kComm, &handles_);
}

void HandlePins::release() {
  if (handles_.empty()) return;
  std::vector<std::pair<void*, Kind>> due;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    for (void* h : handles_) {
      auto it = g_pins.find(h);
      if (--it->second.count > 0) continue;
      if (it->second.freed) due.emplace_back(h, it->second.kind);
      g_pins.erase(it);
    }
  }
  handles_.clear();
  for (const auto& [key, kind] : due) free_now(key, kind);
}

bool defer_type_free(MPI_Datatype type) { return defer_free(key_of(type)); }
bool defer_op_free(MPI_Op op) { return defer_free(key_of(op)); }
bool defer_comm_free(MPI_Comm comm) { return defer_free(key_of(comm)); }

int pinned_handles() {
  std::lock_guard<std::mutex> lock(g_mu);
  return static_cast<int>(g_pins.size());
}

}  // namespace hiercoll
