/* faults.c -- one fault per build, selected with -DFAULT=n (see test_vdpu.c). */
#include <assert.h>
#include <atomic_bit.h>
#include <barrier.h>
#include <defs.h>
#include <handshake.h>
#include <mram.h>
#include <vmutex.h>

#include "../../../emu/vdpu/abi.h"

__mram uint64_t mbuf[64];
__dma_aligned uint8_t wbuf[64];
volatile uint32_t vzero = 0, vsize = 12, voff = 4;

#if FAULT == 9
BARRIER_INIT(bar2, 2);
#endif
#if FAULT == 19
VMUTEX_INIT(vm, 8, 2);
#endif
static uint8_t __atomic_bit lk;
#if FAULT == 24 /* with lk, one atomic bit more than the 56 a program has: link error */
ATOMIC_BIT_INIT(many)[56];
#endif

__attribute__((noinline)) int recurse(int n)
{
    volatile char big[200];
    big[0] = (char)n;
    return n == 0 ? big[0] : recurse(n - 1) + big[0];
}

/* never returns: the watchdog (max_instructions) must name this function */
__attribute__((noinline)) void spin(void)
{
    while (vzero == 0)
        vsize++;
}

__attribute__((noinline)) void do_div(void)
{
    volatile int x = 7;
    x = x / (int)vzero;
}

int main(void)
{
#if FAULT == 1 /* DMA size not multiple of 8 */
    mram_read(mbuf, wbuf, vsize);
#elif FAULT == 2  /* DMA size > 2048 */
    mram_read(mbuf, wbuf, vsize * 1024);
#elif FAULT == 3  /* WRAM DMA address not 8-aligned */
    mram_read(mbuf, wbuf + voff, 16);
#elif FAULT == 4  /* MRAM DMA address not 8-aligned */
    mram_write(wbuf, (__mram_ptr uint8_t *)mbuf + voff, 16);
#elif FAULT == 5  /* access outside WRAM/MRAM */
    *(volatile uint32_t *)(0x20000 + vzero) = 1;
#elif FAULT == 6  /* store into IRAM */
    *(volatile uint32_t *)(0x80000000u + vzero) = 1;
#elif FAULT == 7  /* stack overflow (built with -DSTACK_SIZE_DEFAULT=512) */
    recurse(me() == NR_TASKLETS - 1 ? 100 : 1);
#elif FAULT == 8  /* heap exhausted: raised by the runtime through FAULT */
    vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_HEAP_FULL, (uint32_t) "mem_alloc: heap full");
#elif FAULT == 9  /* barrier deadlock: tasklet 1 exits, tasklet 0 waits for 2 */
    if (me() == 0)
        barrier_wait(&bar2);
#elif FAULT == 10 /* illegal instruction */
    __asm__ volatile(".word 0x0000007b");
#elif FAULT == 11 /* halt() */
    halt();
#elif FAULT == 12 /* failed assert */
    assert(vzero == 1);
#elif FAULT == 13 /* integer division by zero */
    do_div();
#elif FAULT == 14 /* misaligned word load */
    (void)*(volatile uint32_t *)(wbuf + 2 + vzero);
#elif FAULT == 15 /* MRAM DMA past 64 MiB */
    mram_read((__mram_ptr void *)(0x08000000u + 64u * 1024 * 1024 - 8 + vzero), wbuf, 16);
#elif FAULT == 16 /* mutex deadlock: all tasklets take the lock twice */
    __vdpu_acquire((uint32_t)&lk);
    __vdpu_acquire((uint32_t)&lk);
#elif FAULT == 17 /* endless loop, stopped by the instruction watchdog */
    spin();
#elif FAULT == 18 /* resume of a tasklet that has exited */
    if (me() == 0) {
        for (volatile int i = 0; i < 100; i++)
            ;
        __vdpu_resume(1);
    }
#elif FAULT == 19 /* vmutex deadlock: every tasklet locks its vmutex twice */
    vmutex_lock(&vm, (uint16_t)me());
    vmutex_lock(&vm, (uint16_t)me());
#elif FAULT == 20 /* every tasklet stops, nobody resumes */
    __vdpu_stop();
#elif FAULT == 21 /* a tasklet resumes itself: spins until it stops, i.e. forever */
    if (me() == 1)
        __vdpu_resume(1);
#elif FAULT == 22 /* an atomic bit is not memory */
    (void)*(volatile uint8_t *)(&lk + vzero);
#elif FAULT == 24
    __vdpu_acquire((uint32_t)&ATOMIC_BIT_GET(many)[vzero]);
#elif FAULT == 23 /* handshake_wait_for a tasklet that does not exist */
    handshake_wait_for(NR_TASKLETS + vzero);
#endif
    return 0;
}
