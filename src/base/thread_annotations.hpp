// SPDX-License-Identifier: Apache-2.0
// Clang's thread-safety annotations (the -Wthread-safety analysis): which mutex guards a member
// (CUZK_GUARDED_BY), which a function must hold on entry and on return (CUZK_REQUIRES) or must
// not hold (CUZK_EXCLUDES), and what a mutex type or a scoped lock takes and gives back. Clang
// checks them at compile time (scripts/check_thread_safety.sh, in CI); every other compiler sees
// nothing. std::mutex carries no annotations in libstdc++, so annotated code locks through
// base/mutex.hpp.
#pragma once

#if defined(__clang__)
#define CUZK_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define CUZK_THREAD_ANNOTATION(x)
#endif

/// A type that is a lock (a mutex): `class CUZK_CAPABILITY("mutex") mutex`.
#define CUZK_CAPABILITY(name) CUZK_THREAD_ANNOTATION(capability(name))
/// An RAII type that holds a capability for its scope (a lock guard).
#define CUZK_SCOPED_CAPABILITY CUZK_THREAD_ANNOTATION(scoped_lockable)
/// A member read and written only with the mutex held.
#define CUZK_GUARDED_BY(mu) CUZK_THREAD_ANNOTATION(guarded_by(mu))
/// A pointer whose pointee is read and written only with the mutex held.
#define CUZK_PT_GUARDED_BY(mu) CUZK_THREAD_ANNOTATION(pt_guarded_by(mu))
/// The caller holds these on entry; they are held on return (they may be released and taken
/// again in between).
#define CUZK_REQUIRES(...) CUZK_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
/// The caller must not hold these (the function takes them itself).
#define CUZK_EXCLUDES(...) CUZK_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
/// The function takes these (or, on a lock type's member, its own capability) and returns with
/// them held.
#define CUZK_ACQUIRE(...) CUZK_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
/// The function gives these back (or, on a lock type's member, its own capability).
#define CUZK_RELEASE(...) CUZK_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
/// The function takes the capability when it returns `value`.
#define CUZK_TRY_ACQUIRE(...) CUZK_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
/// The function returns a reference to this capability.
#define CUZK_RETURN_CAPABILITY(x) CUZK_THREAD_ANNOTATION(lock_returned(x))
/// The function is not analysed: for what the analysis cannot express. Say why beside it.
#define CUZK_NO_THREAD_SAFETY_ANALYSIS CUZK_THREAD_ANNOTATION(no_thread_safety_analysis)
