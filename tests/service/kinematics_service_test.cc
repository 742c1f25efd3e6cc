// motion.v1.Kinematics over real gRPC: FK and Jacobian against core run in
// the test (the proto round trip loses nothing), against the robots README
// reference table and closed forms (independent numbers), tool composition
// and link poses checked with Eigen, and the Jacobian against central
// differences of the service's own FK.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "core/kinematics/chain_data.h"
#include "core/kinematics/forward_kinematics.h"
#include "core/kinematics/jacobian.h"
#include "core/model/robot_model.h"
#include "service_test_support.h"

namespace motiond_test {
namespace {

// Core, in the test process: the reference the service must reproduce bit
// for bit (up to the quaternion round trip).
class CoreChain {
 public:
  CoreChain(const std::string& urdf, const std::string& base = "", const std::string& tip = "") {
    auto model = motion::RobotModel::FromUrdf(urdf);
    if (!model.ok()) throw std::runtime_error(model.status().ToString());
    model_ = *model;
    auto chain = model_->Chain(base, tip);
    if (!chain.ok()) throw std::runtime_error(chain.status().ToString());
    chain_ = *chain;
    data_ = std::make_unique<motion::ChainData>(*chain_);
  }
  Eigen::Isometry3d Fk(const std::vector<double>& q) {
    return motion::ForwardKinematics(*chain_, *data_,
                                     Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()));
  }
  motion::Jacobian Jacobian(const std::vector<double>& q,
                            const Eigen::Isometry3d& tool = Eigen::Isometry3d::Identity()) {
    motion::Jacobian j;
    motion::ComputeJacobian(*chain_, *data_, Eigen::Map<const Eigen::VectorXd>(q.data(), q.size()),
                            tool, j);
    return j;
  }

 private:
  std::shared_ptr<const motion::RobotModel> model_;
  std::shared_ptr<const motion::ChainModel> chain_;
  std::unique_ptr<motion::ChainData> data_;
};

std::vector<double> RandomJoints(const v1::RobotInfo& info, std::mt19937& rng) {
  std::vector<double> q;
  for (const auto& [lo, hi] : SamplingRanges(info)) {
    q.push_back(std::uniform_real_distribution<double>(lo, hi)(rng));
  }
  return q;
}

double MaxAbs(const Eigen::MatrixXd& m) { return m.cwiseAbs().maxCoeff(); }

Eigen::Isometry3d RandomPose(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)).normalized().toRotationMatrix();
  t.translation() = 0.2 * Eigen::Vector3d(u(rng), u(rng), u(rng));
  return t;
}

// Rotation vector (axis * angle) of R.
Eigen::Vector3d RotationVector(const Eigen::Matrix3d& r) {
  const Eigen::AngleAxisd aa(r);
  return aa.axis() * aa.angle();
}

class KinematicsServiceTest : public ::testing::Test {
 protected:
  TestServer server_;
  Stubs stubs_{server_.NewChannel()};

  v1::RobotInfo Register(const std::string& file) {
    v1::RegisterRobotResponse response;
    const grpc::Status status = stubs_.RegisterRobot(ReadRobot(file), &response);
    EXPECT_TRUE(status.ok()) << file << ": " << Describe(status);
    return response.info();
  }

  v1::ComputeFkResponse Fk(const v1::RobotRef& robot, const std::vector<double>& q,
                           const v1::Pose* tool = nullptr, bool all_links = false) {
    v1::ComputeFkRequest request;
    *request.mutable_robot() = robot;
    for (double v : q) request.add_joints(v);
    if (tool) *request.mutable_tool() = *tool;
    request.set_all_links(all_links);
    v1::ComputeFkResponse response;
    const grpc::Status status = stubs_.ComputeFk(request, &response);
    EXPECT_TRUE(status.ok()) << Describe(status);
    return response;
  }

  v1::ComputeJacobianResponse Jacobian(const v1::RobotRef& robot, const std::vector<double>& q,
                                       const v1::Pose* tool = nullptr) {
    v1::ComputeJacobianRequest request;
    *request.mutable_robot() = robot;
    for (double v : q) request.add_joints(v);
    if (tool) *request.mutable_tool() = *tool;
    v1::ComputeJacobianResponse response;
    const grpc::Status status = stubs_.ComputeJacobian(request, &response);
    EXPECT_TRUE(status.ok()) << Describe(status);
    return response;
  }
};

