// SPDX-License-Identifier: Apache-2.0
// The pipeline page in a real browser (label browser): the real cuzk-daemon with the shared 2 KiB
// parameters proves a few PoRep jobs submitted over gRPC while headless Chromium loads GET /;
// two DOM dumps taken at different times must show the lanes and more bars, one per phase of
// each new job, and a screenshot (build dir: tests/daemon/pipeline_page.png) must be a PNG.
// No Chromium is a failure that says so, never a skip: scripts/install_deps.sh installs it.
// Also `cuzk-bench status --watch` against the same daemon.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "daemon_test_util.hpp"

namespace cuzk::test {
namespace {

// The Chromium binary: $CUZK_CHROMIUM, else `chromium` on the PATH; empty when there is none.
std::string chromium_path() {
  if (const char* c = std::getenv("CUZK_CHROMIUM"); c && *c) return c;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/chromium";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Runs a shell command, returns its stdout (stderr goes to `log`) and its exit status.
std::pair<int, std::string> run_command(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// Headless Chromium on `url`; the page runs for `budget_ms` of virtual time (its 1 s polls
// happen in that time, each fetch waited for), then `mode` (--dump-dom, --screenshot=...).
std::pair<int, std::string> chromium(const std::string& url, int budget_ms, const std::string& mode,
                                     const std::string& work_dir) {
  static int run = 0;
  const std::string profile = work_dir + "/chromium-profile-" + std::to_string(run++);
  const std::string cmd =
      "timeout 180 '" + chromium_path() +
      "' --headless=new --no-sandbox --disable-gpu --no-first-run "
      "--hide-scrollbars --user-data-dir='" +
      profile + "' --window-size=1400,900 --virtual-time-budget=" + std::to_string(budget_ms) +
      " " + mode + " '" + url + "' 2>>'" + work_dir + "/chromium.log'";
  auto result = run_command(cmd);
  std::error_code ec;
  std::filesystem::remove_all(profile, ec);
  return result;
}

std::string html_unescape(const std::string& s) {
  static const std::vector<std::pair<std::string, std::string>> entities = {
      {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&nbsp;", "\xc2\xa0"}, {"&amp;", "&"}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    for (const auto& [entity, text] : entities) {
      if (s.compare(i, entity.size(), entity) == 0) {
        out += text;
        i += entity.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

using attributes = std::map<std::string, std::string>;

// Every start tag <tag ...> of the dump whose class attribute is `cls`, with its attributes.
std::vector<attributes> elements(const std::string& dom, const std::string& tag,
                                 const std::string& cls) {
  std::vector<attributes> out;
  // Attribute values may hold '>' (a request id); a quote inside one is always &quot;.
  const std::regex start_tag("<" + tag + R"(((?:\s+[^\s=>/"]+(?:="[^"]*")?)*)\s*/?>)");
  const std::regex attribute(R"(([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"]*)\")");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), start_tag);
       it != std::sregex_iterator(); ++it) {
    attributes attrs;
    const std::string inside = (*it)[1];
    for (auto a = std::sregex_iterator(inside.begin(), inside.end(), attribute);
         a != std::sregex_iterator(); ++a)
      attrs[(*a)[1]] = html_unescape((*a)[2]);
    if (attrs["class"] == cls) out.push_back(std::move(attrs));
  }
  return out;
}

size_t count_bars(const std::vector<attributes>& bars, const std::string& job,
                  const std::string& phase) {
  size_t n = 0;
  for (const auto& b : bars)
    if (b.at("data-job") == job && b.at("data-phase") == phase) ++n;
  return n;
}

class pipeline_page : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_FALSE(params_dir().empty())
        << "CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture porep_2k_params)";
    sectors();
    d_ = new daemon_process();
  }
  static void TearDownTestSuite() {
    delete d_;
    d_ = nullptr;
  }
  static daemon_process* d_;

