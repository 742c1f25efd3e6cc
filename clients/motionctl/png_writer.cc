#include "clients/motionctl/png_writer.h"

#include <zlib.h>

#include <cstddef>

namespace motionctl {
namespace {

void AppendBigEndian(std::uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

// A chunk is length, type, data, then the CRC-32 of type and data.
void AppendChunk(const char type[4], const std::string& data, std::string* out) {
  AppendBigEndian(static_cast<std::uint32_t>(data.size()), out);
  const std::size_t type_at = out->size();
  out->append(type, 4);
  out->append(data);
  const auto* crc_input = reinterpret_cast<const Bytef*>(out->data() + type_at);
  const uLong crc = crc32(crc32(0L, Z_NULL, 0), crc_input, static_cast<uInt>(4 + data.size()));
  AppendBigEndian(static_cast<std::uint32_t>(crc), out);
}

}  // namespace

bool EncodePng(const RgbImage& image, std::string* png, std::string* error) {
  // PNG allows up to 2^31 - 1; far smaller keeps the byte counts below in
  // range of zlib's 32-bit lengths.
  constexpr int kMaxSide = 16384;
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxSide || image.height > kMaxSide) {
    *error = "PNG: the image must be 1 to 16384 pixels on each side, got " +
             std::to_string(image.width) + " x " + std::to_string(image.height);
    return false;
  }
  const std::size_t row_bytes = static_cast<std::size_t>(image.width) * 3;
  if (image.pixels.size() != row_bytes * static_cast<std::size_t>(image.height)) {
    *error = "PNG: " + std::to_string(image.pixels.size()) + " pixel bytes for a " +
             std::to_string(image.width) + " x " + std::to_string(image.height) + " RGB image";
    return false;
  }
  // The raw scanlines: each row prefixed by its filter type, 0 (none).
  std::string raw;
  raw.reserve((row_bytes + 1) * image.height);
  for (int y = 0; y < image.height; ++y) {
    raw.push_back('\0');
    raw.append(reinterpret_cast<const char*>(image.pixels.data()) + y * row_bytes, row_bytes);
  }
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packed_size, '\0');
  const int rc = compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
                           reinterpret_cast<const Bytef*>(raw.data()),
                           static_cast<uLong>(raw.size()), Z_BEST_COMPRESSION);
  if (rc != Z_OK) {
    *error = "PNG: zlib compress2 failed (" + std::to_string(rc) + ")";
    return false;
  }
  packed.resize(packed_size);

  std::string header;
  AppendBigEndian(static_cast<std::uint32_t>(image.width), &header);
  AppendBigEndian(static_cast<std::uint32_t>(image.height), &header);
  header +=
      std::string("\x08\x02\x00\x00\x00", 5);  // depth 8, RGB, deflate, filter 0, no interlace

  png->assign("\x89PNG\r\n\x1a\n", 8);
  AppendChunk("IHDR", header, png);
  AppendChunk("IDAT", packed, png);
  AppendChunk("IEND", "", png);
  return true;
}

}  // namespace motionctl
