// Hierarchical collectives as compositions of flat schedules (Zhu, Goodell,
// Gropp, Thakur, Balaji, "Hierarchical collectives in MPICH2", Sect. 3):
// a phase inside each node, a phase among one leader per node, a phase
// inside each node; optionally a socket/NUMA level inside the node.
//
// A composition builds ONE schedule per rank over the whole (private)
// communicator.  Each phase is a flat generator run on a sub-group through
// a BuilderView that maps the group's ranks to real ranks and its Send/Recv
// onto spans of the real buffers, so the builder's hazard tracking links
// the phases block by block: when the inter-node phase receives segment k
// and the intra-node phase forwards it, the forward waits for segment k
// only, and the phases overlap (pipelined hierarchical bcast and reduce).
//
// Everything here is pure data and functions of (layout, call): tests run
// compositions in-process on synthetic layouts of any size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "schedule/builder.h"
#include "schedule/coll_args.h"
#include "select/flat_rules.h"
#include "select/machine.h"
#include "topo/topology.h"

namespace hiercoll {

// One group of one level as seen by one rank: its members as real ranks in
// group order, my index (-1: I am not a member) and the index of the member
// that links the group to the level above (the root of rooted phases).
struct HierGroup {
  std::vector<int> ranks;
  int me = -1;
  int root = 0;
  int size() const { return static_cast<int>(ranks.size()); }
  // Whether I take part and there is someone to talk to.
  bool active() const { return me >= 0 && ranks.size() > 1; }
};

// Which rank leads a node (or socket) that does not hold the root.
enum class LeaderRule : uint8_t { kLowest, kHighest };

// The groups of one rank, outermost first:
//  levels[0]  the node leaders, one per node, in node order;
//  levels[1]  without the socket level: the ranks of my node (ascending);
//             with it: the socket leaders of my node, in socket order;
//  levels[2]  (socket level only) the ranks of my socket (ascending).
// The root leads its node and its socket (root independence: the root's
// node runs its local phases with the root in the master's role and the
// inter-node phase is rooted at the root's node); the leader of a node also
// leads its socket; other leaders follow the rule.  Rootless collectives
// pass root 0, so leaders are the node masters (lowest ranks).
struct Hierarchy {
  std::vector<HierGroup> levels;
};
Hierarchy make_hierarchy(const Layout& L, int rank, int root, bool sockets, LeaderRule rule = LeaderRule::kLowest);

// g with its members rotated so that its root sits where the balanced
// in-order tree has its root (algorithms/trees.h): for phases whose result does
// not depend on member order (bcast, commutative reductions) every group
// then has the same shape whichever member is its root -- root
// independence -- and pipelined trees are balanced.  Rotation keeps the
// cyclic order, so relative-rank algorithms (binomial, chain, two-tree)
// are unchanged by it.
HierGroup balanced_root(const HierGroup& g);

// How many levels have a group of two or more ranks somewhere.  A
// composition is worth running only with at least two.
int active_levels(const Layout& L, bool sockets);
// Whether the socket level exists (several sockets in some node, not
// switched off with HIERCOLL_SOCKET_LEVEL=none).
bool has_socket_level(const Layout& L);
// Whether every socket's ranks are consecutive ranks, so that reducing
// socket by socket keeps rank order.
bool sockets_consecutive(const Layout& L);

// The above for one layout, computed once (O(p)) and kept with it.
struct LayoutFacts {
  int levels = 0;          // active_levels(L, false)
  int socket_levels = 0;   // active_levels(L, true), 0 without a socket level
  bool socket_level = false;
  bool sockets_consecutive = true;
  LinkSharing links;       // for the flat rules: the most ranks of one node, consecutive
  // Whether some composition may apply (else every call goes flat at once).
  bool hierarchical() const { return levels >= 2 || socket_levels >= 2; }
};
LayoutFacts layout_facts(const Layout& L);

// What a composition needs of the layout and the call.
enum HierNeed : uint32_t {
  kNeedOrderForNonCommutative = 1u << 0,  // non-commutative ops: consecutive node ranks
  kNeedConsecutive = 1u << 1,             // consecutive node ranks whatever the op
  kNeedUniform = 1u << 2,                 // the same number of ranks on every node
  kTwoLevelsOnly = 1u << 3,               // never uses the socket level
  kNeedAllCounts = 1u << 4,               // a count exchange before the schedule (as flat kAllCounts):
                                          // the root's counts on every rank, or with kNeedNodeRows
                                          // a node's rows at its leader (hier/node_counts.h)
  kNodeRowsEverywhere = 1u << 5,          // with kNeedNodeRows: the rows on every rank of the node,
                                          // not only its leader
  kNeedNodeRows = 1u << 6,                // with kNeedAllCounts: the exchange is the node rows'
};

struct HierCall;
using HierBuildFn = void (*)(const HierCall&, ScheduleBuilder&);

// Bit of op in HierComposition::inter_ops.
constexpr uint32_t op_bit(Op op) { return 1u << static_cast<int>(op); }

struct HierComposition {
  Op op;
  const char* name;     // "bcast_pipelined"; reported as "hier:<name>"
  uint32_t needs;       // HierNeed bits
  bool segmented;       // all phases pipelined in one segment size
  uint32_t inter_ops;   // op_bit of each operation its inter-node phases run as a
                        // flat algorithm (scan's leaders run exscan); 0: none
  HierBuildFn build;
};

// What chooses a phase's flat algorithm where nothing forces it and the
// composition's kind does not fix it: the model of the machine costing
// each algorithm that fits on the phase's group (decide/phase_choice.h).
// Deterministic, so every rank chooses alike; null: no choice (the flat
// rules choose).
class PhaseChooser {
 public:
  virtual ~PhaseChooser() = default;
  // `inter`: the group is one rank per node (else inside one node);
  // `copies`: how many such groups run the phase at once (every node its
  // own intra-node phase), which share the cores where every node's ranks
  // share them; `machine`: the figures default segments follow.
  virtual const Algorithm* cheapest(bool inter, int copies, const CollArgs& sub, int64_t unit_bytes,
                                    const MachineFigures* machine) const = 0;
};

// Everything a composed schedule depends on besides the layout and the
// call's CollArgs.  Interned by choose_composition, so its address can key
// the schedule cache.
struct HierChoice {
  const HierComposition* comp = nullptr;
  bool sockets = false;     // the socket level is used
  int64_t unit_bytes = 0;   // bytes of one unit (phases select by bytes)
  int64_t seg_units = 0;    // a forced segment; 0: the default (segmented compositions: per call)
  // Forced flat algorithms (null: the phase rules decide): `inter` for the
  // inter-node phases (HIERCOLL_<OP>_INTER_ALGORITHM, tests), `intra` for the
  // levels inside the node (tests).  Forced by name: a phase of another
  // operation runs the algorithm of the same name of its own operation
  // (allreduce_pipelined's reduce and bcast among nodes both run "twotree").
  const Algorithm* inter = nullptr;
  const Algorithm* intra = nullptr;
  // The machine figures default segment sizes and the flat rules follow (null: the built-in
  // ones; a tuning file's figures otherwise).
  const MachineFigures* machine = nullptr;
  const PhaseChooser* phases = nullptr;  // process-lifetime (null: the flat rules)
  std::string name;         // choice_name(): set when interned (not built per call)
};
// "hier:<composition>", plus " inter=<algorithm>" when forced.
std::string choice_name(const HierChoice& ch);

// What a composition's generator sees.
struct HierCall {
  const Layout& layout;
  const CollArgs& args;
  const HierChoice& choice;

