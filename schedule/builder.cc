#include "schedule/builder.h"

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <cstdlib>

namespace hiercoll {

ScheduleBuilder::ScheduleBuilder(int64_t send_alias) : send_alias_(send_alias) {}

Span ScheduleBuilder::map_span(Span s) const {
  if (s.buf == Buf::kSend) return Span{view_.send_buf, view_.send_off + s.off, s.n};
  if (s.buf == Buf::kRecv) return Span{view_.recv_buf, view_.recv_off + s.off, s.n};
  return s;
}

int ScheduleBuilder::map_peer(int peer) const { return view_.ranks ? (*view_.ranks)[peer] : peer; }

Span ScheduleBuilder::tmp(int64_t n) {
  Span s{Buf::kTmp, sched_.tmp_units, n};
  sched_.tmp_units += n;
  return s;
}

ScheduleBuilder::SegmentMap* ScheduleBuilder::tracked(const Span& s, int64_t* off) {
  *off = s.off;
  switch (s.buf) {
    case Buf::kTmp: return &tmp_segs_;
    case Buf::kRecv: return &recv_segs_;
    case Buf::kSend:
      if (send_alias_ < 0) return nullptr;  // read-only and distinct: no hazards
      *off = s.off + send_alias_;
      return &recv_segs_;
  }
  return nullptr;
}

namespace {

// The first segment that ends after `off`.
template <typename Map>
typename Map::iterator first_overlap(Map& m, int64_t off) {
  auto it = m.upper_bound(off);
  if (it != m.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > off) return prev;
  }
  return it;
}

// Makes `pos` a segment boundary.
template <typename Map>
void split_at(Map& m, int64_t pos) {
  auto it = m.upper_bound(pos);
  if (it == m.begin()) return;
  --it;
  if (it->first < pos && it->second.end > pos) {
    auto tail = it->second;
    it->second.end = pos;
    m.emplace(pos, std::move(tail));
  }
}

}  // namespace

void ScheduleBuilder::collect_hazards(const Span& s, bool write, std::vector<int32_t>* out) {
  int64_t off;
  SegmentMap* m = tracked(s, &off);
  if (!m || s.n == 0) return;
  const int64_t end = off + s.n;
  for (auto it = first_overlap(*m, off); it != m->end() && it->first < end; ++it) {
    if (it->second.writer >= 0) out->push_back(it->second.writer);  // RAW, WAW
    if (write) out->insert(out->end(), it->second.readers.begin(), it->second.readers.end());  // WAR
  }
}

void ScheduleBuilder::record(const Span& s, bool write, int32_t step) {
  int64_t off;
  SegmentMap* m = tracked(s, &off);
  if (!m || s.n == 0) return;
  const int64_t end = off + s.n;
  split_at(*m, off);
  split_at(*m, end);
  if (write) {
    // This write follows everything before it on these units: whoever
    // waits for it waits for them too.
    m->erase(m->lower_bound(off), m->lower_bound(end));
    m->emplace(off, Segment{end, step, {}});
    return;
  }
  int64_t pos = off;
  for (auto it = m->lower_bound(off); pos < end;) {
    if (it == m->end() || it->first > pos) {  // a gap never accessed before
      const int64_t gap_end = it == m->end() ? end : std::min(end, it->first);
      it = std::next(m->emplace(pos, Segment{gap_end, -1, {step}}).first);
      pos = gap_end;
      continue;
    }
    it->second.readers.push_back(step);
    pos = it->second.end;
    ++it;
  }
}

int ScheduleBuilder::add(Step step, const Span* reads, int nreads, const Span* writes, int nwrites,
                         const Deps& extra) {
  const int32_t id = static_cast<int32_t>(sched_.steps.size());
  std::vector<int32_t> deps;
  for (int i = 0; i < nreads; ++i) collect_hazards(reads[i], false, &deps);
  for (int i = 0; i < nwrites; ++i) collect_hazards(writes[i], true, &deps);
  for (int d : extra)
    if (d >= 0) deps.push_back(d);
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  step.dep_begin = static_cast<uint32_t>(sched_.deps.size());
  step.dep_count = static_cast<uint32_t>(deps.size());
  sched_.deps.insert(sched_.deps.end(), deps.begin(), deps.end());
  for (int i = 0; i < nreads; ++i) record(reads[i], false, id);
  for (int i = 0; i < nwrites; ++i) record(writes[i], true, id);
  sched_.steps.push_back(step);
  return id;
}

// Per peer, keyed by the peer (a rank talks to few peers, but their ranks
// go up to the communicator's size: a vector indexed by rank made building
// all schedules of p ranks cost p^2).
static int32_t next_seq(std::unordered_map<int32_t, int32_t>& seqs, int peer) { return seqs[peer]++; }

int ScheduleBuilder::send(int peer, Span src, const Deps& extra) {
  Step s;
  s.kind = StepKind::kSend;
  s.peer = map_peer(peer);
  s.seq = next_seq(send_seq_, s.peer);
  s.src = map_span(src);
  return add(s, &s.src, 1, nullptr, 0, extra);
}

int ScheduleBuilder::recv(int peer, Span dst, const Deps& extra) {
  Step s;
  s.kind = StepKind::kRecv;
  s.peer = map_peer(peer);
  s.seq = next_seq(recv_seq_, s.peer);
  s.dst = map_span(dst);
  return add(s, nullptr, 0, &s.dst, 1, extra);
}

int ScheduleBuilder::copy(Span src, Span dst, const Deps& extra) {
  if (src.n == 0) return -1;
  Step s;
  s.kind = StepKind::kCopy;
  s.src = map_span(src);
  s.dst = map_span(dst);
  // The v-variants count each side in its own datatype's elements, so a
  // copy from Send may have another length on its Recv side; a dst of no
  // length takes src's.
  if (s.dst.n == 0) s.dst.n = s.src.n;
  return add(s, &s.src, 1, &s.dst, 1, extra);
}

int ScheduleBuilder::relabelled_copy(int pos, Span src, Span dst, const Deps& extra) {
  const int id = copy(src, dst, extra);
  if (id >= 0) sched_.steps[id].peer = pos;
  return id;
}

int ScheduleBuilder::reduce(Span src, Span dst, bool src_first, const Deps& extra) {
  if (src.n == 0) return -1;
  Step s;
  s.kind = StepKind::kReduce;
  s.src_first = src_first;
  s.src = map_span(src);
  s.dst = map_span(dst);
  s.dst.n = s.src.n;
  // dst (op) src is computed into src and copied back, so src is written too;
  // it must therefore be scratch or the receive buffer, never the send buffer.
  if (!src_first && s.src.buf == Buf::kSend) {
    std::fprintf(stderr, "hiercoll: bug: ordered reduce would overwrite the send buffer\n");
    std::abort();
  }
  if (src_first) return add(s, &s.src, 1, &s.dst, 1, extra);
  Span writes[2] = {s.dst, s.src};
  return add(s, nullptr, 0, writes, 2, extra);
}

Deps ScheduleBuilder::steps_since(int mark) const {
  Deps d;
  for (int i = mark; i < num_steps(); ++i) d.push_back(i);
  return d;
}

Schedule ScheduleBuilder::finish() {
  Schedule s = std::move(sched_);
  s.finalize();
  sched_ = Schedule();
  recv_segs_.clear();
  tmp_segs_.clear();
  send_seq_.clear();
  recv_seq_.clear();
  return s;
}

}  // namespace hiercoll
