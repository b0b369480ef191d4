// SPDX-License-Identifier: Apache-2.0
// Live cross-check: reads vector-format records (tests/vectors/README.md) from stdin, e.g. lines
// that a cuzk tool computed for fresh random inputs, and recomputes each with @noble/curves.
// Prints `ok N` and exits 0 when all N records agree; prints the first mismatch (line number,
// reason, the record) and exits 1; also exits 1 when no record was read, so an empty pipe from a
// crashed producer cannot pass. Usage: producer | node live_check.mjs [--quiet]

import { createInterface } from 'node:readline';
import { check_record, tokenize } from './bls_ops.mjs';

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let lineno = 0;
let n = 0;
let failed = false;
const counts = new Map();

for await (const line of rl) {
  lineno++;
  const t = tokenize(line);
  if (t === null) continue;
  try {
    check_record(t);
  } catch (e) {
    console.log(`MISMATCH at stdin line ${lineno} (${t[0]}): ${e.message}`);
    console.log(`  record: ${line.length > 400 ? line.slice(0, 400) + '...' : line}`);
    failed = true;
    rl.close();
    break;
  }
  n++;
  counts.set(t[0], (counts.get(t[0]) ?? 0) + 1);
}

if (failed) process.exit(1);
if (n === 0) {
  console.log('FAIL: no records on stdin');
  process.exit(1);
}
if (!process.argv.includes('--quiet'))
  for (const [op, c] of [...counts].sort()) console.log(`  ${op}: ${c}`);
console.log(`ok ${n}`);
process.exit(0);
