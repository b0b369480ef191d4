// SPDX-License-Identifier: Apache-2.0
// The HTTP status listener's JSON documents (daemon.hpp): GET /status (the engine's state) and
// GET /timeline.json (the phases per lane plus that state, the feed of the pipeline page).
// Strings from clients (request ids are arbitrary bytes) are escaped so that every document is
// valid JSON: invalid UTF-8 becomes U+FFFD.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine.hpp"
#include "cuzk/status.hpp"

namespace cuzk::server {

/// `s` as the inside of a JSON string: quotes, backslashes and control characters escaped, every
/// byte that is not part of a well-formed UTF-8 sequence replaced by \ufffd.
std::string json_escape(std::string_view s);

/// What the status listener shows a caller of `tenant` when the daemon has tokens and the
/// caller's is not an operator's (token_entry::all_tenants): the other tenants' jobs leave the
/// job list and the tenant list, and their ids go from the lanes and the timeline (their phases
/// stay, without id: the GPU shows busy), as GetStatus hides them over gRPC.
engine::engine_status visible_to(engine::engine_status st, const std::string& tenant);
std::vector<engine::timeline_event> visible_to(std::vector<engine::timeline_event> events,
                                               const std::string& tenant);

/// GET /status: serving, uptime, counts, memory, workers (busy seconds), parameters, jobs.
std::string status_json(const engine::engine_status& st, bool serving, uint64_t rss_bytes);

/// GET /timeline.json: {"since", "now", "lanes" (every synthesis and prover worker, then any
/// other lane an event names), "events" (oldest first; prove events carry the prover's split in
/// milliseconds, load events the circuit and its bytes), "status" (status_json; each parameter
/// set with its load progress: loaded_bytes of load_total_bytes since load_started)}.
std::string timeline_json(const std::vector<engine::timeline_event>& events,
                          const engine::engine_status& st, bool serving, uint64_t rss_bytes,
                          double since);

/// The `since` query parameter of /timeline.json: empty → 0; S ≥ 0 → S seconds since the engine
/// started; S < 0 → the last -S seconds before `now`. invalid_argument for anything but a finite
/// decimal number.
result<double> parse_since(std::string_view text, double now);

}  // namespace cuzk::server
