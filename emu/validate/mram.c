/*
 * mram.c -- DPU program: MRAM<->WRAM DMA latency per transfer size, as PrIM's
 * Microbenchmarks/MRAM-Latency: each tasklet walks its share of the buffer
 * with mram_read (kernel 0) or mram_write (kernel 1) of ARGS.dma_size bytes
 * and times every single DMA with the perfcounter.  With one tasklet the
 * per-DMA average is the latency; with more, the DMA engine is shared.
 */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <perfcounter.h>
#include <stdint.h>

#include "micro_args.h"

/* One MRAM variable so the linker places DPU_MRAM_HEAP_POINTER in MRAM (the
 * virtual UPMEM's dpu.lds mis-places it in a program without any). */
__mram_noinit uint64_t micro_mram_anchor;

__host micro_args_t ARGS;
__host micro_result_t RESULTS[NR_TASKLETS];

BARRIER_INIT(bar, NR_TASKLETS);

static uint8_t cache[NR_TASKLETS][2048] __attribute__((aligned(8)));

/* The timed window in a function of its own, so that the compiler cannot
 * schedule loop arithmetic (e.g. a software multiply, ~28 issue slots) into
 * it: only the DMA call and the counter reads are inside, as in PrIM. */
static uint64_t __attribute__((noinline))
timed_dma(uint32_t write, uintptr_t mram, void *wram, uint32_t size)
{
    /* 32-bit counter values: the window is short, and clang (RV32, no M)
     * turns the 64-bit (t1 - t0) - (t2 - t1) into a __muldi3 call by a
     * constant (InstCombine's neg-shl to mul) that would land in the window */
    uint32_t t0 = (uint32_t)perfcounter_get();
    if (!write)
        mram_read((__mram_ptr const void *)mram, wram, size);
    else
        mram_write(wram, (__mram_ptr void *)mram, size);
    uint32_t t1 = (uint32_t)perfcounter_get();
    uint32_t t2 = (uint32_t)perfcounter_get();
    /* minus the cost of reading the counter, as PrIM's cyclecount.h */
    return (t1 - t0) - (t2 - t1);
}

int main(void)
{
    unsigned id = me();
    if (id == 0)
        perfcounter_config(COUNT_CYCLES, true);
    barrier_wait(&bar);

    uint32_t size = ARGS.dma_size;
    uint32_t bytes = ARGS.bytes;
    uintptr_t base = (uintptr_t)DPU_MRAM_HEAP_POINTER;
    uint64_t total = 0;
    uint32_t windows = 0;
    uint32_t stride = size * NR_TASKLETS;
    for (uint32_t off = id * size; off + size <= bytes; off += stride) {
        total += timed_dma(ARGS.kernel, base + off, cache[id], size);
        windows++;
    }
    RESULTS[id].counted = total;
    RESULTS[id].windows = windows;
    return 0;
}
