// The model's figures of the process (runtime/figures_probe.h) on a real
// job: HIERCOLL_FIGURES=probe measures them at MPI_Init and every rank
// holds rank 0's; a figures file gives every rank its figures; a file
// that cannot be read leaves the built-in ones; and a communicator's
// decisions are the decision function's under those figures.  Each
// binary run sets HIERCOLL_FIGURES in its environment (tests/BUILD) and
// runs the tests of its case (--gtest_filter).
#include <mpi.h>

#include <string>
#include <vector>

#include "decide/decide.h"
#include "runtime/comm_state.h"
#include "runtime/decisions.h"
#include "runtime/figures_probe.h"
#include "select/model_figures_json.h"
#include "tests/support/mpi_test.h"
#include "topo/topology.h"

namespace hiercoll::testing {
namespace {

std::vector<double> fields(const CostModel& m) {
  return {m.alpha_us,     m.bandwidth_gbps, m.shm_alpha_us,  m.shm_bandwidth_gbps,
          m.reduce_gbps,  m.burst_bytes,    double(m.latency_overlaps), double(m.cores),
          double(m.cores_shared_by_all),    m.message_cpu_us, m.eager_limit, m.shm_eager_limit,
          double(m.simplex)};
}

// Every rank's figures equal rank 0's, field by field and in their source.
void expect_every_rank_alike(const Figures& f) {
  std::vector<double> mine = fields(f.model), zero = mine;
  PMPI_Bcast(zero.data(), static_cast<int>(zero.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  EXPECT_EQ(mine, zero);
  std::string source = f.source;
  int n = static_cast<int>(source.size());
  PMPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  source.resize(static_cast<size_t>(n));
  PMPI_Bcast(&source[0], n, MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(f.source, source);
}

// The decisions world keeps are the decision function's under the
// process's figures.
void expect_world_decides_by(const Figures& f) {
  int x = 1, y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // world's state, resolved on first use
  CommState* state = comm_state(MPI_COMM_WORLD);
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(&comm_figures(state), &f);
  const Settings& s = comm_settings(MPI_COMM_WORLD);
  DecideInput in;
  in.layout = state->topology->layout.get();
  in.facts = &state->facts;
  in.figures = &f;
  in.scope.hier = s.mode == Mode::kHier;
  for (const Op op : {Op::kBcast, Op::kAllreduce, Op::kAllgather})
    for (const int64_t bytes : {int64_t{8}, int64_t{65536}, int64_t{1} << 20}) {
      const Decided* d = decided(state, s, op, bytes, true);
      ASSERT_NE(d, nullptr);
      const Decision want = decide_class(in, op, bytes, true);
      EXPECT_EQ(method_text(d->range.method), method_text(want.chosen().candidate.method))
          << op_name(op) << " " << bytes;
    }
}

class FiguresMpi : public RankedMpiTest {};

TEST_F(FiguresMpi, ProbeEveryRankHoldsRankZerosMeasurement) {
  const Figures& f = machine_figures();
  ASSERT_EQ(f.source.rfind("probe (", 0), 0u) << f.source;
  expect_every_rank_alike(f);
  EXPECT_EQ(check_cost_model(f.model), "");
  const Topology* world = nullptr;
  ASSERT_EQ(get_topology(MPI_COMM_WORLD, &world), MPI_SUCCESS);
  const Layout& L = *world->layout;
  // A level the probe could measure is measured; one it could not keeps
  // the built-in figures.
  EXPECT_EQ(f.source.find("inter-node as") == std::string::npos, L.num_nodes > 1) << f.source;
  EXPECT_EQ(f.source.find("intra-node as") == std::string::npos, L.node_size(0) > 1) << f.source;
  if (L.num_nodes == 1) {
    EXPECT_EQ(f.model.alpha_us, builtin_figures().model.alpha_us);
  }
  expect_world_decides_by(f);
}

TEST_F(FiguresMpi, FileEveryRankHoldsItsFigures) {
  const Figures& f = machine_figures();
  CostModel want;
  std::string source, error;
  ASSERT_TRUE(load_figures_file("tests/figures_file.json", &want, &source, &error)) << error;
  EXPECT_EQ(fields(f.model), fields(want));
  EXPECT_NE(f.source.find("a test's figures"), std::string::npos) << f.source;
  expect_every_rank_alike(f);
  expect_world_decides_by(f);
}

TEST_F(FiguresMpi, UnreadableFileLeavesTheBuiltInFigures) {
  const Figures& f = machine_figures();
  EXPECT_EQ(&f, &builtin_figures());
  expect_world_decides_by(f);
}

}  // namespace
}  // namespace hiercoll::testing
