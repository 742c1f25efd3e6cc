#include "proto/motion/v1/content_ids.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "core/identity/robot_id.h"

namespace motion::v1 {

std::string SceneIdFor(const Scene& scene) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    scene.SerializeToCodedStream(&out);
  }
  return ContentId(bytes);
}

}  // namespace motion::v1
