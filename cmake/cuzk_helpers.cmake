# SPDX-License-Identifier: Apache-2.0
# cuzk_test(NAME name SOURCES ... LIBS ... [LABELS unit|slow|gpu ...] [TIMEOUT s])
# One gtest executable registered as one ctest test (gtest_discover_tests would multiply process
# start-ups on a 2-core CI machine). The label picks the tier (STYLE.md §4.7).
function(cuzk_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} cuzk_test_support GTest::gtest GTest::gtest_main
                        cuzk_warnings)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 900)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                       ENVIRONMENT "CUZK_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()
