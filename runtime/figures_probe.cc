#include "runtime/figures_probe.h"

#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "select/model_figures_json.h"
#include "topo/machines.h"

namespace hiercoll {

namespace {

constexpr int kDataTag = 1;
constexpr int kStopTag = 2;
constexpr int kShareTag = 3;
constexpr int kLargeBytes = 256 * 1024;
constexpr int kReduceDoubles = 64 * 1024;  // 512 KiB: a pipelined segment or two

std::unique_ptr<const Figures> g_figures;

// The probe's buffers, mapped and unmapped directly: freeing large blocks
// of the heap would move glibc's dynamic mmap threshold, which changes how
// the application's own large allocations (and Open MPI's) are served for
// the rest of the job.
class Mapped {
 public:
  explicit Mapped(size_t bytes) : bytes_(bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) p_ = p;
    else p_ = std::calloc(bytes, 1), heap_ = true;  // never expected; the heap then
  }
  ~Mapped() {
    if (heap_) std::free(p_);
    else munmap(p_, bytes_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(p_); }

 private:
  void* p_ = nullptr;
  size_t bytes_;
  bool heap_ = false;
};

double now_us() { return MPI_Wtime() * 1e6; }

// One round trip of `bytes` with `peer`, halved: a one-way time.
double one_way_us(MPI_Comm comm, int peer, int bytes, const Mapped& buf) {
  const double t0 = now_us();
  PMPI_Send(buf.as<char>(), bytes, MPI_BYTE, peer, kDataTag, comm);
  PMPI_Recv(buf.as<char>(), bytes, MPI_BYTE, peer, kDataTag, comm, MPI_STATUS_IGNORE);
  return (now_us() - t0) / 2;
}

double median(std::vector<double> t) {
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

// Rank 0's side of a ping-pong with `peer`: the one-way times of `bytes`
// over round trips until `budget_us` has passed (three at least; the first
// warms the path up and is not counted).
std::vector<double> one_way_times_us(MPI_Comm comm, int peer, int bytes, double budget_us, const Mapped& buf) {
  std::vector<double> t;
  const double until = now_us() + budget_us;
  for (int i = 0; i < 1000 && (i < 4 || now_us() < until); ++i) {
    const double one_way = one_way_us(comm, peer, bytes, buf);
    if (i > 0) t.push_back(one_way);
  }
  return t;
}

// A level's figures: the small message's times, then the large one's
// (not in turn: after a large message an emulated link's shaper delays
// the next small one).  The median, not the fastest, is the level's
// figure: where ranks share cores a message waits for its receiver's
// turn, and the collectives' messages wait alike.  The fastest are kept
// for when load makes the medians contradict each other
// (figures_from_probe).
ProbeTimes::Level probe_level(MPI_Comm comm, int peer, double budget_us, const Mapped& buf) {
  ProbeTimes::Level l;
  l.large_bytes = kLargeBytes;
  const std::vector<double> small =
      one_way_times_us(comm, peer, static_cast<int>(l.small_bytes), budget_us / 4, buf);
  const std::vector<double> large = one_way_times_us(comm, peer, kLargeBytes, budget_us * 3 / 4, buf);
  PMPI_Send(nullptr, 0, MPI_BYTE, peer, kStopTag, comm);
  l.small_us = median(small), l.large_us = median(large);
  l.small_fastest_us = *std::min_element(small.begin(), small.end());
  l.large_fastest_us = *std::min_element(large.begin(), large.end());
  return l;
}

// Waits for a message without spinning: a rank spinning in a blocking
// receive would take a CPU from the ranks being timed where ranks share
// cores.
void sleep_until_done(MPI_Request* r, MPI_Status* st) {
  for (int done = 0;;) {
    PMPI_Test(r, &done, st);
    if (done) return;
    usleep(1000);
  }
}

// The peer's side: every message back to rank 0 as it came, until told to
// stop.  The first (a warm-up, not timed) is awaited asleep, since the
// inter-node peer waits while the intra-node level is timed.
void echo(MPI_Comm comm, const Mapped& buf) {
  MPI_Status st;
  MPI_Request r;
  PMPI_Irecv(buf.as<char>(), kLargeBytes, MPI_BYTE, 0, MPI_ANY_TAG, comm, &r);
  sleep_until_done(&r, &st);
  while (st.MPI_TAG != kStopTag) {
    int n = 0;
    PMPI_Get_count(&st, MPI_BYTE, &n);
    PMPI_Send(buf.as<char>(), n, MPI_BYTE, 0, kDataTag, comm);
    PMPI_Recv(buf.as<char>(), kLargeBytes, MPI_BYTE, 0, MPI_ANY_TAG, comm, &st);
  }
}

double fastest_reduce_us(double budget_us) {
  Mapped in(kReduceDoubles * sizeof(double)), inout(kReduceDoubles * sizeof(double));
  std::fill(in.as<double>(), in.as<double>() + kReduceDoubles, 1.0);
  std::fill(inout.as<double>(), inout.as<double>() + kReduceDoubles, 2.0);
  double best = -1;
  const double until = now_us() + budget_us;
  for (int i = 0; i < 20 && (i < 2 || now_us() < until); ++i) {
    const double t0 = now_us();
    PMPI_Reduce_local(in.as<double>(), inout.as<double>(), kReduceDoubles, MPI_DOUBLE, MPI_SUM);
    const double t = now_us() - t0;
    if (i > 0 && (best < 0 || t < best)) best = t;
  }
  return best;
}

// Rank 0's values to every rank along a binomial tree of messages, each
// rank waiting for its parent's without spinning (on a machine with more
// ranks than CPUs a spinning rank would take the probe's CPU).  Not
// MPI_Ibcast: once a process has used one of Open MPI's nonblocking
// collectives, their progress function runs in every later MPI call
// (Open MPI's own reduce of 4 MiB was 12% slower in the benchmark after
// it).
void share_from_rank0(double* v, int n, MPI_Comm comm, int rank, int size) {
  int mask = 1;
  if (rank > 0) {
    while (!(rank & mask)) mask <<= 1;  // the parent: rank without its lowest bit
    MPI_Request r;
    PMPI_Irecv(v, n, MPI_DOUBLE, rank - mask, kShareTag, comm, &r);
    sleep_until_done(&r, MPI_STATUS_IGNORE);
  } else {
    while (mask < size) mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rank + mask < size) PMPI_Send(v, n, MPI_DOUBLE, rank + mask, kShareTag, comm);
}

ProbeTimes probe(const Topology& world) {
  const Layout& L = *world.layout;
  const MPI_Comm comm = world.comm;
  ProbeTimes t;
  t.nodes = L.num_nodes;
  const MachineLoad load = machine_load(comm);
  t.machines = load.machines;
  t.max_ranks_per_machine = load.max_ranks_per_machine;
  t.cpus = load.cpus_per_machine;
  // Rank 0 leads node 0 (nodes are ordered by their lowest rank).
  const int intra_peer = L.node_size(0) > 1 ? L.node_ranks[0][1] : -1;
  const int inter_peer = L.num_nodes > 1 ? L.master_of_node(1) : -1;
  const Mapped buf(kLargeBytes);  // mapped pages read as zeros
  const double start = now_us();
  if (world.rank == 0) {
    if (intra_peer >= 0) t.intra = probe_level(comm, intra_peer, 12000, buf);
    if (inter_peer >= 0) t.inter = probe_level(comm, inter_peer, 22000, buf);
    t.reduce_bytes = kReduceDoubles * sizeof(double);
    t.reduce_us = fastest_reduce_us(2000);
    t.elapsed_ms = (now_us() - start) / 1000;
  } else if (world.rank == intra_peer || world.rank == inter_peer) {
    echo(comm, buf);
  }
  double v[15] = {t.inter.small_us, t.inter.large_us, t.inter.small_bytes, t.inter.large_bytes,
                  t.inter.small_fastest_us, t.inter.large_fastest_us,
                  t.intra.small_us, t.intra.large_us, t.intra.small_bytes, t.intra.large_bytes,
                  t.intra.small_fastest_us, t.intra.large_fastest_us,
                  t.reduce_us, t.reduce_bytes, t.elapsed_ms};
  share_from_rank0(v, 15, comm, world.rank, L.size);
  t.inter = {v[0], v[1], v[2], v[3], v[4], v[5]};
  t.intra = {v[6], v[7], v[8], v[9], v[10], v[11]};
  t.reduce_us = v[12], t.reduce_bytes = v[13], t.elapsed_ms = v[14];
  return t;
}

// Rank 0 reads the file; every rank gets its figures (or its error).
bool figures_from_file(const std::string& path, const Topology& world, Figures* f, std::string* error) {
  CostModel m;
  std::string json;
  if (world.rank == 0) {
    std::string source;
    if (load_figures_file(path, &m, &source, error)) json = model_figures_json(m, source).dump();
  }
  long n = static_cast<long>(json.size());
  PMPI_Bcast(&n, 1, MPI_LONG, 0, world.comm);
  if (n == 0) return false;
  json.resize(static_cast<size_t>(n));
  PMPI_Bcast(&json[0], static_cast<int>(n), MPI_CHAR, 0, world.comm);
  std::string source;
  f->model = read_model_figures(nlohmann::json::parse(json), path, &source);
  f->source = "figures file " + path + (source.empty() ? "" : ": " + source);
  return true;
}

}  // namespace

void init_machine_figures(const std::string& knob, bool verbose, const Topology& world) {
  if (knob.empty() || knob == "builtin") return;
  Figures f;
  std::string error;
  if (knob == "probe") {
    f = figures_from_probe(probe(world), builtin_figures());
  } else if (!figures_from_file(knob, world, &f, &error)) {
    if (world.rank == 0) std::fprintf(stderr, "hiercoll: HIERCOLL_FIGURES=%s: %s; using the built-in figures\n",
                                      knob.c_str(), error.c_str());
    return;
  }
  if (verbose && world.rank == 0) std::fprintf(stderr, "hiercoll: figures: %s\n", f.source.c_str());
  g_figures = std::make_unique<const Figures>(std::move(f));
}

const Figures& machine_figures() { return g_figures ? *g_figures : builtin_figures(); }

}  // namespace hiercoll
