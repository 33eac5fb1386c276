/* sync.c -- the synchronisation primitives through raw ecalls (atomic bit
 * acquire/try/release, stop, resume) and the SDK objects built on them
 * (barrier, handshake). */
#include <atomic_bit.h>
#include <barrier.h>
#include <defs.h>
#include <handshake.h>

#include "../../../emu/vdpu/abi.h"
__host uint32_t counter;
__host uint32_t after_barrier[NR_TASKLETS];
__host uint32_t hs_result;
__host uint32_t stop_order;
__host uint32_t try_result;
static uint8_t __atomic_bit lock_bit;
static uint8_t __atomic_bit try_bit;
BARRIER_INIT(bar, NR_TASKLETS);
int main(void)
{
    if (me() == 0) {
        counter = 0;
        stop_order = 0;
        try_result = 0;
    }
    barrier_wait(&bar);
    for (int i = 0; i < 100; i++) {
        vdpu_ecall1(VDPU_SYS_ACQUIRE, (uint32_t)&lock_bit);
        uint32_t c = counter;
        __asm__ volatile("" ::: "memory");
        counter = c + 1;
        vdpu_ecall1(VDPU_SYS_RELEASE, (uint32_t)&lock_bit);
    }
    barrier_wait(&bar);
    after_barrier[me()] = counter;
    /* stop/resume: tasklet 1 sleeps until tasklet 0 resumes it (the resume
     * spins until tasklet 1 has stopped) */
    if (me() == 1) {
        vdpu_ecall0(VDPU_SYS_STOP);
        stop_order = stop_order * 10 + 2;
    } else if (me() == 0) {
        for (volatile int i = 0; i < 200; i++)
            ;
        stop_order = 1;
        vdpu_ecall1(VDPU_SYS_RESUME, 1);
    }
    /* try: taken once, busy the second time, free again after release */
    if (me() == 4) {
        uint32_t a = vdpu_ecall1(VDPU_SYS_ACQUIRE_TRY, (uint32_t)&try_bit);
        uint32_t b = vdpu_ecall1(VDPU_SYS_ACQUIRE_TRY, (uint32_t)&try_bit);
        vdpu_ecall1(VDPU_SYS_RELEASE, (uint32_t)&try_bit);
        uint32_t c = vdpu_ecall1(VDPU_SYS_ACQUIRE_TRY, (uint32_t)&try_bit);
        try_result = a * 100 + b * 10 + c;
    }
    /* handshake: 2 notifies, 3 waits for 2 */
    if (me() == 2)
        handshake_notify();
    else if (me() == 3)
        hs_result = 1000 + (uint32_t)handshake_wait_for(2);
    return 0;
}
