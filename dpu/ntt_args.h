/*
 * ntt_args.h -- contract between the host (src/pim/pim_ntt.c) and the NTT DPU
 * programs (dpu/ntt.c).  Fixed-width types only.  Word moduli (q < 2^31):
 * program ntt-tN, struct ntt_job_args, described first; double-word
 * (q < 2^62): ntt64-tN, struct ntt_job_args64, its differences below.
 *
 * One host-visible WRAM symbol, NTT_JOB_SYM (struct ntt_job_args, one per
 * DPU).  This DPU's MRAM, from DPU_MRAM_HEAP_POINTER:
 *
 *   [limb[j].fwd_off]  N entries {w, w'} (8 bytes): w = psi^bitrev(k) mod q_j
 *                      (psi a primitive 2N-th root), w' = floor(w 2^32 / q_j)
 *                      -- the forward (Cooley-Tukey) twiddles, entry 0 unused
 *   [limb[j].inv_off]  the same for psi^-1 (Gentleman-Sande inverse)
 *   [data_off]         "slots" of N uint32 coefficients, slot s at
 *                      data_off + 4 N s; the layout depends on op (below).
 *   [wide_off]         the inputs as the API has them, N uint64 per slot, for
 *                      the input slots [0, nin) (nin = items x 1, 2 or 4 for
 *                      transforms, products, tensor): the kernel narrows them
 *                      into the slots first, and at the end widens the result
 *                      slots into this region (result k at wide_off + 8 N k),
 *                      so the host pushes and gathers the caller's buffers
 *                      directly, with no conversion on the host.
 *
 * The twiddle tables depend only on the ring and on nothing else: the host
 * broadcasts them once per ring and reuses them across calls.
 *
 * Items: the kernel's unit of work.  Item u has limb (limb0 + u) mod nlimbs.
 *   FORWARD / INVERSE: item u = slot u, transformed in place.
 *   POINTWISE / POLYMUL: item u = slots u (a, result) and bslot + u (b).
 *   TENSOR: item u = i L + j (ciphertext i, limb j, L = nlimbs, limb0 = 0):
 *     c0 = slot (2i) L + j, c1 = (2i + 1) L + j, d0/d1 the same from bslot,
 *     results r = 0, 1, 2 at eslot + (3i + r) L + j.
 */
#ifndef CPIM_NTT_ARGS_H
#define CPIM_NTT_ARGS_H

#include <stdint.h>

#include "dpu_lib.h" /* DPU_STR */

#define NTT_JOB_SYM ntt_job_args
#define NTT_XSTR(x) DPU_STR(x) /* the symbol name the host looks up */

#define NTT_MAX_LIMBS 16u /* = CPIM_NTT_MAX_MODULI */

enum { NTT_OP_FORWARD, NTT_OP_INVERSE, NTT_OP_POINTWISE, NTT_OP_POLYMUL, NTT_OP_TENSOR };

/* How the tasklets share the work (bench --experiment ntt compares them). */
enum {
    NTT_SCHED_COOP = 0, /* every (polynomial, block) of a pass to any tasklet, barrier per pass */
    NTT_SCHED_TASKLET,  /* one item per tasklet from start to end, no barrier */
};

/* Per modulus.  Every constant is computed by the host (src/pim/pim_ntt.c). */
struct ntt_limb {
    uint32_t q;             /* prime, q = 1 mod 2N, q < 2^31 */
    uint32_t qinv;          /* -q^-1 mod 2^32 (Montgomery) */
    uint32_t r1, r1p;       /* 2^32 mod q and its Shoup constant: undoes a Montgomery product */
    uint32_t ninv, ninvp;   /* N^-1 mod q, Shoup constant */
    uint32_t ninvr, ninvrp; /* N^-1 2^32 mod q (after a Montgomery product), Shoup constant */
    /* the inverse's last stage folds N^-1 into its one twiddle psi^-bitrev(1): */
    uint32_t lastw, lastwp;    /* psi^-bitrev(1) N^-1 mod q, Shoup constant */
    uint32_t lastwr, lastwrp;  /* psi^-bitrev(1) N^-1 2^32 mod q, Shoup constant */
    uint32_t fwd_off, inv_off; /* MRAM offsets of the twiddle tables */
};

