/* dma_compute.c -- tasklets that read a block from MRAM, then compute on it
 * for a while (the shape of the SHA-256 and AES kernels: test_ring_order);
 * each DMA makes its tasklet miss turns, so that with 11 to 13 tasklets it
 * rejoins the revolver's ring out of index order. */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define BLOCK 2048
__host uint32_t blocks;
__host uint32_t out[NR_TASKLETS];
static __dma_aligned uint32_t buf[NR_TASKLETS][BLOCK / 4];

int main(void)
{
    const uint32_t id = me();
    uint32_t *b = buf[id], s = id;
    __mram_ptr uint8_t *base = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    for (uint32_t k = 0; k < blocks; k++) {
        mram_read(base + (k * NR_TASKLETS + id) % 16 * BLOCK, b, BLOCK);
        for (uint32_t r = 0; r < 2; r++)
            for (uint32_t i = 0; i < BLOCK / 4; i++) {
                s = (s << 5 | s >> 27) + b[i] + r;
                b[i] ^= s;
            }
    }
    out[id] = s;
    return 0;
}
