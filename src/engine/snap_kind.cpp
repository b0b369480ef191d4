// SPDX-License-Identifier: Apache-2.0
// SnapDeals (EmptySectorUpdate) as an engine proof kind (proof_kind.hpp), decoding the request
// exactly as Curio sends it (docs/spec/wire.md §3 and §4): vanilla_proofs[k] is the
// bincode PartitionProof of partition k (one per partition, in order: Curio's snap-vproof.json
// decoded to [][]byte), comm_r_old / comm_r_new / comm_d_new the raw 32-byte commitments (canonical
// field elements), registered_proof the RegisteredUpdateProof number (0..4, 3 = 32 GiB).
// sector_size, sector_number and miner_id do not enter the proof (PSProve sends no sector_size).
// check() refuses malformed input at submit, sizes checked before anything is parsed; prepare()
// validates every vanilla proof (naming the partition and challenge), and partition k is the
// EmptySectorUpdate circuit of the k-th PartitionProof. The daemon and `cuzk prove snap` both prove
// through it. The engine's batch self-verification of every partition proof is what makes the
// result safe to hand back: Curio stores a Snap proof without verifying it (docs/spec/wire.md §5).
#include <string>
#include <tuple>
#include <utility>

#include "engine/proof_kind.hpp"
#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/vanilla_proof.hpp"
#include "filecoin/snap/vanilla_prove.hpp"

namespace cuzk::engine {
namespace {

// "snap-32g": one parameter set per sector size (the Rust cuzk's circuit ids).
std::string snap_circuit_id(const filecoin::snap::update_config_t& cfg) {
  return "snap-" + circuit_size_tag(cfg.sector_bytes);
}

struct decoded_snap {
  filecoin::snap::update_config_t cfg;
  filecoin::snap::update_commitments_t comms;
  std::vector<filecoin::snap::partition_proof_t> partitions;
  uint64_t input_bytes = 0;
};

class snap_prepared final : public prepared_proof {
 public:
  snap_prepared(decoded_snap d, const std::string& param_dir)
      : d_(std::move(d)),
        params_{snap_circuit_id(d_.cfg), filecoin::proofs::update_params_path(d_.cfg, param_dir)} {
    const filecoin::circuits::update_counts_t counts =
        filecoin::circuits::empty_sector_update_circuit_counts(d_.cfg);
    // Aux stays below the constraint count at every size (docs/spec/snap.md §7: 32 GiB 80,978,488
    // aux for 81,049,499 constraints), so the buffer never grows mid-synthesis.
    shape_ = {counts.constraints, counts.constraints, counts.inputs};
  }

  unsigned partitions() const override { return d_.cfg.partitions; }
  const circuit_params& circuit() const override { return params_; }
  synthesis_shape shape() const override { return shape_; }

  // The circuit is built here rather than in prepare(): a 32 GiB update holds 16 of them, each
  // about the size of its vanilla proof, and only the partitions being synthesized need theirs.
  status synthesize(unsigned k, r1cs::proving_cs& cs, thread_pool& pool) const override {
    return synthesize_into(k, cs, pool);
  }
  status synthesize_witness(unsigned k, r1cs::witness_cs& cs, thread_pool& pool) const override {
    return synthesize_into(k, cs, pool);
  }
  result<r1cs::abc_plan> compile_plan() const override {
    return filecoin::circuits::empty_sector_update_abc_plan(d_.cfg);
  }

  result<std::vector<ff::fr_t>> public_inputs(unsigned k) const override {
    return filecoin::circuits::empty_sector_update_public_inputs(d_.cfg, d_.comms, k);
  }

  std::string inconsistent_input() const override { return "the vanilla proofs are inconsistent"; }

  // The decoded PartitionProofs hold the same 32-byte values as their bincode.
  uint64_t host_bytes() const override { return d_.input_bytes; }

 private:
  template <class CS>
  status synthesize_into(unsigned k, CS& cs, thread_pool& pool) const {
    if (k >= d_.partitions.size()) {
      return status(status_code::invalid_argument, "partition " + std::to_string(k) + " of " +
                                                       std::to_string(d_.partitions.size()));
    }
    auto circuit = filecoin::circuits::empty_sector_update_circuit_from_vanilla(d_.cfg, d_.comms, k,
                                                                                d_.partitions[k]);
    if (!circuit) {
      return status(status_code::invalid_argument,
                    "vanilla proof unfit for the circuit: " + circuit.error().to_string());
    }
    return filecoin::circuits::synthesize_empty_sector_update_circuit_parallel(cs, *circuit, pool);
  }

