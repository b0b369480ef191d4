// SPDX-License-Identifier: Apache-2.0
// printable(): control bytes escaped, everything else (UTF-8 included) unchanged.
#include "base/printable.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk {
namespace {

TEST(Printable, PlainTextIsUnchanged) {
  EXPECT_EQ(printable(""), "");
  EXPECT_EQ(printable("porep-1000-42 ~!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}"),
            "porep-1000-42 ~!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}");
  EXPECT_EQ(printable("sector \xc3\xa9t\xc3\xa9 \xe2\x9c\x93"),
            "sector \xc3\xa9t\xc3\xa9 \xe2\x9c\x93");
}

TEST(Printable, ControlBytesBecomeHexEscapes) {
  EXPECT_EQ(printable("a\nb"), "a\\x0ab");
  EXPECT_EQ(printable("\r\t\x1b[31m"), "\\x0d\\x09\\x1b[31m");
  EXPECT_EQ(printable(std::string("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(printable("\x7f\x1f"), "\\x7f\\x1f");
  // Every byte value: the control bytes escaped, the others kept.
  for (int b = 0; b < 256; ++b) {
    const std::string in(1, char(b));
    const bool control = b < 0x20 || b == 0x7f;
    EXPECT_EQ(printable(in).size(), control ? 4u : 1u) << b;
  }
}

}  // namespace
}  // namespace cuzk
