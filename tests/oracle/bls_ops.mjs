// SPDX-License-Identifier: Apache-2.0
// Shared helpers for the @noble/curves oracle: hex/scalar codecs, an independent ZCash-encoding
// classifier (length -> flags -> canonical -> on-curve -> subgroup), and `check_record`, which
// recomputes one vector-file line with noble. Used by gen_vectors.mjs (self-check of the frozen
// files) and live_check.mjs (cross-check of lines emitted by cuzk). Format: tests/vectors/README.md.

import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

export { bls };
export const { Fp, Fp2, Fp6, Fp12, Fr } = bls.fields;
export const G1 = bls.G1.Point;
export const G2 = bls.G2.Point;
export const P = Fp.ORDER; // base field modulus p
export const R = Fr.ORDER; // subgroup order r

const SCALAR_HEX = 64; // 32-byte big-endian scalar
const FP_HEX = 96; // 48-byte big-endian Fp element

// ---- hex helpers ----------------------------------------------------------------------------

export function bytes_to_hex(b) {
  return Buffer.from(b).toString('hex');
}

export function hex_to_bytes(h) {
  if (h === '-') return new Uint8Array(0);
  if (!/^([0-9a-f]{2})*$/.test(h)) throw new Error(`bad hex token '${h.slice(0, 20)}...'`);
  return new Uint8Array(Buffer.from(h, 'hex'));
}

export function scalar_hex(k) {
  if (k < 0n || k >= 1n << 256n) throw new Error('scalar out of 256-bit range');
  return k.toString(16).padStart(SCALAR_HEX, '0');
}

export function parse_scalar(h) {
  if (!/^[0-9a-f]{64}$/.test(h)) throw new Error(`scalar must be 64 lowercase hex digits: '${h}'`);
  return BigInt('0x' + h);
}

export function fp_hex(x) {
  return x.toString(16).padStart(FP_HEX, '0');
}

// Fp12 flattened in the documented order: c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
export function fp12_flat(x) {
  const out = [];
  for (const f6 of [x.c0, x.c1]) for (const f2 of [f6.c0, f6.c1, f6.c2]) out.push(f2.c0, f2.c1);
  return out;
}

export function fp12_hex(x) {
  return fp12_flat(x).map(fp_hex);
}

// ---- groups ---------------------------------------------------------------------------------

export const GROUPS = {
  g1: { Point: G1, F: Fp, W: 48, b: 4n, nparts: 1 },
  g2: { Point: G2, F: Fp2, W: 96, b: Fp2.fromBigTuple([4n, 4n]), nparts: 2 },
};

// noble only encodes the identity in its canonical projective form (0 : 1 : 0); results of
// add/double may be another representative, so map every identity to Point.ZERO first.
const canon = (pt) => (pt.is0() ? pt.constructor.ZERO : pt);

export function comp_hex(pt) {
  return canon(pt).toHex(true);
}

export function uncomp_hex(pt) {
  return canon(pt).toHex(false);
}

// Decode a valid (on-curve, in-subgroup, canonical) compressed or uncompressed encoding.
export function parse_point(g, h) {
  const { Point, W } = GROUPS[g];
  if (h.length !== 2 * W && h.length !== 4 * W) throw new Error(`${g} point has wrong length`);
  return Point.fromHex(h);
}

// Scalar multiplication by an arbitrary 256-bit integer. Cross-checks noble's wNAF/GLV
// multiplyUnsafe against a plain left-to-right double-and-add on the same point.
export function mul(pt, k) {
  const Point = pt.constructor;
  let acc = Point.ZERO;
  for (let i = 255; i >= 0; i--) {
    acc = acc.double();
    if ((k >> BigInt(i)) & 1n) acc = acc.add(pt);
  }
  if (pt.isTorsionFree()) {
    const km = k % R;
    const fast = km === 0n ? Point.ZERO : pt.multiplyUnsafe(km);
    if (!fast.equals(acc)) throw new Error('internal: noble multiplyUnsafe != double-and-add');
  }
  return acc;
}

