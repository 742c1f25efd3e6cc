// core's DiagnosticCode and motion.v1.DiagnosticCode must be the same enum: the server converts
// by number (DiagnosticToProto), so a code added to one and not the other, or numbered
// differently, would reach clients as the wrong code.

#include <string>

#include <gtest/gtest.h>

#include "core/diagnostics/diagnostic.h"
#include "motion/v1/common.pb.h"

namespace motiond_test {
namespace {

TEST(DiagnosticCodesTest, CoreAndProtoEnumsHaveTheSameNamesAndNumbers) {
  const google::protobuf::EnumDescriptor* proto = motion::v1::DiagnosticCode_descriptor();
  int checked = 0;
  for (int i = 0; i < proto->value_count(); ++i) {
    const int number = proto->value(i)->number();
    if (number == 0) continue;  // DIAGNOSTIC_CODE_UNSPECIFIED has no core twin
    EXPECT_EQ(std::string(motion::DiagnosticCodeName(static_cast<motion::DiagnosticCode>(number))),
              proto->value(i)->name())
        << "number " << number;
    ++checked;
  }
  // And core has no code past the proto's last one.
  EXPECT_EQ(
      std::string(motion::DiagnosticCodeName(static_cast<motion::DiagnosticCode>(checked + 1))),
      "UNKNOWN");
  EXPECT_EQ(static_cast<int>(motion::DiagnosticCode::kTorqueLimit), motion::v1::TORQUE_LIMIT);
  EXPECT_EQ(static_cast<int>(motion::DiagnosticCode::kDynamicsUnavailable),
            motion::v1::DYNAMICS_UNAVAILABLE);
}

}  // namespace
}  // namespace motiond_test
