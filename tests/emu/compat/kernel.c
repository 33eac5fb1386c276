/* The DPU side of the host-style programs: sums the n_words 32-bit words
 * at the start of the MRAM heap, times `factor`, into `result`. Tasklets
 * take 64-word blocks in turn; tasklet 0 adds the partial sums. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define BLOCK 64

__host uint32_t n_words;
__host uint32_t factor;
__host uint64_t result;
uint64_t partial[NR_TASKLETS];

BARRIER_INIT(all, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint32_t cache[BLOCK];
    __mram_ptr uint32_t *words = (__mram_ptr uint32_t *)DPU_MRAM_HEAP_POINTER;
    uint64_t acc = 0;
    for (uint32_t at = me() * BLOCK; at < n_words; at += NR_TASKLETS * BLOCK) {
        mram_read(&words[at], cache, sizeof cache);
        for (uint32_t k = 0; k < BLOCK && at + k < n_words; k++)
            acc += (uint64_t)cache[k] * factor;
    }
    partial[me()] = acc;
    barrier_wait(&all);
    if (me() == 0) {
        uint64_t s = 0;
        for (int t = 0; t < NR_TASKLETS; t++)
            s += partial[t];
        result = s;
    }
    return 0;
}
