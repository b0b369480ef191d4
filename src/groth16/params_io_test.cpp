// SPDX-License-Identifier: Apache-2.0
// .vk / .params formats: a hand-built KAT (generator encodings from docs/spec/groth16.md §1 / the
// ZCash spec), round trips that must re-encode byte for byte, an independent sequential reference
// writer, every corruption class (truncation, trailing bytes, bad counts, bad points, infinity,
// non-subgroup points) under each point_checks mode, and random mutations that must never crash.
#include "groth16/params_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"
#include "test_rng.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;
using cuzk::test::test_rng;
using ec::fp2_t;
using ec::fp_t;
using ec::fr_t;

// ---- fixtures ------------------------------------------------------------------------------

/// n random subgroup points: r·G for one random r, then repeated addition of another random
/// multiple (one scalar multiplication per call, one inversion per point).
template <class Field>
std::vector<ec::affine_t<Field>> random_points(test_rng& rng, size_t n) {
  using jac = ec::jacobian_t<Field>;
  const auto g = ec::curve_traits<Field>::GENERATOR;
  jac acc = ec::mul(g, fr_t::random(rng));
  const jac step = ec::mul(g, fr_t::random(rng));
  std::vector<ec::affine_t<Field>> out(n);
  for (auto& p : out) {
    p = acc.to_affine();
    acc += step;
  }
  return out;
}
template <class Field>
ec::affine_t<Field> random_point(test_rng& rng) {
  return random_points<Field>(rng, 1)[0];
}

/// A point on the curve outside the order-r subgroup: random x until x^3 + b is a square. The
/// cofactor is > 1, so a random curve point is in the subgroup with negligible probability; the
/// test asserts it is not.
template <class Field>
ec::affine_t<Field> non_subgroup_point(test_rng& rng) {
  for (;;) {
    ec::affine_t<Field> p;
    p.x = Field::random(rng);
    if (!(p.x.sqr() * p.x + ec::curve_b<Field>()).sqrt(p.y)) continue;
    if (!ec::in_subgroup(p)) return p;
  }
}

struct counts_t {
  size_t ic, h, l, a, b;
};

parameters random_params(test_rng& rng, counts_t c) {
  parameters p;
  auto g1 = random_points<fp_t>(rng, 4 + c.ic + c.h + c.l + c.a + c.b);
  auto g2 = random_points<fp2_t>(rng, 3 + c.b);
  size_t i = 0, j = 0;
  p.vk.alpha_g1 = g1[i++];
  p.vk.beta_g1 = g1[i++];
  p.vk.delta_g1 = g1[i++];
  p.vk.beta_g2 = g2[j++];
  p.vk.gamma_g2 = g2[j++];
  p.vk.delta_g2 = g2[j++];
  auto take = [&](size_t n) {
    std::vector<ec::g1_affine_t> v(g1.begin() + i, g1.begin() + i + n);
    i += n;
    return v;
  };
  p.vk.ic = take(c.ic);
  p.h = take(c.h);
  p.l = take(c.l);
  p.a = take(c.a);
  p.b_g1 = take(c.b);
  p.b_g2.assign(g2.begin() + j, g2.end());
  return p;
}

constexpr counts_t SMALL = {3, 7, 5, 6, 4};

// Independent reference writer: sequential, straight from the docs/spec/groth16.md §2–§3 tables.
void put_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
}
void put(std::vector<uint8_t>& out, const ec::g1_affine_t& p) {
  auto b = ec::g1_to_uncompressed(p);
  out.insert(out.end(), b.begin(), b.end());
}
void put(std::vector<uint8_t>& out, const ec::g2_affine_t& p) {
  auto b = ec::g2_to_uncompressed(p);
  out.insert(out.end(), b.begin(), b.end());
}
template <class V>
void put_vec(std::vector<uint8_t>& out, const V& v) {
  put_be32(out, uint32_t(v.size()));
  for (const auto& p : v) put(out, p);
}
std::vector<uint8_t> reference_vk(const verifying_key& vk) {
  std::vector<uint8_t> out;
  put(out, vk.alpha_g1);
  put(out, vk.beta_g1);
  put(out, vk.beta_g2);
  put(out, vk.gamma_g2);
  put(out, vk.delta_g1);
  put(out, vk.delta_g2);
  put_vec(out, vk.ic);
  return out;
}
std::vector<uint8_t> reference_params(const parameters& p) {
  std::vector<uint8_t> out = reference_vk(p.vk);
  put_vec(out, p.h);
  put_vec(out, p.l);
  put_vec(out, p.a);
  put_vec(out, p.b_g1);
  put_vec(out, p.b_g2);
  return out;
}

