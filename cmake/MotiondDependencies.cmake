# Every dependency comes from Debian 12 packages (scripts/bootstrap.sh).
# Quirks (see README "Build notes"): KDL has no imported target, urdfdom's
# CMake config hard-codes host paths (pkg-config is used instead), and gRPC's
# config needs every grpc_*_plugin installed.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(absl CONFIG REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(prometheus-cpp CONFIG REQUIRED)
find_package(OpenSSL REQUIRED)
# FCL 0.7 (collision checking): its CMake config's target `fcl` (its
# pkg-config file would add -std=c++11 to every compile).
find_package(fcl CONFIG REQUIRED)
pkg_check_modules(URDFDOM REQUIRED IMPORTED_TARGET urdfdom)
pkg_check_modules(KDL REQUIRED IMPORTED_TARGET orocos-kdl)
# The TinyXML that urdfdom parses with: core reads URDF text with it first
# (core/model/urdf_xml_precheck.cc), so both see the same elements.
pkg_check_modules(URDF_TINYXML REQUIRED IMPORTED_TARGET tinyxml)

# In a cross build the plugin must run on the host, so never use the target.
find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)
find_program(PROTOC_EXECUTABLE protoc REQUIRED)
