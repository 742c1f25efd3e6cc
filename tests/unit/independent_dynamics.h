#pragma once

// The test-side reference for core/dynamics: a KDL chain with inertias built from the URDF text
// by this file alone (TinyXML, the test-side joint reader of ../independent_fk.h, rpy composed by
// hand), solved by KDL's ChainIdSolver_RNE. Nothing of core's URDF conversion is used, so
// agreement with motion::InverseDynamics checks both the model data and the algorithm.

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tinyxml.h>
#include <Eigen/Geometry>
#include <kdl/chain.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include "independent_fk.h"

namespace motion_test {

/// One <link><inertial> as written: mass, origin, inertia about the COM in the origin frame.
struct UrdfInertialSpec {
  double mass = 0.0;
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

inline std::map<std::string, UrdfInertialSpec> ReadInertials(const std::string& xml) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.Error()) throw std::runtime_error(std::string("XML error: ") + doc.ErrorDesc());
  std::map<std::string, UrdfInertialSpec> out;
  for (const TiXmlElement* e = doc.RootElement()->FirstChildElement("link"); e;
       e = e->NextSiblingElement("link")) {
    const TiXmlElement* inertial = e->FirstChildElement("inertial");
    if (inertial == nullptr) continue;
    UrdfInertialSpec s;
    if (const TiXmlElement* origin = inertial->FirstChildElement("origin")) {
      s.xyz = ParseVector3(origin->Attribute("xyz"), Eigen::Vector3d::Zero());
      s.rpy = ParseVector3(origin->Attribute("rpy"), Eigen::Vector3d::Zero());
    }
    s.mass = ParseDouble(inertial->FirstChildElement("mass")->Attribute("value"), 0.0);
    const TiXmlElement* i = inertial->FirstChildElement("inertia");
    const double ixx = ParseDouble(i->Attribute("ixx"), 0),
                 iyy = ParseDouble(i->Attribute("iyy"), 0),
                 izz = ParseDouble(i->Attribute("izz"), 0),
                 ixy = ParseDouble(i->Attribute("ixy"), 0),
                 ixz = ParseDouble(i->Attribute("ixz"), 0),
                 iyz = ParseDouble(i->Attribute("iyz"), 0);
    s.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    out[e->Attribute("name")] = s;
  }
  return out;
}

inline KDL::Vector ToKdlVector(const Eigen::Vector3d& v) {
  return KDL::Vector(v.x(), v.y(), v.z());
}

inline KDL::Frame ToKdlFrame(const Eigen::Matrix3d& r, const Eigen::Vector3d& p) {
  return KDL::Frame(KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0),
                                  r(2, 1), r(2, 2)),
                    ToKdlVector(p));
}

/// Mass m at c (link frame) with inertia I_com along the link axes, as KDL wants it.
inline KDL::RigidBodyInertia KdlInertia(double m, const Eigen::Vector3d& c,
                                        const Eigen::Matrix3d& I_com) {
  return KDL::RigidBodyInertia(m, ToKdlVector(c),
                               KDL::RotationalInertia(I_com(0, 0), I_com(1, 1), I_com(2, 2),
                                                      I_com(0, 1), I_com(0, 2), I_com(1, 2)));
}

inline KDL::RigidBodyInertia KdlInertia(const UrdfInertialSpec& s) {
  const Eigen::Matrix3d R = RotRpy(s.rpy);
  return KdlInertia(s.mass, s.xyz, R * s.inertia * R.transpose());
}

