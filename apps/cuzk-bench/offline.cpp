// SPDX-License-Identifier: Apache-2.0
// cuzk-bench's offline subcommands (no daemon; docs/spec/wire.md §9):
//   gen-vanilla porep        seals a small sector with random data and writes its C1 in Curio's
//                            wrapper form (the input of `single`/`batch`);
//   gen-vanilla window-post|winning-post
//                            the vanilla proofs of sectors sealed by `cuzk porep seal`, as the
//                            JSON array of base64 Curio sends (--synthetic: of never-sealed
//                            sectors of any size, a full 32 GiB partition included);
//   gen-vanilla snap-prove   seals a small sector key, encodes random new data into it and writes
//                            what Curio sends as a SNAP_DEALS_UPDATE: its snap-vproof.json (the
//                            JSON array of base64 bincode PartitionProofs, one per partition)
//                            and, beside it, the three commitments (snap-commitments.json)
//                            (--synthetic: a never-written update of any size);
//   synth-only               times the StackedCircuit synthesis of a C1's partitions.
#include "offline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/synthetic.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "filecoin/snap/synthetic.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "sectors.hpp"

namespace cuzk::bench {
namespace {

int usage(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  return 2;
}

int write_out(const std::string& path, std::string_view text, const char* what) {
  if (status s = write_file_atomic(path, text); !s) {
    std::fprintf(stderr, "error: %s: %s\n", path.c_str(), s.to_string().c_str());
    return 1;
  }
  std::printf("%s -> %s\n", what, path.c_str());
  return 0;
}

std::string commitments_path(const gen_vanilla_args& a, const std::string& out) {
  return a.commitments_out.empty()
             ? (std::filesystem::path(out).parent_path() / "snap-commitments.json").string()
             : a.commitments_out;
}

int gen_snap_synthetic(const gen_vanilla_args& a, filecoin::snap::registered_update_proof proof,
                       const filecoin::snap::update_config_t& cfg) {
  const auto t0 = std::chrono::steady_clock::now();
  auto u = filecoin::snap::generate_synthetic_update(cfg, a.seed);
  if (!u) {
    std::fprintf(stderr, "error: %s\n", u.error().to_string().c_str());
    return 1;
  }
  const std::string comms = filecoin::snap::commitments_json(u->commitments);
  std::printf(
      "%s synthetic (seed %llu): %u partition(s), blocks of 2^%u nodes, %zu Poseidon + %zu "
      "SHA-256 nodes in %.2f s: %s\n",
      std::string(filecoin::snap::name_of(proof)).c_str(), (unsigned long long)a.seed,
      cfg.partitions, u->block_bits, u->poseidon_hashes, u->sha256_hashes,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), comms.c_str());
  const std::string out = a.out.empty() ? "snap-vanilla.json" : a.out;
  if (int rc = write_out(out, filecoin::post::vanilla_file_json(u->partition_proofs),
                         "vanilla partition proofs (Curio's snap-vproof.json)");
      rc != 0)
    return rc;
  return write_out(commitments_path(a, out), comms, "commitments");
}

int gen_snap_prove(const gen_vanilla_args& a) {
  auto proof = filecoin::snap::parse_registered_update_proof(
      a.registered_proof.empty() ? "0" : a.registered_proof);
  if (!proof) return usage("--registered-proof: " + proof.error().message());
  auto cfg = filecoin::snap::update_config(*proof);
  if (!cfg) return usage(cfg.error().message());
  if (a.synthetic) return gen_snap_synthetic(a, *proof, *cfg);
  if (cfg->sector_bytes > (uint64_t(8) << 20))
    return usage(
        "gen-vanilla snap-prove seals in memory: 2KiB or 8MiB sectors only (--synthetic: any "
        "size)");
  auto updated = update_random_sector(*cfg, a.miner_id, a.sector_number, a.seed);
  if (!updated) {
    std::fprintf(stderr, "error: %s\n", updated.error().to_string().c_str());
    return 1;
  }
  const std::string out = a.out.empty() ? "snap-vanilla.json" : a.out;
  const std::string comms_out = commitments_path(a, out);
  const std::string comms =
      filecoin::snap::commitments_json(filecoin::snap::commitments_of(*updated));
  std::printf("%s (%u partition(s)), miner %llu, sector %llu: %s\n",
              std::string(filecoin::snap::name_of(*proof)).c_str(), cfg->partitions,
              (unsigned long long)a.miner_id, (unsigned long long)a.sector_number, comms.c_str());
  if (int rc = write_out(
          out, filecoin::post::vanilla_file_json(filecoin::snap::prove_all_partitions(*updated)),
          "vanilla partition proofs (Curio's snap-vproof.json)");
      rc != 0)
    return rc;
  return write_out(comms_out, comms, "commitments");
}

}  // namespace

