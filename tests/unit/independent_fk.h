#pragma once

// A second, test-side implementation of URDF forward kinematics, written from
// the URDF specification (wiki.ros.org/urdf/XML/joint) and nothing else:
// the XML is read with TinyXML (a dependency of urdfdom), numbers are parsed
// here, rpy is composed by hand as Rz(yaw)*Ry(pitch)*Rx(roll) and joint
// motions use Rodrigues' formula. Neither ChainModel nor KDL nor urdfdom's
// model is used, so agreement with motion::ForwardKinematics is evidence, not
// a tautology.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tinyxml.h>
#include <Eigen/Geometry>

#ifndef MOTIOND_ROBOTS_DIR
#error "MOTIOND_ROBOTS_DIR must point at the bundled robots"
#endif

namespace motion_test {

inline constexpr double kPi = 3.14159265358979323846;

/// The text of a bundled robot file, e.g. ReadRobotFile("ur5.urdf"), or of
/// the file at an absolute path (arms a user brings: MOTIOND_EXTRA_ARMS in
/// executable_motion_test).
inline std::string ReadRobotFile(const std::string& file_name) {
  const std::string path = !file_name.empty() && file_name[0] == '/'
                               ? file_name
                               : std::string(MOTIOND_ROBOTS_DIR) + "/" + file_name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One <joint> exactly as written (defaults from the URDF spec).
struct UrdfJointSpec {
  std::string name;
  std::string type;
  std::string parent;
  std::string child;
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  // the spec's default axis
  bool has_limit = false;
  double lower = 0.0;
  double upper = 0.0;
  double velocity = 0.0;
  bool is_mimic = false;
  std::string mimic_joint;
  double mimic_multiplier = 1.0;
  double mimic_offset = 0.0;

  bool movable() const { return type == "revolute" || type == "continuous" || type == "prismatic"; }
};

struct UrdfSpec {
  std::string robot_name;
  std::vector<std::string> links;
  std::map<std::string, UrdfJointSpec> joints;
  std::map<std::string, std::string> parent_joint_of;  // child link -> joint name
};

inline std::vector<double> ParseNumbers(const char* text) {
  std::vector<double> out;
  if (text == nullptr) return out;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') throw std::runtime_error("bad number: " + token);
    out.push_back(value);
  }
  return out;
}

inline Eigen::Vector3d ParseVector3(const char* text, const Eigen::Vector3d& fallback) {
  if (text == nullptr) return fallback;
  const std::vector<double> v = ParseNumbers(text);
  if (v.size() != 3) throw std::runtime_error(std::string("expected 3 numbers: ") + text);
  return Eigen::Vector3d(v[0], v[1], v[2]);
}

inline double ParseDouble(const char* text, double fallback) {
  if (text == nullptr) return fallback;
  const std::vector<double> v = ParseNumbers(text);
  if (v.size() != 1) throw std::runtime_error(std::string("expected one number: ") + text);
  return v[0];
}

/// Reads the links and joints of a URDF (direct children of <robot> only, so
/// the <joint> elements inside <transmission> are not mistaken for joints).
inline UrdfSpec ReadUrdfSpec(const std::string& xml) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.Error()) throw std::runtime_error(std::string("XML error: ") + doc.ErrorDesc());
  const TiXmlElement* robot = doc.RootElement();
  if (robot == nullptr || robot->ValueStr() != "robot") throw std::runtime_error("no <robot>");
  UrdfSpec spec;
  if (const char* name = robot->Attribute("name")) spec.robot_name = name;
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (e->ValueStr() == "link") {
      spec.links.push_back(e->Attribute("name"));
      continue;
    }
    if (e->ValueStr() != "joint") continue;
    UrdfJointSpec j;
    j.name = e->Attribute("name");
    j.type = e->Attribute("type");
    j.parent = e->FirstChildElement("parent")->Attribute("link");
    j.child = e->FirstChildElement("child")->Attribute("link");
    if (const TiXmlElement* origin = e->FirstChildElement("origin")) {
      j.xyz = ParseVector3(origin->Attribute("xyz"), Eigen::Vector3d::Zero());
      j.rpy = ParseVector3(origin->Attribute("rpy"), Eigen::Vector3d::Zero());
    }
    if (const TiXmlElement* axis = e->FirstChildElement("axis")) {
      j.axis = ParseVector3(axis->Attribute("xyz"), Eigen::Vector3d::UnitX());
    }
    if (const TiXmlElement* limit = e->FirstChildElement("limit")) {
      j.has_limit = true;
      j.lower = ParseDouble(limit->Attribute("lower"), 0.0);
      j.upper = ParseDouble(limit->Attribute("upper"), 0.0);
      j.velocity = ParseDouble(limit->Attribute("velocity"), 0.0);
    }
    if (const TiXmlElement* mimic = e->FirstChildElement("mimic")) {
      j.is_mimic = true;
      j.mimic_joint = mimic->Attribute("joint");
      j.mimic_multiplier = ParseDouble(mimic->Attribute("multiplier"), 1.0);
      j.mimic_offset = ParseDouble(mimic->Attribute("offset"), 0.0);
    }
    spec.parent_joint_of[j.child] = j.name;
    spec.joints.emplace(j.name, std::move(j));
  }
  return spec;
}

inline UrdfSpec ReadRobotSpec(const std::string& file_name) {
  return ReadUrdfSpec(ReadRobotFile(file_name));
}

// Elementary rotations, written out (right-handed, active).
inline Eigen::Matrix3d RotX(double a) {
  Eigen::Matrix3d r;
  r << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return r;
}
inline Eigen::Matrix3d RotY(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return r;
}
inline Eigen::Matrix3d RotZ(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return r;
}

