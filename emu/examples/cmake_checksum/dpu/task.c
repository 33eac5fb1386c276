/* Checksum (sum of the bytes) of the n_bytes at the start of this DPU's MRAM
 * heap: tasklets take BLOCK_BYTES blocks round robin, tasklet 0 adds up. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "../common.h"

__host uint32_t n_bytes;
__host uint32_t checksum;
uint32_t partial[NR_TASKLETS];

BARRIER_INIT(all_done, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint8_t buf[BLOCK_BYTES];
    __mram_ptr uint8_t *in = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    uint32_t sum = 0;
    for (uint32_t off = me() * BLOCK_BYTES; off < n_bytes; off += NR_TASKLETS * BLOCK_BYTES) {
        mram_read(in + off, buf, BLOCK_BYTES);
        for (uint32_t i = 0; i < BLOCK_BYTES && off + i < n_bytes; i++)
            sum += buf[i];
    }
    partial[me()] = sum;
    barrier_wait(&all_done);
    if (me() == 0) {
        for (uint32_t t = 1; t < NR_TASKLETS; t++)
            sum += partial[t];
        checksum = sum;
    }
    return 0;
}
