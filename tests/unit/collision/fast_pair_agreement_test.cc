// The own narrowphase against FCL on thousands of random placed pairs of
// every convex kind (box, sphere, capsule, cylinder): the same verdict
// wherever the pair is not within a micrometre of touching; the same
// distance as FCL's GJK (GST_INDEP, tolerance 1e-8, right within 1e-6 m
// for these kinds: fcl_primitives_test) to 1e-6 m; never more than the
// distance between any two points sampled on the two surfaces (the test's
// own support functions); penetration depths never above a separating
// translation the test finds by searching directions itself.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include <fcl/narrowphase/collision.h>
#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include "core/collision/internal/fast_pair.h"
#include "core/collision/internal/fcl_geometry.h"

namespace motion {
namespace {

using Kind = CollisionShape::Kind;

struct Placed {
  CollisionShape shape;
  Eigen::Isometry3d pose;
  std::shared_ptr<fcl::CollisionGeometryd> geometry;
};

// A point of the shape farthest along unit direction d (world frame),
// written from the shape's definition.
Eigen::Vector3d SurfacePoint(const Placed& p, const Eigen::Vector3d& d) {
  const Eigen::Vector3d l = p.pose.linear().transpose() * d;
  Eigen::Vector3d local = Eigen::Vector3d::Zero();
  auto sign = [](double x) { return x >= 0 ? 1.0 : -1.0; };
  switch (p.shape.kind) {
    case Kind::kBox:
      local = 0.5 *
              p.shape.box_size.cwiseProduct(Eigen::Vector3d(sign(l.x()), sign(l.y()), sign(l.z())));
      break;
    case Kind::kSphere:
      local = p.shape.radius * l;
      break;
    case Kind::kCapsule:
      local = Eigen::Vector3d(0, 0, 0.5 * p.shape.length * sign(l.z())) + p.shape.radius * l;
      break;
    case Kind::kCylinder: {
      const double r = std::hypot(l.x(), l.y());
      local.z() = 0.5 * p.shape.length * sign(l.z());
      if (r > 0) local.head<2>() = p.shape.radius * l.head<2>() / r;
      break;
    }
    case Kind::kMesh:
      break;
  }
  return p.pose * local;
}

class RandomPairs {
 public:
  explicit RandomPairs(unsigned seed) : rng_(seed) {}
  double Unit() { return unit_(rng_); }
  Eigen::Vector3d Direction() {
    Eigen::Vector3d d;
    do {
      d = Eigen::Vector3d(Unit(), Unit(), Unit()) * 2 - Eigen::Vector3d::Ones();
    } while (d.norm() < 0.1 || d.norm() > 1);
    return d.normalized();
  }
  Placed Shape(Kind kind) {
    auto size = [&] { return 0.02 + 0.28 * Unit(); };
    Placed p;
    switch (kind) {
      case Kind::kBox:
        p.shape = CollisionShape::Box({size(), size(), size()});
        break;
      case Kind::kSphere:
        p.shape = CollisionShape::Sphere(0.5 * size());
        break;
      case Kind::kCapsule:
        p.shape = CollisionShape::Capsule(0.5 * size(), 2 * size());
        break;
      default:
        p.shape = CollisionShape::Cylinder(0.5 * size(), 2 * size());
        break;
    }
    p.pose = Eigen::Isometry3d::Identity();
    p.pose.translation() = Eigen::Vector3d(Unit(), Unit(), Unit()) * 0.5;
    p.pose.linear() = Eigen::Quaterniond(Unit() - 0.5, Unit() - 0.5, Unit() - 0.5, Unit() - 0.5)
                          .normalized()
                          .toRotationMatrix();
    p.geometry = ToFclGeometry(p.shape);
    return p;
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
};

Primitive AsPrimitive(const Placed& p) {
  return PlacePrimitive(p.shape, p.pose, p.shape.BoundingRadius(), &p.geometry);
}

// Smallest distance between points sampled on the two surfaces: the true
// distance is no larger.
double SampledDistance(RandomPairs& random, const Placed& a, const Placed& b) {
  std::vector<Eigen::Vector3d> pa, pb;
  const Eigen::Vector3d towards = (b.pose.translation() - a.pose.translation()).normalized();
  for (int i = 0; i < 48; ++i) {
    // Half the directions near the line between the centres, where the
    // nearest points usually are.
    Eigen::Vector3d d = random.Direction();
    if (i % 2 == 0) d = (towards + 0.3 * d).normalized();
    pa.push_back(SurfacePoint(a, d));
    pb.push_back(SurfacePoint(b, -d));
  }
  double best = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& x : pa) {
    for (const Eigen::Vector3d& y : pb) best = std::min(best, (x - y).norm());
  }
  return best;
}

// For spheres and capsules (a sphere: a capsule of length 0) the depth is
// r_a + r_b minus the distance between their core segments. That distance,
// by nested ternary searches (|P(s) - Q(t)| is convex in s and t), to 1e-12.
double RoundPairDepth(const Placed& a, const Placed& b) {
  auto core = [](const Placed& p, double s) {
    const double half = p.shape.kind == Kind::kCapsule ? 0.5 * p.shape.length : 0.0;
    return p.pose * Eigen::Vector3d(0, 0, (2 * s - 1) * half);
  };
  auto ternary = [](const std::function<double(double)>& f) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 100; ++i) {
      const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      if (f(m1) < f(m2)) {
        hi = m2;
      } else {
        lo = m1;
      }
    }
    return f(0.5 * (lo + hi));
  };
  const double distance = ternary([&](double s) {
    return ternary([&](double t) { return (core(a, s) - core(b, t)).norm(); });
  });
  return a.shape.radius + b.shape.radius - distance;
}

