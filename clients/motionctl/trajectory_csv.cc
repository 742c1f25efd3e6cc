#include "clients/motionctl/trajectory_csv.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace motionctl {
namespace {

std::vector<std::string> SplitCommas(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    cells.push_back(cell);
  }
  return cells;
}

bool ParseCell(const std::string& cell, double* value) {
  char* end = nullptr;
  *value = std::strtod(cell.c_str(), &end);
  return !cell.empty() && *end == '\0';
}

}  // namespace

bool ReadTrajectoryCsv(const std::string& path, TrajectoryCsv* out, std::string* error) {
  std::ifstream in(path);
  if (!in) return *error = "cannot read " + path, false;
  std::string line;
  if (!std::getline(in, line)) return *error = path + ": empty", false;
  const std::vector<std::string> header = SplitCommas(line);
  if (header.empty() || header[0] != "time") {
    return *error = path + ":1: the first column must be named time", false;
  }
  std::vector<std::size_t> columns;  // of the positions
  for (std::size_t c = 1; c < header.size(); ++c) {
    if (header[c].rfind("q_", 0) == 0) {
      columns.push_back(c);
      out->joints.push_back(header[c].substr(2));
    }
  }
  out->named_joints = !columns.empty();
  if (columns.empty()) {
    for (std::size_t c = 1; c < header.size(); ++c) {
      columns.push_back(c);
      out->joints.push_back(header[c]);
    }
  }
  if (columns.empty()) return *error = path + ":1: no joint columns after time", false;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = SplitCommas(line);
    if (cells.size() != header.size()) {
      *error = path + ":" + std::to_string(number) + ": " + std::to_string(cells.size()) +
               " columns, the header has " + std::to_string(header.size());
      return false;
    }
    double value = 0;
    if (!ParseCell(cells[0], &value)) {
      return *error =
                 path + ":" + std::to_string(number) + ": time '" + cells[0] + "' is not a number",
             false;
    }
    out->time.push_back(value);
    for (std::size_t c : columns) {
      if (!ParseCell(cells[c], &value)) {
        return *error = path + ":" + std::to_string(number) + ": " + header[c] + " '" + cells[c] +
                        "' is not a number",
               false;
      }
      out->positions.push_back(value);
    }
  }
  return true;
}

bool WriteTrajectoryCsv(const std::string& path, const std::vector<std::string>& joints,
                        const std::vector<double>& time, const std::vector<double>& positions,
                        const std::vector<double>& velocities,
                        const std::vector<double>& accelerations, std::string* error) {
  std::FILE* csv = std::fopen(path.c_str(), "w");
  if (csv == nullptr) return *error = "cannot write " + path, false;
  std::fprintf(csv, "time");
  for (const char* kind : {"q", "qd", "qdd"}) {
    for (const std::string& name : joints) std::fprintf(csv, ",%s_%s", kind, name.c_str());
  }
  std::fprintf(csv, "\n");
  const std::size_t dof = joints.size();
  for (std::size_t k = 0; k < time.size(); ++k) {
    std::fprintf(csv, "%.17g", time[k]);
    for (const std::vector<double>* values : {&positions, &velocities, &accelerations}) {
      for (std::size_t j = 0; j < dof; ++j) std::fprintf(csv, ",%.17g", (*values)[k * dof + j]);
    }
    std::fprintf(csv, "\n");
  }
  return std::fclose(csv) == 0 || (*error = "cannot write " + path, false);
}

}  // namespace motionctl
