// SPDX-License-Identifier: Apache-2.0
#include "gpu/arch_support.hpp"

#include <cctype>

namespace cuzk::gpu {
namespace {

/// "86", "90a", "100f" with an optional "-real" / "-virtual"; false for anything else.
bool parse_one(std::string_view w, cuda_arch& out) {
  cuda_arch a;
  size_t i = 0;
  while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i])) != 0) {
    a.number = a.number * 10 + (w[i] - '0');
    if (a.number > 10000) return false;
    ++i;
  }
  if (i == 0 || a.number < 10) return false;  // a major and a minor digit at least
  if (i < w.size() && (w[i] == 'a' || w[i] == 'f')) a.variant = w[i++];
  const std::string_view kind = w.substr(i);
  if (kind.empty()) {
    a.sass = a.ptx = true;
  } else if (kind == "-real") {
    a.sass = true;
  } else if (kind == "-virtual") {
    a.ptx = true;
  } else {
    return false;
  }
  out = a;
  return true;
}

/// Whether target `a` (its SASS when `sass`, else its PTX) applies to capability `cc` (10·major
/// + minor).
bool applies(const cuda_arch& a, int cc, bool sass) {
  if (a.variant == 'a') return cc == a.number;
  const bool same_major = cc / 10 == a.number / 10;
  if (sass || a.variant == 'f') return same_major && cc % 10 >= a.number % 10;
  return cc >= a.number;
}

}  // namespace

std::vector<cuda_arch> parse_cuda_architectures(std::string_view list) {
  std::vector<cuda_arch> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find_first_of(";,", pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view w = list.substr(pos, end - pos);
    while (!w.empty() && std::isspace(static_cast<unsigned char>(w.front())) != 0)
      w.remove_prefix(1);
    while (!w.empty() && std::isspace(static_cast<unsigned char>(w.back())) != 0)
      w.remove_suffix(1);
    cuda_arch a;
    if (parse_one(w, a)) out.push_back(a);
    pos = end + 1;
  }
  return out;
}

std::string describe_cuda_architectures(std::string_view list) {
  std::string out;
  const auto add = [&](const char* prefix, const cuda_arch& a) {
    if (!out.empty()) out += ' ';
    out += prefix + std::to_string(a.number);
    if (a.variant != 0) out += a.variant;
  };
  const std::vector<cuda_arch> archs = parse_cuda_architectures(list);
  for (const cuda_arch& a : archs)
    if (a.sass) add("sm_", a);
  for (const cuda_arch& a : archs)
    if (a.ptx) add("compute_", a);
  return out.empty() ? "nothing" : out;
}

code_match match_device_code(int major, int minor, std::string_view list) {
  const int cc = major * 10 + minor;
  code_match best;
  for (const cuda_arch& a : parse_cuda_architectures(list)) {
    if (a.sass && applies(a, cc, true)) {
      if (best.path != code_path::native || a.number > best.arch)
        best = {code_path::native, a.number};
    } else if (a.ptx && best.path != code_path::native && applies(a, cc, false)) {
      if (best.path != code_path::ptx || a.number > best.arch) best = {code_path::ptx, a.number};
    }
  }
  return best;
}

std::string device_support_problem(int ordinal, const device_support& d, std::string_view list,
                                   std::string_view driver, std::string_view runtime) {
  if (d.loads) return {};
  const std::string where = "CUDA device " + std::to_string(ordinal);
  if (d.name.empty()) return where + ": " + d.error;
  const std::string sm = std::to_string(d.sm_major) + std::to_string(d.sm_minor);
  const std::string rebuild =
      "-DCMAKE_CUDA_ARCHITECTURES=" + sm + "-real, or native on this machine";
  std::string msg = where + " (" + d.name + ", sm_" + sm + "): ";
  if (d.code.path == code_path::ptx) {
    // The PTX applies, yet did not load: a driver older than the toolkit that wrote it.
    msg += "the driver (CUDA " + std::string(driver) +
           ") cannot JIT-compile this binary's compute_" + std::to_string(d.code.arch) +
           " PTX (CUDA " + std::string(runtime) +
           "): update the driver, or rebuild with native code for the card (" + rebuild + ")";
  } else if (d.code.path == code_path::none) {
    msg += "this cuzk binary has no device code the card can run (built for " +
           describe_cuda_architectures(list) + ": CUDA_ARCHITECTURES \"" + std::string(list) +
           "\"); rebuild with " + rebuild + " (the release default: sm_80, 86, 89, 90, 100, 120)";
  } else {
    msg += "this cuzk binary's sm_" + std::to_string(d.code.arch) + " code does not load";
  }
  if (!d.error.empty()) msg += " [" + d.error + "]";
  return msg;
}

}  // namespace cuzk::gpu
