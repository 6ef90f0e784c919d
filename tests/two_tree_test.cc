// The trees of the pipelined collectives (algorithms/trees.h; two-tree paper,
// Sect. 2 and Lemma 1), checked alone, without MPI:
//  - the balanced in-order tree, the rooted in-order tree (every root) and
//    both trees of the two-tree (shift for every n, mirror for even n) are
//    spanning trees over their range with the right root, parents and
//    children agree, and every subtree is in order (node v's subtree is a
//    range [lo, hi), its lower child's [lo, v), its upper child's (v, hi));
//  - in the two-tree every node is interior in at most one tree;
//  - the colouring satisfies Lemma 1, and the broadcast schedule it defines
//    is one-ported (see check_two_tree for exactly what is checked);
//  - arrival() and the LocalTree views agree with that schedule.
// For every tree size up to 4096 and spot sizes up to 100000.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/trees.h"

namespace hiercoll {
namespace {

std::vector<int> spot_sizes() { return {4097, 5000, 8191, 8192, 65535, 65536, 65537, 99999, 100000}; }

// "" when node() describes a spanning in-order tree over [lo, hi) rooted at
// `root`, else the first problem.  Also returns the height (edges).
template <class NodeFn>
std::string check_inorder_tree(int lo, int hi, int root, const NodeFn& node, int* height = nullptr) {
  auto where = [](int v) { return "node " + std::to_string(v) + ": "; };
  if (hi <= lo) return "";
  if (root < lo || root >= hi) return "root " + std::to_string(root) + " outside the range";
  for (int v = lo; v < hi; ++v) {
    const TreeNode nd = node(v);
    if ((nd.parent < 0) != (v == root)) return where(v) + "has no parent but is not the root, or the reverse";
    if (v == root && (nd.lo != lo || nd.hi != hi)) return where(v) + "the root does not cover the range";
    if (nd.lo > v || nd.hi <= v || nd.lo < lo || nd.hi > hi) return where(v) + "range does not hold it";
    if (nd.parent >= 0) {
      if (nd.parent < lo || nd.parent >= hi) return where(v) + "parent outside the range";
      const TreeNode par = node(nd.parent);
      if (par.lower != v && par.upper != v) return where(v) + "its parent does not list it as a child";
    }
    // In order: the children's subtrees are exactly [lo, v) and (v, hi).
    if (nd.lower >= 0) {
      const TreeNode c = node(nd.lower);
      if (c.parent != v || c.lo != nd.lo || c.hi != v) return where(v) + "lower child's subtree is not [lo, v)";
    } else if (nd.lo != v) {
      return where(v) + "no lower child but ranks below it";
    }
    if (nd.upper >= 0) {
      const TreeNode c = node(nd.upper);
      if (c.parent != v || c.lo != v + 1 || c.hi != nd.hi) return where(v) + "upper child's subtree is not (v, hi)";
    } else if (nd.hi != v + 1) {
      return where(v) + "no upper child but ranks above it";
    }
  }
  // A child's subtree is a strict part of its parent's, so parent chains end,
  // and only at the root: no cycles.  Walk down from the root for the height
  // and to see every node once.
  int h = 0, seen = 0;
  std::vector<std::pair<int, int>> stack = {{root, 0}};
  while (!stack.empty()) {
    const auto [v, d] = stack.back();
    stack.pop_back();
    ++seen;
    h = std::max(h, d);
    const TreeNode nd = node(v);
    for (int c : {nd.lower, nd.upper})
      if (c >= 0) stack.push_back({c, d + 1});
  }
  if (seen != hi - lo) return "the root reaches " + std::to_string(seen) + " nodes";
  if (height) *height = h;
  return "";
}

int floor_log2(int n) {
  int k = 0;
  while ((2 << k) <= n) ++k;
  return k;
}

TEST(InorderTree, PaperExample) {
  // Sect. 2, Fig. 1 (p = 10, root 9): T1 over 0..8.
  EXPECT_EQ(rooted_tree_to_string(0, 9, inorder_root(0, 9)), "7(3(1(0 2) 5(4 6)) 8)");
  EXPECT_EQ(rooted_tree_to_string(0, 10, 9), "9(7(3(1(0 2) 5(4 6)) 8) -)");
  EXPECT_EQ(rooted_tree_to_string(0, 10, 0), "0(- 8(4(2(1 3) 6(5 7)) 9))");
}

TEST(InorderTree, BalancedWithEvenLeaves) {
  for (int n = 1; n <= 4096; ++n)
    for (int lo : {0, 3}) {
      const int hi = lo + n;
      int h = 0;
      const std::string err =
          check_inorder_tree(lo, hi, inorder_root(lo, hi), [&](int v) { return inorder_node(lo, hi, v); }, &h);
      ASSERT_EQ(err, "") << "n=" << n << " lo=" << lo;
      ASSERT_EQ(h, floor_log2(n)) << "n=" << n;
      // Step 1 of the construction: the leaves are lo, lo+2, ...
      for (int v = lo; v < hi; ++v) ASSERT_EQ(inorder_node(lo, hi, v).leaf(), (v - lo) % 2 == 0) << n << " " << v;
    }
}

TEST(RootedTree, EveryRoot) {
  std::vector<std::pair<int, std::vector<int>>> cases;
  for (int p = 1; p <= 200; ++p) {
    std::vector<int> roots;
    for (int r = 0; r < p; ++r) roots.push_back(r);
    cases.push_back({p, roots});
  }
  for (int p : spot_sizes()) cases.push_back({p, {0, 1, p / 3, p / 2, p - 2, p - 1}});
  for (const auto& [p, roots] : cases)
    for (int root : roots) {
      int h = 0;
      const std::string err = check_inorder_tree(0, p, root, [&](int v) { return rooted_node(0, p, root, v); }, &h);
      ASSERT_EQ(err, "") << "p=" << p << " root=" << root;
      // At most one level more than the balanced tree.
      ASSERT_LE(h, floor_log2(p) + 1) << "p=" << p << " root=" << root;
      if (root == inorder_root(0, p)) {
        ASSERT_EQ(h, floor_log2(p)) << "p=" << p;
      }
      // The pipeline view: a child gets block 0 one step (lower) or two
      // steps (upper) after its parent.
      if (p <= 64 || root == 0) {
        for (int v = 0; v < p; v += p <= 64 ? 1 : 997) {
          const LocalTree lt = local_rooted_tree(p, root, v);
          if (lt.node.lower >= 0) {
            ASSERT_EQ(local_rooted_tree(p, root, lt.node.lower).arrival, lt.lower_arrival);
          }
          if (lt.node.upper >= 0) {
            ASSERT_EQ(local_rooted_tree(p, root, lt.node.upper).arrival, lt.upper_arrival);
          }
        }
      }
    }
}

// Everything about one two-tree; "" when right.  What is checked:
//  1. T1 and T2 are spanning in-order trees over [0, n) (check_inorder_tree)
//     rooted at root(0) and root(1); every node is interior (has a child) in
//     at most one of them.
//  2. Lemma 1 on the graph T1 + T2 + the virtual root n with edges to both
//     roots: (a) each node's in-edges in T1 and T2 have different colours;
//     (b) the out-edges of each node (its children in the tree where it is
//     interior; for the virtual root, the two tree roots) have different
//     colours.
//  3. The broadcast schedule: block k of tree t crosses the edge into v in
//     step D_t(v) + 2k, where D_t(root_t) = colour of the root edge and D_t(c)
//     is the first step after D_t(parent) of c's colour's parity.  Computed
//     here top-down, independently of the library: in every step, for any
//     number of blocks, every node (virtual root included) receives at most
//     one block and sends at most one block (the two receive sequences of a
//     node, and the send sequences to its two children, have different
//     parities), and forwards a block only after receiving it (D_t(c) >
//     D_t(parent)).  For n <= 300 this is also simulated literally with 5
//     blocks per tree, counting sends and receives per node and step.
//  4. TwoTree::arrival and local_two_tree agree with D (all nodes for n <=
//     512, a sample above).
std::string check_two_tree(const TwoTree& tt) {
  const int n = tt.size();
  const std::string tag = "n=" + std::to_string(n) + (tt.shape() == TwoTreeShape::kMirror ? " mirror: " : " shift: ");
  for (int t = 0; t < 2; ++t) {
    const std::string err = check_inorder_tree(0, n, tt.root(t), [&](int v) { return tt.node(t, v); });
    if (!err.empty()) return tag + "T" + std::to_string(t + 1) + ": " + err;
  }
  if (n == 0) return "";
  std::vector<int64_t> D[2];
  for (int t = 0; t < 2; ++t) {
    D[t].assign(n, -1);
    std::vector<int> stack = {tt.root(t)};
    D[t][tt.root(t)] = tt.colour(t, tt.root(t));
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      const TreeNode nd = tt.node(t, v);
      for (int c : {nd.lower, nd.upper}) {
        if (c < 0) continue;
        D[t][c] = D[t][v] + 1 + ((D[t][v] + 1) % 2 != tt.colour(t, c));
        stack.push_back(c);
      }
    }
  }
  auto at = [&](int v) { return tag + "node " + std::to_string(v) + ": "; };
  if (tt.colour(0, tt.root(0)) == tt.colour(1, tt.root(1)))
    return tag + "the virtual root's two edges have the same colour";
  for (int v = 0; v < n; ++v) {
    const TreeNode a = tt.node(0, v), b = tt.node(1, v);
    if (!a.leaf() && !b.leaf()) return at(v) + "interior in both trees";
    if (tt.colour(0, v) == tt.colour(1, v)) return at(v) + "both in-edges have the same colour";
    if (D[0][v] % 2 == D[1][v] % 2) return at(v) + "receives twice in one step";
    for (int t = 0; t < 2; ++t) {
      const TreeNode nd = tt.node(t, v);
      if (nd.lower >= 0 && nd.upper >= 0) {
        if (tt.colour(t, nd.lower) == tt.colour(t, nd.upper)) return at(v) + "both out-edges have the same colour";
        if (D[t][nd.lower] % 2 == D[t][nd.upper] % 2) return at(v) + "sends twice in one step";
      }
      if (nd.parent >= 0 && D[t][v] <= D[t][nd.parent]) return at(v) + "receives before its parent";
    }
  }
  if (n <= 300) {
    constexpr int kBlocks = 5;
    const int steps = static_cast<int>(2 * (n + kBlocks) + 4);
    std::vector<int> sends((n + 1) * steps, 0), recvs((n + 1) * steps, 0);
    for (int t = 0; t < 2; ++t)
      for (int v = 0; v < n; ++v) {
        const int par = tt.node(t, v).parent < 0 ? n : tt.node(t, v).parent;
        for (int k = 0; k < kBlocks; ++k) {
          const int64_t s = D[t][v] + 2 * k;
          if (s >= steps) return at(v) + "schedule longer than expected";
          ++sends[par * steps + s];
          ++recvs[v * steps + s];
        }
      }
    for (int i = 0; i < (n + 1) * steps; ++i)
      if (sends[i] > 1 || recvs[i] > 1) return at(i / steps) + "two sends or receives in step " + std::to_string(i % steps);
  }
  const int stride = n <= 512 ? 1 : n / 64;
  for (int v = 0; v < n; v += stride)
    for (int t = 0; t < 2; ++t) {
      if (tt.arrival(t, v) != D[t][v]) return at(v) + "arrival() disagrees";
      const LocalTree lt = local_two_tree(tt, t, v, /*virtual_root=*/true);
      if (lt.arrival != D[t][v]) return at(v) + "local_two_tree arrival disagrees";
      if (lt.node.lower >= 0 && lt.lower_arrival != D[t][lt.node.lower]) return at(v) + "lower_arrival disagrees";
      if (lt.node.upper >= 0 && lt.upper_arrival != D[t][lt.node.upper]) return at(v) + "upper_arrival disagrees";
      if ((lt.node.parent == n) != (v == tt.root(t))) return at(v) + "only a tree root hangs off the virtual root";
    }
  for (int t = 0; t < 2; ++t) {
    const LocalTree root = local_two_tree(tt, t, n, true);
    if (root.node.parent != -1 || root.node.lower != tt.root(t) || root.lower_arrival != D[t][tt.root(t)])
      return tag + "the virtual root's view is wrong";
  }
  return "";
}

TEST(TwoTree, PaperExample) {
  // Sect. 2, Fig. 1: p = 10, the trees over 0..8.
  auto strip = [](std::string s) {
    std::string r;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '/') ++i;  // drop "/colour"
      else r += s[i];
    }
    return r;
  };
  const TwoTree tt(9);
  EXPECT_EQ(strip(tt.to_string()), "T1: 7(3(1(0 2) 5(4 6)) 8)\nT2: 6(2(0(- 1) 4(3 5)) 8(7 -))");
  std::cout << "two-tree for p = 10 (node/in-edge colour):\n" << tt.to_string() << "\n";
  EXPECT_EQ(check_two_tree(tt), "");
}

