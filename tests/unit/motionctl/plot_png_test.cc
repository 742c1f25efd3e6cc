// The PNG writer and the raster canvas of `motionctl plan --plot`.
//
// PNG: the bytes are taken apart here by the format's definition (RFC 2083):
// signature, chunks with their CRC-32 recomputed by zlib, IHDR fields, the
// IDAT stream inflated with zlib's uncompress, the filter byte of each row,
// the exact pixel bytes. Canvas: which pixels a line or a text touches.

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "clients/motionctl/bitmap_font.h"
#include "clients/motionctl/png_writer.h"
#include "clients/motionctl/raster_canvas.h"

namespace motionctl {
namespace {

struct Chunk {
  std::string type;
  std::string data;
};

std::uint32_t BigEndian(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value = value << 8 | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

// Splits the file into chunks, failing the test on a bad signature, a
// truncated chunk or a CRC mismatch.
std::vector<Chunk> ReadChunks(const std::string& png) {
  std::vector<Chunk> chunks;
  const std::string signature("\x89PNG\r\n\x1a\n", 8);
  EXPECT_EQ(png.substr(0, 8), signature);
  std::size_t at = 8;
  while (at < png.size()) {
    if (at + 12 > png.size()) {
      ADD_FAILURE() << "truncated chunk header at byte " << at;
      break;
    }
    const std::uint32_t length = BigEndian(png, at);
    if (at + 12 + length > png.size()) {
      ADD_FAILURE() << "chunk at byte " << at << " runs past the end";
      break;
    }
    Chunk chunk{png.substr(at + 4, 4), png.substr(at + 8, length)};
    const auto* typed = reinterpret_cast<const Bytef*>(png.data() + at + 4);
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), typed, 4 + length);
    EXPECT_EQ(BigEndian(png, at + 8 + length), static_cast<std::uint32_t>(crc))
        << "CRC of chunk " << chunk.type;
    chunks.push_back(chunk);
    at += 12 + length;
  }
  EXPECT_EQ(at, png.size());
  return chunks;
}

RgbImage KnownImage() {
  // 3 x 2: red green blue / black white and a grey with every bit pattern.
  RgbImage image;
  image.width = 3;
  image.height = 2;
  image.pixels = {255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0x12, 0x80, 0xfe};
  return image;
}

TEST(PngWriterTest, DecodesToTheSamePixels) {
  const RgbImage image = KnownImage();
  std::string png, error;
  ASSERT_TRUE(EncodePng(image, &png, &error)) << error;
  const std::vector<Chunk> chunks = ReadChunks(png);
  ASSERT_GE(chunks.size(), 3u);
  EXPECT_EQ(chunks.front().type, "IHDR");
  EXPECT_EQ(chunks.back().type, "IEND");
  EXPECT_EQ(chunks.back().data, "");

  const std::string& ihdr = chunks.front().data;
  ASSERT_EQ(ihdr.size(), 13u);
  EXPECT_EQ(BigEndian(ihdr, 0), 3u);         // width
  EXPECT_EQ(BigEndian(ihdr, 4), 2u);         // height
  EXPECT_EQ(static_cast<int>(ihdr[8]), 8);   // bit depth
  EXPECT_EQ(static_cast<int>(ihdr[9]), 2);   // colour type: truecolour
  EXPECT_EQ(static_cast<int>(ihdr[10]), 0);  // compression: deflate
  EXPECT_EQ(static_cast<int>(ihdr[11]), 0);  // filter method 0
  EXPECT_EQ(static_cast<int>(ihdr[12]), 0);  // no interlace

  std::string idat;
  for (const Chunk& c : chunks) {
    if (c.type == "IDAT") idat += c.data;
  }
  std::vector<Bytef> raw(64);
  uLongf raw_size = raw.size();
  ASSERT_EQ(
      uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()),
      Z_OK);
  // Each row: filter byte 0, then width x 3 bytes.
  const std::vector<Bytef> expected = {0, 255, 0, 0, 0,   255, 0,   0,    0,    255,
                                       0, 0,   0, 0, 255, 255, 255, 0x12, 0x80, 0xfe};
  ASSERT_EQ(raw_size, expected.size());
  EXPECT_EQ(std::vector<Bytef>(raw.begin(), raw.begin() + raw_size), expected);
}