bool same_vk(const verifying_key& x, const verifying_key& y) {
  return x.alpha_g1 == y.alpha_g1 && x.beta_g1 == y.beta_g1 && x.beta_g2 == y.beta_g2 &&
         x.gamma_g2 == y.gamma_g2 && x.delta_g1 == y.delta_g1 && x.delta_g2 == y.delta_g2 &&
         x.ic == y.ic;
}
bool same_params(const parameters& x, const parameters& y) {
  return same_vk(x.vk, y.vk) && x.h == y.h && x.l == y.l && x.a == y.a && x.b_g1 == y.b_g1 &&
         x.b_g2 == y.b_g2;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cuzk_params_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

/// True when no atomic-writer temporary file ("<path>.tmp.<pid>.<n>") is left beside `path`.
bool no_temp_siblings(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string prefix = p.filename().string() + ".tmp";
  for (const auto& e : std::filesystem::directory_iterator(p.parent_path())) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return false;
  }
  return true;
}

constexpr point_checks ALL_CHECKS[] = {point_checks::full, point_checks::on_curve_only,
                                       point_checks::none};

/// load_all under `checks`; returns its status.
status load_status(const std::vector<uint8_t>& bytes, point_checks checks, thread_pool& pool) {
  auto f = params_file::from_bytes(bytes);
  if (!f.ok()) return f.error();
  auto p = f->load_all(checks, pool);
  return p.ok() ? status() : p.error();
}

// ---- .vk -----------------------------------------------------------------------------------

