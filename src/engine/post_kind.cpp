// SPDX-License-Identifier: Apache-2.0
// WindowPoSt and WinningPoSt as engine proof kinds (proof_kind.hpp), decoding the request exactly
// as Curio sends it (docs/spec/wire.md §3): vanilla_proofs[i] is one bincode
// FallbackPoStSectorProof per sector (window: the partition's proved sectors in ascending order,
// skipped ones compacted out; winning: the one challenged sector), randomness the 32 bytes of a
// field element, registered_proof the Go RegisteredPoStProof number (window 5..14, 10..14 the
// "V1_1" types = Rust V1_2; winning 0..4), partition_index the window partition. miner_id does not
// enter the proof. check() refuses malformed input at submit; prepare() validates every vanilla
// proof (naming the sector and challenge) and builds the one-partition circuit. The daemon and
// `cuzk prove window-post|winning-post` both prove through it.
#include <utility>

#include "engine/proof_kind.hpp"
#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/post/challenges.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/partition.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/post_prover.hpp"

namespace cuzk::engine {
namespace {

// "wpost-32g" / "winning-32g": one parameter set per kind and size (Window V1 and V1_1 share).
std::string post_circuit_id(const filecoin::post::post_config_t& cfg) {
  return (cfg.kind == filecoin::post::post_kind::window ? "wpost-" : "winning-") +
         circuit_size_tag(cfg.sector_bytes);
}

class post_prepared final : public prepared_proof {
 public:
  post_prepared(const filecoin::post::post_config_t& cfg,
                filecoin::circuits::fallback_post_circuit_t circuit, std::vector<ff::fr_t> inputs,
                const std::string& param_dir, uint64_t input_bytes)
      : cfg_(cfg),
        circuit_(std::move(circuit)),
        inputs_(std::move(inputs)),
        params_{post_circuit_id(cfg), filecoin::proofs::post_params_path(cfg, param_dir)},
        input_bytes_(input_bytes) {
    const filecoin::circuits::fallback_post_counts_t counts =
        filecoin::circuits::fallback_post_circuit_counts(cfg);
    shape_ = {counts.constraints, counts.aux, counts.inputs};
  }

  unsigned partitions() const override { return 1; }
  const circuit_params& circuit() const override { return params_; }
  synthesis_shape shape() const override { return shape_; }

  status synthesize(unsigned k, r1cs::proving_cs& cs, thread_pool& pool) const override {
    if (k != 0) return status(status_code::invalid_argument, "a PoSt job has one partition");
    return filecoin::circuits::synthesize_fallback_post_circuit_parallel(cs, circuit_, pool);
  }
  status synthesize_witness(unsigned k, r1cs::witness_cs& cs, thread_pool& pool) const override {
    if (k != 0) return status(status_code::invalid_argument, "a PoSt job has one partition");
    return filecoin::circuits::synthesize_fallback_post_circuit_parallel(cs, circuit_, pool);
  }
  result<r1cs::abc_plan> compile_plan() const override {
    return filecoin::circuits::fallback_post_abc_plan(cfg_);
  }

  result<std::vector<ff::fr_t>> public_inputs(unsigned k) const override {
    if (k != 0) return status(status_code::invalid_argument, "a PoSt job has one partition");
    return inputs_;
  }

  std::string inconsistent_input() const override {
    return "the vanilla proofs are inconsistent with the randomness or partition";
  }

  // The circuit's witness (one field element per vanilla hash) is about the size of the vanilla
  // bytes it came from.
  uint64_t host_bytes() const override { return input_bytes_; }

 private:
  filecoin::post::post_config_t cfg_;
  filecoin::circuits::fallback_post_circuit_t circuit_;
  std::vector<ff::fr_t> inputs_;
  circuit_params params_;
  synthesis_shape shape_;
  uint64_t input_bytes_;
};

struct decoded_post {
  filecoin::post::post_config_t cfg;
  std::vector<filecoin::post::fallback_sector_proof_t> vanilla;
  filecoin::post::bytes32_t randomness{};
  unsigned partition = 0;
  uint64_t input_bytes = 0;
};

class post_kind final : public decoding_handler<decoded_post> {
 public:
  post_kind(filecoin::post::post_kind which, kind_options opt)
      : decoding_handler(opt), which_(which) {}

  proof_kind kind() const override {
    return which_ == filecoin::post::post_kind::window ? proof_kind::window_post_partition
                                                       : proof_kind::winning_post;
  }
  priority default_priority() const override {
    return which_ == filecoin::post::post_kind::window ? priority::high : priority::critical;
  }

