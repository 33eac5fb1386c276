/* sem.h -- counting semaphores (virtual UPMEM, SDK names, layout and
 * algorithm). SEMAPHORE_INIT(name, count) at file scope defines `sem_t name`
 * (count in -127..127) and its atomic bit. sem_take(&name) (emu/rt/sync.c):
 * under the atomic bit, count -= 1; if it went negative the tasklet joins the
 * wait queue and stops. sem_give(&name): count += 1 and the first waiter, if
 * any, is resumed (FIFO). `count` is the live counter (a signed byte); the
 * state lives in WRAM and persists across launches, as on hardware. `count`
 * is written by the assembler, as in the SDK's macro (see barrier.h). */
#ifndef _DPU_SEM_H_
#define _DPU_SEM_H_

#include <atomic_bit.h>
#include <attributes.h>
#include <stdint.h>

typedef struct sem_t {
    uint8_t wait_queue;
    uint8_t count; /* live counter, as a signed byte */
    uint8_t initial_count;
    uint8_t lock;
} sem_t;

/* clang-format off */
#define SEMAPHORE_INIT(_name, _counter)                                                            \
    _Static_assert((_counter) < 128 && (_counter) >= -127,                                         \
                   "semaphore counter must be encoded on a byte");                                 \
    ATOMIC_BIT_INIT(__CONCAT(semaphore_, _name));                                                  \
    extern sem_t _name;                                                                            \
    __asm__(".section .data." __VDPU_STR(_name) ",\"aw\",@progbits\n"                              \
            ".type " __VDPU_STR(_name) ",@object\n"                                                \
            ".globl " __VDPU_STR(_name) "\n"                                                       \
            ".p2align 2\n" __VDPU_STR(_name) ":\n"                                                 \
            ".byte 0xFF\n"                                                                         \
            ".byte " __VDPU_STR(_counter) "\n"                                                     \
            ".byte " __VDPU_STR(_counter) "\n"                                                     \
            ".byte " __VDPU_STR(ATOMIC_BIT_GET(__CONCAT(semaphore_, _name))) " - __atomic_start_addr\n" \
            ".size " __VDPU_STR(_name) ", 4\n"                                                     \
            ".text\n");
/* clang-format on */

void sem_take(sem_t *sem);
void sem_give(sem_t *sem);

#endif
