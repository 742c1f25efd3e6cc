// PrecheckUrdfXml: what is checked before urdfdom sees a URDF, and that it
// refuses everything urdfdom itself would refuse (so users always get a
// message naming the element and attribute, never urdfdom's silence).
// urdfdom is the second method: with its logging unable to format
// (DisableUrdfdomLogFormatting) it is safe to run on hostile text here.

#include <random>
#include <string>
#include <vector>

#include <console_bridge/console.h>
#include <gtest/gtest.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include "core/model/internal/urdf_parsing.h"
#include "core/model/internal/urdf_xml_precheck.h"
#include "core/model/internal/urdfdom_logging.h"
#include "independent_fk.h"

namespace motion {
namespace {

const char* const kBundled[] = {"ur5.urdf",         "ur5e.urdf",
                                "ur10.urdf",        "panda.urdf",
                                "iiwa14.urdf",      "kuka_iiwa14_r820.urdf",
                                "abb_irb2400.urdf", "abb_irb120.urdf",
                                "fanuc_m10ia.urdf", "fanuc_lrmate200id.urdf",
                                "planar_2r.urdf",   "quirks.urdf"};

std::string Refusal(const std::string& urdf) {
  const absl::Status status = PrecheckUrdfXml(urdf, {});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << urdf.substr(0, 300);
  return std::string(status.message());
}

std::string Arm(const std::string& base_body, const std::string& joint_body = "") {
  return "<robot name=\"t\"><link name=\"base\">" + base_body +
         "</link><link name=\"arm\"/><joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/>"
         "<child link=\"arm\"/><axis xyz=\"0 0 1\"/>" +
         (joint_body.empty() ? "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/>"
                             : joint_body) +
         "</joint></robot>";
}

TEST(UrdfXmlPrecheckTest, EveryBundledRobotPasses) {
  for (const char* file : kBundled) {
    EXPECT_TRUE(PrecheckUrdfXml(motion_test::ReadRobotFile(file), {}).ok()) << file;
  }
}

TEST(UrdfXmlPrecheckTest, NumbersAreCountedAndFinite) {
  EXPECT_EQ(Refusal(Arm("<visual><origin xyz=\"1 2\"/><geometry><sphere radius=\"1\"/></geometry>"
                        "</visual>")),
            "urdf: link 'base' visual[0] origin xyz: '1 2' is not 3 finite numbers");
  EXPECT_NE(Refusal(Arm("<collision><origin rpy=\"0 0 0 0\"/><geometry><box size=\"1 1 1\"/>"
                        "</geometry></collision>"))
                .find("collision[0] origin rpy: '0 0 0 0' is not 3 finite numbers"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("<visual><geometry><sphere radius=\"1e400\"/></geometry></visual>"))
                .find("sphere radius: '1e400' is not a finite number"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("", "<limit lower=\"nan\" upper=\"1\" velocity=\"1\" effort=\"1\"/>"))
                .find("joint 'j1' limit lower: 'nan'"),
            std::string::npos);
  // A tab is not a separator for urdfdom: "0\t0" is one bad piece.
  EXPECT_NE(Refusal(Arm("<visual><origin xyz=\"0\t0 0\"/><geometry><sphere radius=\"1\"/>"
                        "</geometry></visual>"))
                .find("origin xyz"),
            std::string::npos);
}

TEST(UrdfXmlPrecheckTest, ColoursAreFourNumbersInTheUnitRange) {
  const std::string message = Refusal(
      "<robot name=\"t\"><material name=\"hot\"><color rgba=\"1.5 0 0 1\"/></material>"
      "<link name=\"a\"/></robot>");
  EXPECT_EQ(message, "urdf: material 'hot' color rgba: '1.5 0 0 1' is not 4 numbers in [0, 1]");
}

TEST(UrdfXmlPrecheckTest, RequiredElementsAndAttributes) {
  EXPECT_NE(Refusal(Arm("<visual><origin xyz=\"0 0 0\"/></visual>")).find("no <geometry>"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("<visual><geometry><cone radius=\"1\"/></geometry></visual>"))
                .find("unknown shape <'cone'>"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("<visual><geometry><cylinder radius=\"1\"/></geometry></visual>"))
                .find("cylinder: the length attribute is missing"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("<inertial><mass value=\"1\"/></inertial>")).find("no <inertia>"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("", "<limit lower=\"-1\" upper=\"1\" effort=\"1\"/>"))
                .find("joint 'j1' limit: the velocity attribute is missing"),
            std::string::npos);
  EXPECT_NE(Refusal(Arm("", " ")).find("a revolute joint needs a <limit>"), std::string::npos);
  EXPECT_NE(Refusal(Arm("<visual><geometry><sphere radius=\"1\"/></geometry>"
                        "<material name=\"nowhere\"/></visual>"))
                .find("material 'nowhere': has no color or texture"),
            std::string::npos);
  EXPECT_NE(Refusal("<robot name=\"t\"><link name=\"a\"/><link name=\"b\"/>"
                    "<joint name=\"j\" type=\"hinge\"><parent link=\"a\"/><child link=\"b\"/>"
                    "</joint></robot>")
                .find("joint 'j': type 'hinge'"),
            std::string::npos);
}

TEST(UrdfXmlPrecheckTest, CyclesAreFoundAndNamed) {
  EXPECT_EQ(Refusal("<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"fixed\">"
                    "<parent link=\"a\"/><child link=\"a\"/></joint></robot>"),
            "urdf: the joints form a cycle: link 'a' is its own ancestor (child <- parent: 'a' "
            "<- 'a'); the links of a URDF must form a tree");
  const std::string ring = Refusal(
      "<robot name=\"r\"><link name=\"root\"/><link name=\"x\"/><link name=\"a\"/>"
      "<link name=\"b\"/><link name=\"c\"/>"
      "<joint name=\"j0\" type=\"fixed\"><parent link=\"root\"/><child link=\"x\"/></joint>"
      "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>"
      "<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>"
      "<joint name=\"j3\" type=\"fixed\"><parent link=\"c\"/><child link=\"a\"/></joint></robot>");
  EXPECT_NE(ring.find("cycle: link 'a' is its own ancestor (child <- parent: 'a' <- 'c' <- 'b' "
                      "<- 'a')"),
            std::string::npos)
      << ring;
}

TEST(UrdfXmlPrecheckTest, TreeShape) {
  EXPECT_EQ(Refusal("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/></robot>"),
            "urdf: 2 root links (links that are no joint's child), 'a' and 'b'; the links of a "
            "URDF must form one tree");
  EXPECT_NE(Refusal("<robot name=\"r\"><link name=\"a\"/><joint name=\"j\" type=\"fixed\">"
                    "<parent link=\"a\"/><child link=\"ghost\"/></joint></robot>")
                .find("joint 'j': child link 'ghost' is not a <link> of this robot"),
            std::string::npos);
  EXPECT_NE(Refusal("<robot name=\"r\"><link name=\"a\"/><link name=\"a\"/></robot>")
                .find("two <link> elements are named 'a'"),
            std::string::npos);
  ModelLimits limits;
  limits.max_links = 1;
  EXPECT_EQ(
      PrecheckUrdfXml("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/></robot>", limits)
          .message(),
      "urdf: 2 links exceeds the limit of 1");
}

TEST(UrdfXmlPrecheckTest, QuotedTextCarriesNoPercentSign) {
  const std::string message =
      Refusal(Arm("<visual><origin xyz=\"%s%s%n\"/><geometry><sphere radius=\"1\"/></geometry>"
                  "</visual>"));
  EXPECT_EQ(message.find('%'), std::string::npos) << message;
  EXPECT_NE(message.find("'\\x25s\\x25s\\x25n'"), std::string::npos) << message;
}

// Mutations of every bundled robot: one numeric attribute value replaced by
// junk. Whatever urdfdom refuses, the precheck must refuse too (so no user
// gets urdfdom's unexplained refusal), and whatever the precheck accepts
// must parse. The values are read and written with TinyXML, as urdfdom reads.
TEST(UrdfXmlPrecheckTest, RefusesEverythingUrdfdomRefusesOnMutatedRobots) {
  const std::vector<std::string> junk = {"",     "abc",   "1 2",     "1 2 3 4", "nan",  "1e400",
                                         "%s%n", "0x10",  "1,5",     "--1",     "1.0f", "2",
                                         "-0.5", "1 2 3", "1 0 0 1", " 1 ",     "+1",   "1e-3"};
  const std::vector<std::string> numeric = {
      "xyz",      "rpy",     "size",     "radius",     "length",     "scale",
      "value",    "ixx",     "rgba",     "lower",      "upper",      "effort",
      "velocity", "damping", "friction", "k_velocity", "multiplier", "offset"};
  std::mt19937 rng(20261201);
  int refused_by_urdfdom = 0, mutations = 0;
  DisableUrdfdomLogFormatting();
  for (const char* file : kBundled) {
    TiXmlDocument original;
    original.Parse(motion_test::ReadRobotFile(file).c_str());
    ASSERT_FALSE(original.Error()) << file;
    // Every (element, attribute) holding a number, in document order.
    std::vector<std::pair<TiXmlElement*, std::string>> sites;
    std::vector<TiXmlElement*> stack{original.RootElement()};
    while (!stack.empty()) {
      TiXmlElement* e = stack.back();
      stack.pop_back();
      for (const std::string& a : numeric) {
        if (e->Attribute(a.c_str()) != nullptr) sites.emplace_back(e, a);
      }
      for (TiXmlElement* c = e->FirstChildElement(); c != nullptr; c = c->NextSiblingElement()) {
        stack.push_back(c);
      }
    }
    ASSERT_FALSE(sites.empty()) << file;
    for (int trial = 0; trial < 60; ++trial) {
      auto& [element, attribute] = sites[rng() % sites.size()];
      const std::string saved = element->Attribute(attribute.c_str());
      const std::string& value = junk[rng() % junk.size()];
      element->SetAttribute(attribute, value);
      TiXmlPrinter printer;
      original.Accept(&printer);
      const std::string mutated = printer.CStr();
      element->SetAttribute(attribute, saved);

      const bool precheck_ok = PrecheckUrdfXml(mutated, {}).ok();
      const bool urdfdom_ok = urdf::parseURDF(mutated) != nullptr;
      ++mutations;
      if (!urdfdom_ok) ++refused_by_urdfdom;
      EXPECT_TRUE(urdfdom_ok || !precheck_ok)
          << file << ": urdfdom refused what the precheck accepted, " << element->Value() << " "
          << attribute << "=\"" << value << "\"";
    }
  }
  // The mutations must exercise refusals, or the test proves nothing.
  EXPECT_GT(refused_by_urdfdom, mutations / 5);
  std::printf("[ figures  ] %d mutations, %d refused by urdfdom\n", mutations, refused_by_urdfdom);
}

// console_bridge formats a message only for an installed handler at or above
// the threshold; a handler installed by someone else and a DEBUG threshold
// are undone by ParseUrdf, so the recording handler never sees a call.
class RecordingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string&, console_bridge::LogLevel, const char*, int) override { ++calls; }
  int calls = 0;
};

