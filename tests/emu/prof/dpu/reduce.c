/* reduce.c -- a PrIM-style reduction (PrIM RED): each tasklet streams its
 * share of an MRAM vector into WRAM in 1 KiB DMAs and sums it; a barrier,
 * then tasklet 0 adds the partial sums; a mutex-protected counter of the
 * blocks done. The profiler's and the debugger's test program, and the
 * worked example of docs/PROFILING.md and docs/DEBUGGING.md; with
 * `misalign` set, tasklet 2 makes a DMA from a 4-byte aligned MRAM address
 * (a fault: the DPU's DMAs are 8-byte aligned). */
#include <alloc.h>
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <mutex.h>
#include <stdint.h>

#define BLOCK 1024

__host uint32_t n_elems;  /* 32-bit elements in MRAM at the heap pointer */
__host uint64_t total;    /* the result */
__host uint32_t blocks;   /* blocks done, all tasklets */
__host uint32_t misalign; /* 1: the fault above */
__mram_noinit uint32_t vec[1 << 18];

static uint64_t partial[NR_TASKLETS];
BARRIER_INIT(done_barrier, NR_TASKLETS);
MUTEX_INIT(count_mutex);

/* the sum of one block in WRAM */
static __attribute__((noinline)) uint64_t sum_block(const uint32_t *b, uint32_t n)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += b[i];
    return s;
}

int main(void)
{
    uint32_t *buf = mem_alloc(BLOCK);
    uint32_t per_block = BLOCK / sizeof(uint32_t);
    uint64_t s = 0;
    if (misalign && me() == 2)
        mram_read(&vec[1], buf, 8);
    for (uint32_t at = me() * per_block; at < n_elems; at += NR_TASKLETS * per_block) {
        uint32_t n = n_elems - at < per_block ? n_elems - at : per_block;
        mram_read(&vec[at], buf, BLOCK);
        s += sum_block(buf, n);
        mutex_lock(count_mutex);
        blocks++;
        mutex_unlock(count_mutex);
    }
    partial[me()] = s;
    barrier_wait(&done_barrier);
    if (me() == 0) {
        uint64_t t = 0;
        for (unsigned k = 0; k < NR_TASKLETS; k++)
            t += partial[k];
        total = t;
    }
    return 0;
}
