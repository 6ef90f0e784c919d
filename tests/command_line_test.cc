// The tools' command lines (cli/args.h): "--name value" and
// "--name=value", flags, ranges, refusals naming the option; and the
// tuner's, the benchmark's and the fuzzer's tables of options read through it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/options.h"
#include "cli/args.h"
#include "fuzz/options.h"
#include "tune/options.h"

namespace {

using hccli::Args;
using hccli::OptionRow;

struct State {
  int n = 0;
  double x = 0;
  bool flag = false;
  std::string name;
};

const std::vector<OptionRow<State>>& rows() {
  static const std::vector<OptionRow<State>> r = {
      {"-n|--count", false, [](Args& a, State& s) { return a.whole(1, 9, &s.n); }},
      {"--x", false, [](Args& a, State& s) { return a.number(0.5, 2, &s.x, "a number in 0.5..2"); }},
      {"--flag", true, [](Args&, State& s) { return hccli::set(&s.flag, true); }},
      {"--name", false, [](Args& a, State& s) { return a.nonempty_text(&s.name, "name"); }},
  };
  return r;
}

// Parses `args` (the program name first); "" or the error.
std::string parse(std::vector<std::string> args, State* s) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::string error;
  return hccli::read_args(static_cast<int>(argv.size()), argv.data(), rows(), s, &error) ? "" : error;
}

TEST(Args, BothValueFormsFlagsAndAliases) {
  State s;
  EXPECT_EQ(parse({"--count", "3", "--x=1.5", "--flag", "--name=a=b"}, &s), "");
  EXPECT_EQ(s.n, 3);
  EXPECT_EQ(s.x, 1.5);
  EXPECT_TRUE(s.flag);
  EXPECT_EQ(s.name, "a=b");  // only the first '=' separates
  State t;
  EXPECT_EQ(parse({"-n", "9"}, &t), "");
  EXPECT_EQ(t.n, 9);
  EXPECT_EQ(parse({}, &t), "");
}

TEST(Args, RefusalsNameTheOption) {
  State s;
  EXPECT_EQ(parse({"--count"}, &s), "--count needs a value");
  EXPECT_EQ(parse({"--count", "10"}, &s), "--count '10': expected a whole number in 1..9");
  EXPECT_EQ(parse({"--count=2x"}, &s), "--count '2x': expected a whole number in 1..9");
  EXPECT_EQ(parse({"--x", "3"}, &s), "--x '3': expected a number in 0.5..2");
  EXPECT_EQ(parse({"--name="}, &s), "--name '': empty name");
  EXPECT_EQ(parse({"--flag=yes"}, &s), "unknown argument '--flag=yes' (see --help)");
  EXPECT_EQ(parse({"--nope", "1"}, &s), "unknown argument '--nope' (see --help)");
}

std::string tune(std::vector<std::string> args, hctune::TuneOptions* o) {
  args.insert(args.begin(), "hiercoll_tune");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::string error;
  return hctune::parse_tune_options(static_cast<int>(argv.size()), argv.data(), o, &error) ? "" : error;
}

TEST(TuneOptions, TableOfOptions) {
  hctune::TuneOptions o;
  ASSERT_EQ(tune({"--ops", "bcast,allreduce", "--sizes=8,1K", "--max-samples", "9", "--stride=3", "--between", "0",
                  "--carry-ratio", "0", "--exhaustive", "--out", "t.json"},
                 &o),
            "");
  EXPECT_EQ(o.ops, (std::vector<std::string>{"bcast", "allreduce"}));
  EXPECT_EQ(o.sizes, (std::vector<int64_t>{8, 1024}));
  EXPECT_EQ(o.max_samples, 9);
  EXPECT_EQ(o.stride, 3);
  EXPECT_EQ(o.between, 0);
  EXPECT_EQ(o.carry_ratio, 0);
  EXPECT_TRUE(o.exhaustive);
  EXPECT_EQ(o.out, "t.json");

  hctune::TuneOptions d;
  ASSERT_EQ(tune({"--out", "t.json"}, &d), "");
  EXPECT_FALSE(d.sizes.empty());  // the default sizes
  EXPECT_EQ(d.min_samples, 3);

  // Each refusal from fresh options.
  auto refused = [](std::vector<std::string> args) {
    hctune::TuneOptions fresh;
    return tune(std::move(args), &fresh);
  };
  EXPECT_EQ(refused({}), "--out FILE is required");
  EXPECT_NE(refused({"--ops", "bcast,nosuchop", "--out", "x"}).find("nosuchop"), std::string::npos);
  EXPECT_EQ(refused({"--carry-ratio", "0.5", "--out", "x"}), "--carry-ratio '0.5': expected 0 (off) or a number from 1");
  EXPECT_EQ(refused({"--between", "2", "--out", "x"}), "--between '2': expected a whole number in 0..1");
  EXPECT_EQ(refused({"--min-samples", "5", "--max-samples", "4", "--out", "x"}),
            "--max-samples must be at least --min-samples");
  EXPECT_EQ(refused({"--profile", "p.json", "--ops", "bcast", "--out", "x"}),
            "--profile and --ops exclude each other (the profile says which operations)");
}

