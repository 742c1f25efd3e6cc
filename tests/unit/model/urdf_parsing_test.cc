// Broken, hostile and oversized URDFs through RobotModel::FromUrdf: each is
// refused with InvalidArgument and a message that names the problem, and
// none crashes. Also the large-but-legal cases that must load.

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tinyxml.h>

#include "core/kinematics/forward_kinematics.h"
#include "core/model/internal/urdf_parsing.h"
#include "core/model/robot_model.h"
#include "independent_fk.h"

namespace motion {
namespace {

using motion_test::kPi;

// A valid two-link arm that the broken variants below start from.
std::string Robot(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"t\">\n" + body + "\n</robot>\n";
}

std::string RevoluteJoint(const std::string& name, const std::string& parent,
                          const std::string& child, const std::string& extra = "") {
  return "<joint name=\"" + name + "\" type=\"revolute\"><parent link=\"" + parent +
         "\"/><child link=\"" + child +
         "\"/><origin xyz=\"0 0 0.1\" rpy=\"0 0 0\"/><axis xyz=\"0 0 1\"/>"
         "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/>" +
         extra + "</joint>";
}

std::string FixedJoint(const std::string& name, const std::string& parent, const std::string& child,
                       const std::string& extra = "") {
  return "<joint name=\"" + name + "\" type=\"fixed\"><parent link=\"" + parent +
         "\"/><child link=\"" + child + "\"/><origin xyz=\"0.1 0 0\" rpy=\"0 0 0\"/>" + extra +
         "</joint>";
}

std::string Link(const std::string& name) { return "<link name=\"" + name + "\"/>"; }

// Expects InvalidArgument whose message contains every one of `needles`.
void ExpectRefused(const std::string& urdf, const std::vector<std::string>& needles,
                   const ModelLimits& limits = {}) {
  auto model = RobotModel::FromUrdf(urdf, limits);
  ASSERT_FALSE(model.ok()) << "loaded although it should not:\n" << urdf.substr(0, 400);
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument) << model.status();
  const std::string message(model.status().message());
  for (const std::string& needle : needles) {
    EXPECT_NE(message.find(needle), std::string::npos)
        << "message lacks '" << needle << "': " << message;
  }
}

TEST(BadUrdfTest, EmptyText) { ExpectRefused("", {"urdf", "empty"}); }

TEST(BadUrdfTest, NotXml) {
  ExpectRefused("this is not XML at all <<< >>", {"urdf"});
  ExpectRefused("<robot name=\"t\"><link name=\"a\">", {"urdf"});  // truncated
}

TEST(BadUrdfTest, XmlThatIsNotAUrdf) {
  ExpectRefused("<html/>", {"robot"});
  ExpectRefused("<?xml version=\"1.0\"?><html><body>robot</body></html>", {"robot"});
}

TEST(BadUrdfTest, JointWithUndefinedParentOrChild) {
  ExpectRefused(Robot(Link("a") + Link("b") + RevoluteJoint("j1", "ghost", "b")), {"j1", "ghost"});
  ExpectRefused(Robot(Link("a") + Link("b") + RevoluteJoint("j1", "a", "phantom")),
                {"j1", "phantom"});
}

TEST(BadUrdfTest, TwoRootLinks) {
  ExpectRefused(Robot(Link("a") + Link("b") + Link("c") + Link("island") +
                      RevoluteJoint("j1", "a", "b") + RevoluteJoint("j2", "b", "c")),
                {"a", "island"});
}

TEST(BadUrdfTest, LinkWithTwoParents) {
  ExpectRefused(Robot(Link("a") + Link("b") + Link("c") + RevoluteJoint("j1", "a", "b") +
                      RevoluteJoint("j2", "a", "c") + RevoluteJoint("j3", "b", "c")),
                {"'c'", "two joints", "j2", "j3"});
}

TEST(BadUrdfTest, CycleBesideASeparateRoot) {
  // root -> arm is a tree; a -> b -> c -> a is a loop that hangs off nothing.
  ExpectRefused(Robot(Link("root") + Link("arm") + Link("a") + Link("b") + Link("c") +
                      RevoluteJoint("j0", "root", "arm") + RevoluteJoint("jab", "a", "b") +
                      RevoluteJoint("jbc", "b", "c") + RevoluteJoint("jca", "c", "a")),
                {"cycle"});
}

TEST(BadUrdfTest, CycleThroughTheOnlyRoot) {
  // Every link has a parent: there is no root at all.
  ExpectRefused(Robot(Link("a") + Link("b") + RevoluteJoint("jab", "a", "b") +
                      RevoluteJoint("jba", "b", "a")),
                {"urdf"});
}

TEST(BadUrdfTest, JointFromALinkToItself) {
  ExpectRefused(Robot(Link("root") + Link("arm") + Link("p") + RevoluteJoint("j0", "root", "arm") +
                      RevoluteJoint("loop", "p", "p")),
                {"cycle"});
}

TEST(BadUrdfTest, NonFiniteOrigin) {
  for (const std::string origin :
       {"xyz=\"nan 0 0\"", "xyz=\"0 inf 0\"", "rpy=\"0 0 nan\"", "xyz=\"0 0 1e400\""}) {
    SCOPED_TRACE(origin);
    ExpectRefused(Robot(Link("a") + Link("b") +
                        "<joint name=\"bad_origin\" type=\"revolute\"><parent link=\"a\"/>"
                        "<child link=\"b\"/><origin " +
                        origin +
                        "/><axis xyz=\"0 0 1\"/>"
                        "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>"),
                  {"bad_origin"});
  }
}

TEST(BadUrdfTest, ZeroAxisOnMovableJoints) {
  for (const std::string type : {"revolute", "prismatic", "continuous"}) {
    SCOPED_TRACE(type);
    ExpectRefused(Robot(Link("a") + Link("b") + "<joint name=\"zero_axis\" type=\"" + type +
                        "\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 0\"/>"
                        "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>"),
                  {"zero_axis", "axis"});
  }
}

TEST(BadUrdfTest, FixedJointWithZeroAxisLoads) {
  // kuka_iiwa14_r820.urdf has <axis xyz="0 0 0"/> on a fixed joint: ignored.
  auto model = RobotModel::FromUrdf(
      Robot(Link("a") + Link("b") + Link("tool0") + RevoluteJoint("j1", "a", "b") +
            FixedJoint("flange", "b", "tool0", "<axis xyz=\"0 0 0\"/>")));
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ((*chain)->tip_link, "tool0");
  ChainData data(**chain);
  // j1 at z 0.1 about +Z, then 0.1 along the rotated X.
  const double q = 0.7;
  const Eigen::Isometry3d t = ForwardKinematics(**chain, data, Eigen::VectorXd::Constant(1, q));
  EXPECT_LT((t.translation() - Eigen::Vector3d(0.1 * std::cos(q), 0.1 * std::sin(q), 0.1)).norm(),
            1e-12);
}

TEST(BadUrdfTest, KukaFileWithZeroFixedAxisLoads) {
  auto model = RobotModel::FromUrdf(motion_test::ReadRobotFile("kuka_iiwa14_r820.urdf"));
  ASSERT_TRUE(model.ok()) << model.status();
}

TEST(BadUrdfTest, LowerAboveUpper) {
  ExpectRefused(Robot(Link("a") + Link("b") +
                      "<joint name=\"inverted\" type=\"revolute\"><parent link=\"a\"/>"
                      "<child link=\"b\"/><axis xyz=\"0 0 1\"/>"
                      "<limit lower=\"1.5\" upper=\"-1.5\" velocity=\"1\" effort=\"1\"/></joint>"),
                {"inverted", "lower"});
}

TEST(BadUrdfTest, NegativeVelocity) {
  ExpectRefused(Robot(Link("a") + Link("b") +
                      "<joint name=\"backwards\" type=\"revolute\"><parent link=\"a\"/>"
                      "<child link=\"b\"/><axis xyz=\"0 0 1\"/>"
                      "<limit lower=\"-1\" upper=\"1\" velocity=\"-2\" effort=\"1\"/></joint>"),
                {"backwards", "velocity"});
}

TEST(BadUrdfTest, MimicOfMissingJoint) {
  ExpectRefused(Robot(Link("a") + Link("b") + Link("c") + RevoluteJoint("j1", "a", "b") +
                      RevoluteJoint("j2", "b", "c", "<mimic joint=\"nobody\"/>")),
                {"j2", "nobody"});
}

TEST(BadUrdfTest, MimicCycle) {
  ExpectRefused(Robot(Link("a") + Link("b") + Link("c") +
                      RevoluteJoint("j1", "a", "b", "<mimic joint=\"j2\"/>") +
                      RevoluteJoint("j2", "b", "c", "<mimic joint=\"j1\"/>")),
                {"mimic", "cycle"});
}

TEST(BadUrdfTest, DuplicateNames) {
  ExpectRefused(Robot(Link("a") + Link("a") + Link("b") + RevoluteJoint("j1", "a", "b")), {"a"});
  ExpectRefused(Robot(Link("a") + Link("b") + Link("c") + RevoluteJoint("j1", "a", "b") +
                      RevoluteJoint("j1", "b", "c")),
                {"j1"});
}

TEST(BadUrdfTest, FloatingJointCannotBeInAChain) {
  // The arm (revolute) loads; a chain through the floating joint is refused.
  auto model = RobotModel::FromUrdf(
      Robot(Link("base") + Link("arm") + Link("free") + RevoluteJoint("j1", "base", "arm") +
            "<joint name=\"drift\" type=\"floating\"><parent link=\"base\"/><child link=\"free\"/>"
            "</joint>"));
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain("base", "free");
  ASSERT_FALSE(chain.ok());
  EXPECT_EQ(chain.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(chain.status().message()).find("drift"), std::string::npos)
      << chain.status();
  EXPECT_NE(std::string(chain.status().message()).find("floating"), std::string::npos)
      << chain.status();
}

// ------------------------------------------------------------------ limits

TEST(UrdfLimitsTest, OverMaxUrdfBytes) {
  const std::string urdf = Robot(Link("a") + Link("b") + RevoluteJoint("j1", "a", "b"));
  ModelLimits small;
  small.max_urdf_bytes = urdf.size() - 1;
  ExpectRefused(urdf, {"bytes", std::to_string(urdf.size()), std::to_string(urdf.size() - 1)},
                small);
  small.max_urdf_bytes = urdf.size();
  EXPECT_TRUE(RobotModel::FromUrdf(urdf, small).ok());

  // The default bound (4 MiB), padded with a comment.
  const ModelLimits defaults;
  std::string big = urdf;
  big.insert(big.find("<robot"), "<!--" + std::string(defaults.max_urdf_bytes, ' ') + "-->");
  ExpectRefused(big, {"bytes", std::to_string(defaults.max_urdf_bytes)});
}

std::string Nested(int depth, const std::string& open, const std::string& close) {
  std::string s;
  s.reserve(depth * (open.size() + close.size()) + 100);
  s += "<robot name=\"deep\">";
  for (int i = 0; i < depth; ++i) s += open;
  for (int i = 0; i < depth; ++i) s += close;
  s += "</robot>";
  return s;
}

TEST(UrdfLimitsTest, DeepXmlIsRefusedWithoutCrashing) {
  // TinyXML recurses once per level: 100000 levels would overflow the stack.
  ExpectRefused(Nested(100000, "<a>", "</a>"), {"nest", "64"});
  // Unclosed elements count as well.
  std::string unclosed = "<robot name=\"deep\">";
  for (int i = 0; i < 100000; ++i) unclosed += "<a>";
  ExpectRefused(unclosed, {"nest", "64"});
}

TEST(UrdfLimitsTest, OrdinaryXmlFeaturesStillLoad) {
  // The depth check is strict about what could fool it, not about XML that
  // real URDF files use: declarations, DOCTYPE, comments, entities, UTF-8.
  const std::string urdf =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\" standalone='yes'?>\n"
      "<!DOCTYPE robot>\n<?xml-stylesheet href=\"style.xsl\"?>\n"
      "<!-- Gr\xC3\xBC\xC3\x9F"
      "e: a > b, \"quoted\" & <tags/> -->\n"
      "<robot name=\"r&amp;d\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
      "  <material name=\"Gr\xC3\xBCn\"><color rgba=\"0 1 0 1\"/></material>\n"
      "  <link name=\"b\xC3\xA4se\"><visual><geometry><box size='1 1 1'/></geometry></visual>"
      "</link>\n  <link name=\"arm\"/>\n"
      "  <joint name=\"j1\" type=\"revolute\"><parent link=\"b\xC3\xA4se\"/>"
      "<child link=\"arm\"/><axis xyz = \"0 0 1\" />"
      "<limit lower=\"-1\" upper=\"1\" velocity=\"1\" effort=\"1\"/></joint>\n"
      "  <gazebo><![CDATA[<plugin> x < y </plugin>]]></gazebo>\n"
      "</robot>\n<!-- trailing comment -->\n";
  auto model = RobotModel::FromUrdf(urdf);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->name(), "r&d");
  EXPECT_EQ((*model)->default_chain().base_link, "b\xC3\xA4se");
}

