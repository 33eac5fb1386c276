/* faults.c -- one fault per build, selected with -DFAULT=n (see test_vdpu.c). */
#include <assert.h>
#include <defs.h>
#include <mram.h>

#include "../../../emu/vdpu/abi.h"

__mram uint64_t mbuf[64];
__dma_aligned uint8_t wbuf[64];
volatile uint32_t vzero = 0, vsize = 12, voff = 4;

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
    static uint32_t bar;
    if (me() == 0)
        vdpu_ecall2(VDPU_SYS_BARRIER_WAIT, (uint32_t)&bar, 2);
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
#elif FAULT == 16 /* mutex deadlock: both tasklets take the lock twice */
    static uint8_t lk;
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)&lk);
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)&lk);
#elif FAULT == 17 /* endless loop, stopped by the instruction watchdog */
    spin();
#endif
    return 0;
}