/// URDF rpy: fixed-axis roll about X, then pitch about Y, then yaw about Z.
inline Eigen::Matrix3d RotRpy(const Eigen::Vector3d& rpy) {
  return RotZ(rpy.z()) * RotY(rpy.y()) * RotX(rpy.x());
}

/// Rodrigues: R = I + sin(t) K + (1 - cos(t)) K^2 for the unit axis k.
inline Eigen::Matrix3d RotAxis(const Eigen::Vector3d& k, double t) {
  Eigen::Matrix3d K;
  K << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
  return Eigen::Matrix3d::Identity() + std::sin(t) * K + (1.0 - std::cos(t)) * K * K;
}

inline Eigen::Isometry3d Transform(const Eigen::Matrix3d& r, const Eigen::Vector3d& p) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = r;
  t.translation() = p;
  return t;
}

/// The joint origin followed by the joint's own motion by `value`.
inline Eigen::Isometry3d JointTransform(const UrdfJointSpec& j, double value) {
  Eigen::Isometry3d t = Transform(RotRpy(j.rpy), j.xyz);
  if (!j.movable()) return t;
  const Eigen::Vector3d axis = j.axis / j.axis.norm();
  if (j.type == "prismatic") return t * Transform(Eigen::Matrix3d::Identity(), value * axis);
  return t * Transform(RotAxis(axis, value), Eigen::Vector3d::Zero());
}

/// base -> tip found by walking parent joints up from the tip.
struct IndependentChain {
  std::vector<std::string> links;          ///< base ... tip
  std::vector<const UrdfJointSpec*> path;  ///< every joint base -> tip, fixed ones included
  std::vector<std::string> dof_names;      ///< independent joints in first-seen order
  std::vector<int> dof_of;                 ///< per path joint, -1 if fixed
  std::vector<double> multiplier, offset;  ///< per path joint: value = m * q[dof] + o
};

inline IndependentChain WalkChain(const UrdfSpec& spec, const std::string& base,
                                  const std::string& tip) {
  IndependentChain chain;
  std::vector<const UrdfJointSpec*> up;
  std::string link = tip;
  while (link != base) {
    const auto parent = spec.parent_joint_of.find(link);
    if (parent == spec.parent_joint_of.end()) {
      throw std::runtime_error(tip + " is not below " + base);
    }
    const UrdfJointSpec& joint = spec.joints.at(parent->second);
    up.push_back(&joint);
    link = joint.parent;
  }
  chain.links.push_back(base);
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    const UrdfJointSpec& j = **it;
    chain.path.push_back(&j);
    chain.links.push_back(j.child);
    double m = 1.0, o = 0.0;
    std::string master = j.name;
    // q_j = m1 * q_master1 + o1, q_master1 = m2 * q_master2 + o2, ...
    for (const UrdfJointSpec* s = &j; s->is_mimic; s = &spec.joints.at(master)) {
      o += m * s->mimic_offset;
      m *= s->mimic_multiplier;
      master = s->mimic_joint;
    }
    int dof = -1;
    if (j.movable()) {
      for (std::size_t i = 0; i < chain.dof_names.size(); ++i) {
        if (chain.dof_names[i] == master) dof = static_cast<int>(i);
      }
      if (dof < 0) {
        dof = static_cast<int>(chain.dof_names.size());
        chain.dof_names.push_back(master);
      }
    }
    chain.dof_of.push_back(dof);
    chain.multiplier.push_back(m);
    chain.offset.push_back(o);
  }
  return chain;
}

/// Pose of every link of the chain in the base frame (links[0] = base).
inline std::vector<Eigen::Isometry3d> IndependentLinkPoses(const IndependentChain& chain,
                                                           const Eigen::VectorXd& q) {
  std::vector<Eigen::Isometry3d> poses{Eigen::Isometry3d::Identity()};
  for (std::size_t k = 0; k < chain.path.size(); ++k) {
    const double value =
        chain.dof_of[k] < 0 ? 0.0 : chain.multiplier[k] * q[chain.dof_of[k]] + chain.offset[k];
    poses.push_back(poses.back() * JointTransform(*chain.path[k], value));
  }
  return poses;
}

inline Eigen::Isometry3d IndependentFk(const IndependentChain& chain, const Eigen::VectorXd& q) {
  return IndependentLinkPoses(chain, q).back();
}

/// The joint that defines DOF i of the chain (the master for mimics).
inline const UrdfJointSpec& DofJoint(const UrdfSpec& spec, const IndependentChain& chain, int i) {
  return spec.joints.at(chain.dof_names[i]);
}

/// Random joint values: within the URDF limits, widened by `margin` on each
/// side (FK is defined everywhere); continuous joints in [-2 pi, 2 pi].
inline Eigen::VectorXd RandomJoints(const UrdfSpec& spec, const IndependentChain& chain,
                                    std::mt19937_64& rng, double margin = 0.0) {
  Eigen::VectorXd q(chain.dof_names.size());
  for (int i = 0; i < q.size(); ++i) {
    const UrdfJointSpec& j = DofJoint(spec, chain, i);
    double lo = -2 * kPi, hi = 2 * kPi;
    if (j.type != "continuous" && j.has_limit) {
      lo = j.lower - margin;
      hi = j.upper + margin;
    }
    q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

/// Angle of the rotation R_a^T R_b, from the matrices (no quaternions).
inline double RotationDistance(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  const Eigen::Matrix3d d = a.transpose() * b;
  const Eigen::Vector3d v(d(2, 1) - d(1, 2), d(0, 2) - d(2, 0), d(1, 0) - d(0, 1));
  return std::atan2(0.5 * v.norm(), 0.5 * (d.trace() - 1.0));
}

}  // namespace motion_test
