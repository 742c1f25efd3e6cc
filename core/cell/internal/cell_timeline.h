#pragma once

#include <vector>

#include <Eigen/Core>

#include "core/cell/cell_program.h"

namespace motion {

/// \brief The instants of a cell: the cell's zero and every sample of every
/// robot shifted by its start time, merged and increasing. Between two
/// consecutive instants every robot's joints move linearly (none has a
/// sample inside), which is what the motion bounds assume.
std::vector<double> CellInstants(const std::vector<const CellRobotProgram*>& robots,
                                 const std::vector<double>& start_times);

/// \brief The number of instants CellInstants would return, at most (the
/// samples of every robot plus one), without allocating them.
std::size_t CellInstantsBound(const std::vector<const CellRobotProgram*>& robots);

/// \brief Joints of `robot` at cell time `t` when it starts at `start`:
/// its first configuration before, its last one after, linear between
/// samples.
void JointsAt(const CellRobotProgram& robot, double start, double t, Eigen::VectorXd& q);

}  // namespace motion
