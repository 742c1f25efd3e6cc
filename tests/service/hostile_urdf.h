#pragma once

// URDFs an attacker would send: printf directives in every attribute and
// name that urdfdom 3.0.1 (Debian 12) used to pass to printf as a format
// (its parse errors went through CONSOLE_BRIDGE_logError(e.what())), and
// joint graphs with cycles that urdfdom's link tree never freed. Shared by
// the in-process service test and the fleet test against the real binary.

#include <string>
#include <vector>

namespace motiond_test {

/// One malformed URDF and what a good refusal names.
struct HostileUrdf {
  std::string label;  ///< for test traces: "visual origin xyz with %n%n..."
  std::string urdf;
  /// Words the error message must contain (lower case), e.g. {"visual", "xyz"}.
  std::vector<std::string> field_words;
};

/// Printf directives an attacker uses: %s reads through pointers (crash),
/// %n writes (abort), %p/%x copy addresses into the message, positional and
/// long runs (thousands of directives).
std::vector<std::string> FormatDirectivePayloads();

/// Every attribute kind urdfdom parses as a number (origin xyz/rpy in
/// visual, collision, inertial and joint; box size, cylinder radius/length,
/// sphere radius, mesh scale, mass, inertia, colour rgba inline and at robot
/// level, axis, limit, safety controller, calibration, dynamics, mimic), each
/// holding `payload`, plus names holding it beside a malformed number.
std::vector<HostileUrdf> FormatDirectiveUrdfs(const std::string& payload);

/// A URDF that is valid except that its link, joint and material names hold
/// printf directives: it must load, names kept byte for byte.
std::string ValidUrdfWithDirectivesInNames();
/// The names ValidUrdfWithDirectivesInNames uses for its two links and joint.
inline constexpr const char* kDirectiveBaseLink = "base%n%s";
inline constexpr const char* kDirectiveTipLink = "tip%p%x";
inline constexpr const char* kDirectiveJoint = "joint%s%s%n";

/// Joint graphs with a cycle: a link that is its own parent, two links that
/// are each other's parent, and a loop beside a valid tree (detached from the
/// root, which urdfdom itself accepts).
std::vector<HostileUrdf> CyclicUrdfs();

/// A ring of `links` links whose names are padded so that the file is about
/// `bytes` long (a large cyclic file).
std::string LargeCyclicUrdf(int links, std::size_t bytes);

/// True when `message` holds a '%' or something that looks like a printed
/// pointer ("0x" and 8+ hex digits, or "(nil)").
bool LooksLikeFormatOutput(const std::string& message);

}  // namespace motiond_test
