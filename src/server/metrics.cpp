// SPDX-License-Identifier: Apache-2.0
// Prometheus text exposition for the daemon (metrics.hpp).
#include "server/metrics.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace cuzk::server {
namespace {

// A double as Prometheus writes it ("+Inf" aside): shortest round-trip form.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A label value with \, " and newline escaped (the format's only escapes).
std::string label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

void metrics::histogram::observe(double seconds) {
  for (size_t i = 0; i < BUCKETS.size(); ++i)
    if (seconds <= BUCKETS[i]) ++counts[i];
  ++count;
  sum += seconds;
}

void metrics::set_tenant_names(std::set<std::string> names) {
  names.insert(std::string(engine::default_tenant));
  std::lock_guard lk(mu_);
  tenant_names_ = std::move(names);
}

std::string metrics::tenant_label_locked(const std::string& tenant) const {
  return tenant_names_.count(tenant) ? tenant : "other";
}

void metrics::record(engine::proof_kind kind, const engine::job_result& r) {
  const std::string k(engine::to_string(kind));
  std::lock_guard lk(mu_);
  ++jobs_[{k, std::string(engine::to_string(r.state))}];
  ++tenant_jobs_[{tenant_label_locked(r.tenant), std::string(engine::to_string(r.state))}];
  if (r.state != engine::job_state::completed) return;
  const auto& t = r.timings;
  const std::pair<const char*, double> phases[] = {
      {"queue_wait", t.queue_wait}, {"prepare", t.prepare}, {"srs_load", t.srs_load},
      {"synthesis", t.synthesis},   {"prove", t.prove},     {"finalize", t.finalize},
      {"verify", t.verify},         {"total", t.total}};
  for (const auto& [phase, ms] : phases) phases_[{k, phase}].observe(ms / 1000);
}

std::string metrics::prometheus_text(const engine::engine_status& st) const {
  std::string out;
  {
    std::lock_guard lk(mu_);
    header(out, "cuzk_jobs_total", "counter", "Jobs ended, by proof kind and outcome.");
    for (const auto& [key, n] : jobs_) {
      out += "cuzk_jobs_total{kind=\"" + label(key.first) + "\",outcome=\"" + label(key.second) +
             "\"} " + std::to_string(n) + "\n";
    }
    header(out, "cuzk_phase_seconds", "histogram",
           "Completed jobs' time per phase (synthesis, prove, finalize summed over partitions).");
    for (const auto& [key, h] : phases_) {
      const std::string labels =
          "kind=\"" + label(key.first) + "\",phase=\"" + label(key.second) + "\"";
      for (size_t i = 0; i < BUCKETS.size(); ++i) {
        out += "cuzk_phase_seconds_bucket{" + labels + ",le=\"" + num(BUCKETS[i]) + "\"} " +
               std::to_string(h.counts[i]) + "\n";
      }
      out +=
          "cuzk_phase_seconds_bucket{" + labels + ",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
      out += "cuzk_phase_seconds_sum{" + labels + "} " + num(h.sum) + "\n";
      out += "cuzk_phase_seconds_count{" + labels + "} " + std::to_string(h.count) + "\n";
    }
    header(out, "cuzk_tenant_jobs_total", "counter", "Jobs ended, by tenant and outcome.");
    for (const auto& [key, n] : tenant_jobs_) {
      out += "cuzk_tenant_jobs_total{tenant=\"" + label(key.first) + "\",outcome=\"" +
             label(key.second) + "\"} " + std::to_string(n) + "\n";
    }
    // The engine's per-tenant figures, tenants the operator did not name summed as "other".
    struct tenant_sums {
      uint64_t in_flight = 0, queued_bytes = 0, refused = 0;
    };
    std::map<std::string, tenant_sums> tenants;
    for (const auto& t : st.tenants) {
      tenant_sums& sum = tenants[tenant_label_locked(t.name)];
      sum.in_flight += t.in_flight;
      sum.queued_bytes += t.queued_bytes;
      sum.refused += t.refused;
    }
    header(out, "cuzk_tenant_in_flight_jobs", "gauge",
           "Jobs accepted and not yet ended, by tenant (its max_in_flight counts these).");
    for (const auto& [name, sum] : tenants) {
      out += "cuzk_tenant_in_flight_jobs{tenant=\"" + label(name) + "\"} " +
             std::to_string(sum.in_flight) + "\n";
    }
    header(out, "cuzk_tenant_queued_bytes", "gauge",
           "Request bytes of jobs not yet started, by tenant (its max_queued_bytes).");
    for (const auto& [name, sum] : tenants) {
      out += "cuzk_tenant_queued_bytes{tenant=\"" + label(name) + "\"} " +
             std::to_string(sum.queued_bytes) + "\n";
    }
    header(out, "cuzk_tenant_refused_total", "counter",
           "Submissions refused for the tenant's max_in_flight or max_queued_bytes.");
    for (const auto& [name, sum] : tenants) {
      out += "cuzk_tenant_refused_total{tenant=\"" + label(name) + "\"} " +
             std::to_string(sum.refused) + "\n";
    }
  }
  header(out, "cuzk_queue_jobs", "gauge", "Jobs not ended, by proof kind and stage.");
  for (const auto& q : st.queues) {
    const std::string k = label(std::string(engine::to_string(q.kind)));
    out +=
        "cuzk_queue_jobs{kind=\"" + k + "\",stage=\"pending\"} " + std::to_string(q.pending) + "\n";
    out += "cuzk_queue_jobs{kind=\"" + k + "\",stage=\"in_progress\"} " +
           std::to_string(q.in_progress) + "\n";
  }
  header(out, "cuzk_worker_busy_seconds_total", "counter",
         "Time each prover worker spent proving.");
  for (const auto& w : st.workers) {
    out += "cuzk_worker_busy_seconds_total{worker=\"" + label(w.name) + "\"} " +
           num(w.busy_seconds) + "\n";
  }
  header(out, "cuzk_worker_healthy", "gauge", "1 while a prover worker is in rotation.");
  for (const auto& w : st.workers)
    out +=
        "cuzk_worker_healthy{worker=\"" + label(w.name) + "\"} " + (w.healthy ? "1" : "0") + "\n";
  header(out, "cuzk_srs_resident_bytes", "gauge", "Parameter bytes held, by circuit and worker.");
  for (const auto& s : st.srs) {
    out += "cuzk_srs_resident_bytes{circuit=\"" + label(s.circuit_id) + "\",worker=\"" +
           label(s.worker) + "\"} " + std::to_string(s.bytes) + "\n";
  }
  header(out, "cuzk_memory_budget_bytes", "gauge", "The engine's memory budgets.");
  out += "cuzk_memory_budget_bytes{memory=\"host\"} " + std::to_string(st.host_budget) + "\n";
  out += "cuzk_memory_budget_bytes{memory=\"device\"} " + std::to_string(st.device_budget) + "\n";
  header(out, "cuzk_memory_used_bytes", "gauge", "Bytes charged to the engine's budgets.");
  out += "cuzk_memory_used_bytes{memory=\"host\"} " + std::to_string(st.host_used) + "\n";
  out += "cuzk_memory_used_bytes{memory=\"device\"} " + std::to_string(st.device_used) + "\n";
  header(out, "cuzk_process_resident_bytes", "gauge", "Resident set of the daemon process.");
  out += "cuzk_process_resident_bytes " + std::to_string(current_rss_bytes()) + "\n";
  header(out, "cuzk_process_peak_resident_bytes", "gauge", "Peak resident set since start.");
  out += "cuzk_process_peak_resident_bytes " + std::to_string(st.peak_rss) + "\n";
  header(out, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
  out += "cuzk_uptime_seconds " + num(st.uptime_seconds) + "\n";
  return out;
}

uint64_t current_rss_bytes() {
  std::ifstream in("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return 0;
  return resident * uint64_t(::sysconf(_SC_PAGESIZE));
}

}  // namespace cuzk::server