TEST(UrdfLimitsTest, DeepXmlCannotHideBehindAttributesOrStrayEndTags) {
  // "/>" inside a quoted attribute value does not close the element.
  ExpectRefused(Nested(100000, "<a b=\"/>\">", "</a>"), {"urdf"});
  ExpectRefused(Nested(100000, "<a b='x/>'>", "</a>"), {"urdf"});
  // Stray end tags before the document must not lower the depth count.
  std::string stray;
  for (int i = 0; i < 100000; ++i) stray += "</x>";
  ExpectRefused(stray + Nested(100000, "<a>", "</a>"), {"urdf"});
  // TinyXML reads "&#x...x1;" as one character, across the closing quote.
  ExpectRefused(Nested(100000, "<a b=\"&#x\"/>x1;\">", "</a>"), {"urdf"});
  // In UTF-8 mode (any <?xml?> without another encoding) TinyXML steps over
  // the two bytes after a 3-byte lead byte, quote included.
  ExpectRefused("<?xml version=\"1.0\"?>" + Nested(100000, "<a b=\"\xE0\"/>\">", "</a>"), {"urdf"});
  // A '>' inside <!...> or <?...?> ends it for TinyXML.
  ExpectRefused(Nested(100000, "<!x \"><a>", "</a>"), {"urdf"});
  ExpectRefused(Nested(100000, "<?pi \"><a>", "</a>"), {"urdf"});
}

