# SPDX-License-Identifier: Apache-2.0
# Writes the version header at build time (run by the cuzk_version target on every build), so
# `cuzk version` and the benchmarks' cuzk_commit name the commit the binary was built from, not
# the one of the last CMake configure; "+dirty" marks uncommitted changes to tracked files. The
# header is replaced only when its text changes, so an unchanged commit recompiles nothing.
# Inputs: SOURCE_DIR, TEMPLATE (version.hpp.in), OUTPUT, PROJECT_VERSION.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE CUZK_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
  RESULT_VARIABLE rev_rc)
if(NOT rev_rc EQUAL 0 OR NOT CUZK_GIT_COMMIT)
  set(CUZK_GIT_COMMIT "unknown")
else()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR}
    RESULT_VARIABLE dirty_rc ERROR_QUIET)
  if(NOT dirty_rc EQUAL 0)
    string(APPEND CUZK_GIT_COMMIT "+dirty")
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT}.tmp @ONLY)
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
