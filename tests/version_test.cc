// The version the library reports is version.bzl's (its one source), in
// the form MAJOR.MINOR.PATCH.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "runtime/hiercoll.h"

TEST(Version, IsVersionBzls) {
  const std::string v = hiercoll_version();
  unsigned major, minor, patch;
  char rest;
  EXPECT_EQ(std::sscanf(v.c_str(), "%u.%u.%u%c", &major, &minor, &patch, &rest), 3) << v;
  std::ifstream bzl(std::string(std::getenv("TEST_SRCDIR")) + "/" + std::getenv("TEST_WORKSPACE") + "/version.bzl");
  ASSERT_TRUE(bzl);
  const std::string key = "HIERCOLL_VERSION = \"";
  std::string line, found;
  while (std::getline(bzl, line))
    if (line.rfind(key, 0) == 0) found = line.substr(key.size(), line.size() - key.size() - 1);
  EXPECT_EQ(found, v);
}
