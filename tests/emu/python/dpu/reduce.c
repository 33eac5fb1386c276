/* Sum of n 64-bit values at the start of `values`: tasklets take blocks in
 * turn, tasklet 0 adds their partial sums once all are done. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define BLOCK 32 /* values per DMA (256 bytes) */

__host uint32_t n;
__host uint64_t total;
uint64_t partial[NR_TASKLETS];
__mram_noinit uint64_t values[1 << 16];

BARRIER_INIT(all, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint64_t cache[BLOCK];
    uint64_t acc = 0;
    for (uint32_t at = me() * BLOCK; at < n; at += NR_TASKLETS * BLOCK) {
        mram_read(&values[at], cache, sizeof cache);
        for (uint32_t k = 0; k < BLOCK && at + k < n; k++)
            acc += cache[k];
    }
    partial[me()] = acc;
    barrier_wait(&all);
    if (me() == 0) {
        uint64_t s = 0;
        for (int t = 0; t < NR_TASKLETS; t++)
            s += partial[t];
        total = s;
    }
    return 0;
}