// TinyXML's own view: how deep it nested open elements, from the (possibly
// partial) tree it builds. It links every node it started, so a document it
// rejects half way still shows how deep it recursed. Only elements with
// children count: a self-closing leaf is not an open level (the limit counts
// <robot><link/></robot> as 1 deep).
int TinyXmlOpenDepth(const std::string& text) {
  std::vector<char> buffer(text.begin(), text.end());
  buffer.resize(text.size() + 16, '\0');  // TinyXML may read a few bytes past the end
  TiXmlDocument doc;
  doc.Parse(buffer.data());
  int deepest = 0;
  std::vector<std::pair<const TiXmlNode*, int>> stack{{&doc, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (node->FirstChild() != nullptr) deepest = std::max(deepest, depth);
    for (const TiXmlNode* child = node->FirstChild(); child; child = child->NextSibling()) {
      stack.push_back({child, depth + (child->ToElement() ? 1 : 0)});
    }
  }
  return deepest;
}

TEST(UrdfLimitsTest, DepthCheckNeverUnderCountsTinyXml) {
  // Random soup of the constructs TinyXML treats specially; whenever
  // TinyXML itself would nest deeper than the limit, ParseUrdf must refuse
  // before TinyXML runs (its own messages, not urdfdom's).
  // clang-format off
  const std::vector<std::string> pieces = {
      "<a>", "<b x=\"1\">", "<a y='/>'>", "<a z=\"&#x\"/>x1;\">", "<a w=\"\xE0\"/>\">", "<a v=q>",
      "<a b=\"x>y\">", "<c/>", "<d u=\"1\"/>", "</a>", "</b>", "</x>", "<!-- <a> -->",
      "<![CDATA[<a>]]>", "<!x <a b=\"/>", "<!x \">", "<?pi <a> ?>", "<?xml version=\"1.0\"?>",
      "<?xml version='?><a>'?>", "<?xml encoding=\"latin1\"?>", "t", " ", "&#x3c;", "&#60;",
      "&amp;", "\xEF\xBB\xBF", "\xC3\xA9", "\xE0", "\"", "'", ">", "/>", "<", "=", "<a\n>",
      "<robot name=\"r\">", "</robot>", "<a/ >", "<1>", "<a \xEF\xBB\xBF>", "<a b = \"1\" >",
      "<?XML version=\"1\"?>", "<a b=\"\xF0\">", "<a\xC3>", "</a\xC3>",
  };
  // clang-format on
  std::mt19937_64 rng(41);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(1, 40);
  constexpr int kLimit = 3;
  ModelLimits limits;
  limits.max_xml_depth = kLimit;
  int deeper_than_limit = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string doc;
    for (int k = length(rng); k > 0; --k) doc += pieces[pick(rng)];
    const int tinyxml_depth = TinyXmlOpenDepth(doc);
    if (tinyxml_depth <= kLimit) continue;
    ++deeper_than_limit;
    const auto parsed = ParseUrdf(doc, limits);
    ASSERT_FALSE(parsed.ok()) << doc;
    const std::string message(parsed.status().message());
    ASSERT_TRUE(message.rfind("urdf: malformed XML", 0) == 0 ||
                message.find("nest") != std::string::npos)
        << "TinyXML nests " << tinyxml_depth << " deep but the check let it through: " << doc
        << "\n"
        << message;
  }
  EXPECT_GT(deeper_than_limit, 1000);  // the soup does reach past the limit
}

