// SPDX-License-Identifier: Apache-2.0
// The client of scripts/tls_cost_run.sh (issue 37 item 6): sends one Prove of a C1 file's bytes
// REPEAT times to a daemon and prints, per call, the wall time from the send to the answer, the
// CPU this process spent on it (getrusage: every gRPC thread) and the CPU the daemon spent on it
// (/proc/PID/stat utime+stime of --daemon-pid, the whole process, 10 ms ticks). Unlike
// cuzk-bench it neither parses the C1 nor does anything else per call, so the CPU is the call's.
// Built by the runner from proto/ with protoc, against Debian's grpc++; not part of the tree's
// build.
//
//   tls_cost_client ADDR C1_FILE DAEMON_PID REPEAT fresh|reuse prove|transport|status [CA [CERT
//   KEY]]
//
// ADDR: unix:///path or host:port; CA given: TLS (CERT and KEY: mutual TLS). fresh: a new
// channel (connection, handshake) per call; reuse: one channel for every call, opened and
// connected before the first. prove: the C1 as Curio sends it (the daemon answers once it has
// decoded it); transport: the same bytes with proof_kind 0 (the daemon answers INVALID_ARGUMENT as
// soon as the message is in and parsed); status: a GetStatus (no payload). Output lines: `call I
// wall_ms C client_cpu_ms C daemon_cpu_ms D code G`.
#include <grpcpp/grpcpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"

namespace {

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream all;
  all << f.rdbuf();
  return std::move(all).str();
}

// This process's user + system CPU, every thread, in ms.
double self_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// The daemon's utime + stime (fields 14 and 15 of /proc/PID/stat; dead threads included), in ms.
double daemon_cpu_ms(const std::string& pid) {
  std::string stat = read_all("/proc/" + pid + "/stat");
  std::istringstream in(stat.substr(stat.rfind(')') + 2));  // after "(comm) "
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return double(utime + stime) * 1e3 / double(sysconf(_SC_CLK_TCK));
}

std::shared_ptr<grpc::Channel> open(const std::string& addr, const std::string& ca,
                                    const std::string& cert, const std::string& key) {
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (!ca.empty()) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = read_all(ca);
    if (!cert.empty()) {
      o.pem_cert_chain = read_all(cert);
      o.pem_private_key = read_all(key);
    }
    creds = grpc::SslCredentials(o);
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(512 << 20);
  args.SetMaxSendMessageSize(512 << 20);
  // A channel of its own each time (no subchannel sharing), so "fresh" means a new connection.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(addr, creds, args);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 && argc != 8 && argc != 10) {
    std::fprintf(stderr,
                 "usage: %s ADDR C1_FILE DAEMON_PID REPEAT fresh|reuse prove|transport|status "
                 "[CA [CERT KEY]]\n",
                 argv[0]);
    return 2;
  }
  const std::string addr = argv[1], pid = argv[3], mode = argv[5], rpc = argv[6];
  const int repeat = std::stoi(argv[4]);
  const std::string ca = argc > 7 ? argv[7] : "", cert = argc > 8 ? argv[8] : "",
                    key = argc > 9 ? argv[9] : "";
  cuzk::v1::ProveRequest req;
  if (rpc != "status") {
    auto* s = req.mutable_submit();
    // transport: an unknown kind, refused by the daemon before anything reads the C1.
    s->set_proof_kind(rpc == "prove" ? cuzk::v1::POREP_SEAL_COMMIT
                                     : cuzk::v1::PROOF_KIND_UNSPECIFIED);
    s->set_registered_proof(8);  // StackedDrg32GiBV1_1
    s->set_sector_size(34359738368ull);
    s->set_vanilla_proof(read_all(argv[2]));
  }
  std::printf("message %zu bytes\n", req.ByteSizeLong());
  std::shared_ptr<grpc::Channel> shared;
  if (mode == "reuse") {
    shared = open(addr, ca, cert, key);
    if (!shared->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10))) {
      std::fprintf(stderr, "cannot connect to %s\n", addr.c_str());
      return 1;
    }
  }
  for (int i = 0; i < repeat; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the daemon idle again
    if (i > 0 && rpc != "status")
      req.mutable_submit()->set_request_id("tls-cost-" + std::to_string(i));
    const double d0 = daemon_cpu_ms(pid), c0 = self_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    auto channel = shared ? shared : open(addr, ca, cert, key);
    auto stub = cuzk::v1::ProvingEngine::NewStub(channel);
    grpc::ClientContext ctx;
    grpc::Status st;
    if (rpc != "status") {
      cuzk::v1::ProveResponse resp;
      st = stub->Prove(&ctx, req, &resp);
    } else {
      cuzk::v1::GetStatusResponse resp;
      st = stub->GetStatus(&ctx, cuzk::v1::GetStatusRequest(), &resp);
    }
    const double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double c1 = self_cpu_ms();
    // The daemon frees the message after it answers: let that land before the sample.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const double d1 = daemon_cpu_ms(pid);
    std::printf("call %d wall_ms %.2f client_cpu_ms %.2f daemon_cpu_ms %.0f code %d %s\n", i, wall,
                c1 - c0, d1 - d0, int(st.error_code()), st.error_message().substr(0, 60).c_str());
    std::fflush(stdout);
  }
  return 0;
}