/* The fields every job has (both programs). */
#define NTT_JOB_HEADER                                                                             \
    uint32_t op;     /* NTT_OP_* */                                                                \
    uint32_t log_n;  /* 10..16 */                                                                  \
    uint32_t log_m;  /* log2 of the WRAM block (coefficients), the most stages per pass */         \
    uint32_t sched;  /* NTT_SCHED_* */                                                             \
    uint32_t nitems; /* items on this DPU (0: nothing to do) */                                    \
    uint32_t nlimbs; /* L */                                                                       \
    uint32_t limb0;  /* limb of item 0 */                                                          \
    uint32_t data_off;                                                                             \
    uint32_t bslot, eslot; /* see above */                                                         \
    uint32_t wide_off;     /* unused by the double-word program */                                 \
    uint32_t pad

/* The header alone: the host fills it through `h` for either program (a
 * union member with the same fields: their common initial sequence). */
struct ntt_job_hdr {
    NTT_JOB_HEADER;
};

struct ntt_job_args {
    union {
        struct ntt_job_hdr h;
        struct {
            NTT_JOB_HEADER;
        };
    };
    struct ntt_limb limb[NTT_MAX_LIMBS];
};

/*
 * The double-word program (ntt64-tN: dpu/ntt.c built with -DNTT_DWORD) takes
 * any modulus q < 2^62, word ones included (a base mixing both sizes runs
 * whole on it).  Its differences from the above:
 *   - tables: N entries {w, w'} of 16 bytes, w' = floor(w 2^64 / q), so
 *     32 N bytes per modulus (fwd, then inv at fwd_off + 16 N);
 *   - slots of N uint64 coefficients (slot s at data_off + 8 N s), and no
 *     wide region: the host pushes the API's words into the input slots and
 *     gathers the result slots (op FORWARD..POLYMUL: slot 0 on; TENSOR:
 *     eslot on) as they are;
 *   - Montgomery's R is 2^64 (qinv, r1, ninvr, lastwr below).
 */
struct ntt_limb64 {
    uint64_t q;                /* prime, q = 1 mod 2N, q < 2^62 */
    uint64_t qinv;             /* -q^-1 mod 2^64 */
    uint64_t r1, r1p;          /* 2^64 mod q and its Shoup constant */
    uint64_t ninv, ninvp;      /* N^-1 mod q */
    uint64_t ninvr, ninvrp;    /* N^-1 2^64 mod q */
    uint64_t lastw, lastwp;    /* psi^-bitrev(1) N^-1 mod q */
    uint64_t lastwr, lastwrp;  /* psi^-bitrev(1) N^-1 2^64 mod q */
    uint32_t fwd_off, inv_off; /* MRAM offsets of the twiddle tables */
};

struct ntt_job_args64 {
    union {
        struct ntt_job_hdr h;
        struct {
            NTT_JOB_HEADER;
        };
    };
    struct ntt_limb64 limb[NTT_MAX_LIMBS];
};

_Static_assert(sizeof(struct ntt_limb) == 56, "ntt_limb layout");
_Static_assert(sizeof(struct ntt_limb64) == 104, "ntt_limb64 layout");
_Static_assert(sizeof(struct ntt_job_args) % 8 == 0, "job args are pushed whole");
_Static_assert(sizeof(struct ntt_job_args64) % 8 == 0, "job args are pushed whole");

/* The largest WRAM block for a tasklet count: two buffers of 2^log_m words
 * each per tasklet (data, and twiddles or a second operand). */
static inline uint32_t ntt_log_m_for(uint32_t tasklets)
{
    return tasklets <= 16 ? 8u : 7u;
}

/* The passes of a transform of 2^log_n points with blocks of 2^log_m: the
 * last pass does the last log_m stages on contiguous blocks; every earlier
 * one at most log_m - 2 stages, so that a block's rows are >= 4
 * coefficients (16-byte DMAs).  Fills s0[] (first stage) and k[] (stage
 * count) in execution order of the forward transform; returns the count.
 * log_m: 4..8. */
static inline uint32_t ntt_passes(uint32_t log_n, uint32_t log_m, uint32_t s0[8], uint32_t k[8])
{
    uint32_t ks[8], n = 0, rem = log_n;
    uint32_t take = rem < log_m ? rem : log_m;
    ks[n++] = take, rem -= take;
    while (rem && n < 8) { /* log_n <= 16, log_m >= 4: at most 7 */
        take = rem < log_m - 2 ? rem : log_m - 2;
        ks[n++] = take, rem -= take;
    }
    uint32_t s = 0;
    for (uint32_t p = 0; p < n; p++) {
        k[p] = ks[n - 1 - p];
        s0[p] = s;
        s += k[p];
    }
    return n;
}

#endif /* CPIM_NTT_ARGS_H */
