/* scale.c -- compute loop, fixed work per tasklet (weak scaling): the
 * revolver model must give throughput ~ min(T, 11). */
#include <defs.h>
__host uint32_t iters;
__host uint32_t res[NR_TASKLETS];
int main(void)
{
    uint32_t x = me() + 1, y = 0x12345;
    for (uint32_t i = 0; i < iters; i++) {
        x = (x ^ (x << 3)) + y;
        y = (y >> 1) ^ x;
    }
    res[me()] = x ^ y;
    return 0;
}
