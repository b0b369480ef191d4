# SPDX-License-Identifier: Apache-2.0
# The 2 KiB PoRep parameters every proving test shares: generated once per ctest run by the
# fixture test porep_2k_params (tests/CMakeLists.txt); a test that proves adds
# cuzk_uses_porep_2k_params(<test>) and reads the directory from $CUZK_TEST_PARAMS_DIR.
set(CUZK_TEST_PARAMS_2K "${PROJECT_BINARY_DIR}/test-params-2k")
function(cuzk_uses_porep_2k_params test)
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "CUZK_TEST_PARAMS_DIR=${CUZK_TEST_PARAMS_2K}")
  set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED porep_2k_params)
endfunction()

# The 2 KiB SnapDeals parameters, the same way: fixture snap_2k_params, $CUZK_TEST_SNAP_PARAMS_DIR.
set(CUZK_TEST_SNAP_PARAMS_2K "${PROJECT_BINARY_DIR}/test-snap-params-2k")
function(cuzk_uses_snap_2k_params test)
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
                                            "CUZK_TEST_SNAP_PARAMS_DIR=${CUZK_TEST_SNAP_PARAMS_2K}")
  set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED snap_2k_params)
endfunction()

# cuzk_library(NAME n [INTERFACE] SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One library per layer directory (docs/architecture.md). Every library sees the source root
# (src/) for its own headers and include/ (the public API: cuzk/status.hpp, cuzk/log.hpp); which of them it may include is the layer table's business, checked
# by scripts/lint_layers.py. PUBLIC_DEPS are the libraries whose headers this library's headers
# include; PRIVATE_DEPS are used only by its sources.
function(cuzk_library)
  cmake_parse_arguments(L "INTERFACE" "NAME" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  if(L_INTERFACE)
    add_library(${L_NAME} INTERFACE)
    target_include_directories(${L_NAME} INTERFACE ${PROJECT_SOURCE_DIR}/src
                                                     ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(${L_NAME} INTERFACE ${L_PUBLIC_DEPS})
    return()
  endif()
  add_library(${L_NAME} STATIC ${L_SOURCES})
  target_include_directories(${L_NAME} PUBLIC ${PROJECT_SOURCE_DIR}/src
                                               ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${L_NAME} PUBLIC ${L_PUBLIC_DEPS} PRIVATE ${L_PRIVATE_DEPS} cuzk_warnings)
endfunction()

# cuzk_test(NAME name SOURCES ... LIBS ... [LABELS unit|slow|gpu ...] [TIMEOUT s]
#           [COMMAND_PREFIX cmd args...])     (prefix: e.g. scripts/require_npm_oracle.sh ... --)
# One gtest executable registered as one ctest test (gtest_discover_tests would multiply process
# start-ups on a 2-core CI machine). The label picks the tier (CONTRIBUTING.md "Tests").
function(cuzk_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;COMMAND_PREFIX" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES} ${PROJECT_SOURCE_DIR}/tests/support/skip_exit_code.cpp)
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} cuzk_test_support GTest::gtest GTest::gtest_main
                        cuzk_warnings)
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND_PREFIX} $<TARGET_FILE:${T_NAME}>)
  # skip_exit_code.cpp: a run with skipped tests and no failure exits 77, which ctest reports as
  # skipped instead of counting it as passed.
  set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77)
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 900)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
  # Tests that read fixtures find the source tree when run outside ctest too.
  target_compile_definitions(${T_NAME} PRIVATE CUZK_SOURCE_DIR_FALLBACK="${PROJECT_SOURCE_DIR}")
  if(CUZK_WITH_CUDA)
    set_target_properties(${T_NAME} PROPERTIES CUDA_RUNTIME_LIBRARY ${CUZK_CUDA_RUNTIME})
  endif()
endfunction()

