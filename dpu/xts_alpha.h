/*
 * xts_alpha.h -- XTS's tweak update T = T * alpha in GF(2^128) (IEEE 1619),
 * for the DPU code that keeps a running tweak in four little-endian words:
 * the resident-region program (dpu/resident.c) and the TSME layer
 * (dpu/tsme.h).  dpu/aes.c's XTS does the same in registers (its ALPHA).
 * Its own header, not dpu_lib.h: tsme.h is forced into unchanged programs,
 * which should see as few names of ours as possible.
 */
#ifndef CPIM_DPU_XTS_ALPHA_H
#define CPIM_DPU_XTS_ALPHA_H

#include <stdint.h>

/* t[0] holds the low 32 bits.  Branch-free: the tweak is secret; the empty
 * asm keeps the compiler from turning the carry mask into a branch. */
static inline void dpu_xts_alpha(uint32_t t[4])
{
    uint32_t c = (uint32_t)((int32_t)t[3] >> 31);
    __asm__("" : "+r"(c));
    t[3] = t[3] << 1 | t[2] >> 31;
    t[2] = t[2] << 1 | t[1] >> 31;
    t[1] = t[1] << 1 | t[0] >> 31;
    t[0] = t[0] << 1 ^ (c & 0x87u);
}

#endif /* CPIM_DPU_XTS_ALPHA_H */
