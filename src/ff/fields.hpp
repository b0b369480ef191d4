// SPDX-License-Identifier: Apache-2.0
// BLS12-381's prime fields: fp_t (base field, 381 bits, 6 limbs) and fr_t (scalar field, 255 bits,
// 4 limbs), both in Montgomery form. The consteval derivations in mont_t must equal the generated
// literal table (scripts/gen/gen_params.py): two independent derivations checking each other.
#pragma once

#include "ff/bls12_381_params.hpp"
#include "ff/mont.hpp"

namespace cuzk::ff {

struct fp_config {
  static constexpr size_t N = 6;
  static constexpr limbs<6> MODULUS = bls12_381::FP_MODULUS;
  static constexpr uint64_t GENERATOR = bls12_381::FP_GENERATOR;
};
struct fr_config {
  static constexpr size_t N = 4;
  static constexpr limbs<4> MODULUS = bls12_381::FR_MODULUS;
  static constexpr uint64_t GENERATOR = bls12_381::FR_GENERATOR;
};

using fp_t = mont_t<fp_config>;
using fr_t = mont_t<fr_config>;

static_assert(sizeof(fp_t) == 48 && alignof(fp_t) == 8);
static_assert(sizeof(fr_t) == 32 && alignof(fr_t) == 8);

static_assert(fp_t::R == bls12_381::FP_R && fp_t::R2 == bls12_381::FP_R2);
static_assert(fp_t::INV == bls12_381::FP_INV && fp_t::TWO_ADICITY == bls12_381::FP_TWO_ADICITY);
static_assert(fr_t::R == bls12_381::FR_R && fr_t::R2 == bls12_381::FR_R2);
static_assert(fr_t::INV == bls12_381::FR_INV && fr_t::TWO_ADICITY == bls12_381::FR_TWO_ADICITY);
static_assert(fp_t::BITS == 381 && fr_t::BITS == 255);

/// Fr's primitive 2^32-th root of unity, 7^((r-1)/2^32) (docs/spec/primitives.md §1), derived at
/// compile time and checked against the table.
inline constexpr fr_t FR_ROOT_OF_UNITY = fr_t::from_uint(bls12_381::FR_GENERATOR).pow(fr_t::T_ODD);
static_assert(FR_ROOT_OF_UNITY.to_canonical() == bls12_381::FR_ROOT_OF_UNITY);

}  // namespace cuzk::ff
