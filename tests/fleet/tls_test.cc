// TLS and mTLS on the real binary, with certificates made by `openssl` in
// the test: a CA, a server certificate for DNS:localhost and IP:127.0.0.1, a
// client certificate from the same CA and one from a second, untrusted CA.
// Clients are the C++ client library and motionctl. Every refused client
// must fail cleanly: UNAVAILABLE well before its deadline, never a hang.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "clients/motion_client.h"
#include "motiond_process.h"
#include "service_test_support.h"

#ifndef MOTIONCTL_BINARY
#error "MOTIONCTL_BINARY must be the path of the motionctl executable"
#endif

namespace motiond_test {
namespace {

using motion::client::ClientOptions;
using motion::client::MotionClient;
using motiond_fleet::MotiondProcess;
using motiond_fleet::RunShell;
using motiond_fleet::TempDir;
using Clock = std::chrono::steady_clock;

constexpr auto kDeadline = std::chrono::seconds(5);

class TlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("motiond_tls");
    const std::string d = dir_->path();
    // EC keys: fast to make. OpenSSL 3 marks `req -x509` certificates as CAs.
    const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    std::ofstream(d + "/server.ext") << "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                        "extendedKeyUsage=serverAuth\n";
    std::ofstream(d + "/client.ext") << "extendedKeyUsage=clientAuth\n";
    const std::string script =
        "set -e; cd '" + d + "'\n" + "openssl req -x509" + key +
        " -keyout ca.key -out ca.pem -days 2 -subj /CN=motiond-test-ca\n" + "openssl req -x509" +
        key + " -keyout rogue_ca.key -out rogue_ca.pem -days 2 -subj /CN=rogue-ca\n" +
        "openssl req" + key + " -keyout server.key -out server.csr -subj /CN=motiond-server\n" +
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2"
        " -extfile server.ext -out server.pem\n" +
        "openssl req" + key + " -keyout client.key -out client.csr -subj /CN=cell-controller\n" +
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2"
        " -extfile client.ext -out client.pem\n" +
        "openssl req" + key + " -keyout rogue.key -out rogue.csr -subj /CN=intruder\n" +
        "openssl x509 -req -in rogue.csr -CA rogue_ca.pem -CAkey rogue_ca.key -CAcreateserial"
        " -days 2 -extfile client.ext -out rogue.pem\n";
    std::ofstream(d + "/make_certs.sh") << script;
    ASSERT_EQ(RunShell("sh '" + d + "/make_certs.sh' >'" + d + "/openssl.log' 2>&1"), 0)
        << "openssl failed:\n"
        << ReadAll(d + "/openssl.log");
    // The SANs are what the test says they are (read back by openssl).
    ASSERT_EQ(RunShell("openssl x509 -in '" + d +
                       "/server.pem' -noout -ext subjectAltName"
                       " | grep -q 'DNS:localhost, IP Address:127.0.0.1'"),
              0);
  }

  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static std::string ReadAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static std::string File(const std::string& name) { return dir_->File(name); }

  static std::unique_ptr<MotiondProcess> StartServer(bool require_client_cert) {
    std::vector<std::string> flags = {"--workers=1",
                                      "--metrics_listen=", "--tls_cert=" + File("server.pem"),
                                      "--tls_key=" + File("server.key")};
    if (require_client_cert) flags.push_back("--tls_client_ca=" + File("ca.pem"));
    return MotiondProcess::Start(require_client_cert ? "mtls" : "tls", flags);
  }

  // planar_2r at (pi/2, -pi/2): flange at (0.2, 0.1, 0) by the closed form.
  struct Outcome {
    grpc::Status status;
    double seconds = 0;
    bool right_answer = false;
  };
  static Outcome Fk(const ClientOptions& base, const std::string& target) {
    ClientOptions options = base;
    options.target = target;
    options.timeout = kDeadline;
    auto client = MotionClient::Connect(options);
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_robot_id(client->AddRobot(ReadRobot("planar_2r.urdf")));
    request.add_joints(kPi / 2);
    request.add_joints(-kPi / 2);
    v1::ComputeFkResponse response;
    Outcome outcome;
    const auto start = Clock::now();
    outcome.status = client->ComputeFk(request, &response);
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const auto& p = response.flange().position();
    outcome.right_answer = outcome.status.ok() && std::abs(p.x() - 0.2) < 1e-12 &&
                           std::abs(p.y() - 0.1) < 1e-12 && std::abs(p.z()) < 1e-12;
    return outcome;
  }

  static ::testing::AssertionResult FailsCleanly(const Outcome& outcome) {
    if (outcome.status.ok()) return ::testing::AssertionFailure() << "the call succeeded";
    if (outcome.status.error_code() != grpc::StatusCode::UNAVAILABLE) {
      return ::testing::AssertionFailure() << "not UNAVAILABLE: " << Describe(outcome.status);
    }
    if (outcome.seconds > 0.8 * std::chrono::duration<double>(kDeadline).count()) {
      return ::testing::AssertionFailure()
             << "took " << outcome.seconds << " s of a " << kDeadline.count() << " s deadline";
    }
    return ::testing::AssertionSuccess()
           << Describe(outcome.status) << " after " << outcome.seconds << " s";
  }

