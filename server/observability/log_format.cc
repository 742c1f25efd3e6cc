#include "server/observability/log_format.h"

#include <cmath>
#include <cstdio>
#include <ctime>

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include "core/diagnostics/utf8.h"

namespace motion::server {
namespace {

// The fields of the line being logged on this thread (LogWithFields). spdlog's
// synchronous loggers format in the calling thread, so the formatter sees
// them; every other line sees nullptr.
thread_local const LogFields* t_fields = nullptr;

bool NeedsLogfmtQuotes(absl::string_view value) {
  if (value.empty()) return true;
  for (const char c : value) {
    if (c == ' ' || c == '"' || c == '=' || static_cast<unsigned char>(c) < 0x20) return true;
  }
  return false;
}

// The escapes logfmt and JSON strings share: quote, backslash, newline,
// carriage return, tab. False for every other byte.
bool AppendShortEscape(char c, std::string& out) {
  switch (c) {
    case '"':
      out += "\\\"";
      return true;
    case '\\':
      out += "\\\\";
      return true;
    case '\n':
      out += "\\n";
      return true;
    case '\r':
      out += "\\r";
      return true;
    case '\t':
      out += "\\t";
      return true;
    default:
      return false;
  }
}

void AppendLogfmtValue(absl::string_view value, std::string& out) {
  if (!NeedsLogfmtQuotes(value)) {
    out.append(value.data(), value.size());
    return;
  }
  out += '"';
  for (const char c : value) {
    if (AppendShortEscape(c, out)) continue;
    if (static_cast<unsigned char>(c) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    } else {
      out += c;
    }
  }
  out += '"';
}

// Appends " key=value ..." of the current line's fields (pattern flag %*).
class LogfmtFieldsFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    if (t_fields == nullptr || t_fields->empty()) return;
    std::string text;
    t_fields->AppendLogfmt(text);
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<spdlog::custom_flag_formatter> clone() const override {
    return std::make_unique<LogfmtFieldsFlag>();
  }
};

class JsonLogFormatter : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    std::string line;
    line.reserve(160 + msg.payload.size());
    line += "{\"time\":\"";
    AppendUtcTime(msg.time, line);
    line += "\",\"level\":\"";
    const auto level = spdlog::level::to_string_view(msg.level);
    line.append(level.data(), level.size());
    line += "\",\"thread\":";
    line += std::to_string(msg.thread_id);
    if (msg.logger_name.size() > 0) {
      line += ",\"logger\":";
      AppendJsonString(absl::string_view(msg.logger_name.data(), msg.logger_name.size()), line);
    }
    line += ",\"msg\":";
    AppendJsonString(absl::string_view(msg.payload.data(), msg.payload.size()), line);
    if (t_fields != nullptr) t_fields->AppendJson(line);
    line += "}\n";
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonLogFormatter>();
  }

 private:
  // RFC 3339, UTC, microseconds: 2026-01-02T03:04:05.678901Z
  static void AppendUtcTime(spdlog::log_clock::time_point time, std::string& out) {
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[40];
    const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(buffer + n, sizeof buffer - n, ".%06dZ", static_cast<int>(micros % 1000000));
    out += buffer;
  }
};

}  // namespace

std::optional<LogFormat> ParseLogFormat(absl::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

void AppendJsonString(absl::string_view text, std::string& out) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = Utf8SequenceLength(text, i);
      if (n == 0) {
        out += "\\ufffd";  // not UTF-8 (e.g. a binary URDF fragment in a message)
        ++i;
      } else {
        out.append(text.data() + i, n);
        i += n;
      }
      continue;
    }
    if (AppendShortEscape(static_cast<char>(c), out)) {
      ++i;
      continue;
    }
    switch (c) {
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

LogFields& LogFields::Add(absl::string_view key, absl::string_view value) {
  fields_.push_back({std::string(key), std::string(value), true});
  return *this;
}

LogFields& LogFields::Add(absl::string_view key, int64_t value) {
  fields_.push_back({std::string(key), std::to_string(value), false});
  return *this;
}

LogFields& LogFields::Add(absl::string_view key, double value) {
  if (!std::isfinite(value)) {  // JSON has no NaN/Inf literal
    fields_.push_back({std::string(key),
                       std::isnan(value) ? "NaN"
                       : value > 0       ? "+Inf"
                                         : "-Inf",
                       true});
    return *this;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  fields_.push_back({std::string(key), buffer, false});
  return *this;
}

LogFields& LogFields::Add(absl::string_view key, bool value) {
  fields_.push_back({std::string(key), value ? "true" : "false", false});
  return *this;
}

void LogFields::AppendLogfmt(std::string& out) const {
  for (const Field& field : fields_) {
    out += ' ';
    out += field.key;
    out += '=';
    AppendLogfmtValue(field.value, out);
  }
}

void LogFields::AppendJson(std::string& out) const {
  for (const Field& field : fields_) {
    out += ',';
    AppendJsonString(field.key, out);
    out += ':';
    if (field.is_string) {
      AppendJsonString(field.value, out);
    } else {
      out += field.value;
    }
  }
}

void LogWithFields(spdlog::level::level_enum level, absl::string_view message,
                   const LogFields& fields) {
  spdlog::logger* logger = spdlog::default_logger_raw();
  if (!logger->should_log(level)) return;
  t_fields = &fields;
  logger->log(level, spdlog::string_view_t(message.data(), message.size()));
  t_fields = nullptr;
}

std::unique_ptr<spdlog::formatter> MakeLogFormatter(LogFormat format) {
  if (format == LogFormat::kJson) return std::make_unique<JsonLogFormatter>();
  auto text = std::make_unique<spdlog::pattern_formatter>();
  text->add_flag<LogfmtFieldsFlag>('*').set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v%*");
  return text;
}

void ConfigureLogging(spdlog::level::level_enum level, LogFormat format) {
  spdlog::set_level(level);
  spdlog::set_formatter(MakeLogFormatter(format));
}

}  // namespace motion::server
