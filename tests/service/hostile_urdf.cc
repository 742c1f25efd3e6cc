#include "hostile_urdf.h"

#include <regex>

namespace motiond_test {
namespace {

// A valid one-joint robot; each slot takes extra XML.
struct Slots {
  std::string robot_material;  // robot-level <material> children
  std::string base_children;   // inside <link name="base">
  std::string joint_children;  // inside the revolute joint, after parent/child
  std::string joint_origin = "<origin xyz=\"0 0 0.1\" rpy=\"0 0 0\"/>";
  std::string axis = "<axis xyz=\"0 0 1\"/>";
  std::string limit = "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/>";
  std::string base_name = "base";
  std::string material_name = "steel";
};

std::string Robot(const Slots& s) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"hostile\">\n"
         "  <material name=\"" +
         s.material_name + "\">" +
         (s.robot_material.empty() ? "<color rgba=\"0.5 0.5 0.5 1\"/>" : s.robot_material) +
         "</material>\n"
         "  <link name=\"" +
         s.base_name + "\">" + s.base_children +
         "</link>\n"
         "  <link name=\"arm\"/>\n"
         "  <joint name=\"j1\" type=\"revolute\"><parent link=\"" +
         s.base_name + "\"/><child link=\"arm\"/>" + s.joint_origin + s.axis + s.limit +
         s.joint_children + "</joint>\n</robot>\n";
}

std::string Sphere() { return "<geometry><sphere radius=\"0.1\"/></geometry>"; }

}  // namespace

std::vector<std::string> FormatDirectivePayloads() {
  std::string many;
  for (int i = 0; i < 3000; ++i) many += "%s";
  std::string writes;
  for (int i = 0; i < 8; ++i) writes += "%n";
  std::string reads;
  for (int i = 0; i < 20; ++i) reads += "%s";
  return {reads,  writes,     "%p %p %p", "%x %x %x", "%08x.%08x.%08x.%08x",
          "%1$n", "%.0f%n%s", "1 %s 2",   many};
}

std::vector<HostileUrdf> FormatDirectiveUrdfs(const std::string& p) {
  // Where the XML goes, the XML with "@" standing for the payload, and the
  // words a good refusal names.
  enum class Slot {
    kBase,
    kRobotMaterial,
    kJointOrigin,
    kAxis,
    kLimit,
    kJoint,
    kMaterialName,
    kBaseName
  };
  struct Case {
    const char* label;
    Slot slot;
    std::string xml;
    std::vector<std::string> words;
  };
  const std::string sphere = Sphere();
  const std::string inertia =
      "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>";
  std::vector<Case> cases = {
      {"visual origin xyz",
       Slot::kBase,
       "<visual><origin xyz=\"@\"/>" + sphere + "</visual>",
       {"base", "visual", "xyz"}},
      {"visual origin rpy",
       Slot::kBase,
       "<visual><origin rpy=\"@\"/>" + sphere + "</visual>",
       {"base", "visual", "rpy"}},
      {"collision origin xyz",
       Slot::kBase,
       "<collision><origin xyz=\"@\"/>" + sphere + "</collision>",
       {"base", "collision", "xyz"}},
      {"inertial origin xyz",
       Slot::kBase,
       "<inertial><origin xyz=\"@\"/><mass value=\"1\"/>" + inertia + "</inertial>",
       {"base", "inertial", "xyz"}},
      {"box size",
       Slot::kBase,
       "<visual><geometry><box size=\"@\"/></geometry></visual>",
       {"base", "box", "size"}},
      {"cylinder radius",
       Slot::kBase,
       "<collision><geometry><cylinder radius=\"@\" length=\"1\"/></geometry></collision>",
       {"base", "cylinder", "radius"}},
      {"cylinder length",
       Slot::kBase,
       "<visual><geometry><cylinder radius=\"0.1\" length=\"@\"/></geometry></visual>",
       {"base", "cylinder", "length"}},
      {"sphere radius",
       Slot::kBase,
       "<visual><geometry><sphere radius=\"@\"/></geometry></visual>",
       {"base", "sphere", "radius"}},
      {"mesh scale",
       Slot::kBase,
       "<visual><geometry><mesh filename=\"m.stl\" scale=\"@\"/></geometry></visual>",
       {"base", "mesh", "scale"}},
      {"mass value",
       Slot::kBase,
       "<inertial><mass value=\"@\"/>" + inertia + "</inertial>",
       {"base", "mass", "value"}},
      {"inertia ixx",
       Slot::kBase,
       "<inertial><mass value=\"1\"/><inertia ixx=\"@\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" "
       "izz=\"1\"/></inertial>",
       {"base", "inertia", "ixx"}},
      {"visual material rgba",
       Slot::kBase,
       "<visual>" + sphere + "<material name=\"paint\"><color rgba=\"@\"/></material></visual>",
       {"base", "color", "rgba"}},
      {"robot material rgba",
       Slot::kRobotMaterial,
       "<color rgba=\"@\"/>",
       {"material", "steel", "rgba"}},
      {"joint origin xyz", Slot::kJointOrigin, "<origin xyz=\"@\"/>", {"j1", "origin", "xyz"}},
      {"joint origin rpy", Slot::kJointOrigin, "<origin rpy=\"@\"/>", {"j1", "origin", "rpy"}},
      {"joint axis xyz", Slot::kAxis, "<axis xyz=\"@\"/>", {"j1", "axis", "xyz"}},
      {"joint limit lower",
       Slot::kLimit,
       "<limit lower=\"@\" upper=\"1\" velocity=\"1\" effort=\"1\"/>",
       {"j1", "limit", "lower"}},
      {"joint limit upper",
       Slot::kLimit,
       "<limit lower=\"-1\" upper=\"@\" velocity=\"1\" effort=\"1\"/>",
       {"j1", "limit", "upper"}},
      {"joint limit effort",
       Slot::kLimit,
       "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"@\"/>",
       {"j1", "limit", "effort"}},
      {"joint limit velocity",
       Slot::kLimit,
       "<limit lower=\"-1\" upper=\"1\" velocity=\"@\" effort=\"1\"/>",
       {"j1", "limit", "velocity"}},
      {"safety_controller k_velocity",
       Slot::kJoint,
       "<safety_controller k_velocity=\"@\"/>",
       {"j1", "safety_controller", "k_velocity"}},
      {"calibration rising",
       Slot::kJoint,
       "<calibration rising=\"@\"/>",
       {"j1", "calibration", "rising"}},
      {"dynamics damping",
       Slot::kJoint,
       "<dynamics damping=\"@\"/>",
       {"j1", "dynamics", "damping"}},
      // Names reach the format too ("Material [" + name + "] has malformed ...").
      {"material name beside a bad rgba", Slot::kMaterialName, "steel@", {"material", "rgba"}},
      {"link name beside a bad xyz", Slot::kBaseName, "base@", {"visual", "xyz"}},
  };
  std::vector<HostileUrdf> out;
  for (const Case& c : cases) {
    std::string xml = c.xml;
    xml.replace(xml.find('@'), 1, p);
    Slots s;
    switch (c.slot) {
      case Slot::kBase:
        s.base_children = xml;
        break;
      case Slot::kRobotMaterial:
        s.robot_material = xml;
        break;
      case Slot::kJointOrigin:
        s.joint_origin = xml;
        break;
      case Slot::kAxis:
        s.axis = xml;
        break;
      case Slot::kLimit:
        s.limit = xml;
        break;
      case Slot::kJoint:
        s.joint_children = xml;
        break;
      case Slot::kMaterialName:
        s.material_name = xml;
        s.robot_material = "<color rgba=\"oops\"/>";
        break;
      case Slot::kBaseName:
        s.base_name = xml;
        s.base_children = "<visual><origin xyz=\"1 2\"/>" + sphere + "</visual>";
        break;
    }
    out.push_back({std::string(c.label) + " = \"" + p.substr(0, 24) + "\"", Robot(s), c.words});
  }
  return out;
}

