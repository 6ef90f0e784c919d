// Every way a tuning file can be malformed: each case changes one thing in
// the sample file and expects parse_tuning_text to refuse it with one line
// that starts with the file's path and names the offending key (or the
// line, for text that is not JSON).
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "select/tuning_file.h"
#include "tests/tuning_sample.h"

namespace hiercoll::testing {
namespace {

using json = nlohmann::json;

constexpr const char* kPath = "/some/dir/tuning.json";

struct Malformed {
  const char* what;                   // test case
  std::function<void(json&)> change;  // applied to the sample file
  std::string names;                  // the error must contain this
};

json sample_json() { return json::parse(tuning_to_text(sample_tuning_file())); }

// entries[0]: slot 4x2 (allreduce has three ranges); entries[2]: list 2x2.
json& layout0(json& j) { return j["entries"][0]["layout"]; }
json& layout2(json& j) { return j["entries"][2]["layout"]; }
json& machine0(json& j) { return j["entries"][0]["machine"]; }
json& allreduce0(json& j) { return j["entries"][0]["ops"]["allreduce"]; }

const std::vector<Malformed>& cases() {
  static const std::vector<Malformed> all = {
      {"top level not an object", [](json& j) { j = json::array({1}); }, "(top): expected an object"},
      {"format missing", [](json& j) { j.erase("format"); }, "missing key \"format\""},
      {"wrong format string", [](json& j) { j["format"] = "hiercoll-tunings"; }, "format: expected \"hiercoll-tuning\""},
      {"format not a string", [](json& j) { j["format"] = 1; }, "format: expected a string"},
      {"version missing", [](json& j) { j.erase("version"); }, "missing key \"version\""},
      {"unsupported version", [](json& j) { j["version"] = 2; }, "version 2 is not supported"},
      {"version zero", [](json& j) { j["version"] = 0; }, "version: must be at least 1"},
      {"version as a string", [](json& j) { j["version"] = "1"; }, "version: expected an integer"},
      {"version as a fraction", [](json& j) { j["version"] = 1.5; }, "version: expected an integer"},
      {"entries missing", [](json& j) { j.erase("entries"); }, "missing key \"entries\""},
      {"entries not an array", [](json& j) { j["entries"] = json::object(); }, "entries: expected an array"},
      {"entry not an object", [](json& j) { j["entries"][1] = 3; }, "entries[1]: expected an object"},
      {"layout missing", [](json& j) { j["entries"][1].erase("layout"); }, "entries[1]: missing key \"layout\""},
      {"layout not an object", [](json& j) { layout0(j) = "4x2"; }, "entries[0].layout: expected an object"},
      {"nodes missing", [](json& j) { layout0(j).erase("nodes"); }, "entries[0].layout: missing key \"nodes\""},
      {"nodes vs ranks_per_node", [](json& j) { layout0(j)["nodes"] = 3; }, "entries[0].layout.nodes: does not match"},
      {"nodes negative", [](json& j) { layout0(j)["nodes"] = -4; }, "entries[0].layout.nodes"},
      {"ranks_per_node missing", [](json& j) { layout0(j).erase("ranks_per_node"); },
       "entries[0].layout: missing key \"ranks_per_node\""},
      {"ranks_per_node empty", [](json& j) { layout0(j)["ranks_per_node"] = json::array(); },
       "entries[0].layout.ranks_per_node: no nodes"},
      {"ranks_per_node as text", [](json& j) { layout0(j)["ranks_per_node"] = "2,2,2,2"; },
       "entries[0].layout.ranks_per_node: expected an array"},
      {"ranks_per_node zero", [](json& j) { layout0(j)["ranks_per_node"][3] = 0; },
       "entries[0].layout.ranks_per_node[3]"},
      {"ranks_per_node negative", [](json& j) { layout0(j)["ranks_per_node"][1] = -2; },
       "entries[0].layout.ranks_per_node[1]"},
      {"ranks_per_node fraction", [](json& j) { layout0(j)["ranks_per_node"][0] = 2.5; },
       "entries[0].layout.ranks_per_node[0]"},
      {"placement missing", [](json& j) { layout0(j).erase("placement"); },
       "entries[0].layout: missing key \"placement\""},
      {"bad placement", [](json& j) { layout0(j)["placement"] = "cyclic"; }, "entries[0].layout.placement"},
      {"placement not a string", [](json& j) { layout0(j)["placement"] = 1; }, "entries[0].layout.placement"},
      {"list without node_of", [](json& j) { layout2(j).erase("node_of"); },
       "entries[2].layout: missing key \"node_of\""},
      {"node_of counts differ", [](json& j) { layout2(j)["node_of"] = {0, 1, 1, 1}; },
       "entries[2].layout.node_of: does not match"},
      {"node_of too short", [](json& j) { layout2(j)["node_of"] = {0, 1, 1}; }, "entries[2].layout.node_of"},
      {"node_of node out of range", [](json& j) { layout2(j)["node_of"] = {0, 1, 2, 0}; },
       "entries[2].layout.node_of"},
      {"node_of negative", [](json& j) { layout2(j)["node_of"] = {0, 1, -1, 0}; }, "entries[2].layout.node_of[2]"},
      {"node_of not in node order", [](json& j) { layout2(j)["node_of"] = {1, 0, 0, 1}; },
       "entries[2].layout.node_of"},
      {"list that is the slot placement", [](json& j) { layout2(j)["node_of"] = {0, 0, 1, 1}; },
       "entries[2].layout.placement"},
      {"list that is the round-robin placement", [](json& j) { layout2(j)["node_of"] = {0, 1, 0, 1}; },
       "entries[2].layout.placement"},
      {"machine missing", [](json& j) { j["entries"][0].erase("machine"); }, "entries[0]: missing key \"machine\""},
      {"latency missing", [](json& j) { machine0(j).erase("inter_latency_us"); },
       "entries[0].machine: missing key \"inter_latency_us\""},
      {"latency negative", [](json& j) { machine0(j)["intra_latency_us"] = -0.5; },
       "entries[0].machine.intra_latency_us"},
      {"bandwidth zero", [](json& j) { machine0(j)["inter_bandwidth_gbps"] = 0; },
       "entries[0].machine.inter_bandwidth_gbps"},
      {"reduce speed as text", [](json& j) { machine0(j)["reduce_gbps"] = "fast"; },
       "entries[0].machine.reduce_gbps: expected a number"},
      {"source not a string", [](json& j) { machine0(j)["source"] = 3; }, "entries[0].machine.source"},
      {"created not a string", [](json& j) { j["entries"][0]["created"] = 2026; }, "entries[0].created"},
      {"tool not a string", [](json& j) { j["entries"][0]["tool"] = json::array(); }, "entries[0].tool"},
      {"ops missing", [](json& j) { j["entries"][0].erase("ops"); }, "entries[0]: missing key \"ops\""},
      {"ops not an object", [](json& j) { j["entries"][0]["ops"] = json::array(); }, "entries[0].ops: expected"},
      {"unknown operation", [](json& j) { j["entries"][0]["ops"]["allreduse"] = json::array(); },
       "entries[0].ops.allreduse: unknown operation"},
      {"ranges not an array", [](json& j) { j["entries"][0]["ops"]["bcast"] = json::object(); },
       "entries[0].ops.bcast: expected an array"},
      {"range not an object", [](json& j) { allreduce0(j)[1] = "0-2048"; }, "entries[0].ops.allreduce[1]: expected"},
      {"from_bytes missing", [](json& j) { allreduce0(j)[0].erase("from_bytes"); },
       "entries[0].ops.allreduce[0]: missing key \"from_bytes\""},
      {"to_bytes missing", [](json& j) { allreduce0(j)[2].erase("to_bytes"); },
       "entries[0].ops.allreduce[2]: missing key \"to_bytes\""},
      {"from_bytes negative", [](json& j) { allreduce0(j)[0]["from_bytes"] = -1; },
       "entries[0].ops.allreduce[0].from_bytes"},
      {"from_bytes fraction", [](json& j) { allreduce0(j)[0]["from_bytes"] = 0.5; },
       "entries[0].ops.allreduce[0].from_bytes: expected an integer"},
      {"to_bytes below -1", [](json& j) { allreduce0(j)[2]["to_bytes"] = -2; },
       "entries[0].ops.allreduce[2].to_bytes"},
      {"to_bytes equal to from_bytes", [](json& j) { allreduce0(j)[0]["to_bytes"] = 0; },
       "entries[0].ops.allreduce[0].to_bytes: must be above from_bytes"},
      {"to_bytes below from_bytes", [](json& j) { allreduce0(j)[1]["to_bytes"] = 1024; },
       "entries[0].ops.allreduce[1].to_bytes: must be above from_bytes"},
      {"overlapping ranges", [](json& j) { allreduce0(j)[1]["from_bytes"] = 2047; },
       "entries[0].ops.allreduce[1].from_bytes: overlaps"},
      {"unsorted ranges", [](json& j) { std::swap(allreduce0(j)[0], allreduce0(j)[1]); },
       "entries[0].ops.allreduce[1].from_bytes: overlaps"},
      {"a range after an open-ended one",
       [](json& j) { allreduce0(j).push_back({{"from_bytes", 1 << 30}, {"to_bytes", -1}, {"method", "native"}}); },
       "entries[0].ops.allreduce[3].from_bytes: overlaps"},
      {"method missing", [](json& j) { allreduce0(j)[1].erase("method"); },
       "entries[0].ops.allreduce[1]: missing key \"method\""},
      {"method not a string", [](json& j) { allreduce0(j)[1]["method"] = 7; }, "entries[0].ops.allreduce[1].method"},
      {"method malformed", [](json& j) { allreduce0(j)[1]["method"] = "flat:"; },
       "entries[0].ops.allreduce[1].method: method 'flat:'"},
      {"segment negative", [](json& j) { allreduce0(j)[1]["segment_bytes"] = -4; },
       "entries[0].ops.allreduce[1].segment_bytes"},
      {"predicted time negative", [](json& j) { allreduce0(j)[1]["predicted_us"] = -1; },
       "entries[0].ops.allreduce[1].predicted_us"},
      {"measured not a boolean", [](json& j) { allreduce0(j)[1]["measured"] = "yes"; },
       "entries[0].ops.allreduce[1].measured"},
      {"duplicate layout entry", [](json& j) { j["entries"].push_back(j["entries"][1]); },
       "entries[3].layout: a second entry"},
  };
  return all;
}

TEST(TuningFileMalformed, EveryCaseIsOneLineNamingFileAndKey) {
  for (const Malformed& m : cases()) {
    json j = sample_json();
    m.change(j);
    TuningFile out;
    out.version = 77;
    std::string error;
    EXPECT_FALSE(parse_tuning_text(j.dump(2), kPath, &out, &error)) << m.what << ": accepted";
    EXPECT_EQ(error.rfind(std::string(kPath) + ": ", 0), 0u) << m.what << ": " << error;
    EXPECT_NE(error.find(m.names), std::string::npos) << m.what << ": '" << error << "' does not name " << m.names;
    EXPECT_EQ(error.find('\n'), std::string::npos) << m.what << ": " << error;
    EXPECT_EQ(out.version, 77) << m.what << ": output changed";
  }
}

TEST(TuningFileMalformed, SampleItselfIsAccepted) {
  TuningFile out;
  std::string error;
  EXPECT_TRUE(parse_tuning_text(sample_json().dump(2), kPath, &out, &error)) << error;
}

TEST(TuningFileMalformed, NotJsonNamesTheLine) {
  const std::string text = "{\n  \"format\": \"hiercoll-tuning\",\n  \"version\": 1,,\n  \"entries\": []\n}\n";
  TuningFile out;
  std::string error;
  ASSERT_FALSE(parse_tuning_text(text, kPath, &out, &error));
  EXPECT_EQ(error.rfind(std::string(kPath) + ": not valid JSON", 0), 0u) << error;
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(TuningFileMalformed, EmptyAndTruncatedText) {
  for (const std::string text : {"", "   \n", "{\"format\": \"hiercoll-tuning\", \"version\": 1, \"entries\": ["}) {
    TuningFile out;
    std::string error;
    EXPECT_FALSE(parse_tuning_text(text, kPath, &out, &error)) << "'" << text << "'";
    EXPECT_EQ(error.rfind(std::string(kPath) + ": not valid JSON", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

// Keys and names from the file are quoted in the error, so a control
// character in them cannot break the line.
TEST(TuningFileMalformed, ControlCharactersStayOnOneLine) {
  json j = sample_json();
  j["entries"][0]["ops"]["all\nreduce"] = json::array();
  TuningFile out;
  std::string error;
  ASSERT_FALSE(parse_tuning_text(j.dump(), kPath, &out, &error));
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_NE(error.find("unknown operation"), std::string::npos) << error;
}

TEST(TuningFileMalformed, UnreadablePaths) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp ? tmp : "/tmp";
  for (const std::string& path : {dir + "/no_such_file.json", dir + "/no_such_dir/tuning.json", dir}) {
    TuningFile out;
    std::string error;
    EXPECT_FALSE(load_tuning_file(path, &out, &error)) << path;
    EXPECT_EQ(error, path + ": cannot be read") << path;
  }
}

}  // namespace
}  // namespace hiercoll::testing
