// SPDX-License-Identifier: Apache-2.0
// FallbackPoSt WindowPoSt 32 GiB and 64 GiB partitions (2,349 / 2,300 sectors) synthesized in
// shape_cs (counting: no values, no matrices): constraints, inputs and aux equal
// post_snap_constraint_counts.json (125,279,217 and 129,887,900 constraints).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "base/file_io.hpp"
#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "fixtures.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::filecoin::circuits {
namespace {

void expect_model_counts(post::registered_post_proof p, std::string_view size) {
  auto text =
      read_text_file_bounded(test::fixture_path("post_snap_constraint_counts.json"), 1 << 20);
  ASSERT_TRUE(text.ok()) << "missing fixture post_snap_constraint_counts.json";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(*text).get(doc), simdjson::SUCCESS);
  simdjson::dom::array model;
  ASSERT_EQ(doc["model"].get(model), simdjson::SUCCESS);
  uint64_t constraints = 0, inputs = 0, aux = 0;
  for (simdjson::dom::element e : model) {
    std::string_view family, s;
    if (e["family"].get(family) || e["sector_size"].get(s)) continue;
    if (family == "post-window" && s == size) {
      ASSERT_FALSE(e["constraints"].get(constraints) || e["inputs_incl_one"].get(inputs) ||
                   e["aux"].get(aux));
    }
  }
  ASSERT_NE(constraints, 0u) << "no model entry for " << size;

  const auto cfg = post::post_config(p);
  ASSERT_TRUE(cfg.ok());
  r1cs::shape_cs cs;
  synthesize_fallback_post_circuit(cs, blank_fallback_post_circuit(*cfg));
  const r1cs::shape_summary s = cs.summary();
  EXPECT_EQ(s.num_constraints, constraints);
  EXPECT_EQ(s.num_inputs, inputs);
  EXPECT_EQ(s.num_aux, aux);
  EXPECT_EQ(s.b_input_density, 1u);
}

TEST(fallback_post_circuit_slow, window_32gib) {
  expect_model_counts(post::registered_post_proof::window_32gib_v1_1, "32GiB");
}

TEST(fallback_post_circuit_slow, window_64gib) {
  expect_model_counts(post::registered_post_proof::window_64gib_v1_1, "64GiB");
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
