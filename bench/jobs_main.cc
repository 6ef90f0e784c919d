// hiercoll_bench_jobs OUT_DIR JOB_DIR...: the ratios of several benchmark
// jobs (each JOB_DIR holds a results.csv), as median and range over the
// jobs; prints the tables and writes OUT_DIR/jobs.csv, jobs.txt and the
// page OUT_DIR/report.html (speedups with their ranges over the jobs).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/jobs.h"
#include "bench/report_page.h"
#include "measure/csv.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR JOB_DIR...\n", argv[0]);
    return 2;
  }
  const std::string out_dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  std::vector<std::vector<hcbench::CsvRow>> jobs;
  for (int i = 2; i < argc; ++i) {
    const std::string path = std::string(argv[i]) + "/results.csv";
    std::ifstream in(path);
    std::vector<hcbench::CsvRow> rows;
    std::string error;
    if (!in || !hcbench::read_csv(in, &rows, &error)) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), in ? error.c_str() : "cannot be read");
      return 1;
    }
    jobs.push_back(rows);
  }
  const std::vector<hcbench::JobsRow> rows = hcbench::compare_jobs(jobs, "hier");
  const std::string table = hcbench::jobs_table(rows, "hier", static_cast<int>(jobs.size()));
  std::fputs(table.c_str(), stdout);
  std::ofstream(out_dir + "/jobs.txt") << table;
  std::ofstream csv(out_dir + "/jobs.csv");
  hcbench::write_jobs_csv(csv, rows);
  std::printf("across jobs: %s/jobs.txt, %s/jobs.csv\n", out_dir.c_str(), out_dir.c_str());
  std::printf("%s\n", hcbench::write_report(out_dir, std::vector<std::string>(argv + 2, argv + argc), true).c_str());
  return csv ? 0 : 1;
}
