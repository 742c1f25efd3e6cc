#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace motionctl {

/// \brief An 8-bit RGB picture, row-major from the top-left pixel, three
/// bytes (red, green, blue) per pixel.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  ///< width * height * 3 bytes
};

/// \brief The image as a PNG file's bytes: colour type 2 (RGB), 8 bits per
/// channel, no interlace, filter 0 on every row, one zlib IDAT chunk.
/// False with a message in `error` for an empty image or a pixel buffer of
/// the wrong size.
bool EncodePng(const RgbImage& image, std::string* png, std::string* error);

}  // namespace motionctl