TEST(UrdfdomLoggingTest, HostileUrdfNeverReachesConsoleBridgeFormatting) {
  RecordingHandler recorder;
  console_bridge::useOutputHandler(&recorder);
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_DEBUG);
  // Valid for the precheck (names may hold anything), so urdfdom parses it
  // and logs debug lines with these names: formatted only if logging is on.
  const auto parsed = ParseUrdf(
      "<robot name=\"%n\"><link name=\"a%n\"><visual><geometry><sphere radius=\"1\"/></geometry>"
      "</visual><collision><geometry><sphere radius=\"1\"/></geometry></collision></link>"
      "<link name=\"b%n\"/><joint name=\"j%s\" type=\"continuous\"><parent link=\"a%n\"/>"
      "<child link=\"b%n\"/></joint></robot>",
      {});
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(recorder.calls, 0);
  EXPECT_EQ(console_bridge::getOutputHandler(), nullptr);
  console_bridge::noOutputHandler();
}

TEST(UrdfParsingTest, DroppedModelsFreeTheirLinksWhateverTheGraph) {
  auto parsed = ParseUrdf(motion_test::ReadRobotFile("planar_2r.urdf"), {});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  std::shared_ptr<urdf::ModelInterface> model = *std::move(parsed);
  std::weak_ptr<urdf::Link> root = model->root_link_;
  std::weak_ptr<urdf::Link> tip = model->links_.at("tool");
  // A cycle of strong pointers, as urdfdom leaves one for cyclic joints.
  model->links_.at("tool")->child_links.push_back(model->root_link_);
  model.reset();
  EXPECT_TRUE(root.expired());
  EXPECT_TRUE(tip.expired());
}

}  // namespace
}  // namespace motion
