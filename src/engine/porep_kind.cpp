// SPDX-License-Identifier: Apache-2.0
// PoRep C2 as an engine proof kind (proof_kind.hpp): the request's vanilla_proof is the C1 in any
// of its forms (Curio's {"SectorNum","Phase1Out","SectorSize"} wrapper, the serde JSON, bincode);
// prepare() decodes it, checks the vanilla proofs natively and, unless the request says not to,
// that miner_id (or prover_id) and sector_number re-derive the C1's replica_id; partition k is the
// StackedCircuit of the C1's k-th vanilla proof set. The daemon and `cuzk prove porep` both prove
// through it.
#include <algorithm>
#include <utility>

#include "engine/proof_kind.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/proofs/porep_prover.hpp"

namespace cuzk::engine {
namespace {

// "porep-32g" for the interactive PoRep of a size, "porep-32g-ni" for non-interactive PoRep:
// the two parameter sets a sector size has (V1 and V1_1 share the interactive one).
std::string porep_circuit_id(const filecoin::porep::porep_config_t& cfg) {
  std::string id = "porep-" + circuit_size_tag(cfg.sector.sector_bytes);
  if (cfg.feature == filecoin::porep::api_feature::non_interactive_porep) id += "-ni";
  return id;
}

class porep_prepared final : public prepared_proof {
 public:
  porep_prepared(filecoin::porep::porep_config_t cfg, filecoin::porep::c1_output_t c1,
                 filecoin::porep::bytes32_t replica_id, const std::string& param_dir,
                 uint64_t input_bytes)
      : cfg_(std::move(cfg)),
        c1_(std::move(c1)),
        graph_(cfg_),
        pub_{replica_id, c1_.comm_d, c1_.comm_r, c1_.seed},
        circuit_{porep_circuit_id(cfg_), filecoin::proofs::porep_params_path(cfg_, param_dir)},
        input_bytes_(input_bytes) {
    const filecoin::circuits::stacked_counts_t counts = filecoin::circuits::stacked_circuit_counts(
        cfg_.layers(), cfg_.sector.tree_d, cfg_.sector.tree_r, cfg_.challenges_per_partition());
    // The blank counts are exact; aux stays within 0.1 % of the constraint count for every size
    // (the margin keeps a recycled buffer from ever growing mid-synthesis).
    shape_ = {counts.constraints, counts.constraints + counts.constraints / 256, counts.inputs};
  }

  unsigned partitions() const override { return cfg_.partitions(); }
  const circuit_params& circuit() const override { return circuit_; }
  synthesis_shape shape() const override { return shape_; }

  status synthesize(unsigned k, r1cs::proving_cs& cs, thread_pool& pool) const override {
    return synthesize_into(k, cs, pool);
  }
  status synthesize_witness(unsigned k, r1cs::witness_cs& cs, thread_pool& pool) const override {
    return synthesize_into(k, cs, pool);
  }
  result<r1cs::abc_plan> compile_plan() const override {
    return filecoin::circuits::stacked_abc_plan(
        cfg_.layers(), cfg_.sector.tree_d, cfg_.sector.tree_r, cfg_.challenges_per_partition());
  }

  result<std::vector<ff::fr_t>> public_inputs(unsigned k) const override {
    return filecoin::circuits::porep_public_inputs(cfg_, graph_, pub_, k);
  }

  std::string inconsistent_input() const override { return "the C1 is inconsistent"; }

  // The decoded C1 is smaller than its encoded form (JSON with base64, or bincode with the same
  // digests): the input size bounds it.
  uint64_t host_bytes() const override { return input_bytes_; }

 private:
  template <class CS>
  status synthesize_into(unsigned k, CS& cs, thread_pool& pool) const {
    auto circuit = filecoin::circuits::stacked_circuit_from_c1(cfg_, c1_, k);
    if (!circuit) {
      return status(status_code::invalid_argument,
                    "bad C1 for the circuit: " + circuit.error().to_string());
    }
    return filecoin::circuits::synthesize_stacked_circuit_parallel(cs, *circuit, pool);
  }

  filecoin::porep::porep_config_t cfg_;
  filecoin::porep::c1_output_t c1_;
  filecoin::porep::sdr_graph graph_;
  filecoin::circuits::porep_publics_t pub_;
  circuit_params circuit_;
  synthesis_shape shape_;
  uint64_t input_bytes_;
};

using decoded_c1 = std::pair<filecoin::porep::c1_output_t, filecoin::porep::porep_config_t>;

class porep_kind final : public decoding_handler<decoded_c1> {
 public:
  using decoding_handler::decoding_handler;
  proof_kind kind() const override { return proof_kind::porep_seal_commit; }
  priority default_priority() const override { return priority::normal; }