v1::RobotRef ById(const v1::RobotInfo& info) {
  v1::RobotRef ref;
  ref.set_robot_id(info.robot_id());
  return ref;
}

// ------------------------------------------------------------------- FK --

TEST_F(KinematicsServiceTest, FkEqualsCoreForRandomJointsOnEveryRobot) {
  std::mt19937 rng(20240601);
  for (const std::string& file : BundledRobotFiles()) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    CoreChain core(ReadRobot(file));
    for (int sample = 0; sample < 25; ++sample) {
      const std::vector<double> q = RandomJoints(info, rng);
      const Eigen::Isometry3d expected = core.Fk(q);
      const v1::ComputeFkResponse response = Fk(ById(info), q);
      const Eigen::Isometry3d flange = ToIsometry(response.flange());
      EXPECT_LE(MaxAbs(flange.translation() - expected.translation()), 1e-12);
      EXPECT_LE(MaxAbs(flange.linear() - expected.linear()), 1e-12);
      // Without a tool the TCP is the flange.
      EXPECT_LE(MaxAbs(ToIsometry(response.tcp()).matrix() - flange.matrix()), 1e-15);
      // The wire quaternion is unit.
      const auto& o = response.flange().orientation();
      EXPECT_NEAR(o.x() * o.x() + o.y() * o.y() + o.z() * o.z() + o.w() * o.w(), 1.0, 1e-14);
    }
  }
}

// robots/README.md, "Reference forward kinematics" (rounded to 1e-6).
struct ReferenceRow {
  std::string file;
  std::string base, tip;  // empty: the default chain
  int dof;
  bool ramp;  // q_i = 0.1 (i + 1) when true, else q = 0
  Eigen::Vector3d position;
  Eigen::Quaterniond orientation;  // (w, x, y, z) for Eigen's constructor
};

ReferenceRow Row(std::string file, std::string tip, int dof, bool ramp, double px, double py,
                 double pz, double qx, double qy, double qz, double qw) {
  const std::string base = tip.empty() ? "" : (file == "panda.urdf" ? "panda_link0" : "base");
  return ReferenceRow{
      file, base, tip, dof, ramp, Eigen::Vector3d(px, py, pz), Eigen::Quaterniond(qw, qx, qy, qz)};
}