std::string ValidUrdfWithDirectivesInNames() {
  return std::string("<?xml version=\"1.0\"?>\n<robot name=\"r%s%n\">\n") +
         "  <material name=\"m%n%s\"><color rgba=\"1 0 0 1\"/></material>\n" + "  <link name=\"" +
         kDirectiveBaseLink + "\"><visual>" + Sphere() +
         "<material name=\"m%n%s\"/></visual></link>\n" + "  <link name=\"" + kDirectiveTipLink +
         "\"/>\n" + "  <joint name=\"" + kDirectiveJoint + "\" type=\"revolute\"><parent link=\"" +
         kDirectiveBaseLink + "\"/><child link=\"" + kDirectiveTipLink +
         "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/>"
         "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>\n</robot>\n";
}

std::vector<HostileUrdf> CyclicUrdfs() {
  return {
      {"link that is its own parent",
       "<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"fixed\">"
       "<parent link=\"a\"/><child link=\"a\"/></joint></robot>",
       {"cycle", "a"}},
      {"two links that are each other's parent",
       "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>"
       "<joint name=\"jab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>"
       "<joint name=\"jba\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>",
       {"cycle"}},
      {"loop beside a valid tree",
       "<robot name=\"r\"><link name=\"base\"/><link name=\"arm\"/>"
       "<link name=\"loop_a\"/><link name=\"loop_b\"/>"
       "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
       "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>"
       "<joint name=\"ja\" type=\"fixed\"><parent link=\"loop_a\"/><child link=\"loop_b\"/></joint>"
       "<joint name=\"jb\" type=\"fixed\"><parent link=\"loop_b\"/><child link=\"loop_a\"/>"
       "</joint></robot>",
       {"cycle", "loop_"}},
  };
}

std::string LargeCyclicUrdf(int links, std::size_t bytes) {
  // Per link: <link name="N"/> and a fixed joint N -> N+1 (the last closes
  // the ring); the names carry the padding.
  const std::size_t per_link = bytes / static_cast<std::size_t>(links);
  const std::size_t pad = per_link > 100 ? (per_link - 100) / 3 : 1;
  auto name = [&](int i) { return "l" + std::to_string(i) + "_" + std::string(pad, 'x'); };
  std::string out = "<robot name=\"ring\">\n";
  out.reserve(bytes + 4096);
  for (int i = 0; i < links; ++i) out += "<link name=\"" + name(i) + "\"/>\n";
  for (int i = 0; i < links; ++i) {
    out += "<joint name=\"j" + std::to_string(i) + "\" type=\"fixed\"><parent link=\"" + name(i) +
           "\"/><child link=\"" + name((i + 1) % links) + "\"/></joint>\n";
  }
  return out + "</robot>\n";
}

bool LooksLikeFormatOutput(const std::string& message) {
  static const std::regex pointer("0x[0-9a-fA-F]{8,}|\\(nil\\)");
  return message.find('%') != std::string::npos || std::regex_search(message, pointer);
}

}  // namespace motiond_test
