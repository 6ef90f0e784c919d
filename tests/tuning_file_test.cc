// select/method.h and select/tuning_file.h without MPI: method text both
// ways, every malformed method, and the tuning file's round trip (text and
// file on disk).  The malformed files are in tuning_malformed_test.cc, the
// look-ups in tuning_lookup_test.cc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "select/method.h"
#include "select/tuning_file.h"
#include "tests/tuning_sample.h"

namespace hiercoll::testing {
namespace {

TEST(Method, TextRoundTrip) {
  for (const std::string text :
       {"native", "flat:ring", "flat:recursive_doubling", "flat:binomial dynamic", "hier:allreduce",
        "hier:allreduce_pipelined inter=twotree"}) {
    Method m;
    std::string error;
    ASSERT_TRUE(parse_method(text, &m, &error)) << text << ": " << error;
    EXPECT_EQ(method_text(m), text);
  }
}

TEST(Method, ParsedFields) {
  Method m;
  std::string error;
  ASSERT_TRUE(parse_method("flat:chain dynamic", &m, &error));
  EXPECT_EQ(m.kind, Method::kFlat);
  EXPECT_EQ(m.name, "chain");
  EXPECT_TRUE(m.dynamic);
  EXPECT_FALSE(parse_method("flat:chain static", &m, &error));
  EXPECT_FALSE(parse_method("hier:bcast dynamic", &m, &error));
  ASSERT_TRUE(parse_method("hier:scan inter=chain", &m, &error));
  EXPECT_EQ(m.kind, Method::kHier);
  EXPECT_EQ(m.name, "scan");
  EXPECT_EQ(m.inter, "chain");
  ASSERT_TRUE(parse_method("flat:bruck", &m, &error));
  EXPECT_EQ(m.kind, Method::kFlat);
  EXPECT_EQ(m.name, "bruck");
  EXPECT_EQ(m.inter, "");
  ASSERT_TRUE(parse_method("native", &m, &error));
  EXPECT_TRUE(m == Method{});
}

TEST(Method, MalformedTextIsRefusedAndNamed) {
  const std::vector<std::string> bad = {
      "",           "Native",         "native ",          " native",          "flat",
      "flat:",      "FLAT:ring",      "tuned:ring",       "flat:a:b",         "flat:a b",
      "flat:a=b",   "flat:ring inter=twotree",            "hier:",            "hier: inter=x",
      "hier:x inter=", "hier:x inter", "hier:x  inter=y", "hier:x inter=y z", "hier:x inter=a:b",
      "hier:x inter=a=b", "hier:x outer=y", "hier:x inter=y ", "flat:ring\nx",   "flat:ring\tx",
  };
  for (const std::string& text : bad) {
    Method m;
    m.kind = Method::kFlat;
    m.name = "untouched";
    std::string error;
    EXPECT_FALSE(parse_method(text, &m, &error)) << "accepted '" << text << "' as " << method_text(m);
    EXPECT_NE(error.find("'" + text + "'"), std::string::npos) << error;
    EXPECT_EQ(m.name, "untouched") << text;
  }
}

TEST(TuningFile, TextRoundTrip) {
  const TuningFile want = sample_tuning_file();
  const std::string text = tuning_to_text(want);
  TuningFile got;
  std::string error;
  ASSERT_TRUE(parse_tuning_text(text, "sample.json", &got, &error)) << error;
  expect_same_file(want, got);
  // Written again, the text is the same.
  EXPECT_EQ(tuning_to_text(got), text);
}

TEST(TuningFile, FileRoundTripAndReplacedEntry) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/round_trip.json";
  TuningFile want = sample_tuning_file();
  std::string error;
  ASSERT_TRUE(save_tuning_file(path, want, &error)) << error;
  TuningFile got;
  ASSERT_TRUE(load_tuning_file(path, &got, &error)) << error;
  expect_same_file(want, got);

  // put_entry replaces the entry of the same layout, keeps the others.
  TuningEntry changed = want.entries[1];
  changed.tool = "again";
  changed.ranges[static_cast<int>(Op::kScan)].pop_back();
  put_entry(&want, changed);
  ASSERT_EQ(want.entries.size(), 3u);
  ASSERT_TRUE(save_tuning_file(path, want, &error)) << error;
  ASSERT_TRUE(load_tuning_file(path, &got, &error)) << error;
  expect_same_file(want, got);
  EXPECT_EQ(got.entries[1].tool, "again");
}

TEST(TuningFile, EmptyFileOfNoEntries) {
  TuningFile got;
  got.entries.resize(2);
  std::string error;
  ASSERT_TRUE(parse_tuning_text(R"({"format": "hiercoll-tuning", "version": 1, "entries": []})", "empty.json", &got,
                                &error))
      << error;
  EXPECT_TRUE(got.entries.empty());
}

TEST(TuningFile, OptionalRangeFieldsDefault) {
  const std::string text = R"({"format": "hiercoll-tuning", "version": 1, "entries": [
    {"layout": {"nodes": 2, "ranks_per_node": [2, 2], "placement": "slot"},
     "machine": {"inter_latency_us": 1, "inter_bandwidth_gbps": 1, "intra_latency_us": 0,
                 "intra_bandwidth_gbps": 1, "reduce_gbps": 1},
     "ops": {"bcast": [{"from_bytes": 0, "to_bytes": -1, "method": "flat:chain"}]}}]})";
  TuningFile got;
  std::string error;
  ASSERT_TRUE(parse_tuning_text(text, "minimal.json", &got, &error)) << error;
  ASSERT_EQ(got.entries.size(), 1u);
  const std::vector<TunedRange>& bcast = got.entries[0].ranges[static_cast<int>(Op::kBcast)];
  ASSERT_EQ(bcast.size(), 1u);
  EXPECT_EQ(bcast[0].segment_bytes, 0);
  EXPECT_EQ(bcast[0].predicted_us, 0);
  EXPECT_FALSE(bcast[0].measured);
  EXPECT_EQ(got.entries[0].machine.source, "");
  EXPECT_EQ(got.entries[0].created, "");
}

}  // namespace
}  // namespace hiercoll::testing
