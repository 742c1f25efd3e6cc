# CMake toolchain file: cross-compile motiond for aarch64 Linux (Debian 12 arm64
# userland) with Debian's g++-aarch64-linux-gnu against a separate arm64 sysroot
# made by deploy/edge/setup-arm64-sysroot.sh. Used by `make edge`
# (deploy/edge/build-edge.sh); the recipe is ../shared/tools/arm64/.
#
# Sysroot location: -DARM64_SYSROOT=/path, else $ARM64_SYSROOT, else /opt/arm64-sysroot.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

if(NOT ARM64_SYSROOT)
  if(DEFINED ENV{ARM64_SYSROOT})
    set(ARM64_SYSROOT "$ENV{ARM64_SYSROOT}")
  else()
    set(ARM64_SYSROOT "/opt/arm64-sysroot")
  endif()
endif()
if(NOT EXISTS "${ARM64_SYSROOT}/usr/include/aarch64-linux-gnu")
  message(FATAL_ERROR "ARM64_SYSROOT='${ARM64_SYSROOT}' is not an arm64 sysroot; run setup-arm64-sysroot.sh")
endif()
# try_compile() projects re-read this file; pass the sysroot on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ARM64_SYSROOT)

set(CMAKE_SYSROOT "${ARM64_SYSROOT}")
set(CMAKE_C_COMPILER   aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Cortex-A72 (Raspberry Pi 4 / many cell controllers); harmless on newer cores.
set(CMAKE_C_FLAGS_INIT   "-mcpu=cortex-a72")
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-a72")

# Libraries/headers/CMake packages only from the sysroot; programs (protoc,
# grpc_cpp_plugin) only from the host.
set(CMAKE_FIND_ROOT_PATH "${ARM64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config: only the sysroot's .pc files, and prefix -I/-L with the sysroot.
set(ENV{PKG_CONFIG_DIR} "")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_LIBDIR} "${ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${ARM64_SYSROOT}/usr/share/pkgconfig:${ARM64_SYSROOT}/usr/lib/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${ARM64_SYSROOT}")

# ctest / gtest_discover_tests run target binaries through user-mode QEMU.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L "${ARM64_SYSROOT}")
# List the tests at ctest time (under QEMU), not as a post-build step: the
# build stays free of emulation and a listing failure shows up as a test.
set(CMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE PRE_TEST)
