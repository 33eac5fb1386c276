/* Styles of the public UPMEM programs, in one program (rt_run.c,
 * test_styles): a table of function pointers called per tasklet, an MRAM
 * buffer ending 8 bytes short of 64 MiB, code-section profiling
 * (profiling.h with DPU_PROFILING), errno per tasklet, and fsb_allocator_t
 * used after <alloc.h> alone (the SDK's alloc.h includes fsb_allocator.h). */
#define DPU_PROFILING 1
#include <alloc.h>
#include <barrier.h>
#include <defs.h>
#include <errno.h>
#include <mram.h>
#include <profiling.h>
#include <stdint.h>

#define NEAR_END ((64u << 20) - 4096u) /* bytes of MRAM before `tail` */

/* only the host would touch it: _keep, or the linker drops it (as the SDK) */
__mram_noinit_keep uint8_t big[NEAR_END]; /* pushes `tail` to the last 4 KiB */
__mram_noinit uint64_t tail[511];         /* ends 8 bytes before 64 MiB      */

__host uint32_t fn_out[NR_TASKLETS];
__host uint32_t errno_out[NR_TASKLETS];
__host uint32_t prof_count[NR_TASKLETS];
__host uint64_t tail_read;
__host uint32_t fsb_sum;

BARRIER_INIT(bar, NR_TASKLETS);
PROFILING_INIT(prof);

static uint32_t op_add(uint32_t a, uint32_t b)
{
    return a + b;
}
static uint32_t op_sub(uint32_t a, uint32_t b)
{
    return a - b;
}
static uint32_t op_mul(uint32_t a, uint32_t b)
{
    return a * b;
}
static uint32_t op_xor(uint32_t a, uint32_t b)
{
    return a ^ b;
}
/* a table in WRAM the compiler cannot fold away: indexed by the tasklet id */
static uint32_t (*const ops[4])(uint32_t, uint32_t) = {op_add, op_sub, op_mul, op_xor};

int main(void)
{
    sysname_t t = me();
    fn_out[t] = ops[t & 3](100u + t, 7u);

    errno = (int)(1000 + t); /* each tasklet its own errno */
    barrier_wait(&bar);
    errno_out[t] = (uint32_t)errno;

    profiling_start(&prof);
    for (volatile uint32_t i = 0; i < 50u * (t + 1u); i++)
        ;
    profiling_stop(&prof);
    prof_count[t] = prof.count[t];

    if (t == 0) {
        __dma_aligned uint64_t v = 0x0123456789abcdefull;
        mram_write(&v, &tail[510], 8);
        v = 0;
        mram_read(&tail[510], &v, 8);
        tail_read = v;

        fsb_allocator_t a = fsb_alloc(8, 2);
        uint32_t *x = fsb_get(a), *y = fsb_get(a);
        *x = 40;
        *y = 2;
        fsb_sum = *x + *y;
        fsb_free(a, x);
        fsb_free(a, y);
    }
    return 0;
}
