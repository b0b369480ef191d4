// SPDX-License-Identifier: Apache-2.0
// arch_support: CUDA_ARCHITECTURES lists parsed as CMake writes them, and the code a card of each
// generation storage providers prove on (docs/spec/hardware.md §1) runs from the release list,
// CI's PTX-only list and lists that miss it. No GPU needed. Label unit.
#include "gpu/arch_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace cuzk::gpu {
namespace {

// The release default (CMakeLists.txt) and CI's (.ci/run).
constexpr std::string_view RELEASE = "80-real;86-real;89-real;90-real;100-real;120";
constexpr std::string_view CI = "90-virtual";

void expect_match(int major, int minor, std::string_view list, code_path path, int arch) {
  const code_match m = match_device_code(major, minor, list);
  EXPECT_EQ(m.path, path) << "sm_" << major << minor << " with " << list << ": got "
                          << to_string(m.path);
  EXPECT_EQ(m.arch, arch) << "sm_" << major << minor << " with " << list;
}

TEST(ArchSupport, ParsesCMakeEntries) {
  const auto a = parse_cuda_architectures(" 80-real, 86;90a-real;100f-virtual;120-virtual ");
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].number, 80);
  EXPECT_TRUE(a[0].sass);
  EXPECT_FALSE(a[0].ptx);
  EXPECT_EQ(a[1].number, 86);
  EXPECT_TRUE(a[1].sass && a[1].ptx);
  EXPECT_EQ(a[2].number, 90);
  EXPECT_EQ(a[2].variant, 'a');
  EXPECT_TRUE(a[2].sass && !a[2].ptx);
  EXPECT_EQ(a[3].number, 100);
  EXPECT_EQ(a[3].variant, 'f');
  EXPECT_TRUE(!a[3].sass && a[3].ptx);
  EXPECT_EQ(a[4].number, 120);
}

TEST(ArchSupport, SkipsWordsThatAreNotArchitectures) {
  EXPECT_TRUE(parse_cuda_architectures("").empty());
  EXPECT_TRUE(parse_cuda_architectures("native;all;all-major;9;86-fake;sm_86").empty());
  EXPECT_EQ(parse_cuda_architectures("native;89-real").size(), 1u);
}

TEST(ArchSupport, Describes) {
  EXPECT_EQ(describe_cuda_architectures(RELEASE),
            "sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 compute_120");
  EXPECT_EQ(describe_cuda_architectures(CI), "compute_90");
  EXPECT_EQ(describe_cuda_architectures("90a-real"), "sm_90a");
  EXPECT_EQ(describe_cuda_architectures("native"), "nothing");
}

TEST(ArchSupport, ReleaseListRunsNativeOnEveryCardInUse) {
  expect_match(8, 0, RELEASE, code_path::native, 80);    // A100
  expect_match(8, 6, RELEASE, code_path::native, 86);    // RTX 30xx, A4000-A6000
  expect_match(8, 9, RELEASE, code_path::native, 89);    // RTX 40xx, L4, L40S
  expect_match(9, 0, RELEASE, code_path::native, 90);    // H100, H200
  expect_match(10, 0, RELEASE, code_path::native, 100);  // B200
  expect_match(12, 0, RELEASE, code_path::native, 120);  // RTX 50xx, RTX PRO 6000
  // Binary compatible within a major version: Jetson Orin (8.7) runs the sm_86 SASS, B300 (10.3)
  // the sm_100 SASS, GB10 (12.1) the sm_120 SASS.
  expect_match(8, 7, RELEASE, code_path::native, 86);
  expect_match(10, 3, RELEASE, code_path::native, 100);
  expect_match(12, 1, RELEASE, code_path::native, 120);
  // Thor (11.0) has no SASS of its major: the compute_120 PTX is newer than the card.
  expect_match(11, 0, RELEASE, code_path::none, 0);
  // A later generation JIT-compiles the newest PTX.
  expect_match(13, 0, RELEASE, code_path::ptx, 120);
  // Turing is older than every target.
  expect_match(7, 5, RELEASE, code_path::none, 0);
}

