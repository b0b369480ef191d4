// SPDX-License-Identifier: Apache-2.0
// Test helpers for porep: the parent_cache.json facts of the shared Filecoin fixtures
// (tests/support/fixtures.hpp finds them).
#pragma once

#include <string>
#include <vector>

#include "filecoin/porep/parent_cache.hpp"
#include "fixtures.hpp"

namespace cuzk::filecoin::porep::test {

inline std::vector<parent_cache_fact_t> parent_cache_facts() {
  auto f = read_parent_cache_json(cuzk::test::fixture_path("parent_cache.json"));
  return f.ok() ? *f : std::vector<parent_cache_fact_t>{};
}

inline const parent_cache_fact_t* find_fact(const std::vector<parent_cache_fact_t>& facts,
                                            const std::string& id) {
  for (const auto& f : facts)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace cuzk::filecoin::porep::test
