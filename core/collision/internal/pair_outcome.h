#pragma once

namespace motion {

/// \brief Outcome of one pair: penetrating (depth > 0) or apart (distance).
struct PairOutcome {
  bool in_contact = false;  ///< penetrating, or closer than the margin
  double depth = 0.0;       ///< margin - signed distance, when in contact
  double distance = 0.0;    ///< signed: < 0 when penetrating (only with `distance`)
};

/// \brief The outcome of a pair at signed distance `distance` under `margin`.
inline PairOutcome OutcomeAt(double distance, double margin) {
  PairOutcome out;
  out.distance = distance;
  if (distance < 0 || distance < margin) {
    out.in_contact = true;
    out.depth = margin - distance;
  }
  return out;
}

}  // namespace motion
