/*
 * stream.c -- DPU program: STREAM in MRAM, as PrIM's Microbenchmarks/STREAM:
 *   COPY      c[i] = a[i]          (DMA in, WRAM copy loop, DMA out)
 *   COPY-DMA  c    = a             (DMA in, DMA out of the same WRAM buffer)
 *   ADD       c[i] = a[i] + b[i]   (two DMAs in, WRAM add loop, DMA out)
 *   SCALE     c[i] = s * a[i]      (as COPY, a 64-bit multiply per element)
 *   TRIAD     c[i] = a[i] + s * b[i]  (as ADD, plus the multiply)
 * (s = the number of 8-byte elements per array, PrIM's scalar.)
 * Tasklets take 1 KiB blocks round robin.  Tasklet 0 reads the cycle counter
 * between a barrier before and a barrier after the whole stream; the host
 * turns it into MRAM bandwidth (bytes read + bytes written per second).
 * MRAM layout from DPU_MRAM_HEAP_POINTER: a [0,n), b [n,2n), c [2n,3n).
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

#define WORDS (MICRO_BLOCK / sizeof(uint64_t))
static uint64_t buf_a[NR_TASKLETS][WORDS];
static uint64_t buf_b[NR_TASKLETS][WORDS];
static uint64_t buf_c[NR_TASKLETS][WORDS];

int main(void)
{
    unsigned id = me();
    barrier_wait(&bar);
    if (id == 0)
        perfcounter_config(COUNT_CYCLES, true);
    barrier_wait(&bar);

    uint32_t n = ARGS.bytes;
    const uint64_t s = n / sizeof(uint64_t);
    uintptr_t a = (uintptr_t)DPU_MRAM_HEAP_POINTER, b = a + n, c = b + n;
    uint64_t *wa = buf_a[id], *wb = buf_b[id], *wc = buf_c[id];
    for (uint32_t off = id * MICRO_BLOCK; off < n; off += MICRO_BLOCK * NR_TASKLETS) {
        mram_read((__mram_ptr const void *)(a + off), wa, MICRO_BLOCK);
        switch (ARGS.kernel) {
        case MICRO_STREAM_COPY:
            for (unsigned i = 0; i < WORDS; i++)
                wc[i] = wa[i];
            mram_write(wc, (__mram_ptr void *)(c + off), MICRO_BLOCK);
            break;
        case MICRO_STREAM_COPY_DMA:
            mram_write(wa, (__mram_ptr void *)(c + off), MICRO_BLOCK);
            break;
        case MICRO_STREAM_SCALE:
            for (unsigned i = 0; i < WORDS; i++)
                wc[i] = s * wa[i];
            mram_write(wc, (__mram_ptr void *)(c + off), MICRO_BLOCK);
            break;
        case MICRO_STREAM_TRIAD:
            mram_read((__mram_ptr const void *)(b + off), wb, MICRO_BLOCK);
            for (unsigned i = 0; i < WORDS; i++)
                wc[i] = wa[i] + s * wb[i];
            mram_write(wc, (__mram_ptr void *)(c + off), MICRO_BLOCK);
            break;
        default:
            mram_read((__mram_ptr const void *)(b + off), wb, MICRO_BLOCK);
            for (unsigned i = 0; i < WORDS; i++)
                wc[i] = wa[i] + wb[i];
            mram_write(wc, (__mram_ptr void *)(c + off), MICRO_BLOCK);
            break;
        }
    }
    barrier_wait(&bar);
    if (id == 0) {
        RESULTS[0].counted = perfcounter_get();
        RESULTS[0].windows = 1;
    }
    return 0;
}