TEST(TwoTree, EverySizeTo4096) {
  for (int n = 0; n <= 4096; ++n) {
    ASSERT_EQ(check_two_tree(TwoTree(n)), "");
    if (n % 2 == 0) {
      ASSERT_EQ(check_two_tree(TwoTree(n, TwoTreeShape::kMirror)), "");
    }
  }
}

TEST(TwoTree, SpotSizesTo100000) {
  for (int n : spot_sizes()) {
    ASSERT_EQ(check_two_tree(TwoTree(n)), "");
    if (n % 2 == 0) {
      ASSERT_EQ(check_two_tree(TwoTree(n, TwoTreeShape::kMirror)), "");
    }
  }
}

// The broadcast/reduce renumbering (Sect. 2.1): rank i plays node
// (i - root - 1) mod p, the root plays the virtual root p-1.  With it both
// trees span all p ranks, rooted at the root.
TEST(TwoTree, SpansAllRanksForAnyRoot) {
  std::vector<int> sizes = {100, 127, 128, 1000, 4096};
  for (int p = 1; p <= 64; ++p) sizes.push_back(p);
  for (int p : spot_sizes()) sizes.push_back(p);
  for (int p : sizes) {
    const std::shared_ptr<const TwoTree> tt = cached_two_tree(p - 1);
    for (int root : {0, 1 % p, p / 2, p - 1}) {
      auto real = [&](int v) { return (v + root + 1) % p; };
      for (int t = 0; t < 2; ++t) {
        std::vector<int> parent(p, -2);
        for (int rank = 0; rank < p; ++rank) {
          const int v = (rank - root - 1 + p) % p;
          const LocalTree lt = local_two_tree(*tt, t, v, /*virtual_root=*/true);
          parent[rank] = lt.node.parent < 0 ? -1 : real(lt.node.parent);
        }
        for (int rank = 0; rank < p; ++rank) {
          ASSERT_EQ(parent[rank] < 0, rank == root) << "p=" << p << " root=" << root << " rank=" << rank;
          int x = rank, steps = 0;
          while (parent[x] >= 0 && steps <= p) x = parent[x], ++steps;
          ASSERT_EQ(x, root) << "p=" << p << " root=" << root << " rank=" << rank;
        }
      }
    }
  }
}

TEST(TwoTree, ColouringTimeAt100000) {
  for (int n : {99999, 100000}) {
    const auto t0 = std::chrono::steady_clock::now();
    const TwoTree tt(n);
    const auto t1 = std::chrono::steady_clock::now();
    std::cout << "two-tree construction and colouring, " << n
              << " nodes: " << std::chrono::duration<double, std::micro>(t1 - t0).count() << " us\n";
    EXPECT_EQ(tt.size(), n);
  }
}

}  // namespace
}  // namespace hiercoll
