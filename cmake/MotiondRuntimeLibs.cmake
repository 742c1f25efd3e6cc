# Install component `runtime_libs` (not part of a plain `cmake --install`):
# copies the shared libraries motiond and motionctl load, transitively, into
# PREFIX/lib, so PREFIX is self-contained next to glibc. Used by the container
# build (deploy/Dockerfile) and the edge tarball (deploy/edge/build-edge.sh).
# Native builds resolve the way the host's loader does (RPATH, ldconfig's
# folders). Cross builds read the arm64 sysroot: the cross objdump, and a
# stand-in for `ldconfig -v` that lists the sysroot's library folders (CMake
# asks ldconfig where the loader looks; the host's would name amd64 folders).
#
# Shared libraries core links PUBLIC ship even while no binary needs them yet:
# Debian's gcc links with --as-needed, so motiond has no NEEDED entry for FCL
# until core's code calls it, and then it would be picked up anyway. Listed by
# soname (the file the loader looks for); their own dependencies come too.
set(motiond_bundled_libraries "$<TARGET_SONAME_FILE:fcl>")

set(motiond_runtime_tool_code "")
if(CMAKE_CROSSCOMPILING)
  find_program(MOTIOND_CROSS_OBJDUMP ${CMAKE_LIBRARY_ARCHITECTURE}-objdump REQUIRED)
  set(motiond_ldconfig ${CMAKE_BINARY_DIR}/sysroot-ldconfig)
  file(WRITE ${motiond_ldconfig} "#!/bin/sh\n# ldconfig -v stand-in for the cross build (cmake/MotiondRuntimeLibs.cmake)\n"
       "echo '${CMAKE_SYSROOT}/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}:'\n"
       "echo '${CMAKE_SYSROOT}/lib/${CMAKE_LIBRARY_ARCHITECTURE}:'\n")
  file(CHMOD ${motiond_ldconfig} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(motiond_runtime_tool_code "
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_PLATFORM linux+elf)
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_TOOL objdump)
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_COMMAND \"${MOTIOND_CROSS_OBJDUMP}\")
    set(CMAKE_LDCONFIG_COMMAND \"${motiond_ldconfig}\")")
endif()

install(CODE "
  ${motiond_runtime_tool_code}
  file(GET_RUNTIME_DEPENDENCIES
    EXECUTABLES \"$<TARGET_FILE:motiond>\" \"$<TARGET_FILE:motionctl>\"
    LIBRARIES \"${motiond_bundled_libraries}\"
    RESOLVED_DEPENDENCIES_VAR motiond_libs
    UNRESOLVED_DEPENDENCIES_VAR motiond_missing
    PRE_EXCLUDE_REGEXES
      \"^(ld-linux.*|libc|libm|libdl|librt|libpthread|libresolv|libutil|libanl|libnss_.*)\\\\.so.*\")
  if(motiond_missing)
    message(FATAL_ERROR \"runtime_libs: unresolved: \${motiond_missing}\")
  endif()
  list(APPEND motiond_libs \"${motiond_bundled_libraries}\")
  list(REMOVE_DUPLICATES motiond_libs)
  foreach(lib IN LISTS motiond_libs)
    file(INSTALL \"\${lib}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib\" FOLLOW_SYMLINK_CHAIN)
  endforeach()
  list(LENGTH motiond_libs n)
  message(STATUS \"runtime_libs: \${n} shared libraries in \${CMAKE_INSTALL_PREFIX}/lib\")
  " COMPONENT runtime_libs EXCLUDE_FROM_ALL)
