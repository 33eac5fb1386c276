/*
 * ntt_run.h -- the NTT ops (backend.h `ntt`) on the host, on a set of
 * per-polynomial kernels: the portable ones of src/crypto/ntt.c (`cpu`, and
 * the `pim` backend's rings that its DPU kernel does not take) or the x86
 * vector ones (src/cpu/ntt_x86.c).  The runner splits a batch into
 * (element, limb) work items over host threads (parallel.h); each item is
 * independent, so any split gives the same bytes.
 */
#ifndef CPIM_NTT_RUN_H
#define CPIM_NTT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"
#include "ntt_plan.h"

/* One polynomial of one limb, in place, inputs < q, outputs < q (the
 * transforms of src/crypto/ntt.h), for every n >= min_n.
 * The runner takes the portable kernels for a ring below min_n (vector
 * kernels need at least two vectors of coefficients). */
typedef struct cpim_ntt_kernels {
    size_t min_n;
    void (*fwd32)(uint32_t *a, uint32_t n, const uint32_t *psi, const uint32_t *psis, uint32_t q);
    void (*inv32)(uint32_t *a, uint32_t n, const uint32_t *ipsi, const uint32_t *ipsis, uint32_t q,
                  uint32_t ninv, uint32_t ninvs);
    /* One polynomial on 64-bit words in place, with m's t64 tables (every
     * modulus has them): inputs in [0, 4q) (fwd64) or
     * [0, 2q) (inv64), outputs in [0, q) when full, else [0, 4q) / [0, 2q)
     * (Harvey's lazy ranges, which HEXL's API exposes); inv64 scales by
     * n^-1 (m->ninv64). */
    void (*fwd64)(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
    void (*inv64)(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
    /* a[i] = a[i] * b[i] mod q (a[i], b[i] < q < 2^31), Barrett with mu =
     * floor(2^(2 bits) / q) (ntt_plan.h) */
    void (*mul32)(uint32_t *a, const uint32_t *b, uint32_t n, uint32_t q, uint32_t mu,
                  unsigned bits);
    /* the batch layout's uint64_t words <-> 32-bit scratch (values < 2^32) */
    void (*narrow)(uint32_t *d, const uint64_t *s, uint32_t n);
    void (*widen)(uint64_t *d, const uint32_t *s, uint32_t n);
} cpim_ntt_kernels;

/* The portable mul32, narrow and widen, and fwd64 and inv64. */
void cpim_ntt_mul32_portable(uint32_t *a, const uint32_t *b, uint32_t n, uint32_t q, uint32_t mu,
                             unsigned bits);
void cpim_ntt_narrow_portable(uint32_t *d, const uint64_t *s, uint32_t n);
void cpim_ntt_widen_portable(uint64_t *d, const uint32_t *s, uint32_t n);
void cpim_ntt_fwd64_portable(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);
void cpim_ntt_inv64_portable(uint64_t *a, uint32_t n, const cpim_ntt_mod *m, int full);

/* The portable kernels (src/crypto/ntt.c), every n >= 2. */
extern const cpim_ntt_kernels cpim_ntt_portable_kernels;

/* backend.h's ntt op on `threads` threads (0 = all cores); st->bytes is the
 * core's, the runner fills nothing else (the core times the call). */
cpim_err cpim_ntt_run(const cpim_ntt_kernels *k, unsigned threads, const cpim_ntt_plan *plan,
                      cpim_ntt_op op, const uint64_t *a, const uint64_t *b, uint64_t *out,
                      size_t count);

#endif /* CPIM_NTT_RUN_H */
