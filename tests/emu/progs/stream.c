/* stream.c -- MRAM read streaming with 2 KiB DMAs (PrIM COPY-DMA style). */
#include <defs.h>
#include <mram.h>
#define BLOCK 2048
__host uint32_t total_bytes;
__host uint32_t sum[NR_TASKLETS];
static __dma_aligned uint8_t buf[NR_TASKLETS][BLOCK];
int main(void)
{
    uint32_t s = 0;
    __mram_ptr uint8_t *base = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    for (uint32_t off = me() * BLOCK; off < total_bytes; off += NR_TASKLETS * BLOCK) {
        mram_read(base + off, buf[me()], BLOCK);
        s += buf[me()][0];
    }
    sum[me()] = s;
    return 0;
}