  // The C1 decoded, with its config: malformed input is refused at submit (before it is
  // queued or charged), and decoded again by prepare on a worker.
  result<decoded_c1> decode(const proof_request& req) const override {
    if (req.vanilla_proof.empty()) {
      return status(status_code::invalid_argument,
                    "PoRep C2: vanilla_proof (the C1 output) is empty");
    }
    // Bincode C1s do not name their registered proof: the request's number does.
    std::string proof_name;
    if (auto p = filecoin::porep::registered_seal_proof_from_id(req.registered_proof); p.ok())
      proof_name = std::string(filecoin::porep::name_of(*p));
    auto c1 = filecoin::porep::parse_c1_any(req.vanilla_proof, proof_name);
    if (!c1) return status(status_code::invalid_argument, "the C1: " + c1.error().to_string());
    auto p = filecoin::porep::parse_registered_seal_proof(c1->registered_proof);
    if (!p)
      return status(status_code::invalid_argument, "registered_proof: " + p.error().message());
    auto cfg = filecoin::porep::porep_config(*p);
    if (!cfg) return status(status_code::invalid_argument, cfg.error().to_string());
    if (c1->vanilla_proofs.size() != cfg->partitions()) {
      return status(status_code::invalid_argument,
                    "the C1 has " + std::to_string(c1->vanilla_proofs.size()) + " partitions, " +
                        c1->registered_proof + " needs " + std::to_string(cfg->partitions()));
    }
    return std::make_pair(std::move(*c1), std::move(*cfg));
  }

  status check_vanilla(const decoded_c1& d, thread_pool& pool) const override {
    if (status s = filecoin::porep::verify_c1_output(d.first, d.second, pool); !s) {
      return status(status_code::invalid_argument,
                    "the C1's vanilla proofs do not verify: " + s.to_string());
    }
    return status();
  }

  // Unless the request says not to, the replica_id is re-derived from the prover identity as C2
  // does (prover_id, sector_number, ticket, comm_d, porep_id) and must be the C1's.
  result<std::unique_ptr<prepared_proof>> make_prepared(
      decoded_c1 d, const proof_request& req, const std::string& param_dir) const override {
    auto& [c1, cfg] = d;
    filecoin::porep::bytes32_t replica_id = c1.replica_id;
    if (req.check_identity) {
      filecoin::porep::bytes32_t prover_id = filecoin::porep::prover_id_from_actor(req.miner_id);
      std::string prover = "miner " + std::to_string(req.miner_id);
      if (!req.prover_id.empty()) {
        auto p = request_bytes32(req.prover_id, "PoRep C2", "prover_id");
        if (!p) return p.error();
        prover_id = *p;
        prover = "prover id";
      }
      replica_id = filecoin::porep::compute_replica_id(prover_id, req.sector_number, c1.ticket,
                                                       c1.comm_d, cfg.porep_id);
      if (replica_id != c1.replica_id) {
        return status(status_code::invalid_argument,
                      "the replica_id derived from " + prover + ", sector " +
                          std::to_string(req.sector_number) +
                          ", ticket, comm_d and porep_id differs from the C1's replica_id");
      }
    }
    return std::unique_ptr<prepared_proof>(new porep_prepared(
        std::move(cfg), std::move(c1), replica_id, param_dir, req.vanilla_proof.size()));
  }

  std::optional<circuit_params> circuit_by_id(const std::string& id,
                                              const std::string& param_dir) const override {
    return find_circuit(id, 20, [&](uint32_t n) -> std::optional<circuit_params> {
      auto p = filecoin::porep::registered_seal_proof_from_id(n);
      if (!p) return std::nullopt;
      auto cfg = filecoin::porep::porep_config(*p);
      if (!cfg) return std::nullopt;
      return circuit_params{porep_circuit_id(*cfg),
                            filecoin::proofs::porep_params_path(*cfg, param_dir)};
    });
  }
};

}  // namespace

std::shared_ptr<const proof_kind_handler> porep_handler(kind_options opt) {
  return std::make_shared<porep_kind>(opt);
}

}  // namespace cuzk::engine