TEST_F(KinematicsServiceTest, FkMatchesTheReadmeReferenceTable) {
  const std::vector<ReferenceRow> rows = {
      Row("ur5.urdf", "", 6, false, 0.817250, 0.191450, -0.005491, 0, 0.707107, 0.707107, 0),
      Row("ur5.urdf", "", 6, true, 0.689485, 0.251465, -0.273073, -0.612823, -0.558768, -0.459866,
          0.317411),
      Row("ur5e.urdf", "", 6, false, 0.817200, 0.232900, 0.062800, 0, -0.707107, -0.707107, 0),
      Row("ur5e.urdf", "", 6, true, 0.686708, 0.290716, -0.209344, -0.612823, -0.558768, -0.459866,
          0.317411),
      Row("ur10.urdf", "", 6, false, 1.184300, 0.256141, 0.011600, 0, 0.707107, 0.707107, 0),
      Row("ur10.urdf", "", 6, true, 1.009253, 0.347347, -0.375207, -0.612823, -0.558768, -0.459866,
          0.317411),
      Row("panda.urdf", "", 7, false, 0.088, 0, 0.926, 1, 0, 0, 0),
      Row("panda.urdf", "", 7, true, 0.085081, 0.063708, 0.975174, -0.913841, -0.093363, -0.292862,
          0.265348),
      Row("panda.urdf", "panda_hand_tcp", 7, false, 0.088, 0, 0.8226, 0.923880, 0.382683, 0, 0),
      Row("panda.urdf", "panda_hand_tcp", 7, true, 0.135303, 0.119509, 0.904071, -0.808550,
          -0.435968, -0.372114, 0.133076),
      Row("iiwa14.urdf", "", 7, false, 0, 0, 1.306, 0, 0, 0, 1),
      Row("iiwa14.urdf", "", 7, true, 0.041337, -0.004315, 1.278749, -0.040929, 0.190039, 0.694648,
          0.692585),
      Row("iiwa14.urdf", "iiwa_link_ee", 7, false, 0, 0, 1.306, 0, -0.707107, 0, 0.707107),
      Row("iiwa14.urdf", "iiwa_link_ee", 7, true, 0.041337, -0.004315, 1.278749, 0.462249,
          -0.355354, 0.520132, 0.624110),
      Row("kuka_iiwa14_r820.urdf", "", 7, false, 0, 0, 1.306, 0, 0, 0, 1),
      Row("kuka_iiwa14_r820.urdf", "", 7, true, 0.041296, -0.004189, 1.278667, -0.040929, 0.190039,
          0.694648, 0.692585),
      Row("abb_irb2400.urdf", "", 6, false, 0.94, 0, 1.455, 0, 0.707107, 0, 0.707107),
      Row("abb_irb2400.urdf", "", 6, true, 1.008173, 0.117104, 0.993752, 0.368777, 0.876432,
          0.226578, 0.211028),
      Row("abb_irb120.urdf", "", 6, false, 0.374, 0, 0.63, 0, 0.707107, 0, 0.707107),
      Row("abb_irb120.urdf", "", 6, true, 0.389136, 0.052554, 0.413068, 0.368777, 0.876432,
          0.226578, 0.211028),
      Row("fanuc_m10ia.urdf", "", 6, false, 0.89, 0, 1.25, 0.707107, 0, 0.707107, 0),
      Row("fanuc_m10ia.urdf", "", 6, true, 0.962244, 0.115310, 1.353633, 0.372758, 0.312344,
          0.812752, 0.320823),
      Row("fanuc_lrmate200id.urdf", "", 6, false, 0.465, 0, 0.695, 0.707107, 0, 0.707107, 0),
      Row("fanuc_lrmate200id.urdf", "", 6, true, 0.507675, 0.065948, 0.763850, 0.372758, 0.312344,
          0.812752, 0.320823),
      Row("planar_2r.urdf", "", 2, false, 0.3, 0, 0, 0, 0, 0, 1),
      Row("planar_2r.urdf", "", 2, true, 0.290568, 0.069087, 0, 0, 0, 0.149438, 0.988771),
      Row("quirks.urdf", "", 4, false, 0.5, 0, 0.45, 1, 0, 0, 0),
      Row("quirks.urdf", "", 4, true, 0.776169, 0.177710, 0.45, 0.939373, 0.342898, 0, 0),
  };
  for (const ReferenceRow& row : rows) {
    SCOPED_TRACE(row.file + " -> " + (row.tip.empty() ? "default" : row.tip) +
                 (row.ramp ? " q=0.1(i+1)" : " q=0"));
    v1::RobotRef ref;  // inline URDF: no registration needed
    ref.set_urdf(ReadRobot(row.file));
    ref.set_base_link(row.base);
    ref.set_tip_link(row.tip);
    std::vector<double> q(row.dof, 0.0);
    for (int i = 0; row.ramp && i < row.dof; ++i) q[i] = 0.1 * (i + 1);
    const v1::ComputeFkResponse response = Fk(ref, q);
    const auto& p = response.flange().position();
    EXPECT_NEAR(p.x(), row.position.x(), 1e-6);
    EXPECT_NEAR(p.y(), row.position.y(), 1e-6);
    EXPECT_NEAR(p.z(), row.position.z(), 1e-6);
    const auto& o = response.flange().orientation();
    const double sign = (o.x() * row.orientation.x() + o.y() * row.orientation.y() +
                         o.z() * row.orientation.z() + o.w() * row.orientation.w()) < 0
                            ? -1.0
                            : 1.0;  // q and -q are the same rotation
    EXPECT_NEAR(sign * o.x(), row.orientation.x(), 1e-6);
    EXPECT_NEAR(sign * o.y(), row.orientation.y(), 1e-6);
    EXPECT_NEAR(sign * o.z(), row.orientation.z(), 1e-6);
    EXPECT_NEAR(sign * o.w(), row.orientation.w(), 1e-6);
  }
}

