// SPDX-License-Identifier: Apache-2.0
// commP against the npm oracle @web3-storage/data-segment (pinned in tests/commp/package-lock.json)
// on random files of assorted sizes: both must give the same root, CID and padded size. Always
// built; ctest runs it through scripts/require_npm_oracle.sh, which fails it when node or
// tests/commp/node_modules (`npm ci` there) is missing.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "filecoin/common/commp.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::common {
namespace {

TEST(commp_npm, random_files_match_data_segment) {
  auto rng = test::test_rng::from_env("commp_npm");
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const auto dir =
      std::filesystem::temp_directory_path() / ("cuzk_commp_npm_" + std::to_string(rng()));
  std::filesystem::create_directories(dir);
  std::vector<size_t> sizes = {
      0, 1, 64, 65, 126, 127, 128, 129, 1016, 1017, 4095, 520192, 520193 + size_t(rng.below(1000))};
  for (int i = 0; i < 8; ++i) sizes.push_back(size_t(rng.below(1u << 20)));
  std::string cmd = std::string(CUZK_NODE) + " " + src + "/tests/commp/commp.mjs";
  std::vector<std::string> paths;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string name = "f";  // appends, not operator+: GCC 12 -Wrestrict false positive
    name += std::to_string(i);
    const auto p = dir / name;
    std::vector<char> data(sizes[i]);
    for (auto& c : data) c = char(rng());
    std::ofstream(p, std::ios::binary).write(data.data(), std::streamsize(data.size()));
    paths.push_back(p.string());
    cmd += ' ';
    cmd += p.string();
  }
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  ASSERT_TRUE(pipe);
  std::string out;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof(buf), pipe.get())) out.append(buf, n);
  std::istringstream lines(out);
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string hex, cid;
    uint64_t padded = 0;
    ASSERT_TRUE(lines >> hex >> cid >> padded) << "oracle output: " << out;
    auto c = commp_of_file(paths[i]);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(cuzk::to_hex(c->comm), hex) << sizes[i];
    EXPECT_EQ(piece_cid(c->comm), cid) << sizes[i];
    EXPECT_EQ(c->padded_size, padded) << sizes[i];
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::filecoin::common
