/* bench_loop.c -- interpreter speed benchmark: a typical integer kernel
 * (loads, ALU, stores, branches) over a per-tasklet WRAM array. */
#include <defs.h>
#include <stdint.h>

#define N 256
__host uint32_t iterations;
__host uint32_t checksum[NR_TASKLETS];
static uint32_t arr[NR_TASKLETS][N];

int main(void)
{
    uint32_t *a = arr[me()];
    uint32_t x = 0x9e3779b9u + me(), s = 0;
    for (uint32_t it = 0; it < iterations; it++) {
        for (uint32_t i = 0; i < N; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            a[i] = a[i] + (x & 0xff);
            s += a[i] >> 3;
        }
    }
    checksum[me()] = s;
    return 0;
}
