/* Sums the n_words 32-bit words at the start of MRAM; each tasklet takes
 * every NR_TASKLETS-th 256-byte block, tasklet 0 adds the partial sums. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define BLOCK_WORDS 64

__host uint32_t n_words;
__host uint32_t sum;
uint32_t partial[NR_TASKLETS];
__mram_noinit uint32_t words[1 << 16];

BARRIER_INIT(done, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint32_t buf[BLOCK_WORDS];
    uint32_t acc = 0;
    for (uint32_t b = me() * BLOCK_WORDS; b < n_words; b += NR_TASKLETS * BLOCK_WORDS) {
        mram_read(&words[b], buf, sizeof buf);
        for (uint32_t k = 0; k < BLOCK_WORDS && b + k < n_words; k++)
            acc += buf[k];
    }
    partial[me()] = acc;
    barrier_wait(&done);
    if (me() == 0) {
        uint32_t s = 0;
        for (int t = 0; t < NR_TASKLETS; t++)
            s += partial[t];
        sum = s;
    }
    return 0;
}
