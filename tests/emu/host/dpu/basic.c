/* Test kernel: out[i] = in[i] * 2 + bias over n_elems uint64 values read
 * from the MRAM heap (in at offset 0, out right after), sum into `result`.
 * `hidden` is a plain WRAM global: not visible to the host. */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define BLOCK 32 /* elements per DMA (256 bytes) */

__host uint32_t n_elems;
__host uint64_t bias;
__host uint64_t result;
__host uint32_t launches;
__host uint64_t partial[NR_TASKLETS];
/* only the host uses it: _keep, or the linker drops it (as the SDK's) */
__mram_keep uint64_t mram_var[16] = {1, 2, 3};
uint32_t hidden;

BARRIER_INIT(all, NR_TASKLETS);

int main(void)
{
    __dma_aligned uint64_t buf[BLOCK];
    __mram_ptr uint64_t *in = (__mram_ptr uint64_t *)DPU_MRAM_HEAP_POINTER;
    __mram_ptr uint64_t *out = in + n_elems;
    uint64_t acc = 0;
    for (uint32_t i = me() * BLOCK; i < n_elems; i += NR_TASKLETS * BLOCK) {
        mram_read(in + i, buf, sizeof buf);
        for (uint32_t j = 0; j < BLOCK && i + j < n_elems; j++) {
            buf[j] = buf[j] * 2 + bias;
            acc += buf[j];
        }
        mram_write(buf, out + i, sizeof buf);
    }
    partial[me()] = acc;
    hidden = me();
    barrier_wait(&all);
    if (me() == 0) {
        uint64_t s = 0;
        for (int t = 0; t < NR_TASKLETS; t++)
            s += partial[t];
        result = s;
        launches++;
    }
    return 0;
}
