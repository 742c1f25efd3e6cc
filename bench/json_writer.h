#pragma once

// A minimal streaming JSON writer (objects, arrays, strings, numbers, bools),
// enough for the benchmark reports; commas and escaping handled here.

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

namespace motion_bench {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }

  JsonWriter& Key(const std::string& key) {
    Separate();
    WriteString(key);
    out_ << ": ";
    after_key_ = true;
    return *this;
  }

  JsonWriter& String(const std::string& value) {
    Separate();
    WriteString(value);
    return *this;
  }

  /// Doubles that read back exactly (round-trip); non-finite as null.
  JsonWriter& Number(double value) {
    Separate();
    if (!std::isfinite(value)) {
      out_ << "null";
    } else {
      // The shortest of 15..17 significant digits that reads back exactly.
      char text[32];
      for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) break;
      }
      out_ << text;
    }
    return *this;
  }

  JsonWriter& Int(long long value) {
    Separate();
    out_ << value;
    return *this;
  }

  JsonWriter& Bool(bool value) {
    Separate();
    out_ << (value ? "true" : "false");
    return *this;
  }

  template <typename Vector>
  JsonWriter& Numbers(const Vector& values) {
    BeginArray();
    for (std::size_t i = 0; i < static_cast<std::size_t>(values.size()); ++i) Number(values[i]);
    return EndArray();
  }

 private:
  JsonWriter& Open(char bracket) {
    Separate();
    out_ << bracket;
    first_.push_back(true);
    return *this;
  }

  JsonWriter& Close(char bracket) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) Newline();
    out_ << bracket;
    if (first_.empty()) out_ << '\n';
    return *this;
  }

  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ << ',';
    first_.back() = false;
    Newline();
  }

  void Newline() { out_ << '\n' << std::string(2 * first_.size(), ' '); }

  void WriteString(const std::string& s) {
    out_ << '"';
    for (const char c : s) {
      switch (c) {
        case '"':
          out_ << "\\\"";
          break;
        case '\\':
          out_ << "\\\\";
          break;
        case '\n':
          out_ << "\\n";
          break;
        case '\t':
          out_ << "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out_ << escaped;
          } else {
            out_ << c;
          }
      }
    }
    out_ << '"';
  }

  std::ostream& out_;
  std::vector<bool> first_;  ///< per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace motion_bench
