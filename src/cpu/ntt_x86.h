/*
 * ntt_x86.h -- the x86 vector kernels of the NTT (ntt_x86.c) for the host
 * runner of src/core/ntt_run.h.
 */
#ifndef CPIM_NTT_X86_H
#define CPIM_NTT_X86_H

#include "ntt_run.h"

/* The best kernels of this CPU: AVX-512 (with IFMA for double-word moduli
 * below 2^50), AVX2 or the portable ones; *tier (may be NULL) gets
 * "avx512-ifma", "avx512", "avx2" or "portable".  Rings smaller than the
 * kernels' min_n run on the portable kernels (the runner's choice). */
const cpim_ntt_kernels *cpim_ntt_x86_kernels(const char **tier);

#endif /* CPIM_NTT_X86_H */