  decoded_snap d_;
  circuit_params params_;
  synthesis_shape shape_;
};

class snap_kind final : public decoding_handler<decoded_snap> {
 public:
  using decoding_handler::decoding_handler;
  proof_kind kind() const override { return proof_kind::snap_deals_update; }
  priority default_priority() const override { return priority::normal; }

  // Everything but the vanilla proofs' contents: malformed input is refused at submit, and
  // decoded again by prepare on a worker.
  result<decoded_snap> decode(const proof_request& req) const override {
    const std::string what(to_string(proof_kind::snap_deals_update));
    auto p = filecoin::snap::registered_update_proof_from_id(req.registered_proof);
    if (!p) {
      return status(status_code::invalid_argument,
                    what + ": registered_proof: " + p.error().message());
    }
    auto cfg = filecoin::snap::update_config(*p);
    if (!cfg) return status(status_code::invalid_argument, what + ": " + cfg.error().message());
    decoded_snap d;
    d.cfg = *cfg;
    for (const auto& [bytes, field, out] :
         {std::tuple{&req.comm_r_old, "comm_r_old", &d.comms.comm_r_old},
          std::tuple{&req.comm_r_new, "comm_r_new", &d.comms.comm_r_new},
          std::tuple{&req.comm_d_new, "comm_d_new", &d.comms.comm_d_new}}) {
      auto c = request_bytes32(*bytes, what, field);
      if (!c) return c.error();
      *out = *c;
    }
    // The public inputs of any partition convert the three commitments: non-canonical ones
    // (≥ r) are named here.
    if (auto inputs = filecoin::circuits::empty_sector_update_public_inputs(d.cfg, d.comms, 0);
        !inputs)
      return status(status_code::invalid_argument, what + ": " + inputs.error().message());

    const std::string proof_name(filecoin::snap::name_of(*p));
    const size_t n = req.vanilla_proofs.size();
    if (n != d.cfg.partitions) {
      return status(status_code::invalid_argument,
                    what + ": " + std::to_string(n) + " vanilla proofs, " + proof_name + " has " +
                        std::to_string(d.cfg.partitions) + " partitions");
    }
    // Every PartitionProof of a size has the same length: a wrong one is refused before it is
    // parsed.
    const size_t expected = filecoin::snap::partition_proof_bytes(d.cfg);
    for (size_t k = 0; k < n; ++k) {
      if (req.vanilla_proofs[k].size() != expected) {
        return status(status_code::invalid_argument,
                      what + ": vanilla_proofs[" + std::to_string(k) + "] has " +
                          std::to_string(req.vanilla_proofs[k].size()) + " bytes, a " + proof_name +
                          " PartitionProof has " + std::to_string(expected));
      }
      d.input_bytes += expected;
    }
    auto parts = filecoin::snap::parse_partition_proofs(req.vanilla_proofs);
    if (!parts) return status(status_code::invalid_argument, what + ": " + parts.error().message());
    for (size_t k = 0; k < n; ++k) {
      if (status s = filecoin::snap::check_partition_proof_shape(d.cfg, (*parts)[k]); !s) {
        return status(status_code::invalid_argument,
                      what + ": vanilla_proofs[" + std::to_string(k) + "]: " + s.message());
      }
    }
    d.partitions = std::move(*parts);
    return d;
  }

  status check_vanilla(const decoded_snap& d, thread_pool& pool) const override {
    if (status s = filecoin::snap::validate_partition_proofs(d.cfg, d.comms, d.partitions, pool);
        !s) {
      return status(status_code::invalid_argument,
                    "the vanilla proofs do not verify: " + s.to_string());
    }
    return status();
  }

  result<std::unique_ptr<prepared_proof>> make_prepared(
      decoded_snap d, const proof_request&, const std::string& param_dir) const override {
    return std::unique_ptr<prepared_proof>(new snap_prepared(std::move(d), param_dir));
  }

  std::optional<circuit_params> circuit_by_id(const std::string& id,
                                              const std::string& param_dir) const override {
    return find_circuit(id, filecoin::snap::NUM_REGISTERED_UPDATE_PROOFS,
                        [&](uint32_t n) -> std::optional<circuit_params> {
                          auto p = filecoin::snap::registered_update_proof_from_id(n);
                          if (!p) return std::nullopt;
                          auto cfg = filecoin::snap::update_config(*p);
                          if (!cfg) return std::nullopt;
                          return circuit_params{
                              snap_circuit_id(*cfg),
                              filecoin::proofs::update_params_path(*cfg, param_dir)};
                        });
  }
};

}  // namespace

std::shared_ptr<const proof_kind_handler> snap_update_handler(kind_options opt) {
  return std::make_shared<snap_kind>(opt);
}

}  // namespace cuzk::engine
