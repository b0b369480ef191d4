// SPDX-License-Identifier: Apache-2.0
// What the black-box daemon tests share (daemon_test.cpp, browser_test.cpp): two sealed 2 KiB
// sectors, PoRep requests for them, and one cuzk-daemon process (CUZK_DAEMON_PATH) with its own
// temp dir, config (unix socket, HTTP status listener on a free port, the shared 2 KiB
// parameters from $CUZK_TEST_PARAMS_DIR) and log.
#pragma once

#include <arpa/inet.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "sealed_sectors.hpp"
#include "test_rng.hpp"

extern char** environ;

namespace cuzk::test {

using namespace std::chrono_literals;

using sector = sealed_c1;

// Sealed once for the whole binary (milliseconds).
inline std::vector<sector>& sectors() {
  static std::vector<sector> s = [] {
    std::vector<sector> out;
    auto rng = test_rng::from_env("daemon_sectors");
    for (int i = 0; i < 2; ++i) out.push_back(seal_random_2kib_c1(rng, 100000));
    return out;
  }();
  return s;
}

inline std::string params_dir() {
  const char* d = std::getenv("CUZK_TEST_PARAMS_DIR");
  return d ? d : "";
}

inline cuzk::v1::SubmitProofRequest porep_request(const sector& s, const std::string& id) {
  cuzk::v1::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
  r.set_sector_size(2048);
  r.set_registered_proof(uint64_t(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1));
  r.set_priority(cuzk::v1::NORMAL);
  r.set_vanilla_proof(s.wrapper);
  r.set_sector_number(s.sector);
  r.set_miner_id(s.miner);
  return r;
}

// A port nothing listens on: the kernel picks one for a bound socket, which is then closed (it
// never connected, so the port is free at once) and the daemon binds it right after. Not an
// httplib::Server probe: cpp-httplib 0.11's destructor leaves the probe's listening socket open,
// with SO_REUSEPORT, so the kernel would hand some of the daemon's connections to this process
// (an HTTP request to the daemon that hangs).
inline int free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

// One cuzk-daemon process with its own temp dir, config and log.
class daemon_process {
 public:
  /// `extra_toml` goes into the [daemon] table, `srs_toml` into [srs]; `param_cache` defaults to
  /// the shared 2 KiB set. `tcp_listen` ("HOST:PORT") replaces the unix socket; the daemon is
  /// then ready when its log says both listeners serve (calls may need TLS or a token), and
  /// stub() speaks plaintext to 127.0.0.1 on that port.
  explicit daemon_process(const std::string& extra_toml = "", std::string param_cache = "",
                          const std::string& srs_toml = "", const std::string& tcp_listen = "") {
    if (param_cache.empty()) param_cache = params_dir();
    dir_ = (std::filesystem::temp_directory_path() /
            ("cuzk-daemon-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++)))
               .string();
    std::filesystem::create_directories(dir_);
    socket_ = dir_ + "/run/cuzk.sock";
    http_port_ = free_tcp_port();
    std::ofstream cfg(dir_ + "/cuzk.toml");
    const std::string listen = tcp_listen.empty() ? "unix://" + socket_ : tcp_listen;
    cfg << "[daemon]\nlisten = \"" << listen << "\"\nstatus_listen = \"127.0.0.1:" << http_port_
        << "\"\n"
        << extra_toml << "\n[srs]\nparam_cache = \"" << param_cache << "\"\n"
        << srs_toml << "\n[memory]\ntotal_budget = \"8GiB\"\n";
    cfg.close();
    const std::string log = dir_ + "/daemon.log";
    std::vector<std::string> args = {CUZK_DAEMON_PATH, "-c", dir_ + "/cuzk.toml", "--log-level",
                                     "debug"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    EXPECT_EQ(posix_spawn(&pid_, CUZK_DAEMON_PATH, &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    grpc::ChannelArguments ca;
    ca.SetMaxReceiveMessageSize(512 << 20);
    ca.SetMaxSendMessageSize(512 << 20);
    const std::string target = tcp_listen.empty()
                                   ? "unix://" + socket_
                                   : "127.0.0.1:" + tcp_listen.substr(tcp_listen.rfind(':') + 1);
    channel_ = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), ca);
    stub_ = cuzk::v1::ProvingEngine::NewStub(channel_);
    if (!tcp_listen.empty()) {
      for (int i = 0; i < 300; ++i) {
        const std::string log = log_text();
        if (log.find("cuzk.v1 serving on") != std::string::npos &&
            log.find("status on") != std::string::npos)
          return;
        if (!ended().empty()) break;
        std::this_thread::sleep_for(100ms);
      }
      ADD_FAILURE() << "the daemon did not come up; its log:\n" << log_text();
      return;
    }
    // Ready when GetStatus answers (the socket appears once the engine runs).
    for (int i = 0; i < 300; ++i) {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 1s);
      cuzk::v1::GetStatusResponse st;
      if (stub_->GetStatus(&ctx, {}, &st).ok()) return;
      std::this_thread::sleep_for(100ms);
    }
    ADD_FAILURE() << "the daemon did not come up; its log:\n" << log_text();
  }
  ~daemon_process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  cuzk::v1::ProvingEngine::Stub& stub() { return *stub_; }
  pid_t pid() const { return pid_; }
  int http_port() const { return http_port_; }
  const std::string& socket() const { return socket_; }

  // grpc.health.v1.Health/Check for the whole server ("" service): 1 SERVING, 2 NOT_SERVING,
  // -1 when the call failed. The request is the empty message; the response is field 1 varint.
  int health() {
    grpc::GenericStub generic(channel_);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 2s);
    grpc::Slice empty;
    grpc::ByteBuffer req(&empty, 1), resp;
    std::promise<grpc::Status> done;
    generic.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &req, &resp,
                      [&](grpc::Status s) { done.set_value(s); });
    if (!done.get_future().get().ok()) return -1;
    std::vector<grpc::Slice> slices;
    if (!resp.Dump(&slices).ok()) return -1;
    std::string bytes;
    for (auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    if (bytes.size() == 2 && bytes[0] == 0x08) return bytes[1];
    return bytes.empty() ? 0 : -1;  // UNKNOWN (0) is encoded as nothing
  }

  // SIGTERM, then the exit code (-1 if it did not exit within `wait`).
  int terminate(std::chrono::seconds wait = 120s) {
    ::kill(pid_, SIGTERM);
    const auto end = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < end) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      }
      std::this_thread::sleep_for(50ms);
    }
    return -1;
  }

  // How the process ended, when it has ("exited 1", "killed by signal 11"); "" while it runs.
  std::string ended() {
    if (pid_ <= 0) return "";
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) != pid_) return "";
    pid_ = -1;
    return WIFEXITED(st) ? "exited " + std::to_string(WEXITSTATUS(st))
                         : "killed by signal " + std::to_string(WTERMSIG(st));
  }

  // The last `bytes` of its log.
  std::string log_tail(size_t bytes = 6000) const {
    const std::string all = log_text();
    return all.size() <= bytes ? all : all.substr(all.size() - bytes);
  }

  std::string log_text() const {
    std::ifstream in(dir_ + "/daemon.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  static inline int counter_ = 0;
  std::string dir_, socket_;
  int http_port_ = 0;
  pid_t pid_ = -1;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<cuzk::v1::ProvingEngine::Stub> stub_;
};

}  // namespace cuzk::test
