/* barrier.h -- barriers (virtual UPMEM, SDK names, layout and algorithm).
 * BARRIER_INIT(name, count) at file scope defines `barrier_t name` and its
 * atomic bit; barrier_wait(&name) (emu/rt/sync.c) returns once `count`
 * tasklets have called it, and the barrier re-arms (reusable in loops).
 * As the SDK's: under the barrier's atomic bit (`lock` holds the bit) an
 * arriving tasklet decrements `count`, joins the circular wait queue
 * (`wait_queue` = last waiter, 0xFF = empty; the links are the runtime's
 * per-tasklet table) and stops; the last one resumes the waiters one by
 * one and restores `count` from `initial_count`. The fields may be filled in
 * at run time (PrIM HST-L sets all four, `lock` = the low byte of an
 * ATOMIC_BIT_INIT bit's address). The state lives in WRAM and persists across
 * launches, as on hardware. If fewer than `count` tasklets ever arrive, the
 * waiters stay stopped and, once no tasklet runs, the launch ends with them
 * parked, as on hardware (warned; a fault with stopRules=strict). `count` is
 * written into the object by the assembler, as the SDK's macro does: a number
 * or a macro expanding to an arithmetic expression (NR_TASKLETS,
 * NR_TASKLETS / 2), not a C cast. As the SDK's, the macro ends with its own
 * `;`: `BARRIER_INIT(b, 4)` compiles with or without one after it (the same
 * holds for SEMAPHORE_INIT, MUTEX_POOL_INIT, VMUTEX_INIT and
 * STDOUT_BUFFER_INIT). */
#ifndef _DPU_BARRIER_H_
#define _DPU_BARRIER_H_

#include <atomic_bit.h>
#include <attributes.h>
#include <stdint.h>

typedef struct barrier_t {
    uint8_t wait_queue;
    uint8_t count;
    uint8_t initial_count;
    uint8_t lock;
} barrier_t;

/* clang-format off */
#define BARRIER_INIT(_name, _counter)                                                              \
    _Static_assert((_counter) > 0 && (_counter) < 128, "barrier counter must be in 1..127");       \
    ATOMIC_BIT_INIT(__CONCAT(barrier_, _name));                                                    \
    extern barrier_t _name;                                                                        \
    __asm__(".section .data." __VDPU_STR(_name) ",\"aw\",@progbits\n"                              \
            ".type " __VDPU_STR(_name) ",@object\n"                                                \
            ".globl " __VDPU_STR(_name) "\n"                                                       \
            ".p2align 2\n" __VDPU_STR(_name) ":\n"                                                 \
            ".byte 0xFF\n"                                                                         \
            ".byte " __VDPU_STR(_counter) "\n"                                                     \
            ".byte " __VDPU_STR(_counter) "\n"                                                     \
            ".byte " __VDPU_STR(ATOMIC_BIT_GET(__CONCAT(barrier_, _name))) " - __atomic_start_addr\n" \
            ".size " __VDPU_STR(_name) ", 4\n"                                                     \
            ".text\n");
/* clang-format on */

void barrier_wait(barrier_t *barrier);

#endif
