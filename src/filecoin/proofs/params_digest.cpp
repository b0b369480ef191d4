// SPDX-License-Identifier: Apache-2.0
// Parameter-file digests: chunked BLAKE2b-512 of files, parameters.json parsing, the built-in
// PoRep facts and directory checks (params_digest.hpp).
#include "filecoin/proofs/params_digest.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "base/json_reader.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "hash/blake2b.hpp"

namespace cuzk::filecoin::proofs {
namespace {

constexpr size_t DIGEST_HEX = 32;
/// parameters.json is ~20 KB (one entry per official file); a file this large is not one.
constexpr uint64_t MAX_PARAMETERS_JSON_BYTES = uint64_t(16) << 20;

// From shared/fixtures/filecoin/parameters.json (the official v28 parameters of
// rust-fil-proofs), the "stacked-proof-of-replication" entries.
const param_fact_t POREP_FACTS[] = {
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params",
     "434fb1338ecfaf0f59256f30dde4968f", 2048},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk",
     "dc1ade9929ade1708238f155343044ac", 2048},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params",
     "6c77597eb91ab936c1cef4cf19eba1b3", 536870912},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.vk",
     "065179da19fbe515507267677f02823e", 536870912},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params",
     "09e612e4eeb7a0eb95679a88404f960c", 8388608},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.vk",
     "b687beb9adbd9dabe265a7e3620813e4", 8388608},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
     "6a388072a518cf46ebd661f5cc46900a", 34359738368ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk",
     "0c7b4aac1c40fdb7eb82bc355b41addf", 34359738368ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params",
     "1801f8a6e1b00bceb00cc27314bb5ce3", 68719476736ull},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.vk",
     "a89884252c04c298d0b3c81bfd884164", 68719476736ull},
};

// The "proof-of-spacetime-fallback" entries of the same file (WindowPoSt and WinningPoSt; Window
// V1 and V1_1 share their files).
const param_fact_t POST_FACTS[] = {
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params",
     "7610b9f82bfc88405b7a832b651ce2f6", 2048},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk",
     "0e0958009936b9d5e515ec97b8cb792d", 2048},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params",
     "1a7d4a9c8a502a497ed92a54366af33f", 536870912},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.vk",
     "4dae975de4f011f101f5a2f86d1daaba", 536870912},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params",
     "82c88066be968bb550a05e30ff6c2413", 2048},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk",
     "ffd79788d614d27919ae5bd2d94eacb6", 2048},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params",
     "700171ecf7334e3199437c930676af82", 8388608},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.vk",
     "79ebb55f56fda427743e35053edad8fc", 8388608},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.params",
     "c49499bb76a0762884896f9683403f55", 8388608},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.vk",
     "34d4feeacd9abf788d69ef1bb4d8fd00", 8388608},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.params",
     "827359440349fe8f5a016e7598993b79", 536870912},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.vk",
     "bd2cd62f65c1ab84f19ca27e97b7c731", 536870912},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
     "2cf49eb26f1fee94c85781a390ddb4c8", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk",
     "0f8ec542485568fa3468c066e9fed82b", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params",
     "d84f79a16fe40e9e25a36e2107bb1ba0", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.vk",
     "fc02943678dd119e69e7fab8420e8819", 34359738368ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params",
     "3810b7780ac0e299b22ae70f1f94c9bc", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.vk",
     "59d2bf1857adc59a4f08fcf2afaa916b", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params",
     "2170a91ad5bae22ea61f2ea766630322", 68719476736ull},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.vk",
     "6d3789148fb6466d07ee1e24d6292fd6", 68719476736ull},
};

