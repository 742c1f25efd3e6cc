#include "server/convert/status_conversion.h"

#include <string>

#include "core/diagnostics/untrusted_text.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace motion::server {
namespace {

// "robot.urdf: not a valid URDF" -> "robot.urdf"; "" when the prefix before
// ": " is not a field path (contains spaces other than a " (name)" suffix).
std::string LeadingFieldPath(const std::string& message) {
  const auto colon = message.find(": ");
  if (colon == std::string::npos) return "";
  std::string field = message.substr(0, colon);
  if (const auto paren = field.find(" ("); paren != std::string::npos) field.resize(paren);
  if (field.empty() || field.find(' ') != std::string::npos) return "";
  return field;
}

}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  // Messages quote request text (names, values); no '%' leaves the server,
  // so a client that prints a message with printf cannot be attacked by it.
  const std::string message = motion::WithoutPercentSigns(status.message());

  google::rpc::Status details;
  details.set_code(static_cast<int>(code));
  details.set_message(message);
  status.ForEachPayload([&](absl::string_view type_url, const absl::Cord& payload) {
    auto* any = details.add_details();
    any->set_type_url(std::string(type_url));
    any->set_value(std::string(payload));
  });
  if (code == grpc::StatusCode::INVALID_ARGUMENT) {
    if (std::string field = LeadingFieldPath(message); !field.empty()) {
      google::rpc::BadRequest bad_request;
      auto* violation = bad_request.add_field_violations();
      violation->set_field(field);
      violation->set_description(message.substr(message.find(": ") + 2));
      details.add_details()->PackFrom(bad_request);
    }
  }
  if (details.details_size() == 0) return grpc::Status(code, message);
  return grpc::Status(code, message, details.SerializeAsString());
}

}  // namespace motion::server
