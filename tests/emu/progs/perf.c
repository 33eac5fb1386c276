/* perf.c -- perfcounter values: monotonic, 16-cycle granularity. */
#include <defs.h>
#include <perfcounter.h>
#define N 64
__host uint64_t samples[N];
__host uint64_t instr_delta;
__host uint32_t clocks;
volatile uint32_t sink;
int main(void)
{
    perfcounter_config(COUNT_CYCLES, true);
    for (int i = 0; i < N; i++) {
        samples[i] = perfcounter_get();
        for (int j = 0; j < i; j++)
            sink += (uint32_t)j;
    }
    perfcounter_config(COUNT_INSTRUCTIONS, true);
    for (int j = 0; j < 100; j++)
        sink += (uint32_t)j;
    instr_delta = perfcounter_get();
    clocks = CLOCKS_PER_SEC;
    return 0;
}
