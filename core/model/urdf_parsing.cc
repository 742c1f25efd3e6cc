#include "core/model/urdf_parsing.h"

#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace motion {
namespace {

// urdfdom reports errors through console_bridge, a process-wide logger.
// This handler stores them per thread, so concurrent parses on different
// workers each get their own messages and nothing is printed.
thread_local std::string* tls_parse_errors = nullptr;

class CapturingOutputHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (tls_parse_errors == nullptr || level < console_bridge::CONSOLE_BRIDGE_LOG_ERROR) return;
    if (!tls_parse_errors->empty()) tls_parse_errors->append("; ");
    tls_parse_errors->append(text);
  }
};

void InstallCapturingHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    static CapturingOutputHandler handler;
    console_bridge::useOutputHandler(&handler);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  });
}

// Upper bound of element nesting, counted from the raw text without
// parsing (comments, CDATA and processing instructions are skipped).
int MaxXmlDepth(absl::string_view text) {
  int depth = 0, max_depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '<') continue;
    if (text.compare(i, 4, "<!--") == 0) {
      const auto end = text.find("-->", i + 4);
      if (end == absl::string_view::npos) break;
      i = end + 2;
      continue;
    }
    if (text.compare(i, 9, "<![CDATA[") == 0) {
      const auto end = text.find("]]>", i + 9);
      if (end == absl::string_view::npos) break;
      i = end + 2;
      continue;
    }
    if (i + 1 < text.size() && (text[i + 1] == '?' || text[i + 1] == '!')) continue;
    if (i + 1 < text.size() && text[i + 1] == '/') {
      --depth;
      continue;
    }
    const auto close = text.find('>', i);
    if (close == absl::string_view::npos) break;
    if (text[close - 1] != '/') max_depth = std::max(max_depth, ++depth);
    i = close;
  }
  return max_depth;
}

bool Finite(const urdf::Vector3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

absl::Status CheckJoint(const urdf::Joint& joint) {
  const auto& origin = joint.parent_to_joint_origin_transform;
  double qx, qy, qz, qw;
  origin.rotation.getQuaternion(qx, qy, qz, qw);
  if (!Finite(origin.position) || !std::isfinite(qx) || !std::isfinite(qy) ||
      !std::isfinite(qz) || !std::isfinite(qw)) {
    return absl::InvalidArgumentError(
        absl::StrCat("joint '", joint.name, "': <origin> has a non-finite xyz or rpy value"));
  }
  const bool movable = joint.type == urdf::Joint::REVOLUTE ||
                       joint.type == urdf::Joint::CONTINUOUS ||
                       joint.type == urdf::Joint::PRISMATIC;
  if (movable) {
    const auto& a = joint.axis;
    if (!Finite(a) || std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z) < 1e-12) {
      return absl::InvalidArgumentError(
          absl::StrCat("joint '", joint.name, "': <axis xyz=\"", a.x, " ", a.y, " ", a.z,
                       "\"> must be a finite non-zero vector for a movable joint"));
    }
  }
  if (joint.limits) {
    const auto& l = *joint.limits;
    if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || !std::isfinite(l.velocity)) {
      return absl::InvalidArgumentError(
          absl::StrCat("joint '", joint.name, "': <limit> has a non-finite value"));
    }
    if (joint.type != urdf::Joint::CONTINUOUS && l.lower > l.upper) {
      return absl::InvalidArgumentError(absl::StrCat("joint '", joint.name, "': <limit lower=",
                                                     l.lower, "> is above upper=", l.upper));
    }
    if (l.velocity < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "joint '", joint.name, "': <limit velocity=", l.velocity, "> is negative"));
    }
  }
  if (joint.mimic) {
    if (!std::isfinite(joint.mimic->multiplier) || !std::isfinite(joint.mimic->offset)) {
      return absl::InvalidArgumentError(
          absl::StrCat("joint '", joint.name, "': <mimic> multiplier/offset must be finite"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckMimics(const urdf::ModelInterface& model) {
  for (const auto& [name, joint] : model.joints_) {
    if (!joint->mimic) continue;
    // Follow mimic -> master links; more steps than joints means a cycle.
    std::string current = name;
    for (std::size_t steps = 0;; ++steps) {
      const auto it = model.joints_.find(current);
      if (it == model.joints_.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "joint '", name, "': <mimic joint=\"", current, "\"> names a joint that does not exist"));
      }
      if (!it->second->mimic) break;
      if (steps > model.joints_.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("joint '", name, "': <mimic> joints form a cycle"));
      }
      current = it->second->mimic->joint_name;
    }
  }
  return absl::OkStatus();
}

// urdfdom accepts a cycle of links that hangs off nothing (every link in
// it has a parent, the real root is elsewhere); such links are unreachable
// from the root, so a walk from the root that misses links finds it.
absl::Status CheckAllLinksReachable(const urdf::ModelInterface& model) {
  std::vector<const urdf::Link*> stack{model.getRoot().get()};
  std::size_t reached = 0;
  while (!stack.empty()) {
    const urdf::Link* link = stack.back();
    stack.pop_back();
    if (++reached > model.links_.size()) break;  // defensive: a cycle through the root
    for (const auto& child : link->child_links) stack.push_back(child.get());
  }
  if (reached == model.links_.size()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "urdf: the links do not form one tree below root '", model.getRoot()->name, "' (",
      reached, " of ", model.links_.size(), " links reached): the joints contain a cycle"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<urdf::ModelInterface>> ParseUrdf(absl::string_view urdf_text,
                                                         const ModelLimits& limits) {
  if (urdf_text.empty()) return absl::InvalidArgumentError("urdf: empty");
  if (urdf_text.size() > limits.max_urdf_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("urdf: ", urdf_text.size(),
                                                   " bytes exceeds the limit of ",
                                                   limits.max_urdf_bytes, " bytes"));
  }
  const int depth = MaxXmlDepth(urdf_text);
  if (depth > limits.max_xml_depth) {
    return absl::InvalidArgumentError(absl::StrCat("urdf: XML nests ", depth,
                                                   " elements deep; the limit is ",
                                                   limits.max_xml_depth));
  }

  InstallCapturingHandler();
  std::string errors;
  tls_parse_errors = &errors;
  std::shared_ptr<urdf::ModelInterface> model;
  try {
    model = urdf::parseURDF(std::string(urdf_text));
  } catch (const std::exception& e) {
    errors = e.what();
  }
  tls_parse_errors = nullptr;
  if (!model) {
    return absl::InvalidArgumentError(
        absl::StrCat("urdf: not a valid URDF: ", errors.empty() ? "parse failed" : errors));
  }
  if (!model->getRoot()) return absl::InvalidArgumentError("urdf: no root link");
  if (static_cast<int>(model->links_.size()) > limits.max_links) {
    return absl::InvalidArgumentError(absl::StrCat("urdf: ", model->links_.size(),
                                                   " links exceeds the limit of ",
                                                   limits.max_links));
  }
  for (const auto& [name, joint] : model->joints_) {
    if (auto status = CheckJoint(*joint); !status.ok()) return status;
  }
  if (auto status = CheckMimics(*model); !status.ok()) return status;
  if (auto status = CheckAllLinksReachable(*model); !status.ok()) return status;
  return model;
}

}  // namespace motion
