/*
 * ntt_x86_64.h -- the NTT kernels on 8 x 64-bit AVX-512 lanes
 * (ntt_x86_64.c), the fwd64/inv64 of ntt_x86.c's tiers: ntt_run.h's
 * contract (in place, lazy input ranges, full or lazy outputs), n >= 16.
 * x86-64 only; call them only where cpim_x86_features() has the features
 * named.
 */
#ifndef CPIM_NTT_X86_64_H
#define CPIM_NTT_X86_64_H

#include <stdint.h>

#include "ntt_plan.h"

/* AVX-512 F+VL with IFMA and DQ: IFMA52 below 2^50, AVX-512DQ above. */
void cpim_ntt_x86_fwd64_ifma(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
void cpim_ntt_x86_inv64_ifma(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
/* AVX-512 F+VL with DQ: every modulus. */
void cpim_ntt_x86_fwd64_dq(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
void cpim_ntt_x86_inv64_dq(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);

#endif /* CPIM_NTT_X86_64_H */
