#include "core/diagnostics/untrusted_text.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "core/diagnostics/utf8.h"

namespace motion {
namespace {

void AppendEscaped(unsigned char byte, std::string* out) {
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", byte);
  out->append(hex);
}

}  // namespace

std::string QuoteUntrusted(absl::string_view text, std::size_t max_bytes) {
  std::string out = "'";
  const std::size_t shown = std::min(text.size(), max_bytes);
  for (std::size_t i = 0; i < shown;) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F && c != '%' && c != '\'' && c != '\\') {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (const std::size_t length = c >= 0x80 ? Utf8SequenceLength(text, i) : 0;
               length > 0 && i + length <= shown) {
      out.append(text.data() + i, length);
      i += length;
    } else {
      AppendEscaped(c, &out);
      ++i;
    }
  }
  out.push_back('\'');
  if (shown < text.size()) absl::StrAppend(&out, "... (", text.size() - shown, " more bytes)");
  return out;
}

std::string WithoutPercentSigns(absl::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    if (c == '%') {
      out.append("\\x25");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace motion