TEST(params_io, vk_sizes_match_filecoin_table) {
  // docs/spec/groth16.md §2
  EXPECT_EQ(vk_file_size(40), 4'708u);
  EXPECT_EQ(vk_file_size(328), 32'356u);
  EXPECT_EQ(vk_file_size(23), 3'076u);
  EXPECT_EQ(vk_file_size(133), 13'636u);
  EXPECT_EQ(vk_file_size(25'840), 2'481'508u);
  EXPECT_EQ(vk_file_size(25'301), 2'429'764u);
  EXPECT_EQ(vk_file_size(5), 1'348u);
}

TEST(params_io, vk_known_answer_from_generators) {
  verifying_key vk;
  vk.alpha_g1 = vk.beta_g1 = vk.delta_g1 = ec::g1_generator();
  vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = ec::g2_generator();
  vk.ic = {ec::g1_generator(), -ec::g1_generator()};
  auto bytes = vk_to_bytes(vk);
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  ASSERT_EQ(bytes->size(), 868u + 2 * 96);
  auto at = [&](size_t off, std::initializer_list<uint8_t> want) {
    return std::equal(want.begin(), want.end(), bytes->begin() + off);
  };
  // G1 generator x = 0x17f1d3a73197d794…, y = 0x08b3f481e3aaa0f1… (big-endian, flags clear)
  const std::initializer_list<uint8_t> g1x = {0x17, 0xf1, 0xd3, 0xa7, 0x31, 0x97, 0xd7, 0x94};
  const std::initializer_list<uint8_t> g1y = {0x08, 0xb3, 0xf4, 0x81, 0xe3, 0xaa, 0xa0, 0xf1};
  // G2 generator x.c1 = 0x13e02b6052719f60…, x.c0 = 0x024aa2b2f08f0a91…, y.c1 = 0x0606c4a02ea734cc…
  const std::initializer_list<uint8_t> g2x1 = {0x13, 0xe0, 0x2b, 0x60, 0x52, 0x71, 0x9f, 0x60};
  const std::initializer_list<uint8_t> g2x0 = {0x02, 0x4a, 0xa2, 0xb2, 0xf0, 0x8f, 0x0a, 0x91};
  const std::initializer_list<uint8_t> g2y1 = {0x06, 0x06, 0xc4, 0xa0, 0x2e, 0xa7, 0x34, 0xcc};
  EXPECT_TRUE(at(0, g1x));  // alpha_g1
  EXPECT_TRUE(at(48, g1y));
  EXPECT_TRUE(at(96, g1x));    // beta_g1
  EXPECT_TRUE(at(192, g2x1));  // beta_g2: c1 first
  EXPECT_TRUE(at(240, g2x0));
  EXPECT_TRUE(at(288, g2y1));
  EXPECT_TRUE(at(384, g2x1));          // gamma_g2
  EXPECT_TRUE(at(576, g1x));           // delta_g1
  EXPECT_TRUE(at(672, g2x1));          // delta_g2
  EXPECT_TRUE(at(864, {0, 0, 0, 2}));  // ic_len, big-endian
  EXPECT_TRUE(at(868, g1x));
  EXPECT_TRUE(at(868 + 96, g1x));  // -G has the same x
  EXPECT_EQ(*bytes, reference_vk(vk));

  auto back = vk_from_bytes(*bytes);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(same_vk(*back, vk));
}

TEST(params_io, vk_round_trip_random) {
  auto rng = test_rng::from_env("vk_round_trip_random");
  for (size_t ic : {0, 1, 5}) {
    parameters p = random_params(rng, {ic, 0, 0, 0, 0});
    auto bytes = vk_to_bytes(p.vk);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes->size(), vk_file_size(ic));
    EXPECT_EQ(*bytes, reference_vk(p.vk));
    for (point_checks c : ALL_CHECKS) {
      auto back = vk_from_bytes(*bytes, c);
      ASSERT_TRUE(back.ok()) << back.error().to_string();
      EXPECT_TRUE(same_vk(*back, p.vk));
      EXPECT_EQ(*vk_to_bytes(*back), *bytes);
    }
    // through a file and a stream
    const std::string path = temp_path("vk");
    ASSERT_TRUE(write_vk(p.vk, path).ok());
    auto from_file = read_vk(path);
    ASSERT_TRUE(from_file.ok()) << from_file.error().to_string();
    EXPECT_TRUE(same_vk(*from_file, p.vk));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    EXPECT_TRUE(no_temp_siblings(path));
    std::remove(path.c_str());
    std::ostringstream os;
    ASSERT_TRUE(write_vk(p.vk, os).ok());
    EXPECT_EQ(os.str(), std::string(bytes->begin(), bytes->end()));
  }
}

TEST(params_io, vk_rejects_bad_inputs) {
  auto rng = test_rng::from_env("vk_rejects_bad_inputs");
  parameters p = random_params(rng, {2, 0, 0, 0, 0});
  const auto good = *vk_to_bytes(p.vk);

  auto short_vk = vk_from_bytes(std::span(good).first(867));
  ASSERT_FALSE(short_vk.ok());
  EXPECT_EQ(short_vk.error().code(), status_code::bad_length);
  auto trunc = vk_from_bytes(std::span(good).first(good.size() - 1));
  ASSERT_FALSE(trunc.ok());
  EXPECT_EQ(trunc.error().code(), status_code::size_mismatch);
  auto longer = good;
  longer.push_back(0);
  EXPECT_EQ(vk_from_bytes(longer).error().code(), status_code::size_mismatch);

  auto bad = good;
  bad[VK_BETA_G2_OFFSET + 191] ^= 1;  // last byte of y.c0
  auto r = vk_from_bytes(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::not_on_curve);
  EXPECT_EQ(r.error().message().rfind("beta_g2: not_on_curve", 0), 0u) << r.error().message();

  bad = good;
  bad[VK_IC_OFFSET + 96 + 95] ^= 1;
  r = vk_from_bytes(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message().rfind("ic[1]: not_on_curve", 0), 0u) << r.error().message();

  verifying_key inf = p.vk;
  inf.delta_g1 = ec::g1_affine_t::infinity();
  auto w = vk_to_bytes(inf);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().code(), status_code::is_infinity);
  EXPECT_EQ(w.error().message().rfind("delta_g1", 0), 0u);
  const std::string path = temp_path("vk_inf");
  EXPECT_EQ(write_vk(inf, path).code(), status_code::is_infinity);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_TRUE(no_temp_siblings(path));

  EXPECT_EQ(read_vk(temp_path("no_such_vk")).error().code(), status_code::io_error);
}

// ---- .params round trips -------------------------------------------------------------------

TEST(params_io, params_round_trip_is_byte_identical) {
  auto rng = test_rng::from_env("params_round_trip_is_byte_identical");
  thread_pool pool(3);
  const parameters p = random_params(rng, SMALL);
  auto bytes = params_to_bytes(p, pool);
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  EXPECT_EQ(bytes->size(), params_file_size(SMALL.ic, SMALL.h, SMALL.l, SMALL.a, SMALL.b));
  EXPECT_EQ(*bytes, reference_params(p));

  auto f = params_file::from_bytes(*bytes);
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  EXPECT_EQ(f->file_size(), bytes->size());
  const size_t want[] = {SMALL.ic, SMALL.h, SMALL.l, SMALL.a, SMALL.b, SMALL.b};
  uint64_t offset = VK_IC_OFFSET;
  for (size_t s = 0; s < NUM_PARAMS_SECTIONS; ++s) {
    const section_info& si = f->section(params_section(s));
    EXPECT_EQ(si.count, want[s]) << to_string(params_section(s));
    EXPECT_EQ(si.offset, offset);
    EXPECT_EQ(si.point_bytes, s == 5 ? 192u : 96u);
    offset = si.end() + 4;
  }
  for (point_checks c : ALL_CHECKS) {
    auto back = f->load_all(c, pool);
    ASSERT_TRUE(back.ok()) << to_string(c) << ": " << back.error().to_string();
    EXPECT_TRUE(same_params(*back, p));
    EXPECT_EQ(*params_to_bytes(*back, pool), *bytes);
  }
  // sub-range decode
  std::vector<ec::g1_affine_t> h(3);
  ASSERT_TRUE(f->decode(params_section::h, 2, 3, h, point_checks::full, pool).ok());
  EXPECT_TRUE(std::equal(h.begin(), h.end(), p.h.begin() + 2));
  std::vector<ec::g2_affine_t> b2(2);
  ASSERT_TRUE(f->decode(params_section::b_g2, 2, 2, b2, point_checks::full, pool).ok());
  EXPECT_TRUE(std::equal(b2.begin(), b2.end(), p.b_g2.begin() + 2));
  EXPECT_TRUE(
      f->decode(params_section::l, 5, 0, std::span<ec::g1_affine_t>(), point_checks::full, pool)
          .ok());
}

// Issue #13: outputs are never written over a device node or left half-written, and special
// files given as inputs are a status, not a hang.
TEST(params_io, hostile_paths_are_refused_without_leftovers) {
  auto rng = test_rng::from_env("hostile_paths_are_refused_without_leftovers");
  thread_pool pool(1);
  const parameters p = random_params(rng, {2, 3, 2, 3, 2});
  for (const std::string& target : {std::string("/dev/null"), std::string("/proc/cuzk.params")}) {
    const status s = write_params(p, target, pool, 2);
    EXPECT_FALSE(s.ok()) << target;
    EXPECT_NE(s.message().find(target == "/dev/null" ? "refusing to replace" : "temporary file"),
              std::string::npos)
        << s.to_string();
    EXPECT_FALSE(write_vk(p.vk, target).ok()) << target;
  }
  const std::string dir = temp_path("hostile_dir");
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& in : {std::string("/dev/zero"), dir, fifo}) {
    auto f = params_file::open(in);
    ASSERT_FALSE(f.ok()) << in;
    EXPECT_EQ(f.error().code(), status_code::io_error);
    auto vk = read_vk(in);
    ASSERT_FALSE(vk.ok()) << in;
    EXPECT_EQ(vk.error().code(), status_code::io_error);
  }
  // An is_infinity failure midway through the stream leaves neither target nor temporary file.
  parameters bad = p;
  bad.b_g2.back() = ec::g2_affine_t::infinity();
  EXPECT_EQ(write_params(bad, dir + "/out.params", pool, 1).code(), status_code::is_infinity);
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);  // the FIFO only
  std::filesystem::remove_all(dir);
}

TEST(params_io, params_file_streams_in_chunks_through_mmap) {
  auto rng = test_rng::from_env("params_file_streams_in_chunks_through_mmap");
  thread_pool pool(2);
  const parameters p = random_params(rng, {2, 31, 17, 9, 5});
  const std::string path = temp_path("params");
  // chunk of 3 points: every vector spans several chunks, some partial
  ASSERT_TRUE(write_params(p, path, pool, 3).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_TRUE(no_temp_siblings(path));
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(disk, reference_params(p));

  auto f = params_file::open(path, {.hint = access_hint::sequential, .huge_pages = true});
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  auto back = f->load_all(point_checks::full, pool);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(same_params(*back, p));
  // release() drops pages of this process's view only; the points still decode afterwards
  ASSERT_TRUE(f->release(params_section::h, 0, f->count(params_section::h)).ok());
  std::vector<ec::g1_affine_t> h(p.h.size());
  ASSERT_TRUE(f->decode(params_section::h, 0, h.size(), h, point_checks::full, pool).ok());
  EXPECT_EQ(h, p.h);
  auto vk = f->load_vk();
  ASSERT_TRUE(vk.ok());
  EXPECT_TRUE(same_vk(*vk, p.vk));
  EXPECT_EQ(f->section_bytes(params_section::a).size(), 9u * 96);

  std::ostringstream os;
  ASSERT_TRUE(write_params(p, os, pool, 1000).ok());
  EXPECT_EQ(os.str(), std::string(disk.begin(), disk.end()));
  std::remove(path.c_str());

  EXPECT_EQ(params_file::open(temp_path("missing")).error().code(), status_code::io_error);
}

TEST(params_io, validate_against_names_first_mismatch) {
  auto rng = test_rng::from_env("validate_against_names_first_mismatch");
  thread_pool pool(1);
  // num_inputs 3, num_aux 5, m 8, a_aux density 3 (a = 6), b_input 1 + b_aux 3 (b = 4)
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  auto f = params_file::from_bytes(bytes);
  ASSERT_TRUE(f.ok());
  const parameters_shape good{3, 5, 8, 3, 1, 3};
  EXPECT_TRUE(f->validate_against(good).ok());
  const auto want = expected_counts(good);
  EXPECT_EQ(want[size_t(params_section::h)], 7u);

  struct {
    parameters_shape shape;
    const char* section;
  } cases[] = {
      {{4, 5, 8, 2, 1, 3}, "ic"}, {{3, 5, 16, 3, 1, 3}, "h"},   {{3, 6, 8, 3, 1, 3}, "l"},
      {{3, 5, 8, 4, 1, 3}, "a"},  {{3, 5, 8, 3, 0, 3}, "b_g1"},
  };
  for (const auto& c : cases) {
    status s = f->validate_against(c.shape);
    EXPECT_EQ(s.code(), status_code::size_mismatch);
    EXPECT_EQ(s.message().rfind(std::string(c.section) + ":", 0), 0u) << s.message();
  }
  EXPECT_EQ(f->validate_against({3, 5, 12, 3, 1, 3}).code(), status_code::invalid_argument);
  EXPECT_EQ(f->validate_against({3, 5, 0, 3, 1, 3}).code(), status_code::invalid_argument);
}

// ---- corruption ----------------------------------------------------------------------------

TEST(params_io, truncation_and_trailing_bytes) {
  auto rng = test_rng::from_env("truncation_and_trailing_bytes");
  thread_pool pool(2);
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  auto f = params_file::from_bytes(bytes).value();
  // every section boundary ± 1, plus random cut points
  std::vector<size_t> cuts = {0, 1, 863, 864, 867, 868, 869, bytes.size() - 1};
  for (size_t s = 0; s < NUM_PARAMS_SECTIONS; ++s) {
    const section_info& si = f.section(params_section(s));
    for (uint64_t o : {si.offset - 4, si.offset - 3, si.offset, si.offset + 1, si.end() - 1}) {
      cuts.push_back(size_t(o));
    }
  }
  for (int i = 0; i < 60; ++i) cuts.push_back(size_t(rng.below(bytes.size())));
  for (size_t cut : cuts) {
    auto r = params_file::from_bytes(std::span(bytes).first(cut));
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_EQ(r.error().code(), cut < 868 ? status_code::bad_length : status_code::size_mismatch)
        << "cut at " << cut << ": " << r.error().to_string();
  }
  auto longer = bytes;
  longer.push_back(0);
  auto r = params_file::from_bytes(longer);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::size_mismatch);
  EXPECT_NE(r.error().message().find("1 trailing bytes"), std::string::npos);
}

TEST(params_io, bad_counts) {
  auto rng = test_rng::from_env("bad_counts");
  thread_pool pool(1);
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  const auto f = params_file::from_bytes(bytes).value();
  for (size_t s = 0; s < NUM_PARAMS_SECTIONS; ++s) {
    const size_t count_at = size_t(f.section(params_section(s)).offset - 4);
    const std::string name(to_string(params_section(s)));
    for (uint32_t v : {0xffffffffu, 0x80000000u, uint32_t(f.count(params_section(s)) + 1)}) {
      auto bad = bytes;
      for (int k = 0; k < 4; ++k) bad[count_at + k] = uint8_t(v >> (24 - 8 * k));
      auto r = params_file::from_bytes(bad);
      ASSERT_FALSE(r.ok()) << name << " count " << v;
      EXPECT_EQ(r.error().code(), status_code::size_mismatch);
      // count + 1 may still fit and shift the next count into point bytes: that section fails
      if (v >= 0x80000000u) {
        EXPECT_EQ(r.error().message().rfind(name + ": count", 0), 0u) << r.error().message();
      }
    }
    // one fewer: the layout shifts and the sizes no longer add up
    auto fewer = bytes;
    fewer[count_at + 3] = uint8_t(fewer[count_at + 3] - 1);
    EXPECT_EQ(params_file::from_bytes(fewer).error().code(), status_code::size_mismatch);
  }
}

/// Overwrites the encoding of point `index` of section s.
void set_point(std::vector<uint8_t>& bytes, const params_file& f, params_section s, size_t index,
               std::span<const uint8_t> enc) {
  const section_info& si = f.section(s);
  ASSERT_EQ(enc.size(), si.point_bytes);
  std::memcpy(bytes.data() + si.offset + index * si.point_bytes, enc.data(), enc.size());
}

TEST(params_io, bad_points_report_section_index_and_code) {
  auto rng = test_rng::from_env("bad_points_report_section_index_and_code");
  thread_pool pool(3);
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  const auto f = params_file::from_bytes(bytes).value();
  const size_t l3 = size_t(f.section(params_section::l).offset + 3 * 96);

  struct expectation {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> corrupt;
    status_code full, on_curve, none;  // ok = accepted
  };
  const auto ok = status_code::ok;
  std::vector<uint8_t> inf1(96, 0), zero1(96, 0), inf2(192, 0);
  inf1[0] = 0x40;
  inf2[0] = 0x40;
  const expectation cases[] = {
      {"flipped low byte of y", [&](auto& b) { b[l3 + 95] ^= 0x01; }, status_code::not_on_curve,
       status_code::not_on_curve, ok},
      {"compressed flag", [&](auto& b) { b[l3] |= 0x80; }, status_code::bad_encoding,
       status_code::bad_encoding, status_code::bad_encoding},
      {"sign flag", [&](auto& b) { b[l3] |= 0x20; }, status_code::bad_encoding,
       status_code::bad_encoding, status_code::bad_encoding},
      {"x >= p",
       [&](auto& b) {
         b[l3] = 0x1f;
         std::memset(&b[l3 + 1], 0xff, 47);
       },
       status_code::non_canonical, status_code::non_canonical, status_code::non_canonical},
      {"infinity", [&](auto& b) { std::memcpy(&b[l3], inf1.data(), 96); }, status_code::is_infinity,
       status_code::is_infinity, status_code::is_infinity},
      {"all zero", [&](auto& b) { std::memcpy(&b[l3], zero1.data(), 96); },
       status_code::not_on_curve, status_code::not_on_curve, status_code::not_on_curve},
      {"not in subgroup",
       [&](auto& b) {
         const auto enc = ec::g1_to_uncompressed(non_subgroup_point<fp_t>(rng));
         std::memcpy(&b[l3], enc.data(), 96);
       },
       status_code::not_in_subgroup, ok, ok},
  };
  for (const auto& c : cases) {
    auto bad = bytes;
    c.corrupt(bad);
    const status_code want[] = {c.full, c.on_curve, c.none};
    for (size_t m = 0; m < 3; ++m) {
      status s = load_status(bad, ALL_CHECKS[m], pool);
      EXPECT_EQ(s.code(), want[m])
          << c.what << " / " << to_string(ALL_CHECKS[m]) << ": " << s.to_string();
      if (want[m] != ok) {
        const std::string prefix = "l[3]: " + std::string(to_string(want[m]));
        EXPECT_EQ(s.message().rfind(prefix, 0), 0u) << s.message();
      }
    }
  }

  // G2: infinity and a non-subgroup point in b_g2
  auto bad = bytes;
  set_point(bad, f, params_section::b_g2, 1, inf2);
  status s = load_status(bad, point_checks::none, pool);
  EXPECT_EQ(s.code(), status_code::is_infinity);
  EXPECT_EQ(s.message().rfind("b_g2[1]: is_infinity", 0), 0u) << s.message();
  bad = bytes;
  set_point(bad, f, params_section::b_g2, 3,
            ec::g2_to_uncompressed(non_subgroup_point<fp2_t>(rng)));
  s = load_status(bad, point_checks::full, pool);
  EXPECT_EQ(s.code(), status_code::not_in_subgroup);
  EXPECT_EQ(s.message().rfind("b_g2[3]: not_in_subgroup", 0), 0u) << s.message();
  EXPECT_TRUE(load_status(bad, point_checks::on_curve_only, pool).ok());
  EXPECT_TRUE(load_status(bad, point_checks::none, pool).ok());
}

TEST(params_io, lowest_failing_index_is_reported) {
  auto rng = test_rng::from_env("lowest_failing_index_is_reported");
  thread_pool pool(4);
  parameters p = random_params(rng, {1, 0, 3000, 0, 0});
  auto bytes = *params_to_bytes(p, pool);
  const auto f = params_file::from_bytes(bytes).value();
  const std::vector<uint8_t> zero(96, 0);
  // several bad points spread over different chunks; the lowest must win every time
  for (size_t idx : {2900, 1717, 640, 12}) {
    set_point(bytes, f, params_section::l, idx, zero);
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<ec::g1_affine_t> out(3000);
      status s = f.decode(params_section::l, 0, 3000, out, point_checks::none, pool);
      EXPECT_EQ(s.message().rfind("l[" + std::to_string(idx) + "]: not_on_curve", 0), 0u)
          << s.message();
    }
  }
  // indices are global when decoding from the middle
  std::vector<ec::g1_affine_t> out(100);
  status s = f.decode(params_section::l, 1700, 100, out, point_checks::none, pool);
  EXPECT_EQ(s.message().rfind("l[1717]: not_on_curve", 0), 0u) << s.message();
}

TEST(params_io, decode_argument_errors) {
  auto rng = test_rng::from_env("decode_argument_errors");
  thread_pool pool(1);
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  const auto f = params_file::from_bytes(bytes).value();
  std::vector<ec::g1_affine_t> g1(10);
  std::vector<ec::g2_affine_t> g2(10);
  const auto c = point_checks::full;
  EXPECT_EQ(f.decode(params_section::h, 5, 3, g1, c, pool).code(), status_code::invalid_argument);
  EXPECT_EQ(f.decode(params_section::h, 8, 0, g1, c, pool).code(), status_code::invalid_argument);
  EXPECT_EQ(f.decode(params_section::h, ~uint64_t(0), 2, g1, c, pool).code(),
            status_code::invalid_argument);
  EXPECT_EQ(f.decode(params_section::h, 0, 7, std::span(g1).first(6), c, pool).code(),
            status_code::invalid_argument);
  EXPECT_EQ(f.decode(params_section::b_g2, 0, 1, g1, c, pool).code(),
            status_code::invalid_argument);
  EXPECT_EQ(f.decode(params_section::b_g1, 0, 1, g2, c, pool).code(),
            status_code::invalid_argument);
}

TEST(params_io, writer_rejects_infinity) {
  auto rng = test_rng::from_env("writer_rejects_infinity");
  thread_pool pool(2);
  parameters p = random_params(rng, SMALL);
  p.l[2] = ec::g1_affine_t::infinity();
  auto r = params_to_bytes(p, pool);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::is_infinity);
  EXPECT_EQ(r.error().message().rfind("l[2]: is_infinity", 0), 0u) << r.error().message();
  const std::string path = temp_path("params_inf");
  EXPECT_EQ(write_params(p, path, pool, 2).code(), status_code::is_infinity);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_TRUE(no_temp_siblings(path));
  p = random_params(rng, SMALL);
  p.b_g2.back() = ec::g2_affine_t::infinity();
  r = params_to_bytes(p, pool);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message().rfind("b_g2[3]: is_infinity", 0), 0u) << r.error().message();
}

// Random byte edits and truncations/extensions of a valid file. Every outcome is checked: a
// rejection is a non-ok status with a message; an accepted decode re-encodes to exactly the
// mutated bytes (the reader accepts only what the writer would produce); a stricter check mode
// never accepts what a looser one rejects. Some mutations must be rejected, and the unmutated
// file must be accepted in every mode.
TEST(params_io, random_mutations_are_rejected_or_round_trip) {
  auto rng = test_rng::from_env("random_mutations_never_crash");
  thread_pool pool(2);
  const auto bytes = *params_to_bytes(random_params(rng, {2, 3, 2, 3, 2}), pool);
  for (point_checks c : ALL_CHECKS) {
    auto f = params_file::from_bytes(bytes);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->load_all(c, pool).ok()) << to_string(c);
  }
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 300; ++iter) {
    auto bad = bytes;
    const int edits = 1 + int(rng.below(4));
    for (int e = 0; e < edits; ++e) bad[rng.below(bad.size())] = uint8_t(rng());
    if (rng.below(4) == 0) bad.resize(rng.below(bad.size() + 50), 0x5a);
    std::vector<bool> ok_by_mode;
    for (point_checks c : ALL_CHECKS) {
      auto f = params_file::from_bytes(bad);
      if (!f.ok()) {
        EXPECT_FALSE(f.error().message().empty());
        ok_by_mode.push_back(false);
        ++rejected;
        continue;
      }
      (void)f->validate_against({2, 2, 4, 1, 1, 1});
      auto p = f->load_all(c, pool);
      ok_by_mode.push_back(p.ok());
      if (!p.ok()) {
        EXPECT_NE(p.error().code(), status_code::ok);
        EXPECT_FALSE(p.error().message().empty()) << to_string(c);
        ++rejected;
        continue;
      }
      ++accepted;
      auto again = params_to_bytes(*p, pool);
      ASSERT_TRUE(again.ok()) << again.error().to_string();
      EXPECT_EQ(*again, bad) << "iteration " << iter << ", " << to_string(c);
    }
    for (size_t i = 0; i + 1 < ok_by_mode.size(); ++i) {
      if (ok_by_mode[i]) {
        EXPECT_TRUE(ok_by_mode[i + 1]) << "iteration " << iter;
      }
    }
  }
  EXPECT_GT(rejected, 0);
  std::printf("accepted %d of 900 mutated decodes\n", accepted);
}