TEST(UrdfLimitsTest, DepthLimitIsConfigurable) {
  const std::string urdf = Robot(Link("a") + Link("b") + RevoluteJoint("j1", "a", "b"));
  ModelLimits shallow;
  shallow.max_xml_depth = 1;  // <robot> holds <joint>; self-closing elements do not nest
  ExpectRefused(urdf, {"nest", "1"}, shallow);
  shallow.max_xml_depth = 2;
  EXPECT_TRUE(RobotModel::FromUrdf(urdf, shallow).ok());
  // Comments and CDATA do not nest.
  const std::string commented = Robot("<!-- <a><b><c><d> --><![CDATA[<e><f><g>]]>" + Link("a") +
                                      Link("b") + RevoluteJoint("j1", "a", "b"));
  EXPECT_TRUE(RobotModel::FromUrdf(commented, shallow).ok());
}

TEST(UrdfLimitsTest, TooManyLinks) {
  std::string body = Link("l0");
  for (int i = 1; i <= 20; ++i) {
    body += Link("l" + std::to_string(i)) + RevoluteJoint("j" + std::to_string(i),
                                                          "l" + std::to_string(i - 1),
                                                          "l" + std::to_string(i));
  }
  ModelLimits limits;
  limits.max_links = 20;
  ExpectRefused(Robot(body), {"21 links", "20"}, limits);
  limits.max_links = 21;
  EXPECT_TRUE(RobotModel::FromUrdf(Robot(body), limits).ok());
}