# cuzk_cuda_library(NAME n SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...]): a CUDA library with
# the project's CUDA runtime (CUZK_CUDA_RUNTIME; one runtime per process) and nvcc options.
function(cuzk_cuda_library)
  cmake_parse_arguments(L "" "NAME" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  cuzk_library(NAME ${L_NAME} SOURCES ${L_SOURCES} PUBLIC_DEPS ${L_PUBLIC_DEPS}
               PRIVATE_DEPS ${L_PRIVATE_DEPS} cuzk_cuda_options)
  set_target_properties(${L_NAME} PROPERTIES CUDA_RUNTIME_LIBRARY ${CUZK_CUDA_RUNTIME})
endfunction()

# cuzk_embed_file(TARGET t INPUT file NAME symbol NAMESPACE ns): generates <symbol>.hpp (in the
# binary dir, on t's include path) holding INPUT's bytes, regenerated whenever INPUT changes.
function(cuzk_embed_file)
  cmake_parse_arguments(E "" "TARGET;INPUT;NAME;NAMESPACE" "" ${ARGN})
  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  set(header ${gen_dir}/${E_NAME}.hpp)
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${E_INPUT} -DOUTPUT=${header} -DNAME=${E_NAME}
            -DNAMESPACE=${E_NAMESPACE} -P ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    DEPENDS ${E_INPUT} ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    COMMENT "embed ${E_INPUT}")
  target_sources(${E_TARGET} PRIVATE ${header})
  target_include_directories(${E_TARGET} PRIVATE ${gen_dir})
endfunction()

# cuzk_add_fuzzer(NAME name SOURCE file LIBS ...): a libFuzzer target (`file` defines
# LLVMFuzzerTestOneInput), built only with -DCUZK_FUZZ=ON. The sources sit beside the code they
# test (*_fuzz.cpp); the seed corpus is fuzz/corpus/<name>/ (scripts/fuzz.sh, docs/fuzzing.md).
function(cuzk_add_fuzzer)
  cmake_parse_arguments(F "" "NAME;SOURCE" "LIBS" ${ARGN})
  if(NOT CUZK_FUZZ)
    return()
  endif()
  add_executable(${F_NAME} ${F_SOURCE})
  target_link_libraries(${F_NAME} PRIVATE ${F_LIBS} cuzk_warnings)
  target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
  set_property(GLOBAL APPEND PROPERTY CUZK_FUZZERS ${F_NAME})
endfunction()

# Writes <build>/fuzz_targets.txt (one fuzzer name a line) and adds the target cuzk_fuzzers that
# builds them all. Called once, after every directory has added its fuzzers.
function(cuzk_write_fuzzer_list)
  if(NOT CUZK_FUZZ)
    return()
  endif()
  get_property(fuzzers GLOBAL PROPERTY CUZK_FUZZERS)
  list(SORT fuzzers)
  list(JOIN fuzzers "\n" lines)
  file(WRITE ${PROJECT_BINARY_DIR}/fuzz_targets.txt "${lines}\n")
  add_custom_target(cuzk_fuzzers DEPENDS ${fuzzers})
endfunction()

# cuzk_resolved_cuda_architectures(<out> <list>): a CUDA_ARCHITECTURES value with CMake's special
# words replaced by what they build: `native` by the GPUs found at configure time
# (CMAKE_CUDA_ARCHITECTURES_NATIVE, "90-real"), `all` / `all-major` by SASS of each and PTX of
# the newest. For the binary's own record of its device code (gpu::built_cuda_architectures).
function(cuzk_resolved_cuda_architectures out list)
  set(resolved)
  foreach(arch IN LISTS list)
    if(arch STREQUAL "native")
      list(APPEND resolved ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
    elseif(arch STREQUAL "all" OR arch STREQUAL "all-major")
      if(arch STREQUAL "all")
        set(every ${CMAKE_CUDA_ARCHITECTURES_ALL})
      else()
        set(every ${CMAKE_CUDA_ARCHITECTURES_ALL_MAJOR})
      endif()
      list(POP_BACK every newest)
      list(TRANSFORM every APPEND "-real")
      list(APPEND resolved ${every} ${newest})
    else()
      list(APPEND resolved ${arch})
    endif()
  endforeach()
  set(${out} "${resolved}" PARENT_SCOPE)
endfunction()
