#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/cell/cell_program.h"
#include "core/cell/internal/cell_sweep.h"
#include "core/collision/trajectory_collisions.h"

namespace motion {

/// \brief Robot-robot hits as contact intervals: the hits of one link pair
/// at the same or consecutive instants (halvings between them included)
/// form one interval, its depth the deepest seen; found in any order.
/// `link_name(robot, link)` names a link of a robot.
std::vector<CellContact> PairContacts(
    std::vector<PairHit> hits, const std::vector<const CellRobotProgram*>& robots,
    const std::function<const std::string&(int robot, int link)>& link_name);

/// \brief One robot's contacts with the scene (or itself, when `other` is
/// one of its links) in cell time: the program's times shifted by its
/// start, and a contact at its first (last) sample extended to the cell's
/// zero (`cell_end`), since the robot holds still there.
CellContact RobotContact(const CellRobotProgram& robot, const TrajectoryContact& c, bool self,
                         double cell_end);

}  // namespace motion
