# The fuzz targets built without libFuzzer, each replaying its committed
# corpus (tests/fuzz/corpus/<target>/) as a test of the ordinary build;
# included by tests/CMakeLists.txt unless MOTIOND_FUZZ (whose build mutates
# the corpus instead).
function(motiond_corpus_replay target)
  set(name ${target}_corpus_replay)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${target}.cc
                         ${CMAKE_CURRENT_LIST_DIR}/corpus_replay_main.cc)
  target_link_libraries(${name} PRIVATE ${ARGN})
  target_compile_definitions(${name} PRIVATE MOTIOND_ROBOTS_DIR="${PROJECT_SOURCE_DIR}/robots")
  motiond_warnings(${name})
  add_dependencies(unit_tests ${name})
  add_test(NAME ${name} COMMAND ${name} ${CMAKE_CURRENT_LIST_DIR}/corpus/${target})
  set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 600)
endfunction()

motiond_corpus_replay(urdf_fuzzer motion_core)
motiond_corpus_replay(stl_fuzzer motion_core)
motiond_corpus_replay(request_fuzzer motiond_lib)
