// Writes the seed corpus of the three fuzz targets into DIR/<target>/:
//   fuzz_corpus_generator tests/fuzz/corpus
// Seeds are what real clients and attackers send: the bundled robots whole,
// cut short and mutated, the hostile URDFs of the service tests (printf
// directives, cycles, a large cyclic file), STL files of both kinds and
// their broken forms, and one or more requests of every message type.
// Deterministic: the same tree writes the same files. Files named
// regression_* are inputs a fuzzer once failed on, added by hand beside the
// regression test that replays them; this program never writes or removes
// them.

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/util/json_util.h>

#include "core/identity/robot_id.h"
#include "motion/v1/geometry.pb.h"
#include "motion/v1/kinematics.pb.h"
#include "motion/v1/motion_planner.pb.h"
#include "motion/v1/robot_registry.pb.h"
#include "proto/motion/v1/content_ids.h"
#include "tests/fuzz/request_kind.h"
#include "tests/service/hostile_urdf.h"

namespace {

namespace fs = std::filesystem;
namespace v1 = motion::v1;
using motiond_fuzz::RequestKind;

// Files above this are not written: libFuzzer's inputs stay small (its
// -max_len defaults to the largest seed) and the corpus stays in git.
constexpr std::size_t kMaxSeedBytes = 64u << 10;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class CorpusWriter {
 public:
  explicit CorpusWriter(fs::path dir) : dir_(std::move(dir)) { fs::create_directories(dir_); }

  void Write(const std::string& name, const std::string& bytes) {
    if (bytes.size() > kMaxSeedBytes) {
      std::fprintf(stderr, "skipped %s: %zu bytes\n", name.c_str(), bytes.size());
      return;
    }
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    ++count_;
  }
  int count() const { return count_; }

 private:
  fs::path dir_;
  int count_ = 0;
};

// Names safe as file names: the label's letters and digits, '_' elsewhere.
std::string Slug(const std::string& label) {
  std::string out;
  for (char c : label) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out.substr(0, 60);
}

std::map<std::string, std::string> BundledRobots() {
  std::map<std::string, std::string> robots;
  for (const auto& entry : fs::directory_iterator(MOTIOND_ROBOTS_DIR)) {
    if (entry.path().extension() == ".urdf") {
      robots[entry.path().stem().string()] = ReadFile(entry.path());
    }
  }
  return robots;
}

// Replaces the first occurrence of `from` in `text` (unchanged if absent).
std::string ReplaceFirst(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

void WriteUrdfSeeds(CorpusWriter& out) {
  for (const auto& [name, urdf] : BundledRobots()) {
    out.Write(name + ".urdf", urdf);
    // Cut short: an unterminated element, attribute or comment.
    out.Write(name + "_cut_third.urdf", urdf.substr(0, urdf.size() / 3));
    out.Write(name + "_cut_two_thirds.urdf", urdf.substr(0, 2 * urdf.size() / 3));
    // Mutated: what breaks a tree or a number without breaking the XML.
    out.Write(name + "_nan_origin.urdf", ReplaceFirst(urdf, "xyz=\"", "xyz=\"nan "));
    out.Write(name + "_huge_axis.urdf", ReplaceFirst(urdf, "<axis xyz=\"", "<axis xyz=\"1e309 "));
    out.Write(name + "_zero_axis.urdf",
              ReplaceFirst(urdf, "<axis xyz=\"", "<axis xyz=\"0 0 0\" old=\""));
    out.Write(name + "_floating.urdf",
              ReplaceFirst(urdf, "type=\"revolute\"", "type=\"floating\""));
    out.Write(name + "_no_parent.urdf", ReplaceFirst(urdf, "<parent link=\"", "<parent link=\"x"));
    out.Write(name + "_percent_name.urdf",
              ReplaceFirst(urdf, "<link name=\"", "<link name=\"%n%s"));
  }
  const std::vector<std::string> payloads = motiond_test::FormatDirectivePayloads();
  for (std::size_t p = 0; p < payloads.size(); ++p) {
    for (const motiond_test::HostileUrdf& hostile :
         motiond_test::FormatDirectiveUrdfs(payloads[p])) {
      out.Write("format_" + std::to_string(p) + "_" + Slug(hostile.label) + ".urdf", hostile.urdf);
    }
  }
  out.Write("directives_in_names.urdf", motiond_test::ValidUrdfWithDirectivesInNames());
  for (const motiond_test::HostileUrdf& hostile : motiond_test::CyclicUrdfs()) {
    out.Write("cycle_" + Slug(hostile.label) + ".urdf", hostile.urdf);
  }
  out.Write("cycle_large.urdf", motiond_test::LargeCyclicUrdf(200, 60u << 10));
  // Over the structural limits (README "motiond flags": nesting <= 64,
  // links <= 2048, DOF per chain <= 64).
  std::string deep = "<robot name=\"deep\"><link name=\"a\">";
  for (int i = 0; i < 70; ++i) deep += "<visual>";
  out.Write("nesting_70.urdf", deep);
  std::string many = "<robot name=\"many\">";
  for (int i = 0; i < 2050; ++i) many += "<link name=\"l" + std::to_string(i) + "\"/>";
  out.Write("links_2050.urdf", many + "</robot>");
  std::string chain = "<robot name=\"long\"><link name=\"l0\"/>";
  for (int i = 1; i <= 66; ++i) {
    const std::string n = std::to_string(i), p = std::to_string(i - 1);
    chain += "<link name=\"l" + n + "\"/><joint name=\"j" + n +
             "\" type=\"continuous\"><parent link=\"l" + p + "\"/><child link=\"l" + n +
             "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"0 1 0\"/></joint>";
  }
  out.Write("dof_66.urdf", chain + "</robot>");
}

// A cube of edge 0.1 m as 12 triangles.
std::vector<float> CubeVertices() {
  const float h = 0.05f;
  const float c[8][3] = {{-h, -h, -h}, {h, -h, -h}, {h, h, -h}, {-h, h, -h},
                         {-h, -h, h},  {h, -h, h},  {h, h, h},  {-h, h, h}};
  const int faces[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                            {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::vector<float> v;
  for (const auto& f : faces) {
    for (int k : f) v.insert(v.end(), c[k], c[k] + 3);
  }
  return v;
}

template <typename T>
void Append(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian hosts (x86-64, aarch64)
  out.append(bytes, sizeof(T));
}

std::string BinaryStl(const std::vector<float>& vertices, const std::string& header,
                      std::uint32_t claimed_count) {
  std::string out = header.substr(0, 80);
  out.resize(80, ' ');
  Append(out, claimed_count);
  for (std::size_t t = 0; t + 9 <= vertices.size(); t += 9) {
    for (int k = 0; k < 3; ++k) Append(out, 0.0f);  // normal: ignored
    for (int k = 0; k < 9; ++k) Append(out, vertices[t + k]);
    Append(out, std::uint16_t{0});
  }
  return out;
}

std::string BinaryStl(const std::vector<float>& vertices, const std::string& header = "cube") {
  return BinaryStl(vertices, header, static_cast<std::uint32_t>(vertices.size() / 9));
}

std::string AsciiStl(const std::vector<float>& vertices, const std::string& number_override = "") {
  std::string out = "solid cube\n";
  for (std::size_t t = 0; t + 9 <= vertices.size(); t += 9) {
    out += "  facet normal 0 0 1\n    outer loop\n";
    for (int k = 0; k < 3; ++k) {
      char line[96];
      std::snprintf(line, sizeof(line), "      vertex %g %g %g\n", vertices[t + 3 * k],
                    vertices[t + 3 * k + 1], vertices[t + 3 * k + 2]);
      out += line;
    }
    out += "    endloop\n  endfacet\n";
  }
  out += "endsolid cube\n";
  if (!number_override.empty()) out = ReplaceFirst(out, "0.05", number_override);
  return out;
}

void WriteStlSeeds(CorpusWriter& out) {
  const std::vector<float> cube = CubeVertices();
  const std::string binary = BinaryStl(cube);
  out.Write("cube_binary.stl", binary);
  out.Write("cube_binary_solid_header.stl", BinaryStl(cube, "solid but binary"));
  out.Write("cube_ascii.stl", AsciiStl(cube));
  out.Write("one_triangle_ascii.stl", AsciiStl({cube.begin(), cube.begin() + 9}));
  out.Write("one_triangle_binary.stl", BinaryStl({cube.begin(), cube.begin() + 9}));
  out.Write("binary_cut.stl", binary.substr(0, binary.size() - 7));
  out.Write("binary_count_too_big.stl", BinaryStl(cube, "cube", 13));
  out.Write("binary_count_huge.stl", BinaryStl(cube, "cube", 0xffffffffu));
  out.Write("binary_no_triangles.stl", BinaryStl({}, "empty", 0));
  out.Write("header_only.stl", binary.substr(0, 80));
  std::vector<float> nan_cube = cube;
  nan_cube[4] = std::numeric_limits<float>::quiet_NaN();
  out.Write("binary_nan.stl", BinaryStl(nan_cube));
  std::vector<float> inf_cube = cube;
  inf_cube[7] = std::numeric_limits<float>::infinity();
  out.Write("binary_inf.stl", BinaryStl(inf_cube));
  out.Write("ascii_nan.stl", AsciiStl(cube, "nan"));
  out.Write("ascii_huge.stl", AsciiStl(cube, "1e999"));
  out.Write("ascii_hex.stl", AsciiStl(cube, "0x1p-3"));
  out.Write("ascii_percent.stl", AsciiStl(cube, "%n%s"));
  const std::string ascii = AsciiStl(cube);
  out.Write("ascii_cut.stl", ascii.substr(0, ascii.size() / 2));
  out.Write("ascii_no_endsolid.stl", ascii.substr(0, ascii.rfind("endsolid")));
  out.Write("ascii_two_vertices.stl", ReplaceFirst(ascii, "      vertex -0.05 -0.05 -0.05\n", ""));
  out.Write("solid_only.stl", "solid x\nendsolid x\n");
  out.Write("empty.stl", "");
}

// -- requests ----------------------------------------------------------------

struct RobotSeed {
  std::string name;
  std::string urdf;
  std::string id;
  int dof;
};

void SetPose(v1::Pose* pose, double x, double y, double z, double qx, double qy, double qz,
             double qw) {
  pose->mutable_position()->set_x(x);
  pose->mutable_position()->set_y(y);
  pose->mutable_position()->set_z(z);
  pose->mutable_orientation()->set_x(qx);
  pose->mutable_orientation()->set_y(qy);
  pose->mutable_orientation()->set_z(qz);
  pose->mutable_orientation()->set_w(qw);
}

// A pose the bundled arms reach: half a metre ahead, tool pointing down.
void SetReachablePose(v1::Pose* pose, double dz = 0.0) {
  SetPose(pose, 0.4, 0.1, 0.3 + dz, 0.0, 1.0, 0.0, 0.0);
}

class RequestWriter {
 public:
  explicit RequestWriter(CorpusWriter& out) : out_(out) {}

  void Write(const std::string& name, RequestKind kind, const google::protobuf::Message& message) {
    std::string bytes(1, static_cast<char>(kind));
    message.AppendToString(&bytes);
    out_.Write(name + ".bin", bytes);
  }

 private:
  CorpusWriter& out_;
};

v1::Scene ExampleScene() {
  v1::Scene scene;
  const std::string json = ReadFile(fs::path(MOTIOND_EXAMPLES_DIR) / "ur5_cell_scene.json");
  if (!google::protobuf::util::JsonStringToMessage(json, &scene).ok()) {
    std::fprintf(stderr, "ur5_cell_scene.json does not parse\n");
    std::exit(1);
  }
  return scene;
}

// One object of every shape, the mesh a small cube.
v1::Scene EveryShapeScene() {
  v1::Scene scene;
  auto add = [&](const std::string& id, double x) {
    v1::CollisionObject* o = scene.add_objects();
    o->set_id(id);
    SetPose(o->mutable_pose(), x, 0.5, 0.2, 0, 0, 0, 1);
    return o->mutable_shape();
  };
  v1::Vector3* size = add("box", 0.3)->mutable_box()->mutable_size();
  size->set_x(0.1);
  size->set_y(0.2);
  size->set_z(0.3);
  v1::Cylinder* cylinder = add("cylinder", 0.0)->mutable_cylinder();
  cylinder->set_radius(0.05);
  cylinder->set_length(0.4);
  add("sphere", -0.3)->mutable_sphere()->set_radius(0.1);
  v1::Capsule* capsule = add("capsule", -0.6)->mutable_capsule();
  capsule->set_radius(0.03);
  capsule->set_length(0.2);
  v1::Mesh* mesh = add("mesh", 0.6)->mutable_mesh();
  mesh->set_stl(BinaryStl(CubeVertices()));
  mesh->mutable_scale()->set_x(1);
  mesh->mutable_scale()->set_y(1);
  mesh->mutable_scale()->set_z(2);
  return scene;
}

// A two-link arm whose second link's collision is a mesh file, sent with it.
constexpr const char* kMeshFile = "package://cell/meshes/block.stl";
std::string MeshArmUrdf() {
  return std::string(
             "<robot name=\"mesh_arm\"><link name=\"base\"><collision><geometry><box size=\"0.2 "
             "0.2 0.1\"/></geometry></collision></link><link name=\"arm\"><collision><origin "
             "xyz=\"0 0 0.3\"/><geometry><mesh filename=\"") +
         kMeshFile +
         "\" scale=\"1 1 3\"/></geometry></collision></link><link name=\"tool0\"/>"
         "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
         "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><limit lower=\"-3\" upper=\"3\" "
         "velocity=\"2\" effort=\"1\"/></joint><joint name=\"j2\" type=\"fixed\"><parent "
         "link=\"arm\"/><child link=\"tool0\"/><origin xyz=\"0 0 0.6\"/></joint></robot>";
}

void SetRobot(v1::RobotRef* ref, const RobotSeed& robot, bool inline_urdf) {
  ref->set_robot_id(robot.id);
  if (inline_urdf) ref->set_urdf(robot.urdf);
}

void AddJoints(google::protobuf::RepeatedField<double>* joints, int dof, double value) {
  for (int i = 0; i < dof; ++i) joints->Add(value * ((i % 2) ? -1 : 1));
}

void WriteKinematicsSeeds(RequestWriter& out, const RobotSeed& r) {
  const bool small = r.urdf.size() < 8000;  // inline only the small robots
  {
    v1::RegisterRobotRequest request;
    request.set_urdf(r.urdf);
    out.Write("register_" + r.name, RequestKind::kRegisterRobot, request);
  }
  {
    v1::GetRobotRequest request;
    request.set_robot_id(r.id);
    out.Write("get_" + r.name, RequestKind::kGetRobot, request);
  }
  {
    v1::ComputeFkRequest request;
    SetRobot(request.mutable_robot(), r, small);
    AddJoints(request.mutable_joints(), r.dof, 0.3);
    SetPose(request.mutable_tool(), 0, 0, 0.1, 0, 0, 0, 1);
    request.set_all_links(true);
    out.Write("fk_" + r.name, RequestKind::kComputeFk, request);
  }
  {
    v1::ComputeJacobianRequest request;
    SetRobot(request.mutable_robot(), r, false);
    AddJoints(request.mutable_joints(), r.dof, 0.0);  // often singular
    out.Write("jacobian_" + r.name, RequestKind::kComputeJacobian, request);
  }
  {
    v1::ComputeIkRequest request;
    SetRobot(request.mutable_robot(), r, false);
    SetReachablePose(request.mutable_target());
    request.mutable_options()->set_mode(v1::IkOptions::ALL);
    request.mutable_options()->mutable_configuration()->set_elbow(1);
    out.Write("ik_" + r.name, RequestKind::kComputeIk, request);
  }
  {
    v1::CheckReachabilityRequest request;
    SetRobot(request.mutable_robot(), r, false);
    for (int i = 0; i < 4; ++i) SetReachablePose(request.add_targets(), 0.05 * i);
    SetPose(request.add_targets(), 5, 5, 5, 0, 0, 0, 1);  // out of reach
    request.mutable_options()->set_seed_from_previous(true);
    request.mutable_options()->set_solver(r.dof == 6 ? "kdl_lma" : "");
    out.Write("reachability_" + r.name, RequestKind::kCheckReachability, request);
  }
  {
    v1::CheckCollisionRequest request;
    SetRobot(request.mutable_robot(), r, false);
    AddJoints(request.add_configurations()->mutable_values(), r.dof, 0.0);
    AddJoints(request.add_configurations()->mutable_values(), r.dof, 1.2);
    *request.mutable_scene()->mutable_scene() = EveryShapeScene();
    request.set_compute_distance(true);
    request.set_safety_margin(0.01);
    out.Write("collision_" + r.name, RequestKind::kCheckCollision, request);
  }
}

v1::PlanPathRequest ExamplePath(const std::string& file, const RobotSeed& ur5) {
  v1::PlanPathRequest request;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  // "robot": "ur5" is motionctl's shorthand, not a RobotRef.
  const std::string json =
      ReplaceFirst(ReadFile(fs::path(MOTIOND_EXAMPLES_DIR) / file), "\"robot\": \"ur5\",", "");
  if (auto status = google::protobuf::util::JsonStringToMessage(json, &request, options);
      !status.ok()) {
    std::fprintf(stderr, "%s does not parse as a PlanPathRequest: %s\n", file.c_str(),
                 status.ToString().c_str());
    std::exit(1);
  }
  SetRobot(request.mutable_robot(), ur5, false);
  return request;
}

void WritePathSeeds(RequestWriter& out, const RobotSeed& ur5, const RobotSeed& planar) {
  for (const char* file :
       {"ur5_glue_path.json", "ur5_glue_bead_zones.json", "ur5_pick_and_place.json"}) {
    v1::PlanPathRequest path = ExamplePath(file, ur5);
    if (std::string(file) == "ur5_pick_and_place.json") {
      // ur5_slow_limits.json is a RobotRef's joint_limits (motionctl --limits).
      const std::string json = ReadFile(fs::path(MOTIOND_EXAMPLES_DIR) / "ur5_slow_limits.json");
      if (!google::protobuf::util::JsonStringToMessage(json, path.mutable_robot()).ok()) {
        std::fprintf(stderr, "ur5_slow_limits.json does not parse\n");
        std::exit(1);
      }
    }
    const std::string stem = fs::path(file).stem().string();
    out.Write("plan_" + stem, RequestKind::kPlanPath, path);
    v1::ValidatePathRequest validate;
    validate.set_request_id(stem);
    *validate.mutable_path() = path;
    out.Write("validate_" + stem, RequestKind::kValidatePath, validate);
  }
  {  // In the example cell, with a margin, allowed pairs and TCP poses.
    v1::PlanPathRequest path = ExamplePath("ur5_glue_path.json", ur5);
    *path.mutable_scene()->mutable_scene() = ExampleScene();
    path.set_safety_margin(0.005);
    path.set_check_self_collision(true);
    path.set_include_tcp(true);
    path.set_max_chunk_points(100);
    v1::LinkPair* pair = path.add_allowed_collisions();
    pair->set_a("wrist_3_link");
    pair->set_b("fixture");
    out.Write("plan_ur5_glue_in_cell", RequestKind::kPlanPath, path);
    v1::PlanPathRequest by_id = path;
    by_id.mutable_scene()->set_scene_id(v1::SceneIdFor(ExampleScene()));
    out.Write("plan_ur5_glue_scene_id_and_scene", RequestKind::kPlanPath, by_id);
    by_id.mutable_scene()->clear_scene();
    out.Write("plan_ur5_glue_scene_id_unknown", RequestKind::kPlanPath, by_id);
  }
  {  // Every segment kind and zone on the planar arm, inline, trapezoid.
    v1::PlanPathRequest path;
    SetRobot(path.mutable_robot(), planar, true);
    v1::JointLimitOverride* o = path.mutable_robot()->add_joint_limits();
    o->set_joint_name("joint1");
    o->set_max_acceleration(3.0);
    path.add_start_joints(0.3);
    path.add_start_joints(0.6);
    path.set_sample_time(0.01);
    path.set_profile(v1::PlanPathRequest::TRAPEZOID);
    v1::MotionSegment* j = path.add_segments();
    j->set_id("joints");
    j->mutable_movej()->mutable_joints()->add_values(0.8);
    j->mutable_movej()->mutable_joints()->add_values(0.2);
    j->mutable_movej()->set_sync(v1::MoveJ::TIME);
    j->mutable_zone()->set_kind(v1::Zone::CNT);
    j->mutable_zone()->set_percent(50);
    v1::MotionSegment* l = path.add_segments();
    l->set_id("line");
    SetPose(l->mutable_movel()->mutable_target(), 1.2, 0.6, 0, 0, 0, 0.2, 0.98);
    l->mutable_movel()->set_orientation_mode(v1::MoveL::FIXED);
    l->mutable_zone()->set_kind(v1::Zone::DISTANCE);
    l->mutable_zone()->set_distance(0.05);
    v1::MotionSegment* c = path.add_segments();
    c->set_id("arc");
    SetPose(c->mutable_movec()->mutable_via(), 1.0, 0.9, 0, 0, 0, 0.3, 0.95);
    SetPose(c->mutable_movec()->mutable_target(), 0.8, 1.0, 0, 0, 0, 0.4, 0.92);
    c->mutable_speed()->set_linear_velocity(0.5);
    c->mutable_zone()->set_kind(v1::Zone::CONTINUOUS);
    v1::MotionSegment* p = path.add_segments();
    p->set_id("pose");
    SetPose(p->mutable_movej()->mutable_pose(), 1.0, 0.5, 0, 0, 0, 0, 1);
    SetPose(p->mutable_offset(), 0, 0.05, 0, 0, 0, 0, 1);
    p->set_offset_frame(v1::MotionSegment::TOOL);
    out.Write("plan_planar_every_segment", RequestKind::kPlanPath, path);
    v1::ValidatePathRequest validate;
    validate.set_request_id("planar");
    *validate.mutable_path() = path;
    out.Write("validate_planar_every_segment", RequestKind::kValidatePath, validate);
  }
}

void WriteCollisionSeeds(RequestWriter& out) {
  const std::string urdf = MeshArmUrdf();
  const std::string stl = BinaryStl(CubeVertices());
  {
    v1::RegisterRobotRequest request;
    request.set_urdf(urdf);
    v1::MeshFile* mesh = request.add_meshes();
    mesh->set_filename(kMeshFile);
    mesh->set_data(stl);
    out.Write("register_mesh_arm", RequestKind::kRegisterRobot, request);
    mesh->set_data(AsciiStl(CubeVertices()));
    out.Write("register_mesh_arm_ascii", RequestKind::kRegisterRobot, request);
    mesh->set_filename("package://cell/meshes/other.stl");
    out.Write("register_mesh_arm_wrong_file", RequestKind::kRegisterRobot, request);
  }
  {
    v1::CheckCollisionRequest request;
    request.mutable_robot()->set_urdf(urdf);
    v1::MeshFile* mesh = request.mutable_robot()->add_meshes();
    mesh->set_filename(kMeshFile);
    mesh->set_data(stl);
    request.add_configurations()->add_values(0.0);
    request.add_configurations()->add_values(1.5);
    *request.mutable_scene()->mutable_scene() = EveryShapeScene();
    request.set_compute_distance(true);
    v1::LinkPair* pair = request.add_allowed_collisions();
    pair->set_a("arm");
    pair->set_b("box");
    out.Write("collision_mesh_arm_inline", RequestKind::kCheckCollision, request);
  }
  {
    v1::RegisterSceneRequest request;
    *request.mutable_scene() = EveryShapeScene();
    out.Write("scene_every_shape", RequestKind::kRegisterScene, request);
    *request.mutable_scene() = ExampleScene();
    out.Write("scene_example_cell", RequestKind::kRegisterScene, request);
    request.mutable_scene()->mutable_objects(1)->set_id("fixture");  // duplicate id
    out.Write("scene_duplicate_id", RequestKind::kRegisterScene, request);
  }
}

// Hostile text where requests carry it: URDFs, link and joint names, ids.
void WriteHostileRequestSeeds(RequestWriter& out, const RobotSeed& ur5) {
  const std::vector<motiond_test::HostileUrdf> cyclic = motiond_test::CyclicUrdfs();
  for (std::size_t i = 0; i < cyclic.size(); ++i) {
    v1::RegisterRobotRequest request;
    request.set_urdf(cyclic[i].urdf);
    out.Write("register_cycle_" + std::to_string(i), RequestKind::kRegisterRobot, request);
  }
  const std::vector<motiond_test::HostileUrdf> format =
      motiond_test::FormatDirectiveUrdfs("%n%s%p%x");
  for (std::size_t i = 0; i < format.size(); i += 7) {
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_urdf(format[i].urdf);
    request.add_joints(0.1);
    out.Write("fk_format_" + std::to_string(i), RequestKind::kComputeFk, request);
  }
  {
    v1::ComputeFkRequest request;
    request.mutable_robot()->set_urdf(motiond_test::ValidUrdfWithDirectivesInNames());
    request.mutable_robot()->set_base_link(motiond_test::kDirectiveBaseLink);
    request.mutable_robot()->set_tip_link(motiond_test::kDirectiveTipLink);
    request.add_joints(0.2);
    out.Write("fk_directive_names", RequestKind::kComputeFk, request);
  }
  {
    v1::GetRobotRequest request;
    request.set_robot_id("sha256:%n%s%p");
    out.Write("get_format_id", RequestKind::kGetRobot, request);
    request.set_robot_id(ur5.id);
    request.set_base_link("%s%s%s");
    request.set_tip_link("tool0");
    out.Write("get_format_base", RequestKind::kGetRobot, request);
  }
  {
    v1::ComputeIkRequest request;
    SetRobot(request.mutable_robot(), ur5, false);
    v1::JointLimitOverride* o = request.mutable_robot()->add_joint_limits();
    o->set_joint_name("%n%n%n");
    o->set_max_velocity(-1);
    SetPose(request.mutable_target(), 0.4, 0, 0.3, 0, 0, 0, 0);  // zero quaternion
    request.mutable_options()->set_solver("%s%n");
    out.Write("ik_format_everywhere", RequestKind::kComputeIk, request);
  }
  {
    v1::CheckCollisionRequest request;
    SetRobot(request.mutable_robot(), ur5, false);
    AddJoints(request.add_configurations()->mutable_values(), 6, 0.1);
    v1::Scene scene = ExampleScene();
    scene.mutable_objects(0)->set_id("%n%s");
    *request.mutable_scene()->mutable_scene() = scene;
    v1::LinkPair* pair = request.add_allowed_collisions();
    pair->set_a("%p%p");
    pair->set_b("%n%s");
    out.Write("collision_format_ids", RequestKind::kCheckCollision, request);
  }
  {
    v1::PlanPathRequest path = ExamplePath("ur5_glue_path.json", ur5);
    path.mutable_segments(1)->set_id("%n%s%x");
    path.mutable_segments(1)->set_source("%s%s%s%s");
    path.mutable_segments(2)->mutable_movel()->mutable_target()->mutable_orientation()->set_w(
        std::numeric_limits<double>::quiet_NaN());
    out.Write("plan_format_segment_ids", RequestKind::kPlanPath, path);
  }
}

// Geometry: a planned-looking trajectory (and one broken), pose forms
// (matrix, rpy in both units, NaN, zero quaternion), joint batches, profiles.
void WriteGeometrySeeds(RequestWriter& out, const RobotSeed& ur5, const RobotSeed& planar) {
  {
    v1::CheckTrajectoryRequest request;
    SetRobot(request.mutable_robot(), planar, true);
    for (int k = 0; k < 50; ++k) {
      const double t = 0.01 * k;
      request.add_time(t);
      request.add_positions(0.3 + 0.5 * t * t);
      request.add_positions(0.6 - 0.2 * t);
    }
    out.Write("check_trajectory_planar", RequestKind::kCheckTrajectory, request);
    request.set_time(7, 0.065);  // off the grid
    out.Write("check_trajectory_off_grid", RequestKind::kCheckTrajectory, request);
    v1::ResampleTrajectoryRequest resample;
    *resample.mutable_robot() = request.robot();
    *resample.mutable_time() = request.time();
    *resample.mutable_positions() = request.positions();
    resample.set_sample_time(0.004);
    out.Write("resample_planar", RequestKind::kResampleTrajectory, resample);
    resample.set_sample_time(1e-9);
    out.Write("resample_tiny_step", RequestKind::kResampleTrajectory, resample);
  }
  {
    v1::ConvertPoseRequest request;
    SetPose(request.mutable_pose(), 0.1, 0.2, 0.3, 0, 0, 0.38268343, 0.92387953);
    request.set_rpy_unit(v1::DEGREES);
    out.Write("convert_quaternion", RequestKind::kConvertPose, request);
    request.mutable_pose()->clear_orientation();
    v1::Rpy* rpy = request.mutable_pose()->mutable_rpy();
    rpy->set_roll(90);
    rpy->set_pitch(-90);
    rpy->set_yaw(45);
    rpy->set_unit(v1::DEGREES);
    request.set_rpy_unit(v1::RADIANS);
    out.Write("convert_rpy_gimbal", RequestKind::kConvertPose, request);
    rpy->set_unit(v1::RADIANS);  // 90 "radians": the degrees flag forgotten
    out.Write("convert_rpy_unit_mismatch", RequestKind::kConvertPose, request);
    v1::ConvertPoseRequest matrix;
    for (double v : {0., -1., 0., 0.5, 1., 0., 0., 0., 0., 0., 1., 0.2, 0., 0., 0., 1.}) {
      matrix.mutable_matrix()->add_values(v);
    }
    matrix.set_rpy_unit(v1::RADIANS);
    out.Write("convert_matrix", RequestKind::kConvertPose, matrix);
    matrix.mutable_matrix()->set_values(0, 0.5);  // not orthonormal
    out.Write("convert_matrix_sheared", RequestKind::kConvertPose, matrix);
  }
  {
    v1::ComposePosesRequest request;
    SetPose(request.add_poses(), 0.1, 0, 0, 0, 0, 0, 1);
    SetPose(request.add_poses(), 0, 0.2, 0, 0, 0.70710678, 0, 0.70710678);
    SetPose(request.add_poses(), 0, 0, 0.3, 0, 0, 0, 0);  // zero quaternion
    out.Write("compose_three", RequestKind::kComposePoses, request);
    v1::InvertPoseRequest invert;
    SetPose(invert.mutable_pose(), std::numeric_limits<double>::quiet_NaN(), 0, 0, 0, 0, 0, 1);
    out.Write("invert_nan", RequestKind::kInvertPose, invert);
    v1::ApplyOffsetRequest offset;
    SetReachablePose(offset.mutable_target());
    SetPose(offset.mutable_frame(), 0.5, 0, 0, 0, 0, 0.2, 0.98);
    SetPose(offset.mutable_offset(), 0, 0, 0.05, 0.1, 0, 0, 0.99);
    offset.set_offset_frame(v1::MotionSegment::TOOL);
    out.Write("apply_offset_tool", RequestKind::kApplyOffset, offset);
    v1::ApplyToolAndFrameRequest tool;
    *tool.mutable_target() = offset.target();
    *tool.mutable_frame() = offset.frame();
    SetPose(tool.mutable_tool(), 0, 0, 0.15, 0, 0, 0, 1);
    out.Write("apply_tool_and_frame", RequestKind::kApplyToolAndFrame, tool);
  }
  {
    v1::CheckJointLimitsRequest request;
    SetRobot(request.mutable_robot(), ur5, false);
    AddJoints(request.add_configurations()->mutable_values(), 6, 0.5);
    AddJoints(request.add_configurations()->mutable_values(), 6, 9.0);  // outside
    AddJoints(request.add_configurations()->mutable_values(), 5, 0.0);  // one short
    out.Write("joint_limits_ur5", RequestKind::kCheckJointLimits, request);
    v1::CheckSingularityRequest singular;
    SetRobot(singular.mutable_robot(), ur5, false);
    AddJoints(singular.mutable_joints(), 6, 0.0);
    singular.set_threshold(0.01);
    out.Write("singularity_ur5_zero", RequestKind::kCheckSingularity, singular);
  }
  {
    v1::ComputeProfileRequest request;
    request.set_length(10);
    request.set_max_velocity(5);
    request.set_max_acceleration(10);
    request.set_max_jerk(30);
    request.set_start_velocity(1);
    request.set_sample_time(0.01);
    out.Write("profile_double_s", RequestKind::kComputeProfile, request);
    request.set_profile(v1::PlanPathRequest::TRAPEZOID);
    request.set_start_velocity(0);
    request.set_duration(5);
    request.set_on_grid(true);
    out.Write("profile_trapezoid_stretched", RequestKind::kComputeProfile, request);
    request.set_profile(v1::PlanPathRequest::JERK_LIMITED);
    request.set_length(1e300);
    request.set_sample_time(1e-300);
    out.Write("profile_huge", RequestKind::kComputeProfile, request);
  }
}

// ValidateCell: the example pair of UR5 arms (both by robot id, the
// README's reach program) started together and with a start time search,
// and cells the conversion must refuse.
void WriteCellSeeds(RequestWriter& out, const RobotSeed& ur5) {
  v1::PlanPathRequest program = ExamplePath("ur5_reach_program.json", ur5);
  program.set_sample_time(0.01);
  v1::ValidateCellRequest cell;
  cell.set_sample_time(0.01);
  for (const char* name : {"left", "right"}) {
    v1::CellRobot* robot = cell.add_robots();
    robot->set_name(name);
    *robot->mutable_program() = program;
  }
  SetPose(cell.mutable_robots(1)->mutable_base_pose(), 1.2, 0, 0, 0, 0, 1, 0);
  out.Write("cell_ur5_pair", RequestKind::kValidateCell, cell);
  v1::ValidateCellRequest search = cell;
  search.set_find_start_times(true);
  search.set_report_clearance(true);
  search.set_safety_margin(0.01);
  out.Write("cell_ur5_pair_start_times", RequestKind::kValidateCell, search);
  v1::ValidateCellRequest twins = cell;
  twins.mutable_robots(1)->set_name("left");
  out.Write("cell_duplicate_names", RequestKind::kValidateCell, twins);
  v1::ValidateCellRequest zero = cell;
  SetPose(zero.mutable_robots(1)->mutable_base_pose(), 1.2, 0, 0, 0, 0, 0, 0);
  zero.mutable_robots(0)->set_start_time(-1.0);
  out.Write("cell_zero_quaternion", RequestKind::kValidateCell, zero);
  v1::ValidateCellRequest crowd = cell;
  for (int i = 0; i < 40; ++i) {
    v1::CellRobot* robot = crowd.add_robots();
    *robot = cell.robots(0);
    robot->set_name("arm" + std::to_string(i));
  }
  out.Write("cell_too_many_robots", RequestKind::kValidateCell, crowd);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  CorpusWriter urdf(root / "urdf_fuzzer");
  WriteUrdfSeeds(urdf);
  CorpusWriter stl(root / "stl_fuzzer");
  WriteStlSeeds(stl);

  CorpusWriter requests(root / "request_fuzzer");
  RequestWriter out(requests);
  const std::map<std::string, std::string> robots = BundledRobots();
  // DOF per bundled robot (robots/README.md).
  const std::map<std::string, int> dof = {
      {"abb_irb120", 6},  {"abb_irb2400", 6}, {"fanuc_lrmate200id", 6},
      {"fanuc_m10ia", 6}, {"iiwa14", 7},      {"kuka_iiwa14_r820", 7},
      {"panda", 7},       {"planar_2r", 2},   {"quirks", 4},
      {"ur10", 6},        {"ur5", 6},         {"ur5e", 6}};
  std::map<std::string, RobotSeed> seeds;
  for (const auto& [name, text] : robots) {
    seeds[name] = RobotSeed{name, text, motion::RobotIdForUrdf(text), dof.at(name)};
    WriteKinematicsSeeds(out, seeds[name]);
  }
  WritePathSeeds(out, seeds.at("ur5"), seeds.at("planar_2r"));
  WriteCollisionSeeds(out);
  WriteHostileRequestSeeds(out, seeds.at("ur5"));
  WriteGeometrySeeds(out, seeds.at("ur5"), seeds.at("planar_2r"));
  WriteCellSeeds(out, seeds.at("ur5"));
  std::printf("urdf_fuzzer %d, stl_fuzzer %d, request_fuzzer %d seeds in %s\n", urdf.count(),
              stl.count(), requests.count(), root.c_str());
  return 0;
}
