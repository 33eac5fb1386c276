/* shared_words.c -- tasklets that share WRAM words (test_window): the first
 * half of the iterations touches only each tasklet's own array, the second
 * half also reads and now and then writes words every tasklet uses, so the
 * result depends on the exact issue order of their loads and stores; odd
 * tasklets also store to MRAM directly now and then (an 8-byte DMA: the
 * tasklet misses turns, the steady state ends at a different cycle for
 * each). */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define N 64
__host uint32_t iterations;
__host uint32_t out[NR_TASKLETS];
static uint32_t shared[N];
static uint32_t own[NR_TASKLETS][N];
__mram_noinit uint32_t mbuf[NR_TASKLETS * 8];

int main(void)
{
    const uint32_t id = me();
    uint32_t x = 0x9e3779b9u * (id + 1), s = 0;
    for (uint32_t it = 0; it < iterations; it++) {
        const int share = it >= iterations / 2;
        for (uint32_t i = 0; i < N; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            own[id][i] += x;
            s += own[id][(i + 1) % N];
            if (share) {
                s += shared[i];
                if ((x & 15) == id % 16)
                    shared[(x >> 8) % N] += s;
            }
            if ((id & 1) && (i & 15) == id % 16)
                mbuf[id * 8 + (i & 7)] = s;
        }
    }
    out[id] = s;
    return 0;
}
