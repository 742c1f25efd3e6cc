// QuoteUntrusted / WithoutPercentSigns: what may reach a message from a
// request, byte by byte.

#include <string>

#include <gtest/gtest.h>

#include "core/diagnostics/untrusted_text.h"

namespace motion {
namespace {

TEST(QuoteUntrustedTest, PlainNamesAreQuotedAsTheyAre) {
  EXPECT_EQ(QuoteUntrusted("shoulder_pan_joint"), "'shoulder_pan_joint'");
  EXPECT_EQ(QuoteUntrusted(""), "''");
  EXPECT_EQ(QuoteUntrusted("0 0 0.1"), "'0 0 0.1'");
}

TEST(QuoteUntrustedTest, PercentQuoteBackslashAndControlBytesAreEscaped) {
  EXPECT_EQ(QuoteUntrusted("%s%n"), "'\\x25s\\x25n'");
  EXPECT_EQ(QuoteUntrusted("a'b"), "'a\\x27b'");
  EXPECT_EQ(QuoteUntrusted("a\\b"), "'a\\x5cb'");
  EXPECT_EQ(QuoteUntrusted(std::string("a\nb\0c\x7f", 6)), "'a\\x0ab\\x00c\\x7f'");
}

TEST(QuoteUntrustedTest, WellFormedUtf8StaysReadableMalformedIsEscaped) {
  EXPECT_EQ(QuoteUntrusted("关节1"), "'关节1'");  // "joint 1": three-byte sequences
  EXPECT_EQ(QuoteUntrusted("\xC3\xA9t\xC3\xA9"), "'\xC3\xA9t\xC3\xA9'");
  EXPECT_EQ(QuoteUntrusted("\xE5\x85"), "'\\xe5\\x85'");                    // cut short
  EXPECT_EQ(QuoteUntrusted("\xC0\xAF"), "'\\xc0\\xaf'");                    // overlong '/'
  EXPECT_EQ(QuoteUntrusted("\x80x"), "'\\x80x'");                           // stray continuation
  EXPECT_EQ(QuoteUntrusted("\xE0\x80\xAF"), "'\\xe0\\x80\\xaf'");           // overlong '/'
  EXPECT_EQ(QuoteUntrusted("\xED\xA0\x80"), "'\\xed\\xa0\\x80'");           // a surrogate
  EXPECT_EQ(QuoteUntrusted("\xF4\x90\x80\x80"), "'\\xf4\\x90\\x80\\x80'");  // > U+10FFFF
  EXPECT_EQ(QuoteUntrusted("\xF0\x9F\xA4\x96"), "'\xF0\x9F\xA4\x96'");      // U+1F916 kept
}

TEST(QuoteUntrustedTest, LongTextIsCutWithTheCountLeftOut) {
  const std::string long_text(5000, 'x');
  const std::string quoted = QuoteUntrusted(long_text, 10);
  EXPECT_EQ(quoted, "'xxxxxxxxxx'... (4990 more bytes)");
  // A multi-byte character is not split at the cut.
  EXPECT_EQ(QuoteUntrusted("ab关", 3), "'ab\\xe5'... (2 more bytes)");
}

TEST(WithoutPercentSignsTest, EveryPercentIsWrittenAsHex) {
  EXPECT_EQ(WithoutPercentSigns("joints[2]: 100% of %s"), "joints[2]: 100\\x25 of \\x25s");
  EXPECT_EQ(WithoutPercentSigns("no percent"), "no percent");
  EXPECT_EQ(WithoutPercentSigns(""), "");
}

}  // namespace
}  // namespace motion
