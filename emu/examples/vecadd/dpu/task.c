/* C = A + B on one DPU: tasklets take BLOCK_BYTES blocks round robin. */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "../common.h"

__host dpu_args_t args;

int main(void)
{
    __dma_aligned int32_t a[BLOCK_ELEMS], b[BLOCK_ELEMS];
    uint32_t base = (uint32_t)DPU_MRAM_HEAP_POINTER;
    uint32_t bytes = args.n_elems * sizeof(int32_t);
    for (uint32_t off = me() * BLOCK_BYTES; off < bytes; off += NR_TASKLETS * BLOCK_BYTES) {
        mram_read((__mram_ptr void *)(base + off), a, BLOCK_BYTES);
        mram_read((__mram_ptr void *)(base + args.span_bytes + off), b, BLOCK_BYTES);
        for (uint32_t i = 0; i < BLOCK_ELEMS; i++)
            a[i] += b[i];
        mram_write(a, (__mram_ptr void *)(base + 2 * args.span_bytes + off), BLOCK_BYTES);
    }
    return 0;
}
