/* paired_words.c -- tasklets whose WRAM accesses are word pairs (test_window):
 * 64-bit loads and stores, which RV32 does as two word accesses at 8k and
 * 8k + 4 from one base and the DPU as one 8-byte ld/sd (the second word's
 * access folded into the first's issue slot), on each tasklet's own pairs
 * and now and then on pairs every tasklet reads and writes; some of those
 * writes touch only a pair's lower word, so that an order only the cycles
 * decide shows on either word. */
#include <defs.h>
#include <stdint.h>

#define N 32
__host uint32_t iterations;
__host uint32_t out[NR_TASKLETS];
static uint64_t shared[N];
static uint64_t own[NR_TASKLETS][N];

int main(void)
{
    const uint32_t id = me();
    uint32_t x = 0x2545f491u * (id + 3), s = 0;
    for (uint32_t it = 0; it < iterations; it++) {
        for (uint32_t i = 0; i < N; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            const uint64_t p = own[id][i];
            s += (uint32_t)p ^ ((uint32_t)(p >> 32) << 1);
            own[id][(i + 1) % N] = (uint64_t)s << 32 | x;
            if ((x & 7) == 0) {
                const uint64_t q = shared[(x >> 3) % N];
                s += (uint32_t)q ^ ((uint32_t)(q >> 32) << 1);
            }
            if ((x & 1023) == id)
                shared[(x >> 10) % N] = (uint64_t)x << 32 | s;
            else if ((x & 1023) == 1023 - id)
                ((uint32_t *)shared)[2 * ((x >> 16) % N)] = s;
        }
    }
    out[id] = s;
    return 0;
}
