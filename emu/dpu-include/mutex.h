/* mutex.h -- mutual exclusion (virtual UPMEM, SDK names and types).
 * A mutex_id_t points to an atomic bit; MUTEX_INIT(name) at file scope defines
 * `const mutex_id_t name`. Non-recursive: locking a mutex twice from the same
 * tasklet deadlocks (the interpreter reports VDPU_FAULT_DEADLOCK when every
 * tasklet is blocked). Any pointer value is a valid mutex (a zeroed
 * mutex_id_t is simply the lock with key 0), as on hardware. */
#ifndef _DPU_MUTEX_H_
#define _DPU_MUTEX_H_

#include <atomic_bit.h>
#include <stdbool.h>
#include <stdint.h>

#include "../vdpu/abi.h"

typedef uint8_t *mutex_id_t;

#define MUTEX_GET(_name) _name
#define MUTEX_INIT(_name)                                                                          \
    ATOMIC_BIT_INIT(__CONCAT(mutex_, _name));                                                      \
    const mutex_id_t MUTEX_GET(_name) = &ATOMIC_BIT_GET(__CONCAT(mutex_, _name))

/* Block until the mutex is free, then take it. */
static inline __attribute__((always_inline, unused)) void mutex_lock(mutex_id_t mutex)
{
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)mutex);
}

/* Take the mutex if it is free; never blocks. Returns true when taken. */
static inline __attribute__((always_inline, unused)) bool mutex_trylock(mutex_id_t mutex)
{
    return vdpu_ecall1(VDPU_SYS_LOCK_TRY, (uint32_t)mutex) != 0;
}

/* Release; wakes the first waiter (FIFO). Unlocking a free mutex is a no-op. */
static inline __attribute__((always_inline, unused)) void mutex_unlock(mutex_id_t mutex)
{
    vdpu_ecall1(VDPU_SYS_LOCK_RELEASE, (uint32_t)mutex);
}

#endif
