// SPDX-License-Identifier: Apache-2.0
// Test helpers for porep: the path of the shared Filecoin fixtures (read in place, never copied:
// ${CUZK_SOURCE_DIR}/../shared/fixtures/filecoin/) and the parent_cache.json facts.
#pragma once

#include <cstdlib>
#include <string>

#include "filecoin/porep/parent_cache.hpp"

namespace cuzk::porep::test {

inline std::string filecoin_fixture(const std::string& name) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  return std::string(src ? src : CUZK_SOURCE_DIR_FALLBACK) + "/../shared/fixtures/filecoin/" + name;
}

inline std::vector<parent_cache_fact_t> parent_cache_facts() {
  auto f = read_parent_cache_json(filecoin_fixture("parent_cache.json"));
  return f.ok() ? *f : std::vector<parent_cache_fact_t>{};
}

inline const parent_cache_fact_t* find_fact(const std::vector<parent_cache_fact_t>& facts,
                                            const std::string& id) {
  for (const auto& f : facts)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace cuzk::porep::test