/// Every link below `link` except through `skip_child` (a side branch), as one rigid inertia in
/// `link`'s frame, its joints at rest (0 clamped into their limits). A KDL chain has no branches,
/// so the branch is added to the segment it hangs off.
inline KDL::RigidBodyInertia SideBranchInertia(
    const UrdfSpec& spec, const std::map<std::string, UrdfInertialSpec>& inertials,
    const std::string& link, const std::string& skip_child) {
  KDL::RigidBodyInertia total = KDL::RigidBodyInertia::Zero();
  std::vector<std::pair<std::string, KDL::Frame>> stack{{link, KDL::Frame::Identity()}};
  while (!stack.empty()) {
    const auto [parent, X_link_parent] = stack.back();
    stack.pop_back();
    for (const auto& [name, j] : spec.joints) {
      if (j.parent != parent || (parent == link && j.child == skip_child)) continue;
      double rest = 0.0;
      if ((j.type == "revolute" || j.type == "prismatic") && j.has_limit) {
        rest = std::min(std::max(0.0, std::min(j.lower, j.upper)), std::max(j.lower, j.upper));
      }
      const Eigen::Isometry3d X = JointTransform(j, rest);
      const KDL::Frame X_link_child = X_link_parent * ToKdlFrame(X.linear(), X.translation());
      if (const auto found = inertials.find(j.child); found != inertials.end()) {
        total = total + X_link_child * KdlInertia(found->second);
      }
      stack.push_back({j.child, X_link_child});
    }
  }
  return total;
}

/// The chain of `walk` as one KDL segment per URDF joint (fixed ones as KDL Fixed joints, so KDL
/// does its own folding), each with its child link's inertial and the side branches below it.
inline KDL::Chain IndependentKdlChain(const UrdfSpec& spec, const IndependentChain& walk,
                                      const std::map<std::string, UrdfInertialSpec>& inertials) {
  KDL::Chain chain;
  for (std::size_t k = 0; k < walk.path.size(); ++k) {
    const UrdfJointSpec* j = walk.path[k];
    const std::string next = k + 1 < walk.path.size() ? walk.path[k + 1]->child : "";
    const Eigen::Matrix3d R = RotRpy(j->rpy);
    const KDL::Frame origin = ToKdlFrame(R, j->xyz);
    const Eigen::Vector3d axis = R * (j->axis / j->axis.norm());
    KDL::Joint joint(j->name, KDL::Joint::Fixed);
    if (j->type == "prismatic") {
      joint = KDL::Joint(j->name, origin.p, ToKdlVector(axis), KDL::Joint::TransAxis);
    } else if (j->movable()) {
      joint = KDL::Joint(j->name, origin.p, ToKdlVector(axis), KDL::Joint::RotAxis);
    }
    const auto found = inertials.find(j->child);
    const KDL::RigidBodyInertia own =
        found == inertials.end() ? KDL::RigidBodyInertia::Zero() : KdlInertia(found->second);
    chain.addSegment(KDL::Segment(j->child, joint, origin,
                                  own + SideBranchInertia(spec, inertials, j->child, next)));
  }
  return chain;
}

/// KDL's torques mapped back to the DOF of `walk`: each movable path joint moves by
/// m q[dof] + o, and a DOF's generalized force is the sum of m * its joints' torques.
inline Eigen::VectorXd KdlInverseDynamics(const KDL::Chain& chain, const IndependentChain& walk,
                                          const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          const Eigen::VectorXd& qdd,
                                          const Eigen::Vector3d& gravity) {
  const unsigned n = chain.getNrOfJoints();
  KDL::JntArray kq(n), kqd(n), kqdd(n), ktau(n);
  std::vector<std::pair<int, double>> dof_of_joint;
  for (std::size_t k = 0; k < walk.path.size(); ++k) {
    if (walk.dof_of[k] < 0) continue;
    const int dof = walk.dof_of[k];
    const double m = walk.multiplier[k];
    const unsigned j = static_cast<unsigned>(dof_of_joint.size());
    kq(j) = m * q[dof] + walk.offset[k];
    kqd(j) = m * qd[dof];
    kqdd(j) = m * qdd[dof];
    dof_of_joint.push_back({dof, m});
  }
  KDL::ChainIdSolver_RNE solver(chain, ToKdlVector(gravity));
  KDL::Wrenches external(chain.getNrOfSegments(), KDL::Wrench::Zero());
  if (solver.CartToJnt(kq, kqd, kqdd, external, ktau) < 0) {
    throw std::runtime_error("KDL ChainIdSolver_RNE failed");
  }
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(q.size());
  for (unsigned j = 0; j < n; ++j) tau[dof_of_joint[j].first] += dof_of_joint[j].second * ktau(j);
  return tau;
}

}  // namespace motion_test
