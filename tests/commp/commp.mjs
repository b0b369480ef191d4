// SPDX-License-Identifier: Apache-2.0
// Oracle for cuzk's commP: prints "<commP hex> <baga CID> <padded size>" for each file argument,
// computed by @web3-storage/data-segment (pinned in package-lock.json). Used by the piece_commp_npm
// ctest, which compares it with `cuzk piece commp`.
import { readFileSync } from 'node:fs'
import { Piece } from '@web3-storage/data-segment'

for (const path of process.argv.slice(2)) {
  const payload = readFileSync(path)
  const info = Piece.fromPayload(payload).toInfo()
  const hex = Buffer.from(info.root).toString('hex')
  console.log(`${hex} ${info.link.toString()} ${info.size}`)
}
