/* mixed_access.c -- tasklets whose WRAM loads and stores are of every size
 * (test_window_sizes): signed and unsigned bytes and halves and words on each
 * tasklet's own arrays and, now and then, on bytes and halves every tasklet
 * reads and writes; with `bad_at` set, tasklet 1 makes a misaligned word
 * load at that iteration (what the hardware does with it, or a fault, at its
 * cycle and pc). */
#include <defs.h>
#include <stdint.h>

#define N 64
__host uint32_t iterations;
__host uint32_t bad_at;
__host uint32_t out[NR_TASKLETS];
static uint8_t shared8[N];
static uint16_t shared16[N];
static int8_t own8[NR_TASKLETS][N];
static int16_t own16[NR_TASKLETS][N];
static uint32_t own32[NR_TASKLETS][N];

int main(void)
{
    const uint32_t id = me();
    uint32_t x = 0x6c078965u * (id + 1), s = 0;
    for (uint32_t it = 0; it < iterations; it++) {
        for (uint32_t i = 0; i < N; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            own8[id][i] += (int8_t)x;
            own16[id][i] ^= (int16_t)(x >> 8);
            own32[id][i] += s;
            s += (uint32_t)(own8[id][(i + 3) % N] + own16[id][(i + 5) % N]);
            s ^= own32[id][(i + 7) % N];
            s += shared8[(x >> 4) % N] + shared16[(x >> 10) % N];
            if ((x & 1023) == id)
                shared8[(x >> 16) % N] = (uint8_t)s;
            else if ((x & 1023) == 1023 - id)
                shared16[(x >> 20) % N] = (uint16_t)s;
            if (bad_at && it == bad_at && id == 1 && i == 7)
                s += *(volatile uint32_t *)(void *)((uint8_t *)&own32[id][i] + 2);
        }
    }
    out[id] = s;
    return 0;
}