TEST(PngWriterTest, LargeImageRoundTrips) {
  // Big enough for deflate to use more than one block.
  RgbImage image;
  image.width = 300;
  image.height = 200;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      image.pixels.push_back(static_cast<std::uint8_t>(x));
      image.pixels.push_back(static_cast<std::uint8_t>(y));
      image.pixels.push_back(static_cast<std::uint8_t>((x * 7 + y * 13) & 0xff));
    }
  }
  std::string png, error;
  ASSERT_TRUE(EncodePng(image, &png, &error)) << error;
  std::string idat;
  for (const Chunk& c : ReadChunks(png)) {
    if (c.type == "IDAT") idat += c.data;
  }
  std::vector<Bytef> raw(image.height * (1 + image.width * 3) + 1);
  uLongf raw_size = raw.size();
  ASSERT_EQ(
      uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()),
      Z_OK);
  ASSERT_EQ(raw_size, static_cast<uLongf>(image.height * (1 + image.width * 3)));
  for (int y = 0; y < image.height; ++y) {
    const Bytef* row = raw.data() + y * (1 + image.width * 3);
    ASSERT_EQ(row[0], 0) << "row " << y;
    ASSERT_EQ(std::memcmp(row + 1, image.pixels.data() + y * image.width * 3, image.width * 3), 0)
        << "row " << y;
  }
}

TEST(PngWriterTest, RefusesImagesItCannotEncode) {
  std::string png, error;
  RgbImage empty;
  EXPECT_FALSE(EncodePng(empty, &png, &error));
  EXPECT_NE(error.find("1 to 16384"), std::string::npos) << error;
  RgbImage short_buffer = KnownImage();
  short_buffer.pixels.pop_back();
  EXPECT_FALSE(EncodePng(short_buffer, &png, &error));
  EXPECT_NE(error.find("17 pixel bytes for a 3 x 2"), std::string::npos) << error;
}

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kInk{10, 20, 30};

// Every pixel that is not the background, as (x, y).
std::set<std::pair<int, int>> Touched(const RasterCanvas& canvas) {
  std::set<std::pair<int, int>> touched;
  for (int y = 0; y < canvas.height(); ++y) {
    for (int x = 0; x < canvas.width(); ++x) {
      if (canvas.At(x, y) != kBackground) touched.insert({x, y});
    }
  }
  return touched;
}

TEST(RasterCanvasTest, HorizontalLineColoursExactlyItsPixels) {
  for (const bool antialias : {false, true}) {
    RasterCanvas canvas(40, 20, kBackground);
    canvas.set_antialias(antialias);
    canvas.Line({5, 7}, {30, 7}, kInk, 1.0);
    std::set<std::pair<int, int>> expected;
    for (int x = 5; x <= 30; ++x) expected.insert({x, 7});
    EXPECT_EQ(Touched(canvas), expected) << "antialias " << antialias;
    for (int x = 5; x <= 30; ++x) EXPECT_EQ(canvas.At(x, 7), kInk) << x;
  }
}

TEST(RasterCanvasTest, VerticalLineTwoPixelsWideBetweenCentres) {
  RasterCanvas canvas(20, 20, kBackground);
  canvas.set_antialias(false);  // as the diagnostic lines are drawn
  canvas.Line({8.5, 2}, {8.5, 15}, kInk, 2.0);
  std::set<std::pair<int, int>> expected;
  for (int y = 2; y <= 15; ++y) expected.insert({8, y}), expected.insert({9, y});
  EXPECT_EQ(Touched(canvas), expected);
}

TEST(RasterCanvasTest, DiagonalLineHasNoGapsAndStaysNearTheLine) {
  RasterCanvas canvas(50, 50, kBackground);
  canvas.set_antialias(false);
  canvas.Line({2, 3}, {42, 23}, kInk, 1.0);  // slope 1/2
  for (int x = 2; x <= 42; ++x) {
    bool inked = false;
    for (int y = 0; y < 50; ++y) inked = inked || canvas.At(x, y) == kInk;
    EXPECT_TRUE(inked) << "column " << x;
  }
  for (const auto& [x, y] : Touched(canvas)) {
    EXPECT_LE(std::abs(y - (3 + 0.5 * (x - 2))), 0.5 + 1e-9) << x << "," << y;
  }
}

