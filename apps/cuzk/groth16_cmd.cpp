// SPDX-License-Identifier: Apache-2.0
// `cuzk groth16 …`: setup, prove, verify over iden3 .r1cs/.wtns circuits with bellperson
// .params/.vk files and 192-byte proofs, plus snarkjs JSON export and verification.
// Exit codes: 0 ok / proof valid, 1 proof invalid, 2 bad input or usage (one line on stderr).
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "base/thread_pool.hpp"
#include "cli_args.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "ntt/domain.hpp"
#include "phase_progress.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/iden3_io.hpp"

namespace cuzk::app {
namespace {

using ff::fr_t;

constexpr int EXIT_VALID = EXIT_OK, EXIT_INVALID = EXIT_FAIL;

/// The file options of one command, by name without the leading "--".
using options = std::map<std::string, std::string>;

/// A one-line error for command `cmd`, exit status 2.
int fail(const std::string& cmd, const std::string& msg) {
  std::string line = msg;
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  spdlog::error("cuzk groth16 {}: {}", cmd, line);
  return EXIT_BAD;
}
int fail(const std::string& cmd, const status& s) {
  return fail(cmd, s.to_string());
}

/// snarkjs JSON (vk, proof, public inputs) and proof files: a vk with millions of ic points is
/// still far below this; a larger file is refused before it is read.
constexpr uint64_t MAX_TEXT_FILE_BYTES = uint64_t(256) << 20;

result<std::string> read_text(const std::string& path) {
  return read_text_file_bounded(path, MAX_TEXT_FILE_BYTES);
}

status write_text(const std::string& path, const std::string& text) {
  return write_file_atomic(path, text);
}

template <class T>
result<T> with_path(result<T> r, const std::string& path) {
  if (r) return r;
  return status(r.error().code(), path + ": " + r.error().message());
}

/// A proof whose points fail the curve or subgroup check (or are the identity) is an invalid
/// proof (exit 1); anything else wrong with the file is bad input (exit 2).
bool is_invalid_point(status_code c) {
  return c == status_code::not_on_curve || c == status_code::not_in_subgroup ||
         c == status_code::is_infinity;
}

result<std::vector<uint8_t>> hex_to_bytes(const std::string& hex) {
  auto bytes = from_hex(strip_hex_prefix(hex));
  if (!bytes) return status(status_code::invalid_argument, "--seed: " + bytes.error().message());
  if (bytes->empty()) return status(status_code::invalid_argument, "--seed: empty");
  return bytes;
}

/// Runs verification and maps the outcome to the exit status.
int verify_and_report(const std::string& cmd, const groth16::verifying_key& vk,
                      const groth16::proof& pf, const std::vector<fr_t>& pub) {
  if (pub.size() + 1 != vk.ic.size()) {
    return fail(cmd, "size_mismatch: " + std::to_string(pub.size()) +
                         " public inputs, the verifying key expects " +
                         std::to_string(vk.ic.size() - 1));
  }
  auto ok = groth16::verify(groth16::prepare_verifying_key(vk), pf, pub);
  if (!ok) return fail(cmd, ok.error());
  if (!*ok) {
    spdlog::error("cuzk groth16 {}: invalid proof", cmd);
    return EXIT_INVALID;
  }
  std::printf("valid\n");
  return EXIT_VALID;
}

// ---- setup --------------------------------------------------------------------------------------

int run_setup(const std::shared_ptr<options>& o) {
  const std::string cmd = "setup";
  auto circuit = r1cs::read_r1cs((*o)["r1cs"]);
  if (!circuit) return fail(cmd, circuit.error());
  std::optional<groth16::toxic_waste> tw;
  if (o->count("seed")) {
    auto seed = hex_to_bytes((*o)["seed"]);
    if (!seed) return fail(cmd, seed.error());
    tw = groth16::toxic_waste::from_seed(*seed);
  } else {
    auto r = groth16::toxic_waste::random();
    if (!r) return fail(cmd, r.error());
    tw = *r;
  }
  thread_pool& pool = thread_pool::default_pool();
  auto params = groth16::generate_parameters(circuit->cs, *tw, pool);
  tw.reset();
  if (!params) return fail(cmd, params.error());
  if (status s = groth16::write_params(*params, (*o)["params-out"], pool); !s) return fail(cmd, s);
  if (status s = groth16::write_vk(params->vk, (*o)["vk-out"]); !s) return fail(cmd, s);
  std::printf("setup: %u constraints, %zu public inputs, %zu aux; wrote %s and %s\n",
              circuit->header.num_constraints, circuit->cs.num_inputs - 1, circuit->cs.num_aux,
              (*o)["params-out"].c_str(), (*o)["vk-out"].c_str());
  return EXIT_VALID;
}

// ---- prove --------------------------------------------------------------------------------------

int run_prove(const std::shared_ptr<options>& o) {
  const std::string cmd = "prove";
  thread_pool& pool = thread_pool::default_pool();
  auto circuit = r1cs::read_r1cs((*o)["r1cs"]);
  if (!circuit) return fail(cmd, circuit.error());
  const r1cs::matrices& cs = circuit->cs;
  auto witness = r1cs::read_wtns((*o)["wtns"]);
  if (!witness) return fail(cmd, witness.error());
  auto split = r1cs::split_witness(cs, *witness);
  if (!split) return fail(cmd, with_path(std::move(split), (*o)["wtns"]).error());
  if (auto row = r1cs::is_satisfied(cs, split->inputs, split->aux)) {
    return fail(cmd, "the witness does not satisfy constraint " + std::to_string(*row) + " of " +
                         std::to_string(cs.num_constraints()));
  }

  auto pf_file = groth16::params_file::open((*o)["params"]);
  if (!pf_file) return fail(cmd, with_path(std::move(pf_file), (*o)["params"]).error());
  auto data = r1cs::build_assignment_data(cs, split->inputs, split->aux, pool);
  if (!data) return fail(cmd, data.error());
  auto dom = ntt::domain_t::create(cs.num_rows());
  if (!dom) return fail(cmd, dom.error());
  groth16::parameters_shape shape;
  shape.num_inputs = cs.num_inputs;
  shape.num_aux = cs.num_aux;
  shape.domain_size = dom->size();
  shape.a_aux_density = data->density.a_aux.popcount();
  shape.b_input_density = data->density.b_input.popcount();
  shape.b_aux_density = data->density.b_aux.popcount();
  if (status s = pf_file->validate_against(shape); !s) {
    return fail(cmd, (*o)["params"] + " does not fit " + (*o)["r1cs"] + ": " + s.to_string());
  }
  auto params = pf_file->load_all(
      groth16::point_checks::full, pool,
      phase_progress_lines("cuzk groth16 " + cmd + ": parameters", progress_units::bytes));
  if (!params) return fail(cmd, with_path(std::move(params), (*o)["params"]).error());

  const groth16::assignment asg = groth16::make_assignment(*data, split->inputs, split->aux);
  auto pf = groth16::create_proof(*params, asg, pool);
  if (!pf) return fail(cmd, pf.error());

  const std::vector<fr_t> pub(split->inputs.begin() + 1, split->inputs.end());
  auto ok = groth16::verify(groth16::prepare_verifying_key(params->vk), *pf, pub);
  if (!ok) return fail(cmd, ok.error());
  if (!*ok) return fail(cmd, "the new proof does not verify against the parameters' own key");

  const auto bytes = groth16::encode_proof(*pf);
  if (status s = write_text((*o)["proof-out"], std::string(bytes.begin(), bytes.end())); !s) {
    return fail(cmd, s);
  }
  if (status s = write_text((*o)["public-out"], groth16::public_to_snarkjs_json(pub)); !s) {
    return fail(cmd, s);
  }
  std::printf("proved and self-verified: %zu constraints, %zu public inputs\n",
              cs.num_constraints(), pub.size());
  return EXIT_VALID;
}

// ---- verify -------------------------------------------------------------------------------------

/// Loads a 192-byte proof file; *invalid is set when the bytes decode to bad points.
result<groth16::proof> load_proof_bin(const std::string& path, bool* invalid) {
  auto text = read_text(path);
  if (!text) return text.error();
  const auto* p = reinterpret_cast<const uint8_t*>(text->data());
  auto pf = groth16::decode_proof(std::span<const uint8_t>(p, text->size()));
  if (!pf) *invalid = is_invalid_point(pf.error().code());
  return with_path(std::move(pf), path);
}

result<std::vector<fr_t>> load_public(const std::string& path) {
  auto text = read_text(path);
  if (!text) return text.error();
  return with_path(groth16::public_from_snarkjs_json(*text), path);
}

int run_verify(const std::shared_ptr<options>& o) {
  const std::string cmd = "verify";
  auto vk = groth16::read_vk((*o)["vk"]);
  if (!vk) return fail(cmd, with_path(std::move(vk), (*o)["vk"]).error());
  bool invalid = false;
  auto pf = load_proof_bin((*o)["proof"], &invalid);
  if (!pf) {
    if (invalid) {
      spdlog::error("cuzk groth16 {}: invalid proof: {}", cmd, pf.error().to_string());
      return EXIT_INVALID;
    }
    return fail(cmd, pf.error());
  }
  auto pub = load_public((*o)["public"]);
  if (!pub) return fail(cmd, pub.error());
  return verify_and_report(cmd, *vk, *pf, *pub);
}

// ---- export-snarkjs -----------------------------------------------------------------------------

int run_export_snarkjs(const std::shared_ptr<options>& o) {
  const std::string cmd = "export-snarkjs";
  auto vk = groth16::read_vk((*o)["vk"]);
  if (!vk) return fail(cmd, with_path(std::move(vk), (*o)["vk"]).error());
  std::optional<groth16::proof> pf;
  std::vector<fr_t> pub;
  if (o->count("proof")) {
    bool invalid = false;
    auto p = load_proof_bin((*o)["proof"], &invalid);
    if (!p) return fail(cmd, p.error());
    pf = *p;
    auto q = load_public((*o)["public"]);
    if (!q) return fail(cmd, q.error());
    pub = std::move(*q);
    if (pub.size() + 1 != vk->ic.size()) {
      return fail(cmd, "size_mismatch: " + std::to_string(pub.size()) +
                           " public inputs, the verifying key expects " +
                           std::to_string(vk->ic.size() - 1));
    }
  }
  const std::filesystem::path dir = (*o)["out-dir"];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return fail(cmd, "io_error: " + dir.string() + ": " + ec.message());
  if (status s =
          write_text((dir / "verification_key.json").string(), groth16::vk_to_snarkjs_json(*vk));
      !s) {
    return fail(cmd, s);
  }
  if (pf) {
    if (status s = write_text((dir / "proof.json").string(), groth16::proof_to_snarkjs_json(*pf));
        !s) {
      return fail(cmd, s);
    }
    if (status s = write_text((dir / "public.json").string(), groth16::public_to_snarkjs_json(pub));
        !s) {
      return fail(cmd, s);
    }
  }
  std::printf("wrote %s\n", dir.string().c_str());
  return EXIT_VALID;
}

// ---- verify-snarkjs -----------------------------------------------------------------------------

int run_verify_snarkjs(const std::shared_ptr<options>& o) {
  const std::string cmd = "verify-snarkjs";
  auto vk_text = read_text((*o)["vk"]);
  if (!vk_text) return fail(cmd, vk_text.error());
  auto vk = with_path(groth16::vk_from_snarkjs_json(*vk_text), (*o)["vk"]);
  if (!vk) return fail(cmd, vk.error());
  auto pf_text = read_text((*o)["proof"]);
  if (!pf_text) return fail(cmd, pf_text.error());
  auto pf = with_path(groth16::proof_from_snarkjs_json(*pf_text), (*o)["proof"]);
  if (!pf) {
    if (is_invalid_point(pf.error().code())) {
      spdlog::error("cuzk groth16 {}: invalid proof: {}", cmd, pf.error().to_string());
      return EXIT_INVALID;
    }
    return fail(cmd, pf.error());
  }
  auto pub = load_public((*o)["public"]);
  if (!pub) return fail(cmd, pub.error());
  return verify_and_report(cmd, *vk, *pf, *pub);
}

}  // namespace

void add_groth16_commands(CLI::App& root, command_runner& chosen) {
  auto* groth16 = root.add_subcommand(
      "groth16",
      "setup, prove, verify; snarkjs export/verify (iden3 .r1cs/.wtns, bellperson files)");
  groth16->require_subcommand(1);
  groth16->footer("exit status: 0 ok/valid, 1 invalid proof, 2 bad input or usage");

  // Adds `cmd` with file options {flag, what it is, required}; their values land in `*o`.
  struct file_option {
    const char* key;
    const char* help;
    bool required;
  };
  auto add_command = [&](const char* name, const char* help, std::vector<file_option> files,
                         int (*run)(const std::shared_ptr<options>&)) {
    auto o = std::make_shared<options>();
    auto* cmd = groth16->add_subcommand(name, help);
    for (const file_option& f : files) {
      const std::string key = f.key;
      cmd->add_option_function<std::string>(
             "--" + key, [o, key](const std::string& v) { (*o)[key] = v; }, f.help)
          ->type_name(key == "seed"      ? "HEX"
                      : key == "out-dir" ? "D"
                                         : "FILE")
          ->required(f.required);
    }
    on_selected(cmd, chosen, [o, run] { return run(o); });
    return cmd;
  };
  add_command("setup", "Groth16 setup of an iden3 circuit: bellperson .params and .vk",
              {{"r1cs", "the circuit (.r1cs)", true},
               {"params-out", "where to write the .params", true},
               {"vk-out", "where to write the .vk", true},
               {"seed", "deterministic toxic waste from these bytes (tests only)", false}},
              run_setup);
  add_command("prove", "prove and self-verify: a 192-byte proof and snarkjs public.json",
              {{"params", "the .params", true},
               {"r1cs", "the circuit (.r1cs)", true},
               {"wtns", "the witness (.wtns)", true},
               {"proof-out", "where to write the proof", true},
               {"public-out", "where to write public.json", true}},
              run_prove);
  add_command("verify", "verify a 192-byte proof against a .vk and public.json",
              {{"vk", "the .vk", true},
               {"proof", "the proof (192 bytes)", true},
               {"public", "public.json", true}},
              run_verify);
  auto* exp = add_command("export-snarkjs",
                          "write verification_key.json (and proof.json, public.json) for snarkjs",
                          {{"vk", "the .vk", true},
                           {"proof", "the proof (192 bytes; with --public)", false},
                           {"public", "public.json (with --proof)", false},
                           {"out-dir", "output directory", true}},
                          run_export_snarkjs);
  exp->get_option("--proof")->needs("--public");
  exp->get_option("--public")->needs("--proof");
  add_command("verify-snarkjs", "verify snarkjs JSON: vk.json, proof.json, public.json",
              {{"vk", "verification_key.json", true},
               {"proof", "proof.json", true},
               {"public", "public.json", true}},
              run_verify_snarkjs);
}

}  // namespace cuzk::app