TEST(BenchOptions, RefusalsNameTheOption) {
  auto bench = [](std::vector<std::string> args) {
    args.insert(args.begin(), "hiercoll_bench");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    hcbench::Options o;
    std::string error;
    return hcbench::parse_options(static_cast<int>(argv.size()), argv.data(), &o, &error) ? "" : error;
  };
  EXPECT_EQ(bench({"--reps", "0"}), "--reps '0': expected a whole number in 1..1000000");
  EXPECT_EQ(bench({"--sync=clock"}), "--sync 'clock': expected time or barrier");
  EXPECT_EQ(bench({"--roots", "1,x"}), "--roots '1,x': not auto, all, sample or a list of ranks");
  EXPECT_EQ(bench({"--out="}), "--out '': empty folder name");
  EXPECT_EQ(bench({"--no-plots=1"}), "unknown argument '--no-plots=1' (see --help)");
  EXPECT_EQ(bench({"--skew", "1:100"}).rfind("--skew 1:100: expected", 0), 0u);
  EXPECT_EQ(bench({"--counts", "many"}).rfind("--counts: 'many' is not uniform", 0), 0u);
  EXPECT_EQ(bench({"--sizes", "8,x"}).rfind("--sizes '8,x': bad size 'x'", 0), 0u);
  EXPECT_EQ(bench({"--overlap", "--persistent"}), "--overlap and --persistent are separate studies: give one");
  EXPECT_EQ(bench({"--ops", "bcast", "--no-plots", "--roots=all"}), "");
}

TEST(FuzzOptions, EveryOptionAndRefusals) {
  auto fuzz = [](std::vector<std::string> args, hiercoll::fuzz::FuzzOptions* o) {
    args.insert(args.begin(), "hiercoll_fuzz");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    std::string error;
    return hiercoll::fuzz::parse_fuzz_options(static_cast<int>(argv.size()), argv.data(), o, &error) ? "" : error;
  };
  hiercoll::fuzz::FuzzOptions o;
  EXPECT_EQ(fuzz({}, &o), "");
  EXPECT_EQ(o.cases, 1000);
  EXPECT_EQ(o.first, 0);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_FALSE(o.verbose);
  EXPECT_EQ(fuzz({"--cases", "20000", "--seed=7", "--first", "30"}, &o), "");
  EXPECT_EQ(o.cases, 20000);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.first, 30);
  EXPECT_FALSE(o.verbose);
  hiercoll::fuzz::FuzzOptions replay;
  EXPECT_EQ(fuzz({"--seed", "1", "--replay", "4711"}, &replay), "");  // one case, described
  EXPECT_EQ(replay.first, 4711);
  EXPECT_EQ(replay.cases, 1);
  EXPECT_TRUE(replay.verbose);
  hiercoll::fuzz::FuzzOptions verbose;
  EXPECT_EQ(fuzz({"--verbose"}, &verbose), "");
  EXPECT_TRUE(verbose.verbose);
  EXPECT_EQ(fuzz({"-h"}, &verbose), "");
  EXPECT_TRUE(verbose.help);
  EXPECT_EQ(fuzz({"--cases", "-1"}, &o), "--cases '-1': expected a whole number >= 0");
  EXPECT_EQ(fuzz({"--seed"}, &o), "--seed needs a value");
  EXPECT_EQ(fuzz({"--verbose=1"}, &o), "unknown argument '--verbose=1' (see --help)");
  EXPECT_EQ(fuzz({"--nodes", "2"}, &o), "unknown argument '--nodes' (see --help)");
}

}  // namespace