int run_gen_vanilla(const gen_vanilla_args& a) {
  if (a.type == "snap-prove") return gen_snap_prove(a);
  if (a.type == "porep") {
    if (a.synthetic) return usage("gen-vanilla porep: use `cuzk porep gen-vanilla --synthetic`");
    auto proof = filecoin::porep::parse_registered_seal_proof(
        a.registered_proof.empty() ? "StackedDrg2KiBV1_1" : a.registered_proof);
    if (!proof) return usage("--registered-proof: " + proof.error().message());
    auto cfg = filecoin::porep::porep_config(*proof);
    if (!cfg || cfg->sector.sector_bytes > (uint64_t(8) << 20))
      return usage("gen-vanilla porep seals in memory: 2KiB or 8MiB sectors only");
    auto sealed = seal_random_sectors(*cfg, 1, a.seed);
    if (!sealed) {
      std::fprintf(stderr, "error: %s\n", sealed.error().to_string().c_str());
      return 1;
    }
    const sealed_c1& s = sealed->front();
    std::printf("miner %llu, sector %llu\n", (unsigned long long)s.miner,
                (unsigned long long)s.sector);
    return write_out(a.out.empty() ? "c1.json" : a.out, s.wrapper, "C1 (Curio's wrapper)");
  }
  const bool window = a.type == "window-post";
  if (!window && a.type != "winning-post")
    return usage("gen-vanilla: porep, window-post, winning-post or snap-prove, not " + a.type);
  auto proof = filecoin::post::parse_registered_post_proof(
      a.registered_proof.empty() ? (window ? "13" : "3") : a.registered_proof);
  if (!proof) return usage("--registered-proof: " + proof.error().message());
  auto cfg = filecoin::post::post_config(*proof);
  if (!cfg) return usage(cfg.error().message());
  if ((cfg->kind == filecoin::post::post_kind::window) != window)
    return usage("--registered-proof " + std::string(filecoin::post::name_of(*proof)) +
                 " is not a " + a.type + " proof");
  auto randomness = parse_hex32(a.randomness_hex);
  if (!randomness) return usage("--randomness: " + randomness.error().message());
  const std::string out =
      a.out.empty() ? (window ? "wpost-vanilla.json" : "winning-vanilla.json") : a.out;
  if (a.synthetic) {
    const auto t0 = std::chrono::steady_clock::now();
    size_t hashes = 0;
    auto v = filecoin::post::generate_synthetic_post(
        {*cfg, *randomness, a.sector_number, a.sectors, a.partition, a.seed},
        thread_pool::default_pool(), &hashes);
    if (!v) {
      std::fprintf(stderr, "error: %s\n", v.error().to_string().c_str());
      return v.error().code() == status_code::invalid_argument ||
                     v.error().code() == status_code::non_canonical
                 ? 2
                 : 1;
    }
    std::vector<std::vector<uint8_t>> elements;
    for (const auto& p : *v) elements.push_back(filecoin::post::serialize_fallback_sector_proof(p));
    std::printf(
        "%s synthetic (seed %llu): partition %u, sectors %llu..%llu, %zu Poseidon nodes "
        "in %.2f s\n",
        std::string(filecoin::post::name_of(*proof)).c_str(), (unsigned long long)a.seed,
        a.partition, (unsigned long long)a.sector_number,
        (unsigned long long)(a.sector_number + v->size() - 1), hashes,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return write_out(out, filecoin::post::vanilla_file_json(elements), "vanilla proofs");
  }
  if (a.sectors != 0) return usage("--sectors: with --synthetic only");
  if (a.cache.empty()) return usage("--cache: the sector directory of `cuzk porep seal`");
  const std::vector<std::string> dirs = {a.cache};
  const std::vector<uint64_t> ids = {a.sector_number};
  auto elements =
      filecoin::post::vanilla_proofs_of_sector_dirs(*cfg, dirs, ids, *randomness, a.partition);
  if (!elements) {
    std::fprintf(stderr, "error: %s\n", elements.error().to_string().c_str());
    return elements.error().code() == status_code::io_error ? 1 : 2;
  }
  return write_out(out, filecoin::post::vanilla_file_json(*elements), "vanilla proofs");
}

namespace {

// The compiled plan's build, then a, b, c of the last synthesized witness evaluated from it on
// the CPU (what the engine's CPU prover does; the GPU evaluates on the device instead).
int time_abc_plan(const filecoin::porep::porep_config_t& cfg, const r1cs::witness_cs& w,
                  thread_pool& pool) {
  const auto t0 = std::chrono::steady_clock::now();
  auto plan = filecoin::circuits::stacked_abc_plan(
      cfg.layers(), cfg.sector.tree_d, cfg.sector.tree_r, cfg.challenges_per_partition());
  if (!plan) {
    std::fprintf(stderr, "error: the a, b, c plan: %s\n", plan.error().to_string().c_str());
    return 1;
  }
  const auto t1 = std::chrono::steady_clock::now();
  std::printf("a, b, c plan built in %.3f s: %s\n", std::chrono::duration<double>(t1 - t0).count(),
              plan->size().to_string().c_str());
  const size_t rows = plan->num_rows();
  r1cs::proving_cs::fr_vector a(rows), b(rows), c(rows);
  for (int it = 0; it < 2; ++it) {  // the first pass also faults the pages in
    const auto t2 = std::chrono::steady_clock::now();
    if (status s = plan->evaluate(w.inputs(), w.aux(), a, b, c, pool); !s) {
      std::fprintf(stderr, "error: evaluating the plan: %s\n", s.to_string().c_str());
      return 1;
    }
    std::printf("a, b, c of %zu rows evaluated on %u thread(s) in %.3f s%s\n", rows, pool.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t2).count(),
                it == 0 ? " (fresh pages)" : "");
  }
  return 0;
}

}  // namespace