  static ClientOptions Trusting(const std::string& ca) {
    ClientOptions options;
    options.ca_file = File(ca);
    return options;
  }

  // motionctl ARGS against `address`; its exit code, output in `out`.
  static int Motionctl(const std::string& address, const std::string& args, std::string* out) {
    const std::string log = File("motionctl.out");
    const int rc =
        RunShell(std::string("timeout 20 '") + MOTIONCTL_BINARY + "' --target=" + address +
                 " --timeout=5 " + args + " >'" + log + "' 2>&1");
    *out = ReadAll(log);
    return rc;
  }

  static TempDir* dir_;
};

TempDir* TlsTest::dir_ = nullptr;

TEST_F(TlsTest, TlsServesClientsThatTrustItsCaAndNoOneElse) {
  auto server = StartServer(/*require_client_cert=*/false);

  // Verified against the IP SAN, and against the DNS SAN by name override.
  Outcome ok = Fk(Trusting("ca.pem"), server->address());
  EXPECT_TRUE(ok.status.ok()) << Describe(ok.status);
  EXPECT_TRUE(ok.right_answer);
  ClientOptions by_name = Trusting("ca.pem");
  by_name.server_name = "localhost";
  ok = Fk(by_name, server->address());
  EXPECT_TRUE(ok.right_answer) << Describe(ok.status);

  // A client that does not trust the CA, one checking a name the
  // certificate does not carry, and a plaintext client.
  Outcome refused = Fk(Trusting("rogue_ca.pem"), server->address());
  EXPECT_TRUE(FailsCleanly(refused));
  ClientOptions wrong_name = Trusting("ca.pem");
  wrong_name.server_name = "motiond.example.com";
  refused = Fk(wrong_name, server->address());
  EXPECT_TRUE(FailsCleanly(refused));
  refused = Fk(ClientOptions{}, server->address());
  EXPECT_TRUE(FailsCleanly(refused)) << "plaintext client to a TLS server";
  std::printf("plaintext client to the TLS server: %s after %.3f s\n",
              Describe(refused.status).c_str(), refused.seconds);

  // The server survived all of it.
  EXPECT_TRUE(Fk(Trusting("ca.pem"), server->address()).right_answer);
  EXPECT_EQ(server->Terminate(), 0) << server->Log();
}

TEST_F(TlsTest, MutualTlsRequiresAClientCertificateFromItsCa) {
  auto server = StartServer(/*require_client_cert=*/true);

  ClientOptions with_cert = Trusting("ca.pem");
  with_cert.cert_file = File("client.pem");
  with_cert.key_file = File("client.key");
  const Outcome ok = Fk(with_cert, server->address());
  EXPECT_TRUE(ok.status.ok()) << Describe(ok.status);
  EXPECT_TRUE(ok.right_answer);

  const Outcome no_cert = Fk(Trusting("ca.pem"), server->address());
  EXPECT_TRUE(FailsCleanly(no_cert)) << "a client without a certificate";
  std::printf("mTLS, client without a certificate: %s after %.3f s\n",
              Describe(no_cert.status).c_str(), no_cert.seconds);

  ClientOptions rogue = Trusting("ca.pem");
  rogue.cert_file = File("rogue.pem");
  rogue.key_file = File("rogue.key");
  EXPECT_TRUE(FailsCleanly(Fk(rogue, server->address()))) << "a client certificate from another CA";

  const Outcome plaintext = Fk(ClientOptions{}, server->address());
  EXPECT_TRUE(FailsCleanly(plaintext)) << "a plaintext client";

  // motionctl: the same three ways.
  std::string out;
  const std::string robot = RobotPath("planar_2r.urdf");
  const std::string tls = " --tls_ca=" + File("ca.pem");
  const std::string cert = " --tls_cert=" + File("client.pem") + " --tls_key=" + File("client.key");
  EXPECT_EQ(
      Motionctl(server->address(), tls + cert + " fk " + robot + " 1.5707963267948966 0", &out), 0)
      << out;
  EXPECT_NE(out.find("xyz"), std::string::npos) << out;
  EXPECT_NE(Motionctl(server->address(), tls + " fk " + robot + " 0 0", &out), 0) << out;
  EXPECT_NE(Motionctl(server->address(), "fk " + robot + " 0 0", &out), 0) << out;

  // Still serving the right client after the refusals.
  EXPECT_TRUE(Fk(with_cert, server->address()).right_answer);
  EXPECT_EQ(server->Terminate(), 0) << server->Log();
}

}  // namespace
}  // namespace motiond_test
