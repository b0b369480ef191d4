// SPDX-License-Identifier: Apache-2.0
// Linked into every cuzk_test executable: when nothing failed but some test called GTEST_SKIP,
// the process exits with SKIP_EXIT_CODE, which cuzk_test registers as ctest's SKIP_RETURN_CODE.
// Without this a skipped test exits 0 and ctest counts it as passed (issue #13); with it ctest
// lists the executable as skipped. A failure still exits 1 and fails, whatever else was skipped.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr int SKIP_EXIT_CODE = 77;

class skip_exit_code_listener : public testing::EmptyTestEventListener {
  void OnTestProgramEnd(const testing::UnitTest& unit) override {
    if (!unit.Passed() || unit.skipped_test_count() == 0) return;
    std::printf("%d test(s) skipped: exiting %d so that ctest reports a skip, not a pass\n",
                unit.skipped_test_count(), SKIP_EXIT_CODE);
    std::fflush(nullptr);
    std::_Exit(SKIP_EXIT_CODE);
  }
};

const bool registered = [] {
  testing::UnitTest::GetInstance()->listeners().Append(new skip_exit_code_listener);
  return true;
}();

}  // namespace