  // The phase's CollArgs on group g: op, rank/size/root from g, count.
  CollArgs phase_args(Op op, const HierGroup& g, int64_t count) const;
  // The flat algorithm of a phase (level 0 is inter-node), from the forced
  // ones, the composition's phase rules or the flat default selection; also
  // sets sub->seg_units.
  const Algorithm& phase_algorithm(bool inter, CollArgs* sub) const;
  // One phase: `op` on `count` units on group g with the algorithm
  // phase_algorithm picks, Send/Recv at `send` / `recv` (see run_phase).
  // Returns the phase's segment in units (0: not segmented).
  int64_t run_level(ScheduleBuilder& b, Op op, const HierGroup& g, bool inter, int64_t count, Span send, Span recv,
                    int64_t global_alias) const;
  Hierarchy hierarchy(int root, LeaderRule rule = LeaderRule::kLowest) const {
    return make_hierarchy(layout, args.rank, root, choice.sockets, rule);
  }
};

// The send_alias of a phase whose Send and Recv are the spans send and recv
// of the real buffers (their n is ignored): 0 when they are the same units,
// else -1.  (Phases never overlap them partially.)
int64_t phase_alias(Span send, Span recv, int64_t global_alias);

// Runs flat algorithm `alg` for `sub` (op, count, seg_units set; rank,
// size, root and send_alias are filled here) on g, with its Send and Recv
// at send.off / recv.off of send.buf / recv.buf.
void run_phase(ScheduleBuilder& b, const HierGroup& g, const Algorithm& alg, CollArgs sub, Span send, Span recv,
               int64_t global_alias);

// Level-by-level pieces shared by the compositions (hier_bcast.cc,
// hier_reduce.cc).  Levels [first, last) of h, outermost first for bcast,
// innermost first for reduce.
//  bcast: Recv[0, count) flows from each group's root to its members
//  (groups rotated by balanced_root).
//  reduce: each rank starts with `*partial` (its input or a partial
//  result); a group's root ends with the group's reduction in its own Recv
//  when `result_in_recv` (the root of a reduce, every rank of an
//  allreduce), else in fresh scratch, and `*partial` follows it.  Groups
//  are rotated by balanced_root for commutative operations only.
void bcast_levels(const HierCall& c, ScheduleBuilder& b, const Hierarchy& h, size_t first, size_t last);
void reduce_levels(const HierCall& c, ScheduleBuilder& b, const Hierarchy& h, size_t first, size_t last,
                   Span* partial, bool result_in_recv);

// The compositions (one file each).
void build_hier_bcast(const HierCall& c, ScheduleBuilder& b);              // hier_bcast.cc
void build_hier_reduce(const HierCall& c, ScheduleBuilder& b);             // hier_reduce.cc
void build_hier_allreduce(const HierCall& c, ScheduleBuilder& b);          // hier_allreduce.cc
void build_hier_allreduce_pipelined(const HierCall& c, ScheduleBuilder& b);  // hier_allreduce_pipelined.cc
void build_hier_allreduce_columns(const HierCall& c, ScheduleBuilder& b);  // hier_allreduce_columns.cc
void build_hier_reduce_scatter(const HierCall& c, ScheduleBuilder& b);    // hier_reduce_scatter.cc
void build_hier_reduce_scatter_columns(const HierCall& c, ScheduleBuilder& b);  // hier_reduce_scatter_columns.cc
void build_hier_barrier(const HierCall& c, ScheduleBuilder& b);            // hier_barrier.cc
void build_hier_scan(const HierCall& c, ScheduleBuilder& b);               // hier_scan.cc
void build_hier_exscan(const HierCall& c, ScheduleBuilder& b);             // hier_scan.cc
void build_hier_allgatherv(const HierCall& c, ScheduleBuilder& b);         // hier_allgatherv.cc (allgather too)
void build_hier_allgather_leaders(const HierCall& c, ScheduleBuilder& b);  // hier_allgather_leaders.cc (allgatherv too)
void build_hier_alltoall(const HierCall& c, ScheduleBuilder& b);           // hier_alltoall.cc
void build_hier_alltoallv(const HierCall& c, ScheduleBuilder& b);          // hier_alltoallv.cc
void build_hier_alltoall_leaders(const HierCall& c, ScheduleBuilder& b);   // hier_alltoall_leaders.cc (alltoallv too)
void build_hier_gatherv(const HierCall& c, ScheduleBuilder& b);            // hier_gatherv.cc (gather too)
void build_hier_scatterv(const HierCall& c, ScheduleBuilder& b);           // hier_gatherv.cc (scatter too)

}  // namespace hiercoll
