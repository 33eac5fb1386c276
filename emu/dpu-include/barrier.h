/* barrier.h -- barriers (virtual UPMEM, SDK names and layout).
 * BARRIER_INIT(name, count) at file scope defines `barrier_t name`;
 * barrier_wait(&name) sleeps until `count` tasklets have arrived, then all
 * resume and the barrier re-arms (reusable in loops). The expected count is
 * read from initial_count at every wait, so barriers filled in at run time
 * (PrIM HST-L sets wait_queue/count/initial_count/lock itself) work too.
 * Waiting with fewer than `count` live tasklets deadlocks: the interpreter
 * faults with VDPU_FAULT_DEADLOCK. The interpreter keeps the arrival count
 * (keyed by the barrier's address); `count` and `lock` are kept for layout
 * compatibility only. */
#ifndef _DPU_BARRIER_H_
#define _DPU_BARRIER_H_

#include <atomic_bit.h>
#include <attributes.h>
#include <stdint.h>

#include "../vdpu/abi.h"

typedef struct barrier_t {
    uint8_t wait_queue;
    uint8_t count;
    uint8_t initial_count;
    uint8_t lock;
} barrier_t;

#define BARRIER_INIT(_name, _counter)                                                              \
    _Static_assert((_counter) > 0 && (_counter) < 128, "barrier counter must be in 1..127");       \
    barrier_t _name = {0xFF, (uint8_t)(_counter), (uint8_t)(_counter), 0}

static inline __attribute__((always_inline, unused)) void barrier_wait(barrier_t *barrier)
{
    vdpu_ecall2(VDPU_SYS_BARRIER_WAIT, (uint32_t)barrier, barrier->initial_count);
}

#endif
