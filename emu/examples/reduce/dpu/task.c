/* Sum of n_elems uint64 values in the MRAM heap: per-tasklet partial sums,
 * a barrier, then tasklet 0 adds them up. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "../common.h"

__host uint32_t n_elems;
__host uint64_t sum;
uint64_t partial[NR_TASKLETS];

BARRIER_INIT(my_barrier, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint64_t buf[BLOCK_ELEMS];
    __mram_ptr uint64_t *in = (__mram_ptr uint64_t *)DPU_MRAM_HEAP_POINTER;
    uint64_t acc = 0;
    for (uint32_t i = me() * BLOCK_ELEMS; i < n_elems; i += NR_TASKLETS * BLOCK_ELEMS) {
        mram_read(in + i, buf, BLOCK_BYTES);
        for (uint32_t j = 0; j < BLOCK_ELEMS && i + j < n_elems; j++)
            acc += buf[j];
    }
    partial[me()] = acc;
    barrier_wait(&my_barrier);
    if (me() == 0) {
        uint64_t s = 0;
        for (uint32_t t = 0; t < NR_TASKLETS; t++)
            s += partial[t];
        sum = s;
    }
    return 0;
}