// checks = none must be much faster than full: it skips ~128 doublings (G1 subgroup check) per
// point and the curve equation. The margin is wide so that a loaded CI machine still passes.
TEST(params_io, unchecked_decode_is_faster) {
  auto rng = test_rng::from_env("unchecked_decode_is_faster");
  thread_pool pool(1);
  const auto bytes = *params_to_bytes(random_params(rng, {1, 2000, 0, 0, 0}), pool);
  const auto f = params_file::from_bytes(bytes).value();
  std::vector<ec::g1_affine_t> out(2000);
  auto time = [&](point_checks c) {
    double best = 1e9;
    for (int rep = 0; rep < (c == point_checks::full ? 1 : 3); ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      EXPECT_TRUE(f.decode(params_section::h, 0, 2000, out, c, pool).ok());
      best = std::min(best,
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  };
  const double none = time(point_checks::none);
  const double curve = time(point_checks::on_curve_only);
  const double full = time(point_checks::full);
  std::printf("decode 2000 G1: none %.2f ms, on_curve_only %.2f ms, full %.2f ms\n", none * 1e3,
              curve * 1e3, full * 1e3);
  EXPECT_LT(none * 5, full);
  EXPECT_LT(curve * 3, full);
}

}  // namespace

// point_checks::batched (the provers' default): the curve point by point, the subgroup by random
// subset sums over batches of points; a point outside the subgroup anywhere in a large range (in
// the first, a middle and the last batch, and in G2) is found and named exactly as `full` names
// it, the lowest of several winning; valid files pass.
TEST(params_io, batched_subgroup_check_names_the_point_like_full) {
  auto rng = test_rng::from_env("batched_subgroup_check_names_the_point_like_full");
  thread_pool pool(3);
  const size_t n = 12000;  // two batches of 8192
  const auto bytes = *params_to_bytes(random_params(rng, {1, 0, n, 0, 40}), pool);
  const auto f = params_file::from_bytes(bytes).value();
  EXPECT_TRUE(load_status(bytes, point_checks::batched, pool).ok());
  for (size_t idx : {size_t(0), size_t(8192), n - 1}) {
    auto bad = bytes;
    set_point(bad, f, params_section::l, idx,
              ec::g1_to_uncompressed(non_subgroup_point<fp_t>(rng)));
    const status s = load_status(bad, point_checks::batched, pool);
    EXPECT_EQ(s.code(), status_code::not_in_subgroup) << s.to_string();
    EXPECT_EQ(s.message().rfind("l[" + std::to_string(idx) + "]: not_in_subgroup", 0), 0u)
        << s.message();
    if (idx == 0) {
      EXPECT_EQ(s.message(), load_status(bad, point_checks::full, pool).message());
    }
  }
  auto two = bytes;
  set_point(two, f, params_section::l, 9000, ec::g1_to_uncompressed(non_subgroup_point<fp_t>(rng)));
  set_point(two, f, params_section::l, 3000, ec::g1_to_uncompressed(non_subgroup_point<fp_t>(rng)));
  EXPECT_EQ(load_status(two, point_checks::batched, pool).message().rfind("l[3000]:", 0), 0u);
  auto g2 = bytes;
  set_point(g2, f, params_section::b_g2, 39,
            ec::g2_to_uncompressed(non_subgroup_point<fp2_t>(rng)));
  const status s2 = load_status(g2, point_checks::batched, pool);
  EXPECT_EQ(s2.message().rfind("b_g2[39]: not_in_subgroup", 0), 0u) << s2.message();
  // Curve and encoding errors come first, as under on_curve_only.
  auto off_curve = bytes;
  off_curve[size_t(f.section(params_section::l).offset + 5 * 96 + 95)] ^= 1;
  EXPECT_EQ(load_status(off_curve, point_checks::batched, pool).code(), status_code::not_on_curve);
  // check_points reports what load_all does, without keeping the points.
  EXPECT_TRUE(f.check_points(point_checks::batched, pool).ok());
  const auto bad_file = params_file::from_bytes(g2).value();
  EXPECT_EQ(bad_file.check_points(point_checks::batched, pool).message(), s2.message());
}

// load_all's progress: "load", from 0 to query_bytes(), never backwards, on the calling thread.
TEST(params_io, load_all_reports_progress_in_bytes) {
  auto rng = test_rng::from_env("load_all_reports_progress_in_bytes");
  thread_pool pool(2);
  const auto bytes = *params_to_bytes(random_params(rng, SMALL), pool);
  const auto f = params_file::from_bytes(bytes).value();
  std::vector<size_t> seen;
  const auto caller = std::this_thread::get_id();
  auto p = f.load_all(point_checks::none, pool, [&](const char* phase, size_t done, size_t total) {
    EXPECT_STREQ(phase, "load");
    EXPECT_EQ(total, f.query_bytes());
    EXPECT_EQ(std::this_thread::get_id(), caller);
    seen.push_back(done);
  });
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen.front(), 0u);
  EXPECT_EQ(seen.back(), f.query_bytes());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  // The total is reported once: a progress line says 100 % once.
  EXPECT_EQ(std::count(seen.begin(), seen.end(), size_t(f.query_bytes())), 1);
}
