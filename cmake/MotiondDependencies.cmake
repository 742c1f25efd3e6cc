# Every dependency comes from Debian 12 packages (scripts/bootstrap.sh).
# Quirks (see README "Build notes"): KDL has no imported target, urdfdom's
# CMake config hard-codes host paths (pkg-config is used instead), gRPC's
# config needs every grpc_*_plugin installed, and ccd's (under FCL's) names
# libm by an absolute path.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(absl CONFIG REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(prometheus-cpp CONFIG REQUIRED)
find_package(OpenSSL REQUIRED)
pkg_check_modules(URDFDOM REQUIRED IMPORTED_TARGET urdfdom)
pkg_check_modules(KDL REQUIRED IMPORTED_TARGET orocos-kdl)
# The TinyXML that urdfdom parses with: core reads URDF text with it first
# (core/model/urdf_xml_precheck.cc), so both see the same elements.
pkg_check_modules(URDF_TINYXML REQUIRED IMPORTED_TARGET tinyxml)

# FCL 0.7 (collision checking in core): its CMake config gives the imported
# target `fcl` and pulls ccd's and octomap's configs, all relative to where they
# are found, so they work in the arm64 sysroot too. Not pkg-config: fcl.pc's
# Cflags carry -std=c++11. One quirk: ccd's targets file names libm by the
# absolute path of the machine it was built for (/usr/lib/<arch>/libm.so),
# which a cross link would take from the host; libm by name is the same
# library, found in the sysroot.
find_package(fcl 0.7 CONFIG REQUIRED)
foreach(config IN ITEMS "" _NONE _RELEASE _DEBUG _RELWITHDEBINFO _MINSIZEREL)
  get_target_property(ccd_link_interface ccd IMPORTED_LINK_INTERFACE_LIBRARIES${config})
  if(ccd_link_interface)
    list(TRANSFORM ccd_link_interface REPLACE "^/.*/libm\\.so$" "m")
    set_target_properties(ccd PROPERTIES IMPORTED_LINK_INTERFACE_LIBRARIES${config} "${ccd_link_interface}")
  endif()
endforeach()
unset(ccd_link_interface)

# In a cross build the plugin must run on the host, so never use the target.
find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)
find_program(PROTOC_EXECUTABLE protoc REQUIRED)
