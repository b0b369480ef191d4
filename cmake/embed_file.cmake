# SPDX-License-Identifier: Apache-2.0
# cmake -DINPUT=file -DOUTPUT=header.hpp -DNAME=symbol -DNAMESPACE=ns -P embed_file.cmake
# Writes a header that holds INPUT's bytes as `inline constexpr unsigned char NAME[]` (no NUL
# added): how a file kept in the source tree (the daemon's pipeline page) becomes part of a
# binary without #embed. Run at build time by cuzk_embed_file (cuzk_helpers.cmake).
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
     "// Generated from ${input_name} by cmake/embed_file.cmake: do not edit.\n"
     "#pragma once\n\nnamespace ${NAMESPACE} {\n\n"
     "inline constexpr unsigned char ${NAME}[] = {\n    ${bytes}\n};\n\n}  // namespace ${NAMESPACE}\n")
