/*
 * ntt_plan.h -- what the core (src/core/ntt_api.c) precomputes once per ring at
 * cpim_ntt_create and hands to a backend's ntt op (backend.h), and the ops.
 *
 * Per modulus q (struct cpim_ntt_mod), all tables of n entries, index i:
 *   psi[i]   = psi^bitrev(i) mod q       the forward twiddles (psi a
 *                                        primitive 2N-th root of unity;
 *                                        psi[0] = 1 is unused)
 *   ipsi[i]  = psi^-bitrev(i) mod q      the inverse twiddles
 *   *_shoup  the Shoup constants of those: floor(w * 2^32 / q) for a word
 *            modulus (< 2^32), floor(w * 2^64 / q) for a double-word one
 * bitrev = reversal of log_n bits.  Word moduli (q < 2^31) have the tables
 * as uint32_t (the form a 32-bit DPU kernel wants: t32) and also as
 * uint64_t with 64-bit Shoup constants (t64: the host's one-limb path,
 * cpim_ntt_forward_limb, runs every modulus on 64-bit words in place);
 * double-word ones have t64 only (t32 NULL).  The transforms that use them
 * are src/crypto/ntt.c's (their comment says which loop reads which index).
 * Scalars: n^-1 mod q with its Shoup constant (of the modulus's own form);
 * ninv64, the inverse's last stage with the scaling fused (every modulus):
 * {n^-1, floor(n^-1 2^64 / q), n^-1 ipsi[1] mod q, floor(that 2^64 / q)};
 * and the Barrett constants for products of two variables: b = bit length
 * of q, mu = floor(2^(2b) / q) (< 2^(b+1): 32 bits for a word modulus).
 *
 * The plan is read-only after cpim_ntt_create: backends may use it from any
 * number of threads.
 */
#ifndef CPIM_NTT_PLAN_H
#define CPIM_NTT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim_ntt.h"

typedef enum cpim_ntt_op {
    CPIM_NTT_OP_FORWARD,   /* out = NTT(a); b unused */
    CPIM_NTT_OP_INVERSE,   /* out = INTT(a); b unused */
    CPIM_NTT_OP_POINTWISE, /* out = a .* b */
    CPIM_NTT_OP_POLYMUL,   /* out = INTT(NTT(a) .* NTT(b)) */
    CPIM_NTT_OP_TENSOR     /* count ciphertexts: 2 polys in a, 2 in b, 3 out */
} cpim_ntt_op;

/* moduli below 2^50 (so that 4q < 2^52) also get 52-bit Shoup tables */
#define CPIM_NTT_SHOUP52_BITS 50u

typedef struct cpim_ntt_mod {
    uint64_t q;
    int word;          /* 1: q < 2^31, tables in t32 */
    unsigned bits;     /* b, the bit length of q */
    uint64_t mu;       /* Barrett: floor(2^(2b) / q) */
    uint64_t psi_root; /* psi itself (a primitive 2N-th root of unity) */
    uint64_t ninv, ninv_shoup;
    uint64_t ninv64[4];
    struct {
        const uint32_t *psi, *psi_shoup, *ipsi, *ipsi_shoup;
    } t32;
    struct {
        const uint64_t *psi, *psi_shoup, *ipsi, *ipsi_shoup;
        /* q < 2^CPIM_NTT_SHOUP52_BITS: floor(w 2^52 / q) of psi and ipsi
         * (the x86 IFMA52 kernels' form, = *_shoup >> 12); else NULL */
        const uint64_t *psi_shoup52, *ipsi_shoup52;
    } t64;
} cpim_ntt_mod;

typedef struct cpim_ntt_plan {
    size_t n;
    unsigned log_n;
    size_t nmod;
    uint64_t q[CPIM_NTT_MAX_MODULI]; /* q[j] == mod[j].q */
    cpim_ntt_mod mod[CPIM_NTT_MAX_MODULI];
    void *tables; /* the one allocation behind every table above */
} cpim_ntt_plan;

#endif /* CPIM_NTT_PLAN_H */