// Reduced pairing with the convention that e(O, Q) = e(P, O) = 1 (noble refuses infinity).
export function pairing(p1, p2) {
  if (p1.is0() || p2.is0()) return Fp12.ONE;
  return bls.pairing(p1, p2, true);
}

// ---- independent ZCash decoding classifier ----------------------------------------------------

function is_square_fp(a) {
  if (a === 0n) return true;
  return Fp.pow(a, (P - 1n) / 2n) === 1n;
}

// a = c0 + c1 u is a square in Fp2 iff its norm c0^2 + c1^2 is a square in Fp.
function is_square(g, a) {
  if (g === 'g1') return is_square_fp(a);
  return is_square_fp(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1)));
}

// The ZCash "sign" of y: the first nonzero part (G2: c1 first, then c0) is > (p-1)/2.
export function y_sign(g, y) {
  const parts = g === 'g1' ? [y] : [y.c1, y.c0];
  for (const v of parts) if (v !== 0n) return v > (P - 1n) / 2n;
  return false;
}

// Split a W-byte coordinate (flags already cleared) into field parts: G2 is c1 || c0.
function coord(g, bytes) {
  const parts = [];
  for (let o = 0; o < bytes.length; o += 48)
    parts.push(BigInt('0x' + bytes_to_hex(bytes.subarray(o, o + 48))));
  if (parts.some((v) => v >= P)) return null;
  return g === 'g1' ? parts[0] : Fp2.fromBigTuple([parts[1], parts[0]]);
}

// Returns { reason, point }: reason is one of ok, bad_length, bad_encoding, non_canonical,
// not_on_curve, not_in_subgroup, checked in that order (see tests/vectors/README.md).
export function classify(g, bytes) {
  const { Point, F, W, b } = GROUPS[g];
  const n = bytes.length;
  if (n !== W && n !== 2 * W) return { reason: 'bad_length' };
  const c = (bytes[0] >> 7) & 1;
  const inf = (bytes[0] >> 6) & 1;
  const s = (bytes[0] >> 5) & 1;
  if (c !== (n === W ? 1 : 0)) return { reason: 'bad_encoding' };
  const body = Uint8Array.from(bytes);
  body[0] &= 0x1f;
  if (inf) {
    if (s || body.some((v) => v !== 0)) return { reason: 'bad_encoding' };
    return { reason: 'ok', point: Point.ZERO };
  }
  if (!c && s) return { reason: 'bad_encoding' };
  const x = coord(g, body.subarray(0, W));
  const y0 = c ? null : coord(g, body.subarray(W));
  if (x === null || (!c && y0 === null)) return { reason: 'non_canonical' };
  const rhs = F.add(F.mul(F.sqr(x), x), F.create(b));
  let y;
  if (c) {
    if (!is_square(g, rhs)) return { reason: 'not_on_curve' };
    y = F.sqrt(rhs);
    if (y_sign(g, y) !== !!s) y = F.neg(y);
  } else {
    y = y0;
    if (!F.eql(F.sqr(y), rhs)) return { reason: 'not_on_curve' };
  }
  const pt = Point.fromAffine({ x, y });
  if (!pt.isTorsionFree()) return { reason: 'not_in_subgroup', point: pt };
  return { reason: 'ok', point: pt };
}

