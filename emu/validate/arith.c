/*
 * arith.c -- DPU program: INT32/INT64 ADD/MUL throughput in WRAM, as PrIM's
 * Microbenchmarks/Arithmetic-Throughput: each tasklet DMAs a 1 KiB block into
 * its WRAM buffer, all tasklets meet at a barrier, each times (perfcounter)
 * a load-op-store loop over its block, meet again, and write the block back.
 * The host takes the largest per-tasklet total as the DPU's compute time.
 *
 * Build: -DNR_TASKLETS=n -DMICRO_T=int32_t|int64_t -DMICRO_OP_ADD|-DMICRO_OP_MUL
 * Input at DPU_MRAM_HEAP_POINTER [0, bytes), output at [bytes, 2*bytes):
 * out[i] = in[i] OP (bytes / sizeof(T)).
 */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <perfcounter.h>
#include <stdint.h>

#include "micro_args.h"

#ifndef MICRO_T
#define MICRO_T int32_t
#endif
typedef MICRO_T T;

/* One MRAM variable so the linker places DPU_MRAM_HEAP_POINTER in MRAM (the
 * virtual UPMEM's dpu.lds mis-places it in a program without any). */
__mram_noinit uint64_t micro_mram_anchor;

__host micro_args_t ARGS;
__host micro_result_t RESULTS[NR_TASKLETS];

BARRIER_INIT(bar, NR_TASKLETS);

static T cache[NR_TASKLETS][MICRO_BLOCK / sizeof(T)] __attribute__((aligned(8)));

/* PrIM's loop is one WRAM load, one op, one WRAM store per element; keep the
 * compiler from unrolling it so the instruction stream stays comparable. */
static void __attribute__((noinline)) update(T *buf, T scalar)
{
#pragma clang loop unroll(disable)
    for (unsigned i = 0; i < MICRO_BLOCK / sizeof(T); i++) {
        T t = buf[i];
#if defined(MICRO_OP_MUL)
        t *= scalar;
#else
        t += scalar;
#endif
        buf[i] = t;
    }
}

int main(void)
{
    unsigned id = me();
    if (id == 0)
        perfcounter_config(ARGS.count == MICRO_COUNT_INSNS ? COUNT_INSTRUCTIONS : COUNT_CYCLES,
                           true);
    barrier_wait(&bar);

    uint32_t bytes = ARGS.bytes;
    T scalar = (T)(bytes / sizeof(T));
    uint32_t nblocks = bytes / MICRO_BLOCK;
    uint32_t rounds = (nblocks + NR_TASKLETS - 1) / NR_TASKLETS;
    uintptr_t in = (uintptr_t)DPU_MRAM_HEAP_POINTER;
    uintptr_t out = in + bytes;
    uint64_t total = 0;
    uint32_t windows = 0;

    /* every tasklet runs every round so the barriers match; a tasklet
     * without a block in the last round only waits */
    for (uint32_t r = 0; r < rounds; r++) {
        uint32_t blk = r * NR_TASKLETS + id;
        int mine = blk < nblocks;
        if (mine)
            mram_read((__mram_ptr const void *)(in + blk * MICRO_BLOCK), cache[id], MICRO_BLOCK);
        barrier_wait(&bar);
        if (mine) {
            /* 32-bit counter values: see emu/validate/mram.c */
            uint32_t t0 = (uint32_t)perfcounter_get();
            update(cache[id], scalar);
            uint32_t t1 = (uint32_t)perfcounter_get();
            uint32_t t2 = (uint32_t)perfcounter_get();
            /* minus the cost of reading the counter, as PrIM's cyclecount.h */
            total += (t1 - t0) - (t2 - t1);
            windows++;
        }
        barrier_wait(&bar);
        if (mine)
            mram_write(cache[id], (__mram_ptr void *)(out + blk * MICRO_BLOCK), MICRO_BLOCK);
    }
    RESULTS[id].counted = total;
    RESULTS[id].windows = windows;
    return 0;
}