// A 500-link serial chain, listed tip first; joints at `revolute` indices
// are revolute about alternating axes, all others fixed.
std::string SerialChain(int links, const std::vector<int>& revolute, bool all_revolute) {
  std::string body;
  for (int i = links - 1; i >= 1; --i) {
    const std::string parent = "l" + std::to_string(i - 1), child = "l" + std::to_string(i);
    const bool moves =
        all_revolute || std::find(revolute.begin(), revolute.end(), i) != revolute.end();
    body += Link(child);
    if (moves) {
      body += "<joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"" +
              parent + "\"/><child link=\"" + child +
              "\"/><origin xyz=\"0.001 0 0.002\" rpy=\"0.01 0 0\"/><axis xyz=\"" +
              (i % 2 ? "0 0 1" : "0 1 0") +
              "\"/><limit lower=\"-3\" upper=\"3\" velocity=\"1\" effort=\"1\"/></joint>";
    } else {
      body += "<joint name=\"j" + std::to_string(i) + "\" type=\"fixed\"><parent link=\"" + parent +
              "\"/><child link=\"" + child +
              "\"/><origin xyz=\"0.001 0.0005 0\" rpy=\"0 0.003 0.002\"/></joint>";
    }
  }
  body += Link("l0");
  return Robot(body);
}

