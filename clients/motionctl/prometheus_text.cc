#include "clients/motionctl/prometheus_text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace motionctl {
namespace {

bool IsNameChar(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         (!first && c >= '0' && c <= '9');
}

// Go's strconv.ParseFloat spellings that the exposition format uses.
bool ParseValue(const std::string& word, double* value) {
  if (word == "+Inf" || word == "Inf")
    return *value = std::numeric_limits<double>::infinity(), true;
  if (word == "-Inf") return *value = -std::numeric_limits<double>::infinity(), true;
  std::string lower = word;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  if (lower == "nan") return *value = std::numeric_limits<double>::quiet_NaN(), true;
  char* end = nullptr;
  *value = std::strtod(word.c_str(), &end);
  return end != word.c_str() && *end == '\0';
}

bool ParseSampleLine(const std::string& line, MetricSample* sample, std::string* why) {
  std::size_t i = 0;
  while (i < line.size() && IsNameChar(line[i], i == 0)) ++i;
  if (i == 0) return *why = "no metric name", false;
  sample->name = line.substr(0, i);
  if (i < line.size() && line[i] == '{') {
    ++i;
    for (;;) {
      while (i < line.size() && (line[i] == ' ' || line[i] == ',')) ++i;
      if (i < line.size() && line[i] == '}') {
        ++i;
        break;
      }
      const std::size_t key_start = i;
      while (i < line.size() && IsNameChar(line[i], i == key_start)) ++i;
      if (i == key_start) return *why = "bad label name", false;
      const std::string key = line.substr(key_start, i - key_start);
      if (i + 1 >= line.size() || line[i] != '=' || line[i + 1] != '"') {
        return *why = "label " + key + ": expected =\"", false;
      }
      i += 2;
      std::string value;
      for (;; ++i) {
        if (i >= line.size()) return *why = "unterminated label value", false;
        if (line[i] == '"') break;
        if (line[i] == '\\' && i + 1 < line.size()) {
          const char e = line[++i];
          value += e == 'n' ? '\n' : e;  // \\ \" \n
        } else {
          value += line[i];
        }
      }
      ++i;  // closing quote
      sample->labels[key] = value;
    }
  }
  std::istringstream rest(line.substr(i));
  std::string value;
  if (!(rest >> value)) return *why = "no value", false;
  if (!ParseValue(value, &sample->value)) return *why = "bad value '" + value + "'", false;
  return true;  // an optional timestamp may follow
}

}  // namespace

std::string MetricSample::Label(const std::string& key) const {
  const auto it = labels.find(key);
  return it == labels.end() ? "" : it->second;
}

double MetricsPage::Sum(const std::string& name,
                        const std::map<std::string, std::string>& match) const {
  double sum = 0;
  for (const MetricSample& s : samples) {
    if (s.name != name) continue;
    bool matches = true;
    for (const auto& [key, value] : match) matches = matches && s.Label(key) == value;
    if (matches) sum += s.value;
  }
  return sum;
}

std::vector<const MetricSample*> MetricsPage::Find(const std::string& name) const {
  std::vector<const MetricSample*> found;
  for (const MetricSample& s : samples) {
    if (s.name == name) found.push_back(&s);
  }
  return found;
}

bool ParseMetricsText(const std::string& text, MetricsPage* page, std::string* error) {
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    line.erase(0, start);
    if (line[0] == '#') {
      std::istringstream comment(line.substr(1));
      std::string keyword, name, type;
      if (comment >> keyword >> name >> type && keyword == "TYPE") page->types[name] = type;
      continue;
    }
    MetricSample sample;
    std::string why;
    if (!ParseSampleLine(line, &sample, &why)) {
      *error = "line " + std::to_string(number) + ": " + why + ": " + line;
      return false;
    }
    page->samples.push_back(std::move(sample));
  }
  return true;
}

double HistogramQuantile(double q, std::vector<HistogramBucket> buckets) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(q)) return nan;
  if (q < 0) return -std::numeric_limits<double>::infinity();
  if (q > 1) return std::numeric_limits<double>::infinity();
  std::sort(buckets.begin(), buckets.end(), [](const HistogramBucket& a, const HistogramBucket& b) {
    return a.upper_bound < b.upper_bound;
  });
  if (buckets.empty() || !std::isinf(buckets.back().upper_bound)) return nan;
  // Merge buckets with the same bound (series that differed only in le's
  // spelling), then force the counts to be monotonic, as Prometheus does.
  std::vector<HistogramBucket> merged;
  for (const HistogramBucket& b : buckets) {
    if (!merged.empty() && merged.back().upper_bound == b.upper_bound) {
      merged.back().count += b.count;
    } else {
      merged.push_back(b);
    }
  }
  for (std::size_t i = 1; i < merged.size(); ++i) {
    merged[i].count = std::max(merged[i].count, merged[i - 1].count);
  }
  if (merged.size() < 2) return nan;
  const double observations = merged.back().count;
  if (observations == 0) return nan;
  double rank = q * observations;
  std::size_t b = 0;
  while (b < merged.size() - 1 && merged[b].count < rank) ++b;
  if (b == merged.size() - 1) return merged[merged.size() - 2].upper_bound;
  if (b == 0 && merged[0].upper_bound <= 0) return merged[0].upper_bound;
  double start = 0, count = merged[b].count;
  if (b > 0) {
    start = merged[b - 1].upper_bound;
    count -= merged[b - 1].count;
    rank -= merged[b - 1].count;
  }
  return start + (merged[b].upper_bound - start) * (rank / count);
}

}  // namespace motionctl
