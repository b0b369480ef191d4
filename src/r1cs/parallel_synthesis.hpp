// SPDX-License-Identifier: Apache-2.0
// Parallel synthesis of a circuit made of a prologue and identically shaped, independent blocks
// (PoRep's challenges, PoSt's sector slots, SnapDeals' challenges) into a proving_cs: the block
// shape measured once per circuit shape with a witness-only synthesis and kept, and the blocks
// filled on a pool through open_blocks / block_cs / close_blocks of a proving_cs (rows and
// assignment) or a witness_cs (the assignment only; a, b, c then come from an abc_plan).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

/// What a constraint system holds so far, as a block_shape (differences give a block's shape).
template <class CS>
proving_cs::block_shape synthesized_so_far(const CS& cs) {
  return {cs.num_constraints(), cs.num_aux(), cs.num_inputs()};
}

/// What one block adds: `shared = prologue(cs)`, then block(cs, shared) in a witness_cs (the
/// prologue is not counted). Use a blank circuit with one block.
template <class Prologue, class Block>
proving_cs::block_shape measure_block_shape(const Prologue& prologue, const Block& block) {
  witness_cs cs;
  const auto shared = prologue(cs);
  const proving_cs::block_shape before = synthesized_so_far(cs);
  block(cs, shared);
  return synthesized_so_far(cs) - before;
}

/// Block shapes by circuit shape (Key: anything std::map orders), each measured once per
/// process. One static instance per circuit kind; thread-safe.
template <class Key>
class block_shape_memo {
 public:
  /// The shape kept for `key`, else measure()'s, kept (measured under the lock: once per key).
  template <class Measure>
  proving_cs::block_shape get(const Key& key, const Measure& measure) {
    std::lock_guard lock(mutex_);
    if (auto it = known_.find(key); it != known_.end()) return it->second;
    return known_[key] = measure();
  }

 private:
  std::mutex mutex_;
  std::map<Key, proving_cs::block_shape> known_;
};

/// Appends `count` blocks of `shape` to `cs` (a proving_cs, or a witness_cs for the assignment
/// only) and fills block i with fill(CS::block_cs&, i) on `pool` (one task per block): the rows,
/// assignment and densities (the assignment alone) a sequential synthesis of the blocks in order
/// gives. An internal error when a block did not fill exactly `shape` (a bug).
template <class CS, class Fill>
status synthesize_blocks_parallel(CS& cs, size_t count, const proving_cs::block_shape& shape,
                                  thread_pool& pool, const Fill& fill) {
  cs.open_blocks(count, shape);
  pool.parallel_for(count, [&](size_t i) {
    typename CS::block_cs block = cs.block(i);
    fill(block, i);
  });
  return cs.close_blocks();
}

}  // namespace cuzk::r1cs
