/*
 * pool.h -- the DPU thread pool. Layer: pool (see host.h), above entry.
 */
#ifndef EMU_POOL_H
#define EMU_POOL_H

#include <stdint.h>

/* Calls fn(arg, i) for i in [0, n) on the DPU thread pool (every core) and
 * the calling thread; returns when all calls returned. */
void emu_pool_for(uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);

#endif /* EMU_POOL_H */
