#pragma once

#include <string>
#include <vector>

// Joint trajectories as CSV files: what `motionctl plan --csv` writes, or any
// file whose first column is time.
namespace motionctl {

/// \brief Times and positions (n x dof, row-major) of a CSV file.
struct TrajectoryCsv {
  std::vector<std::string> joints;  ///< position column names, "q_" dropped
  bool named_joints = false;        ///< the columns were q_<joint> (so joints are names)
  std::vector<double> time;
  std::vector<double> positions;
};

/// \brief Reads `path`: a header line whose first column is `time`, then one
/// row per sample. The position columns are those named `q_<joint>` when
/// there are any (a `plan --csv` file: its qd_, qdd_ and tcp_ columns are
/// skipped), else every column after time. False, with `error` saying which
/// line and column, when the file cannot be read or a value is not a number.
bool ReadTrajectoryCsv(const std::string& path, TrajectoryCsv* out, std::string* error);

/// \brief Writes time, then q_, qd_ and qdd_ of every joint, one row per
/// sample, each double to 17 significant digits (it reads back exactly).
bool WriteTrajectoryCsv(const std::string& path, const std::vector<std::string>& joints,
                        const std::vector<double>& time, const std::vector<double>& positions,
                        const std::vector<double>& velocities,
                        const std::vector<double>& accelerations, std::string* error);

}  // namespace motionctl
