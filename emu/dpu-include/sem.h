/* sem.h -- counting semaphores (virtual UPMEM, SDK names).
 * SEMAPHORE_INIT(name, count) at file scope defines `sem_t name`
 * (count in -127..127). sem_take(&name): counter -= 1, sleep while it is
 * negative; sem_give(&name): counter += 1, wake the first sleeper (FIFO).
 * sem_t starts with the SDK's four bytes; the live counter is the extra int32
 * `value` that the interpreter updates atomically (VDPU_SYS_SEM_*), so the
 * struct is 8 bytes here (4 on hardware). Like any global, the counter
 * persists across launches. */
#ifndef _DPU_SEM_H_
#define _DPU_SEM_H_

#include <atomic_bit.h>
#include <attributes.h>
#include <stdint.h>

#include "../vdpu/abi.h"

typedef struct sem_t {
    uint8_t wait_queue;
    uint8_t count; /* initial value (the SDK's live counter byte)   */
    uint8_t initial_count;
    uint8_t lock;
    int32_t value; /* live counter, updated by the interpreter      */
} sem_t;

#define SEMAPHORE_INIT(_name, _counter)                                                            \
    _Static_assert((_counter) < 128 && (_counter) >= -127,                                         \
                   "semaphore counter must be encoded on a byte");                                 \
    sem_t _name = {0xFF, (uint8_t)(_counter), (uint8_t)(_counter), 0, (_counter)}

static inline __attribute__((always_inline, unused)) void sem_take(sem_t *sem)
{
    vdpu_ecall1(VDPU_SYS_SEM_TAKE, (uint32_t)&sem->value);
}

static inline __attribute__((always_inline, unused)) void sem_give(sem_t *sem)
{
    vdpu_ecall1(VDPU_SYS_SEM_GIVE, (uint32_t)&sem->value);
}

#endif