  // Everything but the vanilla proofs' contents: malformed input is refused at submit, and
  // decoded again by prepare on a worker.
  result<decoded_post> decode(const proof_request& req) const override {
    const std::string what(filecoin::post::to_string(which_));
    auto p = filecoin::post::registered_post_proof_from_id(req.registered_proof);
    if (!p) {
      return status(status_code::invalid_argument,
                    what + ": registered_proof: " + p.error().message());
    }
    if (filecoin::post::kind_of(*p) != which_) {
      return status(status_code::invalid_argument,
                    what + ": registered_proof " + std::to_string(req.registered_proof) + " (" +
                        std::string(filecoin::post::name_of(*p)) + ") is a " +
                        std::string(filecoin::post::to_string(filecoin::post::kind_of(*p))) +
                        " proof");
    }
    auto cfg = filecoin::post::post_config(*p);
    if (!cfg) return status(status_code::invalid_argument, what + ": " + cfg.error().message());
    if (which_ == filecoin::post::post_kind::winning && req.partition_index != 0) {
      return status(status_code::invalid_argument, what + ": partition_index " +
                                                       std::to_string(req.partition_index) +
                                                       ": WinningPoSt has only partition 0");
    }
    decoded_post d;
    d.cfg = *cfg;
    d.partition = req.partition_index;
    auto randomness = request_bytes32(req.randomness, what, "randomness");
    if (!randomness) return randomness.error();
    d.randomness = *randomness;
    if (status s = filecoin::post::check_safe_commitment(d.randomness, "randomness"); !s)
      return status(status_code::invalid_argument, what + ": " + s.message());
    const size_t n = req.vanilla_proofs.size();
    const size_t most = which_ == filecoin::post::post_kind::window ? cfg->sector_count : 1;
    if (n == 0 || n > most) {
      return status(status_code::invalid_argument,
                    what + ": " + std::to_string(n) + " vanilla proofs, " +
                        std::string(filecoin::post::name_of(*p)) + " takes " +
                        (most == 1 ? std::string("exactly 1") : "1.." + std::to_string(most)));
    }
    auto v = filecoin::post::parse_fallback_sector_proofs(req.vanilla_proofs);
    if (!v) return status(status_code::invalid_argument, what + ": " + v.error().message());
    d.vanilla = std::move(*v);
    for (const auto& e : req.vanilla_proofs) d.input_bytes += e.size();
    return d;
  }

  status check_vanilla(const decoded_post& d, thread_pool& pool) const override {
    if (status s =
            filecoin::post::validate_partition(d.cfg, d.vanilla, d.randomness, d.partition, pool);
        !s) {
      return status(status_code::invalid_argument,
                    "the vanilla proofs do not verify: " + s.to_string());
    }
    return status();
  }

  result<std::unique_ptr<prepared_proof>> make_prepared(
      decoded_post d, const proof_request&, const std::string& param_dir) const override {
    auto circuit = filecoin::circuits::fallback_post_circuit_from_vanilla(d.cfg, d.vanilla);
    if (!circuit) {
      return status(status_code::invalid_argument,
                    "vanilla proofs unfit for the circuit: " + circuit.error().to_string());
    }
    const auto sectors = filecoin::proofs::public_sectors_of(d.vanilla);
    auto inputs =
        filecoin::circuits::fallback_post_public_inputs(d.cfg, sectors, d.randomness, d.partition);
    if (!inputs) return status(status_code::invalid_argument, inputs.error().to_string());
    return std::unique_ptr<prepared_proof>(new post_prepared(
        d.cfg, std::move(*circuit), std::move(*inputs), param_dir, d.input_bytes));
  }

  std::optional<circuit_params> circuit_by_id(const std::string& id,
                                              const std::string& param_dir) const override {
    return find_circuit(id, filecoin::post::NUM_REGISTERED_POST_PROOFS,
                        [&](uint32_t n) -> std::optional<circuit_params> {
                          auto p = filecoin::post::registered_post_proof_from_id(n);
                          if (!p || filecoin::post::kind_of(*p) != which_) return std::nullopt;
                          auto cfg = filecoin::post::post_config(*p);
                          if (!cfg) return std::nullopt;
                          return circuit_params{
                              post_circuit_id(*cfg),
                              filecoin::proofs::post_params_path(*cfg, param_dir)};
                        });
  }

 private:
  filecoin::post::post_kind which_;
};

}  // namespace

std::shared_ptr<const proof_kind_handler> window_post_handler(kind_options opt) {
  return std::make_shared<post_kind>(filecoin::post::post_kind::window, opt);
}

std::shared_ptr<const proof_kind_handler> winning_post_handler(kind_options opt) {
  return std::make_shared<post_kind>(filecoin::post::post_kind::winning, opt);
}

}  // namespace cuzk::engine
