/* mutex.h -- mutual exclusion (virtual UPMEM, SDK names and types).
 * A mutex is an atomic bit (atomic_bit.h); a mutex_id_t points to it, and the
 * low byte of that pointer is the bit, so a zeroed mutex_id_t is bit 0, as on
 * hardware (PrIM HST-L locks such mutexes). MUTEX_INIT(name) at file scope
 * defines `const mutex_id_t name`. As the SDK's, mutex_lock is one acquire
 * that spins while the bit is set: a waiting tasklet issues an instruction per
 * attempt and takes issue slots from the others. Non-recursive: locking twice
 * from the same tasklet spins forever (a deadlock fault once no running
 * tasklet could release it). */
#ifndef _DPU_MUTEX_H_
#define _DPU_MUTEX_H_

#include <atomic_bit.h>
#include <stdbool.h>
#include <stdint.h>
#include <sysdef.h>

typedef uint8_t *mutex_id_t;

#define MUTEX_GET(_name) _name
#define MUTEX_INIT(_name)                                                                          \
    ATOMIC_BIT_INIT(__CONCAT(mutex_, _name));                                                      \
    const mutex_id_t MUTEX_GET(_name) = &ATOMIC_BIT_GET(__CONCAT(mutex_, _name))

/* Spin until the mutex is free, then take it. */
static inline __attribute__((always_inline, unused)) void mutex_lock(mutex_id_t mutex)
{
    __vdpu_acquire((uint32_t)mutex);
}

/* Take the mutex if it is free; never spins. Returns true when taken. */
static inline __attribute__((always_inline, unused)) bool mutex_trylock(mutex_id_t mutex)
{
    return __vdpu_acquire_try((uint32_t)mutex) != 0;
}

/* Release. Unlocking a free mutex is a no-op. */
static inline __attribute__((always_inline, unused)) void mutex_unlock(mutex_id_t mutex)
{
    __vdpu_release((uint32_t)mutex);
}

#endif