// The penetration depth from the definition: the shortest translation
// that separates A and B is min over unit u of h_A(u) + h_B(-u) (h the
// support function; the value at any u is the length of a translation
// along u that separates them, so every sample bounds the depth from
// above). Sampled on a Fibonacci sphere, then refined about the best
// directions by a random search whose step shrinks when no move helps
// (the minimum may sit on a ridge of the function, where fixed pattern
// moves stall).
double SampledDepth(RandomPairs& random, const Placed& a, const Placed& b) {
  auto overlap = [&](const Eigen::Vector3d& u) {
    return SurfacePoint(a, u).dot(u) - SurfacePoint(b, -u).dot(u);
  };
  constexpr int kSamples = 600, kStarts = 4;
  std::vector<std::pair<double, Eigen::Vector3d>> samples;
  for (int i = 0; i < kSamples; ++i) {
    const double z = 1 - (2 * i + 1.0) / kSamples, r = std::sqrt(1 - z * z);
    const double phi = i * M_PI * (3 - std::sqrt(5.0));
    const Eigen::Vector3d u(r * std::cos(phi), r * std::sin(phi), z);
    samples.emplace_back(overlap(u), u);
  }
  std::partial_sort(samples.begin(), samples.begin() + kStarts, samples.end(),
                    [](const auto& x, const auto& y) { return x.first < y.first; });
  double best = samples[0].first;
  for (int s = 0; s < kStarts; ++s) {
    auto [value, u] = samples[s];
    for (double step = 0.1; step > 1e-9;) {
      bool moved = false;
      for (int k = 0; k < 24 && !moved; ++k) {
        const Eigen::Vector3d v = (u + step * random.Direction()).normalized();
        const double ov = overlap(v);
        if (ov < value) {
          value = ov;
          u = v;
          moved = true;
        }
      }
      if (!moved) step *= 0.5;
    }
    best = std::min(best, value);
  }
  return best;
}

struct Tally {
  int pairs = 0, apart = 0, touching = 0, left_to_fcl = 0;
};

