// SPDX-License-Identifier: Apache-2.0
// The daemon's Prometheus metrics (text exposition format 0.0.4): counters and per-phase duration
// histograms fed by the engine's on_job_end hook, gauges read from engine::status() when scraped.
// Label values are fixed vocabularies (proof kinds, outcomes, phases, worker names): request ids
// never become labels. A tenant label is a name the operator wrote ([tenants.NAME], the tokens
// file, or "local"); any other tenant (a client certificate's name not in the config) is counted
// as "other", so no client can mint label values.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "cuzk/engine.hpp"

namespace cuzk::server {

class metrics {
 public:
  /// Upper bounds (seconds) of the duration histograms' buckets.
  static constexpr std::array<double, 14> BUCKETS = {0.05, 0.1, 0.25, 0.5, 1,   2.5, 5,
                                                     10,   30,  60,   120, 300, 900, 3600};

  /// The tenant names that may be label values (the config's and the tokens file's; "local" is
  /// always one). Called at start and on every reload of the tokens.
  void set_tenant_names(std::set<std::string> names);
  /// One ended job (the engine's on_job_end).
  void record(engine::proof_kind kind, const engine::job_result& r);
  /// The whole exposition: the recorded series plus gauges from `st`.
  std::string prometheus_text(const engine::engine_status& st) const;

 private:
  struct histogram {
    std::array<uint64_t, BUCKETS.size()> counts{};
    uint64_t count = 0;
    double sum = 0;
    void observe(double seconds);
  };
  // The tenant's label value: its name when the operator wrote it, else "other". Under mu_.
  std::string tenant_label_locked(const std::string& tenant) const;

  mutable std::mutex mu_;
  std::set<std::string> tenant_names_{std::string(engine::default_tenant)};
  std::map<std::pair<std::string, std::string>, uint64_t> tenant_jobs_;  // (tenant, outcome)
  std::map<std::pair<std::string, std::string>, uint64_t> jobs_;     // (kind, outcome) → count
  std::map<std::pair<std::string, std::string>, histogram> phases_;  // (kind, phase)
};

/// This process's resident set now (/proc/self/statm), 0 when unreadable.
uint64_t current_rss_bytes();

}  // namespace cuzk::server
