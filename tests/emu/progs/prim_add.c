/* prim_add.c -- PrIM arithmetic-throughput INT32 ADD: WRAM load, add, store
 * over an array (no MRAM traffic in the timed loop). PrIM's DPU compiler did
 * not unroll this loop (6 instructions/op); unrolling is disabled here so the
 * RV32 code has the same shape (lw, add, sw, addi, bne). */
#include <defs.h>
#include <perfcounter.h>
#define SIZE 1024
__host uint32_t reps;
__host uint32_t scalar;
__host uint64_t cycles_measured;
static int32_t a[NR_TASKLETS][SIZE / NR_TASKLETS + 1];
int main(void)
{
    int32_t *p = a[me()];
    const uint32_t n = SIZE / NR_TASKLETS;
    for (uint32_t r = 0; r < reps; r++) {
#pragma clang loop unroll(disable)
        for (uint32_t i = 0; i < n; i++)
            p[i] += (int32_t)scalar;
    }
    return 0;
}