void CheckKinds(Kind ka, Kind kb, int trials, Tally& tally) {
  RandomPairs random(static_cast<unsigned>(17 + 5 * static_cast<int>(ka) + static_cast<int>(kb)));
  for (int trial = 0; trial < trials; ++trial) {
    const Placed a = random.Shape(ka), b = random.Shape(kb);
    SCOPED_TRACE(::testing::Message()
                 << ShapeKindName(ka) << " / " << ShapeKindName(kb) << " trial " << trial);
    const fcl::CollisionObjectd fa(a.geometry, a.pose), fb(b.geometry, b.pose);
    const PairOutcome fcl = TestPair(fa, fb, true, 0.0);
    const std::optional<PairOutcome> fast = FastPair(AsPrimitive(a), AsPrimitive(b), true, 0.0);
    ++tally.pairs;
    if (!fast) {
      // Only overlapping cylinders are handed to FCL.
      ++tally.left_to_fcl;
      EXPECT_TRUE(ka == Kind::kCylinder || kb == Kind::kCylinder);
      EXPECT_TRUE(fcl.in_contact);
      continue;
    }
    // Within a micrometre of touching FCL's tolerances may decide either way.
    if (std::abs(fast->distance) < 1e-6) continue;
    ASSERT_EQ(fast->in_contact, fcl.in_contact) << "fast " << fast->distance;
    // Verdict only: the same answer.
    const std::optional<PairOutcome> verdict = FastPair(AsPrimitive(a), AsPrimitive(b), false, 0.0);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_EQ(verdict->in_contact, fast->in_contact);
    // With a margin: a contact exactly when FCL says so, of depth
    // margin - distance.
    constexpr double kMargin = 0.02;
    if (std::abs(fast->distance - kMargin) > 1e-6) {
      const std::optional<PairOutcome> m = FastPair(AsPrimitive(a), AsPrimitive(b), false, kMargin);
      ASSERT_TRUE(m.has_value());
      const PairOutcome fcl_margin = TestPair(fa, fb, false, kMargin);
      EXPECT_EQ(m->in_contact, fcl_margin.in_contact);
      if (m->in_contact && !fast->in_contact) {
        EXPECT_NEAR(m->depth, fcl_margin.depth, 1e-6);
      }
    }
    if (!fast->in_contact) {
      ++tally.apart;
      EXPECT_NEAR(fast->distance, fcl.distance, 1e-6);
      EXPECT_LE(fast->distance, SampledDistance(random, a, b) + 1e-12);
      continue;
    }
    ++tally.touching;
    EXPECT_NEAR(fast->depth, -fast->distance, 1e-15);
    // Never more than a translation the test itself finds that separates
    // the pair (FCL's EPA depth for capsule-box and cylinder pairs can be
    // centimetres above it, its box-box depth prefers face axes by up to
    // 5 %: no comparison with FCL there); and close to the best such
    // translation the search finds (it can stall on a ridge, hence 1e-3).
    const bool round = (ka == Kind::kSphere || ka == Kind::kCapsule) &&
                       (kb == Kind::kSphere || kb == Kind::kCapsule);
    if (round) {
      // Exact: the direction search below can stall a millimetre short of
      // it (it did under qemu on aarch64).
      EXPECT_NEAR(fast->depth, RoundPairDepth(a, b), 1e-9);
      continue;
    }
    const double sampled = SampledDepth(random, a, b);
    EXPECT_LE(fast->depth, sampled + 1e-9);
    EXPECT_GE(fast->depth, sampled - 1e-3);
    // Sphere-box: FCL's own closed form, exact.
    if ((ka == Kind::kBox && kb == Kind::kSphere) || (ka == Kind::kSphere && kb == Kind::kBox)) {
      EXPECT_NEAR(fast->depth, fcl.depth, 1e-9);
    }
  }
}

TEST(FastPairAgreementTest, EveryKindPairAgreesWithFcl) {
  const Kind kinds[] = {Kind::kBox, Kind::kSphere, Kind::kCapsule, Kind::kCylinder};
  Tally tally;
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = i; j < 4; ++j) CheckKinds(kinds[i], kinds[j], 400, tally);
  }
  // The draws must exercise both sides of every verdict.
  EXPECT_GT(tally.apart, 1000);
  EXPECT_GT(tally.touching, 400);
  EXPECT_GT(tally.left_to_fcl, 100);
}

}  // namespace
}  // namespace motion
