/* sync.c -- runtime services through raw ecalls: lock-protected counter,
 * barrier, semaphore, handshake. */
#include <defs.h>

#include "../../../emu/vdpu/abi.h"
__host uint32_t counter;
__host uint32_t after_barrier[NR_TASKLETS];
__host uint32_t hs_result;
__host uint32_t sem_order;
static uint8_t lock;
static uint32_t bar;
static int32_t sem; /* starts at 0 */
int main(void)
{
    if (me() == 0) {
        counter = 0;
        sem = 0;
    }
    vdpu_ecall2(VDPU_SYS_BARRIER_WAIT, (uint32_t)&bar, NR_TASKLETS);
    for (int i = 0; i < 100; i++) {
        vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)&lock);
        uint32_t c = counter;
        __asm__ volatile("" ::: "memory");
        counter = c + 1;
        vdpu_ecall1(VDPU_SYS_LOCK_RELEASE, (uint32_t)&lock);
    }
    vdpu_ecall2(VDPU_SYS_BARRIER_WAIT, (uint32_t)&bar, NR_TASKLETS);
    after_barrier[me()] = counter;
    /* semaphore: tasklet 1 waits until tasklet 0 gives */
    if (me() == 1) {
        vdpu_ecall1(VDPU_SYS_SEM_TAKE, (uint32_t)&sem);
        sem_order = sem_order * 10 + 2;
    } else if (me() == 0) {
        for (volatile int i = 0; i < 200; i++)
            ;
        sem_order = 1;
        vdpu_ecall1(VDPU_SYS_SEM_GIVE, (uint32_t)&sem);
    }
    /* handshake: 2 notifies, 3 waits for 2 */
    if (me() == 2)
        vdpu_ecall0(VDPU_SYS_HS_NOTIFY);
    else if (me() == 3)
        hs_result = 1000 + vdpu_ecall1(VDPU_SYS_HS_WAIT_FOR, 2);
    return 0;
}
