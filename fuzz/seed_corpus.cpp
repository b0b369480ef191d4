// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpora of the libFuzzer targets (docs/fuzzing.md): small valid inputs made by
// cuzk's own encoders (points, a proof and the .vk/.params of bellman's cubic circuit, its .r1cs,
// .wtns and snarkjs JSON, a one-challenge 2 KiB C1 in all three forms, a one-proof PoSt vanilla
// proof, daemon requests of every kind), plus a few small files taken from the shared fixtures.
// Deterministic: rerunning it rewrites the same bytes.
//   fuzz_seed_corpus <fuzz/corpus> <shared/fixtures/filecoin>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "filecoin/porep/c1_bincode_test_util.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/iden3_io.hpp"

namespace {

using namespace cuzk;
namespace fs = std::filesystem;

fs::path g_out;

void put(std::string_view target, std::string_view name, std::span<const uint8_t> bytes) {
  const fs::path dir = g_out / target;
  fs::create_directories(dir);
  std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!f.flush()) {
    std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
    std::exit(1);
  }
}

void put(std::string_view target, std::string_view name, std::string_view text) {
  put(target, name, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

template <class T>
T must(result<T> r, const char* what) {
  if (!r) {
    std::fprintf(stderr, "%s: %s\n", what, r.error().to_string().c_str());
    std::exit(1);
  }
  return std::move(*r);
}

std::vector<uint8_t> cat(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  std::vector<uint8_t> v(a.begin(), a.end());
  v.insert(v.end(), b.begin(), b.end());
  return v;
}

void points() {
  const auto g1 = ec::g1_generator();
  const auto g2 = ec::g2_generator();
  const auto g1k = ec::mul(g1, ff::fr_t::from_uint(0x1234567)).to_affine();
  const auto g2k = ec::mul(g2, ff::fr_t::from_uint(0x1234567)).to_affine();
  put("g1_point_fuzz", "generator-compressed", ec::g1_to_compressed(g1));
  put("g1_point_fuzz", "generator-uncompressed", ec::g1_to_uncompressed(g1));
  put("g1_point_fuzz", "multiple-compressed", ec::g1_to_compressed(g1k));
  put("g1_point_fuzz", "multiple-uncompressed", ec::g1_to_uncompressed(g1k));
  put("g1_point_fuzz", "infinity-compressed", ec::g1_to_compressed(ec::g1_affine_t::infinity()));
  put("g1_point_fuzz", "infinity-uncompressed",
      ec::g1_to_uncompressed(ec::g1_affine_t::infinity()));
  put("g2_point_fuzz", "generator-compressed", ec::g2_to_compressed(g2));
  put("g2_point_fuzz", "generator-uncompressed", ec::g2_to_uncompressed(g2));
  put("g2_point_fuzz", "multiple-compressed", ec::g2_to_compressed(g2k));
  put("g2_point_fuzz", "multiple-uncompressed", ec::g2_to_uncompressed(g2k));
  put("g2_point_fuzz", "infinity-compressed", ec::g2_to_compressed(ec::g2_affine_t::infinity()));
  put("g2_point_fuzz", "infinity-uncompressed",
      ec::g2_to_uncompressed(ec::g2_affine_t::infinity()));
}

// bellman's cubic circuit: its parameters (fixed toxic waste), a proof, the iden3 and snarkjs
// forms.
void groth16_files(thread_pool& pool) {
  const auto ci = groth16::testing::cubic_circuit();
  const uint8_t seed[] = {'f', 'u', 'z', 'z'};
  const auto params = must(
      groth16::generate_parameters(ci.cs, groth16::toxic_waste::from_seed(seed), pool), "setup");
  put("params_io_fuzz", "cubic.params", must(groth16::params_to_bytes(params, pool), "params"));
  const auto vk = must(groth16::vk_to_bytes(params.vk), "vk");
  put("vk_fuzz", "cubic.vk", vk);
  auto asg = must(groth16::testing::make_assignment(ci.cs, ci.inputs, ci.aux, pool), "witness");
  const auto pf = must(groth16::create_proof(params, asg.view(), ff::fr_t::from_uint(7),
                                             ff::fr_t::from_uint(11), pool),
                       "prove");
  const auto one = groth16::encode_proof(pf);
  put("proof_fuzz", "cubic.proof", one);
  put("proof_fuzz", "cubic-twice.proof", cat(one, one));
  put("snarkjs_json_fuzz", "verification_key.json", groth16::vk_to_snarkjs_json(params.vk));
  put("snarkjs_json_fuzz", "proof.json", groth16::proof_to_snarkjs_json(pf));
  put("snarkjs_json_fuzz", "public.json",
      groth16::public_to_snarkjs_json(std::span(ci.inputs).subspan(1)));
  put("snarkjs_json_fuzz", "number-hex", std::string_view("0x1234abcd"));
  put("iden3_r1cs_fuzz", "cubic.r1cs",
      must(r1cs::r1cs_to_bytes(ci.cs, {.num_pub_out = 1}), "r1cs"));
  std::vector<ff::fr_t> witness = ci.inputs;
  witness.insert(witness.end(), ci.aux.begin(), ci.aux.end());
  put("iden3_wtns_fuzz", "cubic.wtns", r1cs::wtns_to_bytes(witness));
}

// A 2 KiB C1 cut to one challenge: every structure once, small enough for fast fuzzing.
filecoin::porep::c1_output_t small_c1() {
  filecoin::porep::synthetic_request_t r;
  r.config = must(
      filecoin::porep::porep_config(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1),
      "cfg");
  r.prover_id = filecoin::porep::prover_id_from_actor(1000);
  r.sector_id = 7;
  for (int i = 0; i < 32; ++i) r.ticket[i] = uint8_t(i + 1), r.seed[i] = uint8_t(200 - i);
  auto c1 = must(filecoin::porep::generate_synthetic_c1(r), "synthetic C1");
  c1.vanilla_proofs[0].resize(1);
  return c1;
}

std::vector<uint8_t> request(uint8_t handler, uint8_t registered_proof, uint8_t count,
                             std::span<const uint8_t> payload) {
  std::vector<uint8_t> v = {handler, registered_proof, 0, count};
  for (int i = 0; i < 32; ++i) v.push_back(uint8_t(i));  // randomness (a safe commitment)
  v.back() = 0;
  v.insert(v.end(), payload.begin(), payload.end());
  return v;
}

void filecoin_files(const fs::path& fixtures) {
  const auto c1 = small_c1();
  const std::string json = must(filecoin::porep::write_c1_json(c1), "C1 JSON");
  put("c1_json_fuzz", "2kib-one-challenge.json", json);
  filecoin::porep::test::bin_writer w;
  w.c1(c1);
  const uint8_t id_2kib_v1_1 = uint8_t(
      filecoin::porep::id_of(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1));
  put("c1_bincode_fuzz", "2kib-one-challenge.bin", cat(std::span(&id_2kib_v1_1, 1), w.out));
  const std::string wrapper = must(filecoin::porep::c1_to_wrapper_json(c1, UINT64_MAX), "wrapper");
  put("c1_wrapper_fuzz", "2kib-one-challenge-max-sector.json", wrapper);
  put("c1_wrapper_fuzz", "2kib-one-challenge-raw.json", json);
  put("proof_request_fuzz", "porep-wrapper",
      request(0, id_2kib_v1_1, 0,
              std::span(reinterpret_cast<const uint8_t*>(wrapper.data()), wrapper.size())));
  put("proof_request_fuzz", "porep-bincode", request(0, id_2kib_v1_1, 0, w.out));

  // The 32 GiB WindowPoSt vanilla proof of one sector (Curio's golden file), whole and cut to
  // one inclusion proof.
  const auto vproof =
      must(read_file_bounded((fixtures / "post.vproof").string(), 1 << 20), "post.vproof");
  auto sector = must(filecoin::post::parse_fallback_sector_proof(vproof), "post.vproof parse");
  put("post_vanilla_fuzz", "window-32gib-sector.vproof", vproof);
  sector.sectors[0].inclusion_proofs.resize(1);
  const auto small = filecoin::post::serialize_fallback_sector_proof(sector);
  put("post_vanilla_fuzz", "window-32gib-one-challenge.vproof", small);
  const std::vector<std::vector<uint8_t>> elements = {small, small};
  put("post_vanilla_fuzz", "vanilla-file.json", filecoin::post::vanilla_file_json(elements));
  put("proof_request_fuzz", "window-32gib", request(1, 8, 1, small));
  put("proof_request_fuzz", "window-32gib-two", request(1, 8, 2, cat(small, small)));
  put("proof_request_fuzz", "winning-32gib", request(2, 3, 1, small));

  // The one PartitionProof of a 2 KiB SnapDeals update (a sector sealed and updated in memory);
  // the request's 32 bytes stand for all three commitments, which check() does not relate to it.
  filecoin::porep::seal_request_t seal;
  seal.config = must(
      filecoin::porep::porep_config(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1),
      "cfg");
  seal.prover_id = filecoin::porep::prover_id_from_actor(1000);
  seal.sector_id = 9;
  seal.ticket.fill(9);
  const std::vector<uint8_t> data(2032, 0x5a);
  const auto key = must(filecoin::porep::seal_sector(seal, data), "seal");
  const auto update = must(
      filecoin::snap::update_config(filecoin::snap::registered_update_proof::stacked_drg_2kib_v1),
      "update config");
  const auto updated = must(filecoin::snap::encode_update(update, key, data), "snap encode");
  put("proof_request_fuzz", "snap-2kib",
      request(3,
              uint8_t(filecoin::snap::id_of(
                  filecoin::snap::registered_update_proof::stacked_drg_2kib_v1)),
              1, filecoin::snap::prove_all_partitions(updated).at(0)));

  // parameters.json: the official file, and two entries of it.
  const std::string pj = must(
      read_text_file_bounded((fixtures / "parameters.json").string(), 1 << 20), "parameters.json");
  put("parameters_json_fuzz", "parameters.json", pj);
  const size_t second = pj.find("\"v28-", pj.find("\"v28-") + 1);
  const size_t third = pj.find("\"v28-", second + 1);
  if (second == std::string::npos || third == std::string::npos) {
    std::fprintf(stderr, "parameters.json: unexpected layout\n");
    std::exit(1);
  }
  std::string two = pj.substr(0, third);
  two.erase(two.find_last_of(','));
  put("parameters_json_fuzz", "two-entries.json", two + "\n}\n");

  // A real 32 GiB WindowPoSt Groth16 proof (rust-filecoin-proofs-api's test vector).
  std::ifstream vf(fixtures / "window_post_32g_vector.json");
  const std::string vec((std::istreambuf_iterator<char>(vf)), std::istreambuf_iterator<char>());
  const size_t at = vec.find("\"proof_hex\": \"");
  if (at == std::string::npos) {
    std::fprintf(stderr, "window_post_32g_vector.json: no proof_hex\n");
    std::exit(1);
  }
  const size_t begin = at + 14;
  put("proof_fuzz", "window-post-32gib.proof",
      must(from_hex(vec.substr(begin, vec.find('"', begin) - begin)), "proof_hex"));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <fuzz/corpus> <shared/fixtures/filecoin>\n", argv[0]);
    return 2;
  }
  g_out = argv[1];
  thread_pool pool(2);
  points();
  groth16_files(pool);
  filecoin_files(argv[2]);
  return 0;
}