TEST(UrdfLimitsTest, LongFixedChainWithTwoRevoluteJointsLoads) {
  const std::string urdf = SerialChain(500, {123, 377}, false);
  auto model = RobotModel::FromUrdf(urdf);
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ((*chain)->base_link, "l0");
  EXPECT_EQ((*chain)->tip_link, "l499");
  EXPECT_EQ((*chain)->dof_names, (std::vector<std::string>{"j123", "j377"}));
  EXPECT_EQ((*chain)->links.size(), 500u);

  const auto spec = motion_test::ReadUrdfSpec(urdf);
  const auto reference = motion_test::WalkChain(spec, "l0", "l499");
  ChainData data(**chain);
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (int i = 0; i < 20; ++i) {
    const Eigen::VectorXd q = Eigen::Vector2d(u(rng), u(rng));
    const Eigen::Isometry3d expected = motion_test::IndependentFk(reference, q);
    const Eigen::Isometry3d actual = ForwardKinematics(**chain, data, q);
    EXPECT_LT((actual.translation() - expected.translation()).norm(), 1e-9);
    EXPECT_LT(motion_test::RotationDistance(actual.linear(), expected.linear()), 1e-9);
  }
}

TEST(UrdfLimitsTest, LongRevoluteChainIsRefusedCleanly) {
  ExpectRefused(SerialChain(500, {}, true), {"499 degrees of freedom", "64"});
  // Right at the limit it loads.
  auto model = RobotModel::FromUrdf(SerialChain(65, {}, true));
  ASSERT_TRUE(model.ok()) << model.status();
  auto chain = (*model)->Chain();
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ((*chain)->dof(), 64);
  ModelLimits tight;
  tight.max_chain_dof = 63;
  ExpectRefused(SerialChain(65, {}, true), {"64 degrees of freedom", "63"}, tight);
}

TEST(UrdfParsingTest, MessagesAreNotPrintedButReturned) {
  // urdfdom's own logging is off (it would format URDF text as printf);
  // ParseUrdf writes each message itself, so two different errors in a row
  // do not leak into each other.
  auto first = ParseUrdf(Robot(Link("a") + RevoluteJoint("j1", "a", "first_missing")), {});
  auto second = ParseUrdf(Robot(Link("a") + RevoluteJoint("j1", "a", "second_missing")), {});
  ASSERT_FALSE(first.ok());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(std::string(second.status().message()).find("second_missing"), std::string::npos)
      << second.status();
  EXPECT_EQ(std::string(second.status().message()).find("first_missing"), std::string::npos)
      << second.status();
}

}  // namespace
}  // namespace motion
