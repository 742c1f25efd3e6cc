#pragma once

// How many cases the large randomised tests run. Natively they run every
// case; under emulation (the aarch64 edge build runs the tests under
// qemu-user, ~25x slower) and under the sanitizers the CI scripts set
// MOTIOND_TEST_SCALE to a fraction, and each such test runs that fraction
// of its cases (the same cases, in the same order: the first ones).

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace motiond_test_scale {

/// n scaled by MOTIOND_TEST_SCALE (in (0, 1]; unset or out of range: 1),
/// at least 1.
inline int ScaledCount(int n) {
  const char* text = std::getenv("MOTIOND_TEST_SCALE");
  double scale = text != nullptr ? std::atof(text) : 1.0;
  if (!(scale > 0.0 && scale <= 1.0)) scale = 1.0;
  return std::max(1, static_cast<int>(std::lround(n * scale)));
}

}  // namespace motiond_test_scale