bool is_hex_digest(std::string_view s) {
  return s.size() == DIGEST_HEX && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

const param_fact_t* find_fact(std::span<const param_fact_t> facts, std::string_view name) {
  for (const auto& f : facts)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

std::span<const param_fact_t> builtin_porep_facts() {
  return POREP_FACTS;
}

std::span<const param_fact_t> builtin_post_facts() {
  return POST_FACTS;
}

std::vector<param_fact_t> builtin_param_facts() {
  std::vector<param_fact_t> all(std::begin(POREP_FACTS), std::end(POREP_FACTS));
  all.insert(all.end(), std::begin(POST_FACTS), std::end(POST_FACTS));
  return all;
}

result<std::vector<param_fact_t>> parse_parameters_json(std::string_view text) {
  json::reader r(text);
  const json::path_t root{};
  std::vector<param_fact_t> out;
  const bool ok = r.object(&root, [&](std::string_view name, const json::path_t* kp) {
    param_fact_t f;
    f.name = std::string(name);
    uint32_t seen = 0;
    const bool entry_ok = r.object(kp, [&](std::string_view key, const json::path_t* fp) {
      if (key == "digest") {
        std::string_view d;
        if (!r.mark(fp, seen, 0) || !r.read_string(fp, d)) return false;
        if (!is_hex_digest(d)) return r.fail(fp, "expected 32 lowercase hex chars", false);
        f.digest = std::string(d);
        return true;
      }
      if (key == "sector_size") {
        return r.mark(fp, seen, 1) && r.read_uint(fp, f.sector_size, UINT64_MAX);
      }
      return r.skip_value(fp);
    });
    if (!entry_ok) return false;
    if (!r.require(kp, seen, std::array<const char*, 2>{"digest", "sector_size"})) return false;
    out.push_back(std::move(f));
    return true;
  });
  if (!ok) return r.error();
  if (!r.at_end()) {
    return status(status_code::bad_encoding, "parameters.json: trailing bytes after the object");
  }
  return out;
}

result<std::vector<param_fact_t>> read_parameters_json(const std::string& path) {
  auto text = read_text_file_bounded(path, MAX_PARAMETERS_JSON_BYTES);
  if (!text) return text.error();
  auto facts = parse_parameters_json(*text);
  if (!facts) return status(facts.error().code(), path + ": " + facts.error().message());
  return facts;
}

result<std::string> blake2b512_file_hex(const std::string& path) {
  // Streamed (parameter files are tens of GB), so no size limit; but /dev/zero would never end.
  if (status s = require_regular_file(path); !s) return s;
  std::ifstream f(path, std::ios::binary);
  if (!f) return status(status_code::io_error, "cannot read " + path);
  constexpr size_t CHUNK = size_t(1) << 20;
  const auto buf = std::make_unique<char[]>(CHUNK);
  cuzk::hash::blake2b h(64);
  while (f) {
    f.read(buf.get(), std::streamsize(CHUNK));
    const std::streamsize n = f.gcount();
    if (n > 0) h.update(buf.get(), size_t(n));
  }
  if (f.bad()) return status(status_code::io_error, "read error in " + path);
  std::array<uint8_t, 64> d;
  h.finalize(d.data());
  return to_hex(d);
}

const char* name_of(digest_verdict v) {
  switch (v) {
    case digest_verdict::ok:
      return "ok";
    case digest_verdict::mismatch:
      return "MISMATCH";
    case digest_verdict::unknown:
      return "unknown";
  }
  return "?";
}

result<digest_check_t> check_param_file(const std::string& path,
                                        std::span<const param_fact_t> facts) {
  digest_check_t c;
  c.path = path;
  c.name = std::filesystem::path(path).filename().string();
  auto hex = blake2b512_file_hex(path);
  if (!hex) return hex.error();
  c.actual = hex->substr(0, DIGEST_HEX);
  if (const param_fact_t* f = find_fact(facts, c.name)) {
    c.expected = f->digest;
    c.verdict = c.actual == c.expected ? digest_verdict::ok : digest_verdict::mismatch;
  }
  return c;
}

namespace {

// The present files of `paths`, checked in order.
result<std::vector<digest_check_t>> check_present(std::initializer_list<std::string> paths,
                                                  std::span<const param_fact_t> facts) {
  std::vector<digest_check_t> out;
  std::error_code ec;
  for (const auto& p : paths) {
    if (!std::filesystem::is_regular_file(p, ec)) continue;
    auto c = check_param_file(p, facts);
    if (!c) return c.error();
    out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace

result<std::vector<digest_check_t>> check_params_dir(const std::string& dir,
                                                     std::span<const param_fact_t> facts,
                                                     post::registered_post_proof proof) {
  auto cfg = post::post_config(proof);
  if (!cfg) return cfg.error();
  return check_present({post_params_path(*cfg, dir), post_vk_path(*cfg, dir)}, facts);
}

result<std::vector<digest_check_t>> check_params_dir(
    const std::string& dir, std::span<const param_fact_t> facts,
    std::optional<porep::registered_seal_proof> proof) {
  // std::filesystem calls take an error_code throughout: the throwing forms would turn an
  // unreadable directory entry into an exception instead of a status.
  std::vector<std::string> paths;
  std::error_code ec;
  if (proof) {
    auto cfg = porep::porep_config(*proof);
    if (!cfg) return cfg.error();
    return check_present({porep_params_path(*cfg, dir), porep_vk_path(*cfg, dir)}, facts);
  }
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return status(status_code::io_error, "cannot list " + dir + ": " + ec.message());
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const auto& e = *it;
    if (!e.is_regular_file(ec)) continue;
    const std::string name = e.path().filename().string();
    const auto ext = e.path().extension();
    if (find_fact(facts, name) || ext == ".params" || ext == ".vk")
      paths.push_back(e.path().string());
  }
  // increment() ends the loop on error and leaves the reason in ec.
  if (ec) return status(status_code::io_error, "cannot list " + dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  std::vector<digest_check_t> out;
  for (const auto& p : paths) {
    auto c = check_param_file(p, facts);
    if (!c) return c.error();
    out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace cuzk::filecoin::proofs