  static cuzk::v1::AwaitProofResponse prove(const cuzk::v1::SubmitProofRequest& r) {
    grpc::ClientContext ctx;
    cuzk::v1::ProveRequest req;
    *req.mutable_submit() = r;
    cuzk::v1::ProveResponse resp;
    const grpc::Status s = d_->stub().Prove(&ctx, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.result();
  }
};
daemon_process* pipeline_page::d_ = nullptr;

TEST_F(pipeline_page, lanes_and_bars_appear_and_update_in_headless_chromium) {
  const std::string browser = chromium_path();
  ASSERT_FALSE(browser.empty())
      << "FAIL: chromium is not installed (not on the PATH, CUZK_CHROMIUM unset): the browser "
         "test needs it; scripts/install_deps.sh installs it (apt-get install chromium)";
  const std::string out_dir = CUZK_BROWSER_ARTIFACT_DIR;
  std::filesystem::create_directories(out_dir);
  const std::string url = "http://127.0.0.1:" + std::to_string(d_->http_port()) + "/";

  httplib::Client http("127.0.0.1", d_->http_port());
  auto page = http.Get("/");
  ASSERT_TRUE(page) << httplib::to_string(page.error());
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("id=\"timeline\""), std::string::npos);
  auto bad = http.Get("/timeline.json?since=yesterday");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);

  const std::string first = "page-first";
  ASSERT_EQ(prove(porep_request(sectors()[0], first)).status(),
            cuzk::v1::AwaitProofResponse::COMPLETED);
  auto feed = http.Get("/timeline.json?since=0");
  ASSERT_TRUE(feed);
  const auto doc = nlohmann::json::parse(feed->body);
  const std::vector<std::string> lanes = doc["lanes"];
  ASSERT_FALSE(lanes.empty());
  EXPECT_EQ(lanes.front(), "synthesis 0");

  auto [rc1, dom1] = chromium(url, 3000, "--dump-dom", out_dir);
  ASSERT_EQ(rc1, 0) << "chromium --dump-dom failed; see " << out_dir << "/chromium.log";
  const auto body1 = elements(dom1, "body", "");
  ASSERT_EQ(body1.size(), 1u) << dom1.substr(0, 2000);
  EXPECT_GE(std::stoi(body1[0].at("data-polls")), 1) << "the page never got /timeline.json";
  std::set<std::string> shown_lanes;
  for (const auto& g : elements(dom1, "g", "lane")) shown_lanes.insert(g.at("data-lane"));
  for (const auto& lane : lanes) EXPECT_TRUE(shown_lanes.count(lane)) << "no lane " << lane;
  const auto bars1 = elements(dom1, "rect", "bar");
  for (const char* phase : {"prepare", "synthesis", "prove", "finalize", "verify"})
    EXPECT_GE(count_bars(bars1, first, phase), 1u) << "no " << phase << " bar of " << first;
  // The first job loaded the parameters: one load bar (per prover worker), named in the legend.
  EXPECT_GE(count_bars(bars1, first, "load"), 1u) << "no load bar of " << first;
  bool load_in_legend = false;
  for (const auto& item : elements(dom1, "span", "legend-item"))
    load_in_legend = load_in_legend || item.at("data-phase") == "load";
  EXPECT_TRUE(load_in_legend);
  for (const auto& b : bars1) {
    EXPECT_TRUE(shown_lanes.count(b.at("data-lane"))) << b.at("data-lane");
    EXPECT_EQ(b.at("data-kind"), "porep-c2");
  }
  // The first job compiled the circuit's a, b, c plan: a compile bar; each prove's tooltip has
  // the prover's split, the a, b, c evaluated from the plan first.
  EXPECT_EQ(count_bars(bars1, first, "compile"), 1u) << "no compile bar of " << first;
  EXPECT_NE(dom1.find("prove split: witness upload "), std::string::npos)
      << "no prove split in a tooltip";
  EXPECT_EQ(elements(dom1, "table", "").size(), 2u);  // jobs, resident parameters
  EXPECT_FALSE(elements(dom1, "div", "meter mem").empty());
  EXPECT_FALSE(elements(dom1, "div", "meter busy").empty());
  EXPECT_FALSE(elements(dom1, "tr", "srs").empty()) << "the 2 KiB parameters are resident";
  EXPECT_FALSE(elements(dom1, "rect", "tp-bin").empty());
  EXPECT_EQ(elements(dom1, "span", "conn")[0].at("data-state"), "live");

  // Two more jobs, one with an id that needs escaping everywhere (JSON, HTML, SVG).
  const std::string second = "page-second";
  const std::string third = "page-\xc3\xbcnicode \"<&>\" third";
  auto f2 =
      std::async(std::launch::async, [&] { return prove(porep_request(sectors()[1], second)); });
  auto f3 =
      std::async(std::launch::async, [&] { return prove(porep_request(sectors()[0], third)); });
  ASSERT_EQ(f2.get().status(), cuzk::v1::AwaitProofResponse::COMPLETED);
  ASSERT_EQ(f3.get().status(), cuzk::v1::AwaitProofResponse::COMPLETED);

  auto [rc2, dom2] = chromium(url, 3000, "--dump-dom", out_dir);
  ASSERT_EQ(rc2, 0) << "chromium --dump-dom failed; see " << out_dir << "/chromium.log";
  const auto bars2 = elements(dom2, "rect", "bar");
  EXPECT_GT(bars2.size(), bars1.size());
  for (const auto& job : {first, second, third}) {
    EXPECT_GE(count_bars(bars2, job, "synthesis"), 1u) << job;
    EXPECT_GE(count_bars(bars2, job, "prove"), 1u) << job;
    EXPECT_GE(count_bars(bars2, job, "verify"), 1u) << job;
  }
  // The later jobs found the parameters resident.
  EXPECT_EQ(count_bars(bars2, second, "load"), 0u);
  EXPECT_EQ(count_bars(bars2, third, "load"), 0u);

  const std::string png = out_dir + "/pipeline_page.png";
  std::filesystem::remove(png);
  auto [rc3, ignored] = chromium(url, 3000, "--screenshot='" + png + "'", out_dir);
  ASSERT_EQ(rc3, 0) << "chromium --screenshot failed; see " << out_dir << "/chromium.log";
  ASSERT_TRUE(std::filesystem::exists(png));
  EXPECT_GT(std::filesystem::file_size(png), 10000u);
  std::ifstream in(png, std::ios::binary);
  std::string signature(8, '\0');
  in.read(signature.data(), 8);
  EXPECT_EQ(signature, "\x89PNG\r\n\x1a\n");
  std::printf("pipeline page screenshot: %s\n", png.c_str());
}

// `cuzk-bench status --watch`: one block per refresh when stdout is not a terminal (no escape
// codes), `--count` refreshes, then exit 0.
TEST_F(pipeline_page, bench_status_watch_refreshes) {
  auto [rc, out] = run_command(std::string(CUZK_BENCH_PATH) + " -a unix://" + d_->socket() +
                               " status --watch --interval 0.2 --count 3");
  EXPECT_EQ(rc, 0) << out;
  size_t blocks = 0, uptimes = 0;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line == "--") ++blocks;
    if (line.rfind("uptime ", 0) == 0) ++uptimes;
  }
  EXPECT_EQ(blocks, 3u) << out;
  EXPECT_EQ(uptimes, 3u) << out;
  EXPECT_NE(out.find("completed since the last refresh: "), std::string::npos) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "escape codes on a pipe";
}

}  // namespace
}  // namespace cuzk::test