TEST_F(KinematicsServiceTest, FkMatchesClosedFormsOfTheSyntheticRobots) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  const v1::RobotInfo planar = Register("planar_2r.urdf");
  const v1::RobotInfo quirks = Register("quirks.urdf");
  for (int sample = 0; sample < 20; ++sample) {
    const double q1 = angle(rng), q2 = angle(rng), q3 = 0.1 * (angle(rng) + 3) / 6, q4 = angle(rng);

    // planar_2r: x = 0.1 c1 + 0.2 c12, y = 0.1 s1 + 0.2 s12, yaw = q1 + q2.
    const Eigen::Isometry3d p = ToIsometry(Fk(ById(planar), {q1, q2}).flange());
    EXPECT_NEAR(p.translation().x(), 0.1 * std::cos(q1) + 0.2 * std::cos(q1 + q2), 1e-12);
    EXPECT_NEAR(p.translation().y(), 0.1 * std::sin(q1) + 0.2 * std::sin(q1 + q2), 1e-12);
    EXPECT_NEAR(p.translation().z(), 0.0, 1e-12);
    EXPECT_LE(MaxAbs(p.linear() -
                     Eigen::AngleAxisd(q1 + q2, Eigen::Vector3d::UnitZ()).toRotationMatrix()),
              1e-12);

    // quirks: x = 0.3 c1 + (0.2 + q3) c12, y likewise, z = 0.45,
    // R = Rz(q1 + q2 + q4) Rx(pi) (the "0 0 2" axis normalised).
    const Eigen::Isometry3d t = ToIsometry(Fk(ById(quirks), {q1, q2, q3, q4}).flange());
    EXPECT_NEAR(t.translation().x(), 0.3 * std::cos(q1) + (0.2 + q3) * std::cos(q1 + q2), 1e-12);
    EXPECT_NEAR(t.translation().y(), 0.3 * std::sin(q1) + (0.2 + q3) * std::sin(q1 + q2), 1e-12);
    EXPECT_NEAR(t.translation().z(), 0.45, 1e-12);
    const Eigen::Matrix3d r = (Eigen::AngleAxisd(q1 + q2 + q4, Eigen::Vector3d::UnitZ()) *
                               Eigen::AngleAxisd(kPi, Eigen::Vector3d::UnitX()))
                                  .toRotationMatrix();
    EXPECT_LE(MaxAbs(t.linear() - r), 1e-12);
  }
}

TEST_F(KinematicsServiceTest, TcpIsFlangeTimesTool) {
  std::mt19937 rng(99);
  for (const std::string file : {"ur5.urdf", "panda.urdf", "quirks.urdf"}) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    for (int sample = 0; sample < 10; ++sample) {
      const std::vector<double> q = RandomJoints(info, rng);
      const Eigen::Isometry3d tool = RandomPose(rng);
      v1::Pose tool_proto;
      ToProto(tool, &tool_proto);
      const v1::ComputeFkResponse response = Fk(ById(info), q, &tool_proto);
      const Eigen::Isometry3d expected = ToIsometry(response.flange()) * tool;
      const Eigen::Isometry3d tcp = ToIsometry(response.tcp());
      EXPECT_LE(MaxAbs(tcp.translation() - expected.translation()), 1e-12);
      EXPECT_LE(MaxAbs(tcp.linear() - expected.linear()), 1e-12);

      // A non-unit quaternion is normalised by the server: same TCP.
      v1::Pose scaled = tool_proto;
      auto* o = scaled.mutable_orientation();
      o->set_x(o->x() * 2.5);
      o->set_y(o->y() * 2.5);
      o->set_z(o->z() * 2.5);
      o->set_w(o->w() * 2.5);
      const Eigen::Isometry3d tcp_scaled = ToIsometry(Fk(ById(info), q, &scaled).tcp());
      EXPECT_LE(MaxAbs(tcp_scaled.matrix() - tcp.matrix()), 1e-12);
    }
  }
}

