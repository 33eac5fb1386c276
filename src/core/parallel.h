/*
 * parallel.h -- split bulk work over host threads (shared by the CPU
 * backends).
 *
 * cpim_parallel_for(threads, n, grain, fn, arg) calls fn(arg, begin, end) on
 * disjoint ranges covering [0, n), each range a multiple of `grain` items
 * except the last, using up to `threads` threads (0 = all online cores).
 * Small jobs (n < 2 * grain) and threads == 1 run inline in the caller.
 * Returns CPIM_OK, or CPIM_ERR_THREAD if a thread could not be started (the
 * work is then finished in the caller, so no item is ever skipped).
 */
#ifndef CPIM_PARALLEL_H
#define CPIM_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"

typedef void (*cpim_range_fn)(void *arg, size_t begin, size_t end);

cpim_err cpim_parallel_for(unsigned threads, size_t n, size_t grain, cpim_range_fn fn, void *arg);

/* Runs fn(arg, first, end) over runs of consecutive messages [first, end)
 * of `count` messages with lengths `lens`, one run per thread, the runs
 * balanced by bytes (each message also counts one 64-byte block for its
 * padding), not by count.  Up to `threads` threads (0 = all cores); a batch
 * of fewer than `min_parallel` bytes runs inline. Every message is in
 * exactly one run. Same return convention as cpim_parallel_for. */
typedef void (*cpim_msgs_fn)(void *arg, size_t first, size_t end);

cpim_err cpim_parallel_msgs(unsigned threads, const size_t *lens, size_t count,
                            uint64_t min_parallel, cpim_msgs_fn fn, void *arg);

/* cpim_cores() (online cores) is public: cryptopim.h. */

#endif /* CPIM_PARALLEL_H */
