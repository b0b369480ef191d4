// SPDX-License-Identifier: Apache-2.0
// node check_alphabeta.mjs verification_key.json: recomputes e(vk_alpha_1, vk_beta_2) with
// snarkjs's curve library (ffjavascript) and checks it equals the file's vk_alphabeta_12
// (the GT encoding cuzk writes on export). Exit 0 on a match, 1 otherwise.
import fs from "fs";
import { getCurveFromName, utils } from "ffjavascript";

const vk = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const curve = await getCurveFromName("bls12381", true);
const v = utils.unstringifyBigInts(vk);
const ab = await curve.pairing(curve.G1.fromObject(v.vk_alpha_1), curve.G2.fromObject(v.vk_beta_2));
const expected = JSON.stringify(utils.stringifyBigInts(curve.Gt.toObject(ab)));
await curve.terminate();
if (expected !== JSON.stringify(vk.vk_alphabeta_12)) {
  console.error("vk_alphabeta_12 differs from snarkjs's e(alpha, beta)");
  process.exit(1);
}
console.log("vk_alphabeta_12 matches snarkjs");