TEST_F(KinematicsServiceTest, PandaHandTcpChainIsLink8TimesTheHandJoints) {
  const v1::RobotInfo info = Register("panda.urdf");
  v1::RobotRef tcp_chain = ById(info);
  tcp_chain.set_base_link("panda_link0");
  tcp_chain.set_tip_link("panda_hand_tcp");
  // panda_hand_joint: yaw -pi/4; panda_hand_tcp_joint: +0.1034 z.
  const Eigen::Isometry3d hand =
      Eigen::Isometry3d(Eigen::AngleAxisd(-0.7853981633974483, Eigen::Vector3d::UnitZ())) *
      Eigen::Translation3d(0, 0, 0.1034);
  std::mt19937 rng(5);
  for (int sample = 0; sample < 10; ++sample) {
    const std::vector<double> q = RandomJoints(info, rng);
    const Eigen::Isometry3d link8 = ToIsometry(Fk(ById(info), q).flange());
    const Eigen::Isometry3d tcp = ToIsometry(Fk(tcp_chain, q).flange());
    EXPECT_LE(MaxAbs((link8 * hand).matrix() - tcp.matrix()), 1e-12);
  }
}

TEST_F(KinematicsServiceTest, AllLinksGivesOnePosePerChainLinkEndingAtTheFlange) {
  std::mt19937 rng(3);
  for (const std::string& file : BundledRobotFiles()) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    const std::vector<std::string> expected_links =
        LinksBetween(ReadUrdfText(ReadRobot(file)), info.base_link(), info.tip_link());
    const std::vector<double> q = RandomJoints(info, rng);

    EXPECT_EQ(Fk(ById(info), q).links_size(), 0) << "links only when all_links is set";
    const v1::ComputeFkResponse response = Fk(ById(info), q, nullptr, true);
    ASSERT_EQ(response.links_size(), static_cast<int>(expected_links.size()));
    for (int i = 0; i < response.links_size(); ++i) {
      EXPECT_EQ(response.links(i).link(), expected_links[i]);
    }
    // The base link is the base frame; the last link is the flange.
    EXPECT_LE(MaxAbs(ToIsometry(response.links(0).pose()).matrix() -
                     Eigen::Isometry3d::Identity().matrix()),
              1e-15);
    EXPECT_LE(MaxAbs(ToIsometry(response.links(response.links_size() - 1).pose()).matrix() -
                     ToIsometry(response.flange()).matrix()),
              1e-12);
  }

  // planar_2r, link by link: link1 = Rz(q1); link2 = link1 * (0.1, 0, 0) * Rz(q2).
  const v1::RobotInfo planar = Register("planar_2r.urdf");
  const double q1 = 0.7, q2 = -0.4;
  const v1::ComputeFkResponse response = Fk(ById(planar), {q1, q2}, nullptr, true);
  ASSERT_EQ(response.links_size(), 4);
  const Eigen::Isometry3d link1 = ToIsometry(response.links(1).pose());
  const Eigen::Isometry3d link2 = ToIsometry(response.links(2).pose());
  EXPECT_LE(MaxAbs(link1.translation()), 1e-15);
  EXPECT_NEAR(RotationVector(link1.linear()).z(), q1, 1e-12);
  EXPECT_NEAR(link2.translation().x(), 0.1 * std::cos(q1), 1e-12);
  EXPECT_NEAR(link2.translation().y(), 0.1 * std::sin(q1), 1e-12);
  EXPECT_NEAR(RotationVector(link2.linear()).z(), q1 + q2, 1e-12);
}

// ------------------------------------------------------------- Jacobian --

