#include "clients/motionctl/request_arguments.h"

#include <cstdlib>
#include <iostream>
#include <iterator>
#include <sstream>

namespace motionctl {

bool ParseDoubles(const std::vector<std::string>& words, std::size_t from,
                  google::protobuf::RepeatedField<double>* out) {
  for (std::size_t i = from; i < words.size(); ++i) {
    char* end = nullptr;
    const double value = std::strtod(words[i].c_str(), &end);
    if (end == words[i].c_str() || *end != '\0') {
      std::cerr << "motionctl: '" << words[i] << "' is not a number\n";
      return false;
    }
    out->Add(value);
  }
  return true;
}

bool ParseTool(const CommandLine& cli, motion::v1::Pose* tool) {
  std::istringstream in(cli.Flag("tool"));
  double v[7];
  for (double& x : v) {
    if (!(in >> x)) {
      std::cerr << "motionctl: --tool wants 7 numbers \"x y z qx qy qz qw\"\n";
      return false;
    }
  }
  SetPose(v, tool);
  return true;
}

void SetPose(const double* xyz_qxyzw, motion::v1::Pose* pose) {
  const double* v = xyz_qxyzw;
  pose->mutable_position()->set_x(v[0]);
  pose->mutable_position()->set_y(v[1]);
  pose->mutable_position()->set_z(v[2]);
  pose->mutable_orientation()->set_x(v[3]);
  pose->mutable_orientation()->set_y(v[4]);
  pose->mutable_orientation()->set_z(v[5]);
  pose->mutable_orientation()->set_w(v[6]);
}

bool ParseSeed(const CommandLine& cli, google::protobuf::RepeatedField<double>* seed) {
  std::istringstream in(cli.Flag("seed"));
  std::vector<std::string> words{std::istream_iterator<std::string>(in), {}};
  return ParseDoubles(words, 0, seed);
}

}  // namespace motionctl
