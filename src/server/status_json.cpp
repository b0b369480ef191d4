// SPDX-License-Identifier: Apache-2.0
// The HTTP status listener's JSON documents (status_json.hpp).
#include "server/status_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

namespace cuzk::server {
namespace {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0 when the bytes there are not one.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    len = 2;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    len = 3;
    if (b0 == 0xe0) lo = 0xa0;
    if (b0 == 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    len = 4;
    if (b0 == 0xf0) lo = 0x90;
    if (b0 == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  return len;
}

// Finite numbers with millisecond (seconds) or microsecond (milliseconds) resolution; JSON has
// no NaN or infinity, so those become 0.
std::string number(double v) {
  if (!std::isfinite(v)) return "0";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string quoted(std::string_view s) {
  std::string out(1, '"');
  out += json_escape(s);
  out += '"';
  return out;
}

std::string prove_split_json(const engine::timeline_event& e) {
  return "{\"upload\":" + number(e.upload) + ",\"device_wait\":" + number(e.device_wait) +
         ",\"abc\":" + number(e.abc) + ",\"ntt\":" + number(e.ntt) + ",\"h\":" + number(e.h) +
         ",\"msm_h\":" + number(e.msm_h) + ",\"msm_l\":" + number(e.msm_l) +
         ",\"msm_a\":" + number(e.msm_a) + ",\"msm_b_g1\":" + number(e.msm_b_g1) +
         ",\"msm_b_g2\":" + number(e.msm_b_g2) + ",\"stream_copy\":" + number(e.stream_copy) +
         ",\"stream_wait\":" + number(e.stream_wait) + "}";
}

}  // namespace

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t len = utf8_sequence_length(s, i);
      if (len == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
    ++i;
  }
  return out;
}

std::string status_json(const engine::engine_status& st, bool serving, uint64_t rss_bytes) {
  std::string o = "{";
  o += "\"serving\":" + std::string(serving ? "true" : "false");
  o += ",\"uptime_seconds\":" + number(st.uptime_seconds);
  o += ",\"completed\":" + std::to_string(st.completed);
  o += ",\"failed\":" + std::to_string(st.failed);
  o += ",\"cancelled\":" + std::to_string(st.cancelled);
  o += ",\"memory\":{\"host_budget\":" + std::to_string(st.host_budget) +
       ",\"host_used\":" + std::to_string(st.host_used) +
       ",\"device_budget\":" + std::to_string(st.device_budget) +
       ",\"device_used\":" + std::to_string(st.device_used) +
       ",\"peak_rss\":" + std::to_string(st.peak_rss) + ",\"rss\":" + std::to_string(rss_bytes) +
       "}";
  o += ",\"synthesis_workers\":" + std::to_string(st.synthesis_workers);
  o += ",\"workers\":[";
  for (size_t i = 0; i < st.workers.size(); ++i) {
    const auto& w = st.workers[i];
    if (i) o += ",";
    o += "{\"name\":" + quoted(w.name) + ",\"device\":" + std::to_string(w.device) +
         ",\"device_name\":" + quoted(w.device_name) +
         ",\"device_budget\":" + std::to_string(w.device_budget) +
         ",\"device_used\":" + std::to_string(w.device_used) +
         ",\"healthy\":" + (w.healthy ? "true" : "false") +
         ",\"current_job\":" + quoted(w.current_job) +
         ",\"busy_seconds\":" + number(w.busy_seconds) + ",\"lanes\":[";
    for (size_t l = 0; l < w.lanes.size(); ++l) {
      const auto& lane = w.lanes[l];
      if (l) o += ",";
      o += "{\"name\":" + quoted(lane.name) + ",\"current_job\":" + quoted(lane.current_job) +
           ",\"partition\":" + std::to_string(lane.partition) + "}";
    }
    o += "]}";
  }
  o += "],\"srs\":[";
  for (size_t i = 0; i < st.srs.size(); ++i) {
    const auto& s = st.srs[i];
    if (i) o += ",";
    o += "{\"circuit_id\":" + quoted(s.circuit_id) + ",\"worker\":" + quoted(s.worker) +
         ",\"in_host_memory\":" + (s.in_host_memory ? "true" : "false") +
         ",\"bytes\":" + std::to_string(s.bytes) +
         ",\"device_bytes\":" + std::to_string(s.device_bytes) +
         ",\"ref_count\":" + std::to_string(s.ref_count) +
         ",\"idle_seconds\":" + number(s.idle_seconds) +
         ",\"loading\":" + (s.loading ? "true" : "false") +
         ",\"loaded_bytes\":" + std::to_string(s.loaded_bytes) +
         ",\"load_total_bytes\":" + std::to_string(s.load_total_bytes) +
         ",\"load_started\":" + number(s.load_started) + "}";
  }
  o += "],\"jobs\":[";
  for (size_t i = 0; i < st.jobs.size(); ++i) {
    const auto& j = st.jobs[i];
    if (i) o += ",";
    o += "{\"job_id\":" + quoted(j.job_id) + ",\"kind\":" + quoted(engine::to_string(j.kind)) +
         ",\"priority\":" + std::to_string(int(j.prio)) +
         ",\"state\":" + quoted(engine::to_string(j.state)) +
         ",\"partitions\":" + std::to_string(j.partitions) +
         ",\"partitions_done\":" + std::to_string(j.partitions_done) +
         ",\"cancel_requested\":" + (j.cancel_requested ? "true" : "false") +
         ",\"age_seconds\":" + number(j.age_seconds) + "}";
  }
  o += "]}";
  return o;
}

engine::engine_status visible_to(engine::engine_status st, const std::string& tenant) {
  std::erase_if(st.jobs, [&](const engine::job_summary& j) { return j.tenant != tenant; });
  std::erase_if(st.tenants, [&](const engine::tenant_status& t) { return t.name != tenant; });
  for (auto& w : st.workers) {
    w.current_job.clear();
    for (auto& lane : w.lanes) {
      if (lane.current_tenant != tenant) {
        lane.current_job.clear();
        lane.current_tenant.clear();
      }
      if (w.current_job.empty()) w.current_job = lane.current_job;
    }
  }
  return st;
}

std::vector<engine::timeline_event> visible_to(std::vector<engine::timeline_event> events,
                                               const std::string& tenant) {
  for (auto& e : events) {
    if (e.tenant != tenant) {
      e.job_id.clear();
      e.tenant.clear();
    }
  }
  return events;
}

std::string timeline_json(const std::vector<engine::timeline_event>& events,
                          const engine::engine_status& st, bool serving, uint64_t rss_bytes,
                          double since) {
  std::vector<std::string> lanes;
  for (unsigned i = 0; i < st.synthesis_workers; ++i)
    lanes.push_back("synthesis " + std::to_string(i));
  for (const auto& w : st.workers) {
    if (w.lanes.empty()) lanes.push_back(w.name);
    for (const auto& l : w.lanes) lanes.push_back(l.name);
  }
  std::set<std::string> known(lanes.begin(), lanes.end());
  for (const auto& e : events)
    if (known.insert(e.lane).second) lanes.push_back(e.lane);

  std::string o = "{\"since\":" + number(since) + ",\"now\":" + number(st.uptime_seconds);
  o += ",\"lanes\":[";
  for (size_t i = 0; i < lanes.size(); ++i) {
    if (i) o += ",";
    o += quoted(lanes[i]);
  }
  o += "],\"events\":[";
  for (size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    if (i) o += ",";
    o += "{\"lane\":" + quoted(e.lane) + ",\"job\":" + quoted(e.job_id) +
         ",\"kind\":" + quoted(engine::to_string(e.kind)) +
         ",\"partition\":" + std::to_string(e.partition) + ",\"phase\":" + quoted(e.phase) +
         ",\"start\":" + number(e.start) + ",\"end\":" + number(e.end);
    if (e.phase == "prove") {
      o += ",\"split\":" + prove_split_json(e) + ",\"streamed_bytes\":" + std::to_string(e.bytes) +
           ",\"device_peak_bytes\":" + std::to_string(e.device_peak_bytes);
    }
    if (e.phase == "load") {
      o += ",\"circuit\":" + quoted(e.circuit_id) + ",\"bytes\":" + std::to_string(e.bytes);
    }
    o += "}";
  }
  o += "],\"status\":" + status_json(st, serving, rss_bytes) + "}";
  return o;
}

result<double> parse_since(std::string_view text, double now) {
  if (text.empty()) return 0.0;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    return status(status_code::invalid_argument,
                  "since: expected seconds since the engine started (or negative: the last "
                  "seconds), got '" +
                      std::string(text.substr(0, 64)) + "'");
  }
  return v < 0 ? std::max(0.0, now + v) : v;
}

}  // namespace cuzk::server