TEST(ArchSupport, SassOfAnOlderMinorRunsPtxOfAnOlderMajorIsJitCompiled) {
  // An RTX 3090 (sm_86) with a binary built for A100, H100 and RTX 50xx: the sm_80 SASS.
  expect_match(8, 6, "80-real;90-real;120", code_path::native, 80);
  // An RTX 4090 (sm_89) picks the newest SASS of its major.
  expect_match(8, 9, "80-real;86-real;90-real", code_path::native, 86);
  // No SASS of sm_9x on an H200: the PTX of a lower major.
  expect_match(9, 0, "80;120-real", code_path::ptx, 80);
  // SASS of a newer minor does not run on an older one.
  expect_match(8, 0, "86-real;89-real", code_path::none, 0);
  // SASS is preferred to PTX, even newer PTX.
  expect_match(9, 0, "89-virtual;90-real", code_path::native, 90);
}

TEST(ArchSupport, PtxOnlyBuildsAsCiMakes) {
  expect_match(9, 0, CI, code_path::ptx, 90);
  expect_match(10, 0, CI, code_path::ptx, 90);
  expect_match(12, 0, CI, code_path::ptx, 90);
  expect_match(8, 6, CI, code_path::none, 0);  // an RTX 3090 cannot run a CI build
  expect_match(8, 9, CI, code_path::none, 0);
}

TEST(ArchSupport, ArchSpecificAndFamilyTargets) {
  expect_match(9, 0, "90a-real", code_path::native, 90);
  expect_match(10, 0, "90a", code_path::none, 0);  // sm_90a and compute_90a: 9.0 only
  expect_match(10, 3, "100f-real", code_path::native, 100);
  expect_match(10, 3, "100f-virtual", code_path::ptx, 100);
  expect_match(12, 0, "100f-virtual", code_path::none, 0);  // a family PTX stays in its major
  expect_match(12, 0, "100-virtual", code_path::ptx, 100);
}

device_support card(int major, int minor, std::string_view list, bool loads, std::string error) {
  device_support d;
  d.name = "NVIDIA GeForce RTX 3090";
  d.sm_major = major;
  d.sm_minor = minor;
  d.code = match_device_code(major, minor, list);
  d.loads = loads;
  d.error = std::move(error);
  return d;
}

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ArchSupport, ProblemNamesTheCardWhatWasBuiltAndTheFix) {
  EXPECT_EQ(device_support_problem(0, card(8, 6, RELEASE, true, ""), RELEASE, "13.0", "13.0"), "");
  const std::string none = device_support_problem(
      1, card(8, 6, CI, false, "cudaErrorNoKernelImageForDevice: no kernel image"), CI, "13.0",
      "13.0");
  EXPECT_TRUE(has(none, "CUDA device 1 (NVIDIA GeForce RTX 3090, sm_86)")) << none;
  EXPECT_TRUE(has(none, "built for compute_90")) << none;
  EXPECT_TRUE(has(none, "\"90-virtual\"")) << none;
  EXPECT_TRUE(has(none, "-DCMAKE_CUDA_ARCHITECTURES=86-real")) << none;
  EXPECT_TRUE(has(none, "cudaErrorNoKernelImageForDevice")) << none;
  // PTX that applies but does not load: the driver is older than the toolkit.
  const std::string old_driver = device_support_problem(
      0, card(9, 0, CI, false, "cudaErrorUnsupportedPtxVersion"), CI, "12.4", "13.0");
  EXPECT_TRUE(has(old_driver, "driver (CUDA 12.4) cannot JIT-compile")) << old_driver;
  EXPECT_TRUE(has(old_driver, "compute_90 PTX (CUDA 13.0)")) << old_driver;
  EXPECT_TRUE(has(old_driver, "update the driver")) << old_driver;
  // A device that could not be asked at all.
  device_support gone;
  gone.error = "no CUDA device 3";
  EXPECT_EQ(device_support_problem(3, gone, RELEASE, "none", "13.0"),
            "CUDA device 3: no CUDA device 3");
}

TEST(ArchSupport, EmptyOrUnresolvedListsRunNothing) {
  expect_match(9, 0, "", code_path::none, 0);
  expect_match(9, 0, "native", code_path::none, 0);
}

}  // namespace
}  // namespace cuzk::gpu