// noble's own decoder verdict: true iff Point.fromHex accepts the bytes.
export function noble_accepts(g, bytes) {
  try {
    GROUPS[g].Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

// ---- record checking ------------------------------------------------------------------------

const REASONS = new Set([
  'ok',
  'bad_length',
  'bad_encoding',
  'non_canonical',
  'not_on_curve',
  'not_in_subgroup',
]);

function expect_eq(what, got, want) {
  if (got !== want) throw new Error(`${what}: oracle computes ${want}, record has ${got}`);
}

function nargs(t, n) {
  if (t.length !== n + 1) throw new Error(`${t[0]} expects ${n} fields, got ${t.length - 1}`);
}

// Recompute one whitespace-split record with noble; throws an Error describing the first
// disagreement. Returns nothing on success.
export function check_record(t) {
  const op = t[0];
  const m = /^(g1|g2)_(.*)$/.exec(op);
  if (m) {
    const g = m[1];
    const { Point } = GROUPS[g];
    switch (m[2]) {
      case 'point': {
        nargs(t, 2);
        const a = parse_point(g, t[1]);
        const b = parse_point(g, t[2]);
        if (t[1].length !== 2 * GROUPS[g].W) throw new Error('first field must be compressed');
        if (t[2].length !== 4 * GROUPS[g].W) throw new Error('second field must be uncompressed');
        expect_eq('compressed', t[1], comp_hex(b));
        expect_eq('uncompressed', t[2], uncomp_hex(a));
        return;
      }
      case 'mul':
      case 'mul_wide': {
        nargs(t, 3);
        const k = parse_scalar(t[1]);
        if (m[2] === 'mul' && k >= R) throw new Error('g*_mul scalar must be < r (use *_mul_wide)');
        expect_eq('k*P', t[3], comp_hex(mul(parse_point(g, t[2]), k)));
        return;
      }
      case 'add':
        nargs(t, 3);
        expect_eq('P+Q', t[3], comp_hex(parse_point(g, t[1]).add(parse_point(g, t[2]))));
        return;
      case 'dbl':
        nargs(t, 2);
        expect_eq('2P', t[2], comp_hex(parse_point(g, t[1]).double()));
        return;
      case 'neg':
        nargs(t, 2);
        expect_eq('-P', t[2], comp_hex(parse_point(g, t[1]).negate()));
        return;
      case 'msm': {
        if (t.length < 3 || !/^[0-9]+$/.test(t[1])) throw new Error('msm: bad count');
        const n = Number(t[1]);
        nargs(t, 2 + 2 * n);
        let acc = Point.ZERO;
        for (let i = 0; i < n; i++) {
          const k = parse_scalar(t[2 + 2 * i]);
          if (k >= R) throw new Error('msm scalar must be < r');
          acc = acc.add(mul(parse_point(g, t[3 + 2 * i]), k));
        }
        expect_eq('sum k_i*P_i', t[2 + 2 * n], comp_hex(acc));
        return;
      }
      case 'decode': {
        nargs(t, 3);
        const bytes = hex_to_bytes(t[1]);
        if (!REASONS.has(t[2])) throw new Error(`unknown reason '${t[2]}'`);
        const { reason, point } = classify(g, bytes);
        expect_eq('decode verdict (classifier)', t[2], reason);
        expect_eq('decode verdict (noble fromBytes)', t[2] === 'ok', noble_accepts(g, bytes));
        if (reason === 'ok') expect_eq('canonical compressed', t[3], comp_hex(point));
        else expect_eq('third field', t[3], '-');
        return;
      }
      default:
        throw new Error(`unknown op '${op}'`);
    }
  }
  if (op === 'pairing' || op === 'pairing_plain') {
    nargs(t, 14);
    const p1 = parse_point('g1', t[1]);
    const p2 = parse_point('g2', t[2]);
    let e = pairing(p1, p2);
    if (op === 'pairing_plain') e = pairing_plain(p1, p2);
    const want = fp12_hex(e);
    for (let i = 0; i < 12; i++) expect_eq(`GT coefficient ${i}`, t[3 + i], want[i]);
    return;
  }
  throw new Error(`unknown op '${op}'`);
}

// f^((p^12 - 1) / r) computed by plain exponentiation of noble's Miller-loop output: the
// "textbook" reduced pairing. noble/blst/zkcrypto's final exponentiation yields its cube.
export function pairing_plain(p1, p2) {
  if (p1.is0() || p2.is0()) return Fp12.ONE;
  const f = bls.pairing(p1, p2, false);
  return Fp12.pow(f, (P ** 12n - 1n) / R);
}

// Split a line into fields; returns null for blank and comment lines.
export function tokenize(line) {
  const s = line.replace(/\r$/, '').trim();
  if (s === '' || s.startsWith('#')) return null;
  return s.split(/ +/);
}
