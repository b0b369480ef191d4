// SPDX-License-Identifier: Apache-2.0
// EmptySectorUpdate partitions of 8 MiB, 512 MiB, 32 GiB and 64 GiB synthesized in shape_cs
// (counting: no values, no matrices): constraints, inputs and aux equal
// post_snap_constraint_counts.json (32 GiB: 81,049,499 constraints, the upstream count); the
// upstream circuit tests' 4 KiB (8-2-0), 8 KiB (8-4-0), 16 KiB (8-8-0) and 32 KiB (8-8-2) shapes
// likewise.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "base/file_io.hpp"
#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "fixtures.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::filecoin::circuits {
namespace {

simdjson::dom::element counts_doc(simdjson::dom::parser& parser, std::string& text) {
  auto t = read_text_file_bounded(test::fixture_path("post_snap_constraint_counts.json"), 1 << 20);
  EXPECT_TRUE(t.ok()) << "missing fixture post_snap_constraint_counts.json";
  text = t.ok() ? std::move(*t) : std::string("{}");
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS);
  return doc;
}

void expect_model_counts(snap::registered_update_proof p, std::string_view size) {
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
    if (family == "snap" && s == size) {
      ASSERT_FALSE(e["constraints"].get(constraints) || e["inputs_incl_one"].get(inputs) ||
                   e["aux"].get(aux));
    }
  }
  ASSERT_NE(constraints, 0u) << "no model entry for " << size;

  const auto cfg = snap::update_config(p);
  ASSERT_TRUE(cfg.ok());
  r1cs::shape_cs cs;
  synthesize_empty_sector_update_circuit(cs, blank_empty_sector_update_circuit(*cfg));
  const r1cs::shape_summary s = cs.summary();
  EXPECT_EQ(s.num_constraints, constraints);
  EXPECT_EQ(s.num_inputs, inputs);
  EXPECT_EQ(s.num_aux, aux);
  EXPECT_EQ(s.b_input_density, 1u);
}

TEST(empty_sector_update_circuit_slow, upstream_test_shapes) {
  const std::pair<const char*, hash::tree_shape> shapes[] = {
      {"test_empty_sector_update_circuit_4kib", {8, 2, 0, 128}},
      {"test_empty_sector_update_circuit_8kib", {8, 4, 0, 256}},
      {"test_empty_sector_update_circuit_16kib", {8, 8, 0, 512}},
      {"test_empty_sector_update_circuit_32kib", {8, 8, 2, 1024}},
  };
  simdjson::dom::parser parser;
  std::string text;
  const simdjson::dom::element doc = counts_doc(parser, text);
  for (const auto& [test, tree] : shapes) {
    uint64_t want = 0;
    for (simdjson::dom::element e : doc["upstream"].get_array()) {
      std::string_view family, t;
      if (!e["family"].get(family) && family == "snap" && !e["test"].get(t) &&
          t.starts_with(test)) {
        ASSERT_FALSE(e["constraints"].get(want));
      }
    }
    ASSERT_NE(want, 0u) << test;
    const auto cfg = snap::update_config_for_shape(tree);
    ASSERT_TRUE(cfg.ok());
    r1cs::shape_cs cs;
    synthesize_empty_sector_update_circuit(cs, blank_empty_sector_update_circuit(*cfg));
    EXPECT_EQ(cs.num_constraints(), want) << test;
    EXPECT_EQ(cs.num_inputs(), 5u) << test;
  }
}

TEST(empty_sector_update_circuit_slow, snap_8mib) {
  expect_model_counts(snap::registered_update_proof::stacked_drg_8mib_v1, "8MiB");
}
TEST(empty_sector_update_circuit_slow, snap_512mib) {
  expect_model_counts(snap::registered_update_proof::stacked_drg_512mib_v1, "512MiB");
}
TEST(empty_sector_update_circuit_slow, snap_32gib) {
  expect_model_counts(snap::registered_update_proof::stacked_drg_32gib_v1, "32GiB");
}
TEST(empty_sector_update_circuit_slow, snap_64gib) {
  expect_model_counts(snap::registered_update_proof::stacked_drg_64gib_v1, "64GiB");
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
