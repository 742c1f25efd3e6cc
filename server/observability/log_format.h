#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <spdlog/common.h>
#include <spdlog/formatter.h>

#include "absl/strings/string_view.h"

namespace motion::server {

/// \brief How log lines look (--log_format): `text` for people, `json` (one
/// object per line) for log shippers (Loki, Fluent Bit, Vector, Elastic).
enum class LogFormat { kText, kJson };

/// \brief "text" or "json"; nullopt for anything else.
std::optional<LogFormat> ParseLogFormat(absl::string_view name);

/// \brief Key/value pairs attached to one log line.
///
/// Text lines append them in logfmt (` key=value`, values quoted when they
/// hold spaces); JSON lines carry them as top-level members next to
/// `time`, `level` and `msg`, numbers and booleans unquoted. Keys are
/// plain identifiers chosen by the code (never user input).
class LogFields {
 public:
  LogFields& Add(absl::string_view key, absl::string_view value);
  LogFields& Add(absl::string_view key, const char* value) {
    return Add(key, absl::string_view(value));
  }
  LogFields& Add(absl::string_view key, int64_t value);
  LogFields& Add(absl::string_view key, int value) { return Add(key, int64_t{value}); }
  LogFields& Add(absl::string_view key, double value);
  LogFields& Add(absl::string_view key, bool value);

  bool empty() const { return fields_.empty(); }
  /// \brief ` key=value key2="a b"` (leading space), for text lines.
  void AppendLogfmt(std::string& out) const;
  /// \brief `,"key":value,"key2":"a b"` (leading comma), for JSON lines.
  void AppendJson(std::string& out) const;

 private:
  struct Field {
    std::string key;
    std::string value;  // rendered: a number/boolean literal, or the raw string
    bool is_string;
  };
  std::vector<Field> fields_;
};

/// \brief Logs `message` with `fields` on the default logger if `level` is
/// enabled. The fields reach the formatter through a thread-local, so this
/// needs a synchronous logger (spdlog's default; ConfigureLogging keeps it).
void LogWithFields(spdlog::level::level_enum level, absl::string_view message,
                   const LogFields& fields);

/// \brief The formatter of one format:
/// text: `[2026-01-02 03:04:05.678] [info] message key=value ...` (local time);
/// json: `{"time":"2026-01-02T03:04:05.678901Z","level":"info","thread":123,
///        "msg":"message","key":value,...}` (UTC, RFC 3339). Strings are
/// escaped, invalid UTF-8 replaced by U+FFFD, so every line parses.
std::unique_ptr<spdlog::formatter> MakeLogFormatter(LogFormat format);

/// \brief Sets the default logger's level and format (main.cc, tests).
void ConfigureLogging(spdlog::level::level_enum level, LogFormat format);

/// \brief `text` as a JSON string literal (with the quotes), appended to `out`.
void AppendJsonString(absl::string_view text, std::string& out);

}  // namespace motion::server