TEST_F(KinematicsServiceTest, JacobianEqualsCoreAndItsMeasuresFollowFromTheData) {
  std::mt19937 rng(11);
  for (const std::string& file : BundledRobotFiles()) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    CoreChain core(ReadRobot(file));
    for (int sample = 0; sample < 10; ++sample) {
      const std::vector<double> q = RandomJoints(info, rng);
      const v1::ComputeJacobianResponse response = Jacobian(ById(info), q);
      ASSERT_EQ(response.rows(), 6);
      ASSERT_EQ(response.cols(), info.dof());
      ASSERT_EQ(response.data_size(), 6 * info.dof());
      // Row-major on the wire.
      const Eigen::MatrixXd j =
          Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
              response.data().data(), 6, info.dof());
      EXPECT_LE(MaxAbs(j - core.Jacobian(q)), 1e-12);

      // Manipulability from the returned numbers: sqrt(det(J J^T)) for
      // dof >= 6, sqrt(det(J^T J)) below (proto comment).
      const Eigen::MatrixXd gram =
          info.dof() >= 6 ? Eigen::MatrixXd(j * j.transpose()) : Eigen::MatrixXd(j.transpose() * j);
      // Compared squared: at a singular J (quirks is rank 3 everywhere:
      // three parallel z axes and a TCP on the last one) det is rounding
      // noise, and its square root would amplify that noise to 1e-8.
      const double det = gram.determinant();
      const double m = response.manipulability();
      EXPECT_GE(m, 0.0);
      EXPECT_NEAR(m * m, det, 1e-12 * (1 + std::abs(det)));
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd(j);
      const Eigen::VectorXd s = svd.singularValues();
      ASSERT_EQ(response.singular_values_size(), static_cast<int>(s.size()));
      for (int i = 0; i < s.size(); ++i) {
        EXPECT_NEAR(response.singular_values(i), s[i], 1e-9 * (1 + s[0]));
      }
      if (s[s.size() - 1] > 1e-9 * s[0]) {
        const double condition = s[0] / s[s.size() - 1];
        EXPECT_NEAR(response.condition_number(), condition, 1e-6 * condition);
      } else {  // singular: +inf, or at least astronomically large
        EXPECT_GT(response.condition_number(), 1e8);
      }
    }
  }
}

TEST_F(KinematicsServiceTest, JacobianWithToolEqualsCore) {
  std::mt19937 rng(12);
  for (const std::string file : {"ur5.urdf", "panda.urdf", "quirks.urdf"}) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    CoreChain core(ReadRobot(file));
    const std::vector<double> q = RandomJoints(info, rng);
    const Eigen::Isometry3d tool = RandomPose(rng);
    v1::Pose tool_proto;
    ToProto(tool, &tool_proto);
    const v1::ComputeJacobianResponse response = Jacobian(ById(info), q, &tool_proto);
    ASSERT_EQ(response.data_size(), 6 * info.dof());
    const Eigen::MatrixXd j =
        Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            response.data().data(), 6, info.dof());
    EXPECT_LE(MaxAbs(j - core.Jacobian(q, ToIsometry(tool_proto))), 1e-12);
  }
}

TEST_F(KinematicsServiceTest, JacobianMatchesCentralDifferencesOfTheServiceFk) {
  std::mt19937 rng(13);
  const double h = 1e-6;
  for (const std::string file : {"ur5.urdf", "panda.urdf", "quirks.urdf", "fanuc_m10ia.urdf"}) {
    SCOPED_TRACE(file);
    const v1::RobotInfo info = Register(file);
    std::vector<double> q = RandomJoints(info, rng);
    const Eigen::Isometry3d tool = RandomPose(rng);
    v1::Pose tool_proto;
    ToProto(tool, &tool_proto);
    for (const v1::Pose* t :
         {static_cast<const v1::Pose*>(nullptr), static_cast<const v1::Pose*>(&tool_proto)}) {
      const v1::ComputeJacobianResponse response = Jacobian(ById(info), q, t);
      ASSERT_EQ(response.data_size(), 6 * info.dof());
      for (int k = 0; k < info.dof(); ++k) {
        std::vector<double> plus = q, minus = q;
        plus[k] += h;
        minus[k] -= h;
        const Eigen::Isometry3d a = ToIsometry(Fk(ById(info), plus, t).tcp());
        const Eigen::Isometry3d b = ToIsometry(Fk(ById(info), minus, t).tcp());
        const Eigen::Vector3d v = (a.translation() - b.translation()) / (2 * h);
        const Eigen::Vector3d w = RotationVector(a.linear() * b.linear().transpose()) / (2 * h);
        for (int r = 0; r < 3; ++r) {
          EXPECT_NEAR(response.data(r * info.dof() + k), v[r], 1e-6)
              << "v row " << r << " col " << k;
          EXPECT_NEAR(response.data((r + 3) * info.dof() + k), w[r], 1e-6)
              << "w row " << r << " col " << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace motiond_test