TEST(RasterCanvasTest, ClipKeepsEverythingInsideAndSurvivesWildCoordinates) {
  RasterCanvas canvas(40, 40, kBackground);
  canvas.SetClip({10, 10, 10, 10});
  canvas.Line({0, 15}, {39, 15}, kInk, 3.0);
  canvas.Line({-1e300, -1e300}, {1e300, 1e300}, kInk, 1.0);
  canvas.Line({0, 0}, {std::numeric_limits<double>::quiet_NaN(), 5}, kInk, 1.0);
  canvas.Polyline({{0, 0}, {std::numeric_limits<double>::infinity(), 0}, {30, 30}}, kInk);
  canvas.FillRect({-5, -5, 100, 3}, kInk);
  canvas.Text(12, 12, "clipped text", kInk, 2);
  const auto touched = Touched(canvas);
  EXPECT_FALSE(touched.empty());
  for (const auto& [x, y] : touched) {
    EXPECT_TRUE(x >= 10 && x < 20 && y >= 10 && y < 20) << x << "," << y;
  }
  // The 3 px line: rows 14 to 16 across the clip, nothing of it outside.
  for (int x = 10; x < 20; ++x) EXPECT_EQ(canvas.At(x, 15), kInk) << x;
}

TEST(RasterCanvasTest, DashedLineAlternates) {
  RasterCanvas canvas(60, 10, kBackground);
  canvas.set_antialias(false);
  canvas.DashedLine({0, 5}, {59, 5}, kInk, 1.0, 6.0, 4.0);
  // Dashes cover [0, 6), [10, 16), ... of the length, gaps the rest.
  for (int x = 0; x < 60; ++x) {
    const double phase = std::fmod(x, 10.0);
    if (phase == 0 || phase == 6) continue;  // a dash's ends: pixel centres on its edge
    EXPECT_EQ(canvas.At(x, 5) == kInk, phase < 6) << x;
  }
}

TEST(RasterCanvasTest, TextStaysInsideItsBox) {
  for (const int scale : {1, 2}) {
    RasterCanvas canvas(200, 60, kBackground);
    const std::string text = "Ag_y|0~";  // ascenders, descenders, the full cell
    const int x = 20, y = 15;
    canvas.Text(x, y, text, kInk, scale);
    const int width = RasterCanvas::TextWidth(text, scale);
    EXPECT_EQ(width, static_cast<int>(text.size()) * kGlyphAdvance * scale);
    int inside = 0;
    for (const auto& [px, py] : Touched(canvas)) {
      EXPECT_TRUE(px >= x && px < x + width && py >= y && py < y + kGlyphHeight * scale)
          << px << "," << py << " scale " << scale;
      EXPECT_EQ(canvas.At(px, py), kInk);
      ++inside;
    }
    // Every glyph puts some ink in its own cell.
    for (std::size_t i = 0; i < text.size(); ++i) {
      const int cell = x + static_cast<int>(i) * kGlyphAdvance * scale;
      bool inked = false;
      for (int py = y; py < y + kGlyphHeight * scale; ++py) {
        for (int px = cell; px < cell + kGlyphWidth * scale; ++px) {
          inked = inked || canvas.At(px, py) == kInk;
        }
      }
      EXPECT_TRUE(inked) << "glyph '" << text[i] << "' scale " << scale;
    }
    EXPECT_GT(inside, 30 * scale * scale);
  }
}

TEST(RasterCanvasTest, UnprintableBytesAreOneQuestionMarkPerCharacter) {
  RasterCanvas a(100, 20, kBackground), b(100, 20, kBackground);
  a.Text(0, 0, "x\xc2\xb2y", kInk);  // "x²y" in UTF-8
  b.Text(0, 0, "x?y", kInk);
  EXPECT_EQ(a.image().pixels, b.image().pixels);
  EXPECT_EQ(RasterCanvas::TextWidth("x\xc2\xb2y"), 3 * kGlyphAdvance);
}

TEST(BitmapFontTest, EveryPrintableCharacterHasItsOwnGlyph) {
  std::set<std::vector<std::uint8_t>> seen;
  for (int c = 33; c <= 126; ++c) {
    const std::uint8_t* rows = GlyphRows(static_cast<char>(c));
    std::vector<std::uint8_t> glyph(rows, rows + kGlyphHeight);
    bool any = false;
    for (std::uint8_t row : glyph) {
      EXPECT_EQ(row & ~0x1f, 0) << "glyph " << static_cast<char>(c) << " wider than 5";
      any = any || row != 0;
    }
    EXPECT_TRUE(any) << "glyph " << static_cast<char>(c) << " is blank";
    EXPECT_TRUE(seen.insert(glyph).second) << "glyph " << static_cast<char>(c) << " repeats";
  }
  const std::uint8_t* space = GlyphRows(' ');
  for (int row = 0; row < kGlyphHeight; ++row) EXPECT_EQ(space[row], 0);
}

}  // namespace
}  // namespace motionctl
