#include "core/model/internal/urdf_xml_precheck.h"

#include <algorithm>
#include <cmath>
#include <locale>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/diagnostics/untrusted_text.h"

namespace motion {
namespace {

absl::Status Refuse(absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("urdf: ", where, ": ", what));
}

// One number as urdfdom reads it (urdf_model/utils.h strToDouble): a
// classic-locale stream that must consume the whole text, leading white
// space allowed, trailing not; plus finite, which urdfdom does not ask.
bool ParseNumber(const std::string& text, double* value) {
  std::istringstream stream(text);
  stream.imbue(std::locale::classic());
  stream >> *value;
  return !stream.fail() && stream.eof() && std::isfinite(*value);
}

// `count` numbers: one is the whole text; vectors and colours are split on
// single spaces, empty pieces skipped (urdf::split_string), so a tab inside
// a piece makes it fail as a number, here as there.
bool ParseNumbers(const char* text, std::size_t count, std::vector<double>* values) {
  values->clear();
  double value = 0;
  if (count == 1) {
    if (!ParseNumber(text, &value)) return false;
    values->push_back(value);
    return true;
  }
  for (absl::string_view piece : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (values->size() == count || !ParseNumber(std::string(piece), &value)) return false;
    values->push_back(value);
  }
  return values->size() == count;
}

// `element`'s `attribute`, if present, is `count` finite numbers.
absl::Status CheckNumbers(const TiXmlElement& element, const char* attribute, std::size_t count,
                          absl::string_view where) {
  const char* text = element.Attribute(attribute);
  if (text == nullptr) return absl::OkStatus();
  std::vector<double> values;
  if (ParseNumbers(text, count, &values)) return absl::OkStatus();
  return Refuse(
      absl::StrCat(where, " ", element.Value(), " ", attribute),
      absl::StrCat(QuoteUntrusted(text), " is not ",
                   count == 1 ? "a finite number" : absl::StrCat(count, " finite numbers")));
}

absl::Status CheckRequired(const TiXmlElement& element, const char* attribute,
                           absl::string_view where) {
  if (element.Attribute(attribute) != nullptr) return absl::OkStatus();
  return Refuse(absl::StrCat(where, " ", element.Value()),
                absl::StrCat("the ", attribute, " attribute is missing"));
}

absl::Status CheckEach(const TiXmlElement& element, std::initializer_list<const char*> attributes,
                       absl::string_view where) {
  for (const char* attribute : attributes) {
    if (auto status = CheckNumbers(element, attribute, 1, where); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status CheckOrigin(const TiXmlElement& parent, absl::string_view where) {
  const TiXmlElement* origin = parent.FirstChildElement("origin");
  if (origin == nullptr) return absl::OkStatus();
  if (auto status = CheckNumbers(*origin, "xyz", 3, where); !status.ok()) return status;
  return CheckNumbers(*origin, "rpy", 3, where);
}

absl::Status CheckColor(const TiXmlElement& material, absl::string_view where) {
  const TiXmlElement* color = material.FirstChildElement("color");
  if (color == nullptr || color->Attribute("rgba") == nullptr) return absl::OkStatus();
  std::vector<double> rgba;
  if (ParseNumbers(color->Attribute("rgba"), 4, &rgba) &&
      std::all_of(rgba.begin(), rgba.end(), [](double v) { return v >= 0.0 && v <= 1.0; })) {
    return absl::OkStatus();
  }
  return Refuse(
      absl::StrCat(where, " color rgba"),
      absl::StrCat(QuoteUntrusted(color->Attribute("rgba")), " is not 4 numbers in [0, 1]"));
}

absl::Status CheckGeometry(const TiXmlElement& owner, absl::string_view where) {
  const TiXmlElement* geometry = owner.FirstChildElement("geometry");
  if (geometry == nullptr) return Refuse(where, "no <geometry>");
  const TiXmlElement* shape = geometry->FirstChildElement();  // urdfdom takes the first
  if (shape == nullptr) return Refuse(absl::StrCat(where, " geometry"), "no shape inside");
  const std::string type = shape->Value();
  const std::string at = absl::StrCat(where, " geometry");
  if (type == "sphere") {
    if (auto status = CheckRequired(*shape, "radius", at); !status.ok()) return status;
    return CheckNumbers(*shape, "radius", 1, at);
  }
  if (type == "box") {
    if (auto status = CheckRequired(*shape, "size", at); !status.ok()) return status;
    return CheckNumbers(*shape, "size", 3, at);
  }
  if (type == "cylinder") {
    for (const char* attribute : {"radius", "length"}) {
      if (auto status = CheckRequired(*shape, attribute, at); !status.ok()) return status;
      if (auto status = CheckNumbers(*shape, attribute, 1, at); !status.ok()) return status;
    }
    return absl::OkStatus();
  }
  if (type == "mesh") {
    if (auto status = CheckRequired(*shape, "filename", at); !status.ok()) return status;
    return CheckNumbers(*shape, "scale", 3, at);
  }
  return Refuse(at, absl::StrCat("unknown shape <", QuoteUntrusted(type),
                                 ">: expected sphere, box, cylinder or mesh"));
}

// A link's inertial, visuals and collisions.
absl::Status CheckLinkBody(const TiXmlElement& link, const std::string& link_where,
                           const std::set<std::string>& robot_materials) {
  if (const TiXmlElement* inertial = link.FirstChildElement("inertial")) {
    const std::string where = absl::StrCat(link_where, " inertial");
    if (auto status = CheckOrigin(*inertial, where); !status.ok()) return status;
    const TiXmlElement* mass = inertial->FirstChildElement("mass");
    if (mass == nullptr) return Refuse(where, "no <mass>");
    if (auto status = CheckRequired(*mass, "value", where); !status.ok()) return status;
    if (auto status = CheckNumbers(*mass, "value", 1, where); !status.ok()) return status;
    const TiXmlElement* inertia = inertial->FirstChildElement("inertia");
    if (inertia == nullptr) return Refuse(where, "no <inertia>");
    for (const char* attribute : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) {
      if (auto status = CheckRequired(*inertia, attribute, where); !status.ok()) return status;
    }
    if (auto status = CheckEach(*inertia, {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}, where);
        !status.ok()) {
      return status;
    }
  }
  for (const char* kind : {"visual", "collision"}) {
    int index = 0;
    for (const TiXmlElement* body = link.FirstChildElement(kind); body != nullptr;
         body = body->NextSiblingElement(kind), ++index) {
      const std::string where = absl::StrCat(link_where, " ", kind, "[", index, "]");
      if (auto status = CheckOrigin(*body, where); !status.ok()) return status;
      if (auto status = CheckGeometry(*body, where); !status.ok()) return status;
      const TiXmlElement* material =
          std::string(kind) == "visual" ? body->FirstChildElement("material") : nullptr;
      if (material == nullptr) continue;
      const char* name = material->Attribute("name");
      if (name == nullptr) return Refuse(absl::StrCat(where, " material"), "no name");
      const std::string material_where = absl::StrCat(where, " material ", QuoteUntrusted(name));
      if (auto status = CheckColor(*material, material_where); !status.ok()) return status;
      const bool defined_here = material->FirstChildElement("color") != nullptr ||
                                material->FirstChildElement("texture") != nullptr;
      if (!defined_here && robot_materials.count(name) == 0) {
        return Refuse(material_where,
                      "has no color or texture and no <material> of the robot has that name");
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckJointBody(const TiXmlElement& joint, const std::string& where,
                            const std::string& type) {
  if (auto status = CheckOrigin(joint, where); !status.ok()) return status;
  // urdfdom reads an axis only for joints that move about one.
  if (type != "fixed" && type != "floating") {
    if (const TiXmlElement* axis = joint.FirstChildElement("axis")) {
      if (auto status = CheckNumbers(*axis, "xyz", 3, where); !status.ok()) return status;
    }
  }
  if (const TiXmlElement* limit = joint.FirstChildElement("limit")) {
    for (const char* required : {"effort", "velocity"}) {
      if (auto status = CheckRequired(*limit, required, where); !status.ok()) return status;
    }
    if (auto status = CheckEach(*limit, {"lower", "upper", "effort", "velocity"}, where);
        !status.ok()) {
      return status;
    }
  } else if (type == "revolute" || type == "prismatic") {
    return Refuse(where, absl::StrCat("a ", type, " joint needs a <limit>"));
  }
  if (const TiXmlElement* safety = joint.FirstChildElement("safety_controller")) {
    if (auto status = CheckRequired(*safety, "k_velocity", where); !status.ok()) return status;
    if (auto status = CheckEach(
            *safety, {"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}, where);
        !status.ok()) {
      return status;
    }
  }
  if (const TiXmlElement* calibration = joint.FirstChildElement("calibration")) {
    if (auto status = CheckEach(*calibration, {"rising", "falling"}, where); !status.ok()) {
      return status;
    }
  }
  if (const TiXmlElement* mimic = joint.FirstChildElement("mimic")) {
    if (auto status = CheckRequired(*mimic, "joint", where); !status.ok()) return status;
    if (auto status = CheckEach(*mimic, {"multiplier", "offset"}, where); !status.ok()) {
      return status;
    }
  }
  if (const TiXmlElement* dynamics = joint.FirstChildElement("dynamics")) {
    if (dynamics->Attribute("damping") == nullptr && dynamics->Attribute("friction") == nullptr) {
      return Refuse(absl::StrCat(where, " dynamics"), "neither damping nor friction is given");
    }
    if (auto status = CheckEach(*dynamics, {"damping", "friction"}, where); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

struct JointEdge {
  std::string name;
  std::string parent;
  std::string child;
};

// Links, joints and their parent/child links form one tree: the shape
// urdfdom can build without leaving a cycle of shared pointers behind.
absl::Status CheckLinkTree(const std::vector<std::string>& links,
                           const std::vector<JointEdge>& joints) {
  const std::set<std::string> defined(links.begin(), links.end());
  std::map<std::string, const JointEdge*> parent_joint;  // child link -> its joint
  for (const JointEdge& joint : joints) {
    for (const auto& [role, link] :
         {std::pair<const char*, const std::string*>{"parent", &joint.parent},
          {"child", &joint.child}}) {
      if (defined.count(*link) == 0) {
        return Refuse(
            absl::StrCat("joint ", QuoteUntrusted(joint.name)),
            absl::StrCat(role, " link ", QuoteUntrusted(*link), " is not a <link> of this robot"));
      }
    }
    const auto [it, inserted] = parent_joint.emplace(joint.child, &joint);
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("urdf: link ", QuoteUntrusted(joint.child), " is the child of two joints, ",
                       QuoteUntrusted(it->second->name), " and ", QuoteUntrusted(joint.name),
                       "; the links of a URDF must form a tree"));
    }
  }
  // Follow parents up from every link; meeting a link already on the current
  // walk is a cycle. Each link is walked once (state 2 = known to end at a root).
  std::map<std::string, int> state;
  for (const std::string& start : links) {
    std::vector<std::string> walk;
    std::string link = start;
    while (state[link] == 0) {
      state[link] = 1;
      walk.push_back(link);
      const auto up = parent_joint.find(link);
      if (up == parent_joint.end()) break;
      link = up->second->parent;
    }
    if (state[link] == 1 && parent_joint.count(link) != 0 &&
        std::find(walk.begin(), walk.end(), link) != walk.end()) {
      std::vector<std::string> ring;
      for (auto it = std::find(walk.begin(), walk.end(), link); it != walk.end(); ++it) {
        if (ring.size() == 6) {
          ring.push_back("...");
          break;
        }
        ring.push_back(QuoteUntrusted(*it, 48));
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "urdf: the joints form a cycle: link ", QuoteUntrusted(link),
          " is its own ancestor (child <- parent: ", absl::StrJoin(ring, " <- "), " <- ",
          QuoteUntrusted(link, 48), "); the links of a URDF must form a tree"));
    }
    for (const std::string& visited : walk) state[visited] = 2;
  }
  std::vector<std::string> roots;
  for (const std::string& link : links) {
    if (parent_joint.count(link) == 0) roots.push_back(link);
  }
  if (roots.size() >= 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "urdf: ", roots.size(), " root links (links that are no joint's child), ",
        QuoteUntrusted(roots[0]), " and ", QuoteUntrusted(roots[1]),
        roots.size() > 2 ? " and more" : "", "; the links of a URDF must form one tree"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status PrecheckUrdfXml(absl::string_view urdf_text, const ModelLimits& limits) {
  // urdfdom hands TinyXML a C string: it stops at the first NUL, so do we.
  const std::string text(urdf_text.substr(0, urdf_text.find('\0')));
  TiXmlDocument document;
  document.Parse(text.c_str());
  if (document.Error()) {
    return absl::InvalidArgumentError(
        absl::StrCat("urdf: not well-formed XML: ", document.ErrorDesc(), " (line ",
                     document.ErrorRow(), ", column ", document.ErrorCol(), ")"));
  }
  const TiXmlElement* robot = document.FirstChildElement("robot");
  if (robot == nullptr) return absl::InvalidArgumentError("urdf: no <robot> element");

  std::set<std::string> robot_materials;
  for (const TiXmlElement* material = robot->FirstChildElement("material"); material != nullptr;
       material = material->NextSiblingElement("material")) {
    const char* name = material->Attribute("name");
    if (name == nullptr) return absl::InvalidArgumentError("urdf: a <material> has no name");
    if (auto status = CheckColor(*material, absl::StrCat("material ", QuoteUntrusted(name)));
        !status.ok()) {
      return status;
    }
    robot_materials.insert(name);
  }

  std::vector<std::string> links;
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link")) {
    links.push_back(link->Attribute("name") != nullptr ? link->Attribute("name") : "");
  }
  if (links.empty()) return absl::InvalidArgumentError("urdf: no <link> element");
  if (static_cast<int>(links.size()) > limits.max_links) {
    return absl::InvalidArgumentError(
        absl::StrCat("urdf: ", links.size(), " links exceeds the limit of ", limits.max_links));
  }
  std::set<std::string> link_names;
  int link_index = 0;
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link"), ++link_index) {
    const char* name = link->Attribute("name");
    if (name == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("urdf: <link> ", link_index, " has no name"));
    }
    if (!link_names.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("urdf: two <link> elements are named ", QuoteUntrusted(name)));
    }
    if (auto status =
            CheckLinkBody(*link, absl::StrCat("link ", QuoteUntrusted(name)), robot_materials);
        !status.ok()) {
      return status;
    }
  }

  std::vector<JointEdge> joints;
  std::set<std::string> joint_names;
  for (const TiXmlElement* joint = robot->FirstChildElement("joint"); joint != nullptr;
       joint = joint->NextSiblingElement("joint")) {
    const char* name = joint->Attribute("name");
    if (name == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("urdf: <joint> ", joints.size(), " has no name"));
    }
    const std::string where = absl::StrCat("joint ", QuoteUntrusted(name));
    if (!joint_names.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("urdf: two <joint> elements are named ", QuoteUntrusted(name)));
    }
    const char* type = joint->Attribute("type");
    static const std::set<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                                 "fixed",    "floating",   "planar"};
    if (type == nullptr || kTypes.count(type) == 0) {
      return Refuse(where, absl::StrCat("type ", type == nullptr ? "missing" : QuoteUntrusted(type),
                                        ": expected one of revolute, continuous, prismatic, "
                                        "fixed, floating, planar"));
    }
    if (auto status = CheckJointBody(*joint, where, type); !status.ok()) return status;
    JointEdge edge{name, "", ""};
    for (const auto& [tag, link] :
         {std::pair<const char*, std::string*>{"parent", &edge.parent}, {"child", &edge.child}}) {
      const TiXmlElement* element = joint->FirstChildElement(tag);
      if (element == nullptr || element->Attribute("link") == nullptr) {
        return Refuse(where, absl::StrCat("no <", tag, " link=\"...\"/>"));
      }
      *link = element->Attribute("link");
    }
    joints.push_back(std::move(edge));
  }
  return CheckLinkTree(links, joints);
}

}  // namespace motion
