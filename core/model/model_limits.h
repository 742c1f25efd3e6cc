#pragma once

#include <cstddef>

namespace motion {

/// \brief Bounds on what a URDF may contain, so hostile or broken input costs
/// bounded memory and time and never overflows a stack.
struct ModelLimits {
  std::size_t max_urdf_bytes = 4u << 20;  ///< 4 MiB: real arm URDFs are < 100 KiB.
  int max_xml_depth = 64;      ///< TinyXML parses recursively; real URDFs nest < 10 deep.
  int max_links = 2048;        ///< Links in the whole tree.
  int max_chain_dof = 64;      ///< Independent joints in one chain.
  int max_cached_chains = 32;  ///< Chains a model keeps built per base/tip pair.
};

}  // namespace motion
