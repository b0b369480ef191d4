// SPDX-License-Identifier: Apache-2.0
// The device decoder of uncompressed encodings (serialization_gpu.hpp) against the host codec
// (serialization.hpp, subgroup check off) and the host's byte reader (fp_t::from_bytes_be): the
// same points on random curve points of G1 and G2, the same accept/reject on every edge encoding
// (each flag bit, x or y = p, p − 1, 2^381 − 1, the all-zero pair, off the curve) and on random
// byte strings, and the lowest rejected index when several are bad. Label gpu: needs a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "ec/ec_test_util.hpp"
#include "ec/serialization.hpp"
#include "ec/serialization_gpu.hpp"
#include "gpu/device_memory.cuh"
#include "gpu/runtime.hpp"
#include "test_rng.hpp"

namespace cuzk::ec::cuda {
namespace {

using cuzk::gpu::device_buffer;

template <class Point>
constexpr size_t encoded_bytes() {
  return std::is_same_v<Point, g1_affine_t> ? G1_UNCOMPRESSED_BYTES : G2_UNCOMPRESSED_BYTES;
}

template <class Point>
std::vector<uint8_t> encode(const Point& p) {
  std::vector<uint8_t> out(encoded_bytes<Point>());
  if constexpr (std::is_same_v<Point, g1_affine_t>) {
    g1_to_uncompressed(p, std::span<uint8_t, G1_UNCOMPRESSED_BYTES>(out.data(), out.size()));
  } else {
    g2_to_uncompressed(p, std::span<uint8_t, G2_UNCOMPRESSED_BYTES>(out.data(), out.size()));
  }
  return out;
}

/// The decoded points and the lowest rejected index of one device decode of `bytes`.
template <class Point>
struct device_result {
  std::vector<Point> points;
  unsigned long long first_rejected = NO_REJECTED_INDEX;
};

/// first_index: the index of bytes' first encoding in a larger array decoded in pieces.
template <class Point>
device_result<Point> decode_on_device(const std::vector<uint8_t>& bytes, curve_check check,
                                      uint64_t first_index = 0) {
  auto ctx = cuzk::gpu::device_context::open(0);
  if (!ctx) throw std::runtime_error(ctx.error().to_string());
  cuzk::gpu::device_scope scope(*ctx);
  const cuzk::gpu::stream s(*ctx);
  const size_t n = bytes.size() / encoded_bytes<Point>();
  device_buffer<Point> d(n);
  device_buffer<unsigned long long> first(1);
  device_result<Point> r;
  EXPECT_EQ(cudaMemcpy(d.data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(first.data(), &r.first_rejected, 8, cudaMemcpyHostToDevice), cudaSuccess);
  if constexpr (std::is_same_v<Point, g1_affine_t>) {
    g1_from_uncompressed_in_place(d.data(), n, first_index, check, first.data(), s);
  } else {
    g2_from_uncompressed_in_place(d.data(), n, first_index, check, first.data(), s);
  }
  s.synchronize();
  r.points.resize(n);
  EXPECT_EQ(cudaMemcpy(r.points.data(), d.data(), bytes.size(), cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(cudaMemcpy(&r.first_rejected, first.data(), 8, cudaMemcpyDeviceToHost), cudaSuccess);
  return r;
}

/// The host's verdict on one encoding: the codec with the subgroup check off (on_curve), or the
/// parameter reader's byte rule (none: flags clear, both coordinates < p, not all zero).
template <class Point>
bool host_accepts(const uint8_t* in, curve_check check, Point& out) {
  if (check == curve_check::on_curve) {
    const decode_options opt{.subgroup_check = false};
    if constexpr (std::is_same_v<Point, g1_affine_t>) {
      auto r = g1_from_uncompressed({in, G1_UNCOMPRESSED_BYTES}, opt);
      if (!r.ok() || r->is_infinity()) return false;
      out = *r;
    } else {
      auto r = g2_from_uncompressed({in, G2_UNCOMPRESSED_BYTES}, opt);
      if (!r.ok() || r->is_infinity()) return false;
      out = *r;
    }
    return true;
  }
  if (in[0] & 0xe0) return false;
  using ff::fp_t;
  bool ok;
  if constexpr (std::is_same_v<Point, g1_affine_t>) {
    ok = fp_t::from_bytes_be(in, out.x) && fp_t::from_bytes_be(in + 48, out.y);
  } else {
    ok = fp_t::from_bytes_be(in, out.x.c1) && fp_t::from_bytes_be(in + 48, out.x.c0) &&
         fp_t::from_bytes_be(in + 96, out.y.c1) && fp_t::from_bytes_be(in + 144, out.y.c0);
  }
  return ok && !out.is_infinity();
}

/// p as 48 big-endian bytes.
std::array<uint8_t, 48> modulus_be() {
  std::array<uint8_t, 48> b{};
  for (size_t i = 0; i < 48; ++i) b[47 - i] = uint8_t(ff::fp_t::MODULUS[i / 8] >> (8 * (i % 8)));
  return b;
}

/// Edge encodings derived from a valid one: each must be judged as the host judges it.
template <class Point>
std::vector<std::vector<uint8_t>> edge_encodings(const Point& valid) {
  const std::vector<uint8_t> good = encode(valid);
  const size_t len = good.size();
  std::vector<std::vector<uint8_t>> e;
  for (uint8_t flag : {uint8_t(0x80), uint8_t(0x40), uint8_t(0x20)}) {
    auto v = good;
    v[0] |= flag;
    e.push_back(v);
  }
  std::vector<uint8_t> infinity(len, 0);
  infinity[0] = 0x40;
  e.push_back(infinity);                      // the infinity encoding
  e.push_back(std::vector<uint8_t>(len, 0));  // the all-zero pair without the flag
  const auto p = modulus_be();
  for (size_t coord = 0; coord < len / 48; ++coord) {
    auto v = good;
    std::memcpy(v.data() + 48 * coord, p.data(), 48);  // = p
    e.push_back(v);
    v[48 * coord + 47] -= 1;  // p − 1: canonical, off the curve
    e.push_back(v);
    std::memset(v.data() + 48 * coord, 0xff, 48);
    v[48 * coord] = 0x1f;  // 2^381 − 1 with the flag bits clear
    e.push_back(v);
  }
  auto off = good;
  off[len - 1] ^= 1;  // y's last bit: off the curve
  e.push_back(off);
  return e;
}

template <class Point>
void expect_edges_agree(cuzk::test::test_rng& rng) {
  for (curve_check check : {curve_check::none, curve_check::on_curve}) {
    const auto edges = edge_encodings(ec::test::random_curve_point<typename Point::field_t>(rng));
    for (size_t k = 0; k < edges.size(); ++k) {
      // The edge at index 5 of 8 valid encodings: rejected there, or decoded as the host does.
      std::vector<uint8_t> bytes;
      std::vector<Point> want(8);
      for (size_t i = 0; i < 8; ++i) {
        want[i] = ec::test::random_curve_point<typename Point::field_t>(rng);
        const auto e = i == 5 ? edges[k] : encode(want[i]);
        bytes.insert(bytes.end(), e.begin(), e.end());
      }
      Point host;
      const bool accepted = host_accepts(edges[k].data(), check, host);
      const auto r = decode_on_device<Point>(bytes, check);
      SCOPED_TRACE("edge " + std::to_string(k) + ", check " + std::to_string(int(check)));
      EXPECT_EQ(r.first_rejected, accepted ? NO_REJECTED_INDEX : 5ull);
      if (accepted) EXPECT_TRUE(r.points[5] == host);
      for (size_t i = 0; i < 8; ++i)
        if (i != 5) EXPECT_TRUE(r.points[i] == want[i]) << i;
    }
  }
}

template <class Point>
void expect_random_points_agree(size_t n, cuzk::test::test_rng& rng) {
  std::vector<Point> want(n);
  std::vector<uint8_t> bytes;
  for (auto& p : want) {
    p = ec::test::random_curve_point<typename Point::field_t>(rng);
    const auto e = encode(p);
    bytes.insert(bytes.end(), e.begin(), e.end());
  }
  for (curve_check check : {curve_check::none, curve_check::on_curve}) {
    const auto r = decode_on_device<Point>(bytes, check);
    EXPECT_EQ(r.first_rejected, NO_REJECTED_INDEX);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) wrong += !(r.points[i] == want[i]);
    EXPECT_EQ(wrong, 0u);
  }
}

/// Random byte strings (flags cleared, the top byte below p's so that about half the
/// coordinates are canonical), each decoded alone: accepted exactly when the host accepts.
template <class Point>
void expect_random_bytes_agree(size_t n, cuzk::test::test_rng& rng) {
  constexpr size_t len = encoded_bytes<Point>();
  size_t accepted_none = 0;
  for (size_t t = 0; t < n; ++t) {
    std::vector<uint8_t> bytes(len);
    for (auto& b : bytes) b = uint8_t(rng());
    for (size_t c = 0; c < len; c += 48) bytes[c] &= 0x1f;
    for (curve_check check : {curve_check::none, curve_check::on_curve}) {
      Point host;
      const bool accepted = host_accepts(bytes.data(), check, host);
      accepted_none += accepted && check == curve_check::none;
      const auto r = decode_on_device<Point>(bytes, check);
      EXPECT_EQ(r.first_rejected, accepted ? NO_REJECTED_INDEX : 0ull) << "string " << t;
      if (accepted) EXPECT_TRUE(r.points[0] == host) << "string " << t;
    }
  }
  EXPECT_GT(accepted_none, 0u);  // the strings reach the conversion, not only the byte checks
}

TEST(SerializationGpu, G1RandomPointsMatchHost) {
  auto rng = cuzk::test::test_rng::from_env("SerializationGpu.G1RandomPointsMatchHost");
  expect_random_points_agree<g1_affine_t>(20000, rng);
}

TEST(SerializationGpu, G2RandomPointsMatchHost) {
  auto rng = cuzk::test::test_rng::from_env("SerializationGpu.G2RandomPointsMatchHost");
  expect_random_points_agree<g2_affine_t>(3000, rng);
}

TEST(SerializationGpu, EdgeEncodingsJudgedAsHost) {
  auto rng = cuzk::test::test_rng::from_env("SerializationGpu.EdgeEncodingsJudgedAsHost");
  expect_edges_agree<g1_affine_t>(rng);
  expect_edges_agree<g2_affine_t>(rng);
}

TEST(SerializationGpu, RandomBytesJudgedAsHost) {
  auto rng = cuzk::test::test_rng::from_env("SerializationGpu.RandomBytesJudgedAsHost");
  expect_random_bytes_agree<g1_affine_t>(300, rng);
  expect_random_bytes_agree<g2_affine_t>(200, rng);
}

// Several bad encodings across many blocks: the lowest index wins, whatever the thread order; in a
// piece decoded on its own, counted from the piece's first index.
TEST(SerializationGpu, LowestRejectedIndexWins) {
  auto rng = cuzk::test::test_rng::from_env("SerializationGpu.LowestRejectedIndexWins");
  constexpr size_t n = 100000;
  const auto one = encode(ec::test::random_curve_point<ff::fp_t>(rng));
  std::vector<uint8_t> bytes;
  bytes.reserve(n * one.size());
  for (size_t i = 0; i < n; ++i) bytes.insert(bytes.end(), one.begin(), one.end());
  for (size_t bad : {size_t(99999), size_t(70001), size_t(4242), size_t(50000)})
    bytes[bad * one.size() + 95] ^= 1;
  EXPECT_EQ(decode_on_device<g1_affine_t>(bytes, curve_check::on_curve).first_rejected, 4242ull);
  EXPECT_EQ(decode_on_device<g1_affine_t>(bytes, curve_check::none).first_rejected,
            NO_REJECTED_INDEX);
  // A piece of a larger array reports indices of that array.
  EXPECT_EQ(
      decode_on_device<g1_affine_t>(bytes, curve_check::on_curve, uint64_t(1) << 40).first_rejected,
      (1ull << 40) + 4242);
}

}  // namespace
}  // namespace cuzk::ec::cuda
