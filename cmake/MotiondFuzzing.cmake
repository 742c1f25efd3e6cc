# libFuzzer build (-DMOTIOND_FUZZ=ON, clang only, its own build dir: `make fuzz`).
# Everything the fuzzers link (core, proto, the server library) is compiled
# with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation; only the fuzz targets link libFuzzer's main. The Debian
# libraries (gRPC, protobuf, Abseil, KDL, urdfdom, FCL) stay as g++ built
# them: clang links against the same libstdc++, so they link as they are,
# uninstrumented (a bug inside them is still caught where ASan intercepts
# malloc/free, and their leaks by LeakSanitizer).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "MOTIOND_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++), "
                      "not ${CMAKE_CXX_COMPILER_ID}")
endif()

include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
check_cxx_source_compiles([[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
]] MOTIOND_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT MOTIOND_HAVE_LIBFUZZER)
  message(FATAL_ERROR "clang cannot link -fsanitize=fuzzer: install libclang-rt-14-dev "
                      "(scripts/bootstrap.sh)")
endif()

# -fno-sanitize-recover: an undefined-behaviour report aborts, so libFuzzer
# saves the input and the run fails instead of printing and carrying on.
add_compile_options(-fsanitize=address,undefined -fsanitize=fuzzer-no-link
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
# As in the MOTIOND_SANITIZE builds: Eigen under ASan would allocate with its
# own alignment scheme what Debian's KDL later frees with free().
add_compile_definitions(EIGEN_MALLOC_ALREADY_ALIGNED=1)