int run_synth_only(const synth_only_args& a) {
  auto bytes = read_file_bounded(a.c1, uint64_t(512) << 20);
  if (!bytes) return usage("--c1 " + a.c1 + ": " + bytes.error().to_string());
  auto c1 = filecoin::porep::parse_c1_any(*bytes);
  if (!c1) return usage("--c1 " + a.c1 + ": " + c1.error().to_string());
  auto proof = filecoin::porep::parse_registered_seal_proof(c1->registered_proof);
  if (!proof) return usage(proof.error().message());
  auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) return usage(cfg.error().message());
  const unsigned partitions = cfg->partitions();
  if (a.partition >= 0 && unsigned(a.partition) >= partitions)
    return usage("--partition " + std::to_string(a.partition) + ": the C1 has " +
                 std::to_string(partitions));
  const auto counts = filecoin::circuits::stacked_circuit_counts(
      cfg->layers(), cfg->sector.tree_d, cfg->sector.tree_r, cfg->challenges_per_partition());
  r1cs::proving_cs cs;  // one buffer, recycled as the engine does
  r1cs::witness_cs wcs;
  thread_pool pool(a.threads);
  std::printf("%s on %u thread(s)%s\n", a.witness ? "witness synthesis" : "synthesis", pool.size(),
              pool.size() == 1 && !a.witness ? " (sequential)" : " (challenges in parallel)");
  std::vector<double> walls;
  for (unsigned it = 0; it < std::max(1u, a.iterations); ++it) {
    const auto t0 = std::chrono::steady_clock::now();
    unsigned circuits = 0;
    size_t constraints = 0;
    for (unsigned k = 0; k < partitions; ++k) {
      if (a.partition >= 0 && unsigned(a.partition) != k) continue;
      auto circuit = filecoin::circuits::stacked_circuit_from_c1(*cfg, *c1, k);
      if (!circuit) {
        std::fprintf(stderr, "error: partition %u: %s\n", k, circuit.error().to_string().c_str());
        return 1;
      }
      if (a.witness) {
        wcs.reset();
        wcs.reserve(counts.constraints, counts.constraints + counts.constraints / 256,
                    counts.inputs);
        if (status s = filecoin::circuits::synthesize_stacked_circuit_parallel(wcs, *circuit, pool);
            !s) {
          std::fprintf(stderr, "error: partition %u: %s\n", k, s.to_string().c_str());
          return 1;
        }
        ++circuits;
        constraints += wcs.num_constraints();
        continue;
      }
      cs.reset();
      cs.reserve(counts.constraints, counts.constraints + counts.constraints / 256, counts.inputs);
      if (pool.size() == 1) {
        filecoin::circuits::synthesize_stacked_circuit(cs, *circuit);
      } else if (status s =
                     filecoin::circuits::synthesize_stacked_circuit_parallel(cs, *circuit, pool);
                 !s) {
        std::fprintf(stderr, "error: partition %u: %s\n", k, s.to_string().c_str());
        return 1;
      }
      cs.finalize();
      ++circuits;
      constraints += cs.num_constraints();
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    walls.push_back(wall);
    std::printf("iteration %u: %u circuit(s), %zu constraints, synthesis %.3f s\n", it + 1,
                circuits, constraints, wall);
  }
  double sum = 0;
  for (double w : walls) sum += w;
  std::printf("synthesis avg %.3f s, min %.3f s over %zu iteration(s)\n",
              sum / double(walls.size()), *std::min_element(walls.begin(), walls.end()),
              walls.size());
  return a.witness ? time_abc_plan(*cfg, wcs, pool) : 0;
}

}  // namespace cuzk::bench
