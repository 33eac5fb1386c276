/* Minimum, maximum and count of values above a threshold over this DPU's
 * int32 values (MRAM heap): per-tasklet partials, a barrier, then tasklet 0
 * combines them and prints the result (with the <inttypes.h> macros). */
#include <barrier.h>
#include <defs.h>
#include <inttypes.h>
#include <limits.h>
#include <mram.h>
#include <stdint.h>
#include <stdio.h>

#include "../common.h"

__host dpu_args_t args;   /* per DPU */
__host int32_t threshold; /* the same for every DPU */
__host dpu_result_t result;
dpu_result_t partial[NR_TASKLETS];

BARRIER_INIT(all_done, NR_TASKLETS);

int main(void)
{
    __dma_aligned int32_t buf[BLOCK_ELEMS];
    __mram_ptr int32_t *in = (__mram_ptr int32_t *)DPU_MRAM_HEAP_POINTER;
    dpu_result_t r = {INT32_MAX, INT32_MIN, 0, 0};
    for (uint32_t i = me() * BLOCK_ELEMS; i < args.n_elems; i += NR_TASKLETS * BLOCK_ELEMS) {
        mram_read(in + i, buf, BLOCK_BYTES);
        for (uint32_t j = 0; j < BLOCK_ELEMS && i + j < args.n_elems; j++) {
            int32_t v = buf[j];
            r.min = v < r.min ? v : r.min;
            r.max = v > r.max ? v : r.max;
            r.above += v > threshold;
        }
    }
    partial[me()] = r;
    barrier_wait(&all_done);
    if (me() == 0) {
        for (uint32_t t = 1; t < NR_TASKLETS; t++) {
            r.min = partial[t].min < r.min ? partial[t].min : r.min;
            r.max = partial[t].max > r.max ? partial[t].max : r.max;
            r.above += partial[t].above;
        }
        result = r;
        printf("min %" PRId32 " max %" PRId32 " above %" PRIu32 " of %" PRIu32 "\n", r.min, r.max,
               r.above, args.n_elems);
    }
    return 0;
}
