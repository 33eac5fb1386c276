/* dpu_seqread.c -- sequential reader over an MRAM byte array written by the
 * host (NR_TASKLETS=4). Tasklet t reads from offset start[t] with step
 * step[t] bytes, summing the 32-bit little-endian words it lands on. */
#include <alloc.h>
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <seqread.h>
#include <stdint.h>

#define N 6000

__mram_noinit uint8_t data[N + 64];
__host uint32_t start[NR_TASKLETS] = {0, 3, 17, 255};
__host uint32_t step[NR_TASKLETS] = {4, 1, 12, 200};
__host uint32_t sum[NR_TASKLETS];
__host uint32_t count[NR_TASKLETS];
__host uint32_t tell_ok[NR_TASKLETS];
__host uint32_t seek_sum[NR_TASKLETS];

BARRIER_INIT(bar, NR_TASKLETS);

int main(void)
{
    uint32_t id = me();
    if (id == 0)
        mem_reset();
    barrier_wait(&bar);
    seqreader_buffer_t cache = seqread_alloc();
    seqreader_t sr;
    uint8_t *p = seqread_init(cache, &data[start[id]], &sr);
    uint32_t s = 0, n = 0, ok = 1;
    for (uint32_t off = start[id]; off + 4 <= N; off += step[id]) {
        s += (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        n++;
        if (seqread_tell(p, &sr) != (__mram_ptr void *)&data[off])
            ok = 0;
        p = seqread_get(p, step[id], &sr);
    }
    sum[id] = s;
    count[id] = n;
    tell_ok[id] = ok;
    /* seek backwards and forwards */
    uint32_t ss = 0;
    for (uint32_t off = N - 8; off >= 8 && off < N; off -= 997) {
        p = seqread_seek(&data[off], &sr);
        ss += p[0];
    }
    seek_sum[id] = ss;
    return 0;
}
