#pragma once

#include <cstdint>

namespace motion {

/// \brief xoshiro256** (Blackman & Vigna 2018) seeded through splitmix64:
/// a fixed algorithm, so a seed gives the same stream on every compiler and
/// standard library (std::uniform_real_distribution's mapping is
/// implementation-defined).
class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) {
    // splitmix64 spreads any seed, 0 included, over the four words.
    for (std::uint64_t& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t Next() {
    const std::uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1): the top 53 bits, exactly representable.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  /// Uniform in [lower, upper] (upper only by rounding).
  double Uniform(double lower, double upper) { return lower + (upper - lower) * Uniform(); }

 private:
  static std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace motion
