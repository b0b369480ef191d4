// SPDX-License-Identifier: Apache-2.0
// The status listener's JSON (status_json.hpp): every document parses whatever bytes a request
// id holds, the timeline names every worker's lane, and `since` is checked.
#include "server/status_json.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace cuzk::server {
namespace {

engine::engine_status sample_status(const std::string& job_id) {
  engine::engine_status st;
  st.uptime_seconds = 12.5;
  st.completed = 3;
  st.synthesis_workers = 2;
  engine::worker_status w;
  w.name = "cpu";
  w.busy_seconds = 4.25;
  w.current_job = job_id;
  w.lanes.push_back({"cpu", job_id, engine::proof_kind::porep_seal_commit, 3, "local"});
  st.workers.push_back(w);
  engine::worker_status g;  // a GPU with two lanes, the second one proving
  g.name = "gpu 0";
  g.device = 0;
  g.current_job = "gpu-job";
  g.lanes.push_back({"gpu 0", "", engine::proof_kind::porep_seal_commit, -1, ""});
  g.lanes.push_back({"gpu 0.1", "gpu-job", engine::proof_kind::winning_post, 0, "local"});
  st.workers.push_back(g);
  engine::job_summary j;
  j.job_id = job_id;
  j.state = engine::job_state::running;
  j.partitions = 10;
  j.partitions_done = 4;
  st.jobs.push_back(j);
  engine::srs_status s;
  s.circuit_id = "porep-2k";
  s.worker = "cpu";
  s.bytes = 1 << 20;
  st.srs.push_back(s);
  // A GPU's, partially resident: in host memory, some queries on the device too.
  engine::srs_status partial;
  partial.circuit_id = "porep-32g";
  partial.worker = "gpu 0";
  partial.in_host_memory = true;
  partial.bytes = 3 << 20;
  partial.device_bytes = 1 << 20;
  st.srs.push_back(partial);
  return st;
}

TEST(json_escape, keeps_valid_utf8_and_replaces_invalid_bytes) {
  EXPECT_EQ(json_escape("a\"b\\c\n\x01"), "a\\\"b\\\\c\\n\\u0001");
  EXPECT_EQ(json_escape("s\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
            "s\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_EQ(json_escape("\xff"), "\\ufffd");
  EXPECT_EQ(json_escape("\xc3"), "\\ufffd");                                   // truncated
  EXPECT_EQ(json_escape("\xc0\xaf"), "\\ufffd\\ufffd");                        // overlong '/'
  EXPECT_EQ(json_escape("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd");             // a surrogate
  EXPECT_EQ(json_escape("\xf4\x90\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd");  // > U+10FFFF
}

TEST(timeline_json, parses_with_any_request_id_and_lists_every_lane) {
  const std::string nasty = std::string("id \"<&>\\ \xe2\x9c\x93 \xff\x00 end", 16);
  engine::timeline_event e;
  e.lane = "synthesis 1";
  e.job_id = nasty;
  e.kind = engine::proof_kind::porep_seal_commit;
  e.partition = 3;
  e.phase = "prove";
  e.start = 1.5;
  e.end = 2.25;
  e.upload = 3.25;
  e.device_wait = 2.5;
  e.ntt = 7;
  e.msm_b_g2 = 11.5;
  e.stream_wait = 0.75;
  engine::timeline_event v = e;
  v.lane = "gpu 9";  // a lane no worker names any more still gets its row
  v.phase = "verify";
  v.partition = -1;
  const std::string text = timeline_json({e, v}, sample_status(nasty), true, 123, 1.0);
  const auto doc = nlohmann::json::parse(text);  // throws on invalid JSON or UTF-8
  EXPECT_EQ(doc["since"], 1.0);
  EXPECT_EQ(doc["now"], 12.5);
  EXPECT_EQ(doc["lanes"],
            nlohmann::json({"synthesis 0", "synthesis 1", "cpu", "gpu 0", "gpu 0.1", "gpu 9"}));
  ASSERT_EQ(doc["events"].size(), 2u);
  const std::string expected_id = std::string("id \"<&>\\ \xe2\x9c\x93 \xef\xbf\xbd\x00 end", 18);
  EXPECT_EQ(doc["events"][0]["job"], expected_id);
  EXPECT_EQ(doc["events"][0]["kind"], "porep-c2");
  EXPECT_EQ(doc["events"][0]["partition"], 3);
  EXPECT_EQ(doc["events"][0]["split"]["upload"], 3.25);
  EXPECT_EQ(doc["events"][0]["split"]["device_wait"], 2.5);
  EXPECT_EQ(doc["events"][0]["split"]["ntt"], 7.0);
  EXPECT_EQ(doc["events"][0]["split"]["msm_b_g2"], 11.5);
  EXPECT_EQ(doc["events"][0]["split"]["stream_wait"], 0.75);
  EXPECT_FALSE(doc["events"][1].contains("split"));
  EXPECT_EQ(doc["events"][1]["partition"], -1);
  const auto& st = doc["status"];
  EXPECT_EQ(st["serving"], true);
  EXPECT_EQ(st["completed"], 3);
  EXPECT_EQ(st["memory"]["rss"], 123);
  EXPECT_EQ(st["workers"][0]["busy_seconds"], 4.25);
  EXPECT_EQ(st["workers"][0]["current_job"], expected_id);
  EXPECT_EQ(st["workers"][0]["lanes"][0]["current_job"], expected_id);
  EXPECT_EQ(st["workers"][0]["lanes"][0]["partition"], 3);
  EXPECT_EQ(st["workers"][1]["lanes"][0]["name"], "gpu 0");
  EXPECT_EQ(st["workers"][1]["lanes"][0]["current_job"], "");
  EXPECT_EQ(st["workers"][1]["lanes"][1]["name"], "gpu 0.1");
  EXPECT_EQ(st["workers"][1]["lanes"][1]["current_job"], "gpu-job");
  EXPECT_EQ(st["jobs"][0]["job_id"], expected_id);
  EXPECT_EQ(st["jobs"][0]["state"], "running");
  EXPECT_EQ(st["jobs"][0]["partitions_done"], 4);
  EXPECT_EQ(st["srs"][0]["circuit_id"], "porep-2k");
  EXPECT_EQ(st["srs"][0]["device_bytes"], 0);
  EXPECT_EQ(st["srs"][1]["in_host_memory"], true);
  EXPECT_EQ(st["srs"][1]["device_bytes"], 1 << 20);
}

// A tenant's view on the status listener: its own jobs with their ids; another tenant's leave the
// job and tenant lists and keep their phases and busy lanes without ids.
TEST(visible_to, hides_other_tenants_jobs) {
  engine::engine_status st = sample_status("alice-job");  // the cpu lane: tenant "local"
  st.workers[0].lanes[0].current_tenant = "alice";
  st.workers[1].lanes[1].current_tenant = "bob";
  st.jobs[0].tenant = "alice";
  engine::job_summary bobs = st.jobs[0];
  bobs.job_id = "gpu-job";
  bobs.tenant = "bob";
  st.jobs.push_back(bobs);
  st.tenants = {{"alice", 1, 0, 1, 0}, {"bob", 1, 0, 1, 0}};
  const engine::engine_status a = visible_to(st, "alice");
  ASSERT_EQ(a.jobs.size(), 1u);
  EXPECT_EQ(a.jobs[0].job_id, "alice-job");
  ASSERT_EQ(a.tenants.size(), 1u);
  EXPECT_EQ(a.tenants[0].name, "alice");
  EXPECT_EQ(a.workers[0].current_job, "alice-job");
  EXPECT_EQ(a.workers[0].lanes[0].current_job, "alice-job");
  EXPECT_EQ(a.workers[1].current_job, "");
  EXPECT_EQ(a.workers[1].lanes[1].current_job, "");
  EXPECT_EQ(a.workers[1].lanes[1].partition, 0) << "the lane still shows busy";
  const engine::engine_status b = visible_to(st, "bob");
  ASSERT_EQ(b.jobs.size(), 1u);
  EXPECT_EQ(b.jobs[0].job_id, "gpu-job");
  EXPECT_EQ(b.workers[0].current_job, "");
  EXPECT_EQ(b.workers[1].current_job, "gpu-job");
  EXPECT_EQ(status_json(b, true, 0).find("alice"), std::string::npos);

  engine::timeline_event mine, theirs;
  mine.job_id = "alice-job";
  mine.tenant = "alice";
  mine.phase = theirs.phase = "prove";
  theirs.job_id = "gpu-job";
  theirs.tenant = "bob";
  const auto ev = visible_to(std::vector<engine::timeline_event>{mine, theirs}, "alice");
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].job_id, "alice-job");
  EXPECT_EQ(ev[1].job_id, "");
  EXPECT_EQ(ev[1].tenant, "");
  EXPECT_EQ(ev[1].phase, "prove");
}

TEST(timeline_json, status_json_alone_parses) {
  const auto doc = nlohmann::json::parse(status_json(sample_status("j"), false, 0));
  EXPECT_EQ(doc["serving"], false);
  EXPECT_EQ(doc["synthesis_workers"], 2);
}

// A parameter load: its event names the circuit and its bytes; a loading set carries its
// progress (what the page and `cuzk-bench status` draw as a bar with an ETA).
TEST(timeline_json, load_events_and_load_progress) {
  engine::timeline_event load;
  load.lane = "cpu";
  load.job_id = "j";
  load.phase = "load";
  load.start = 0.5;
  load.end = 2.0;
  load.circuit_id = "porep-2k";
  load.bytes = 1 << 20;
  engine::engine_status st = sample_status("j");
  st.srs[0].loading = true;
  st.srs[0].loaded_bytes = 1 << 18;
  st.srs[0].load_total_bytes = 1 << 20;
  st.srs[0].load_started = 0.5;
  const auto doc = nlohmann::json::parse(timeline_json({load}, st, true, 0, 0));
  ASSERT_EQ(doc["events"].size(), 1u);
  EXPECT_EQ(doc["events"][0]["phase"], "load");
  EXPECT_EQ(doc["events"][0]["circuit"], "porep-2k");
  EXPECT_EQ(doc["events"][0]["bytes"], 1 << 20);
  EXPECT_FALSE(doc["events"][0].contains("split"));
  const auto& srs = doc["status"]["srs"][0];
  EXPECT_EQ(srs["loading"], true);
  EXPECT_EQ(srs["loaded_bytes"], 1 << 18);
  EXPECT_EQ(srs["load_total_bytes"], 1 << 20);
  EXPECT_EQ(srs["load_started"], 0.5);
}

TEST(parse_since, absolute_relative_and_invalid) {
  EXPECT_EQ(*parse_since("", 50), 0.0);
  EXPECT_EQ(*parse_since("12.5", 50), 12.5);
  EXPECT_EQ(*parse_since("-20", 50), 30.0);
  EXPECT_EQ(*parse_since("-3600", 50), 0.0);
  for (const char* bad : {"abc", "1x", " 1", "nan", "inf", "1e999"}) {
    auto r = parse_since(bad, 50);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code(), status_code::invalid_argument);
  }
}

}  // namespace
}  // namespace cuzk::server
