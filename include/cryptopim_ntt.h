/*
 * cryptopim_ntt.h -- number-theoretic transforms and polynomial products in
 * Z_q[X]/(X^N + 1) for homomorphic encryption, on the backends of
 * cryptopim.h.  Include it after (or instead of) cryptopim.h; the
 * conventions of cryptopim.h hold here too (cpim_err results, no printing,
 * in == out allowed, one thread per context at a time).
 *
 * A ring (cpim_ntt) is a degree N and an RNS base of L primes q_0..q_{L-1}:
 *  - N a power of two, 2 <= N <= 2^20 (HEXL's range; SEAL's rings are
 *    2 .. 131072, its tests use N down to 2);
 *  - 1 <= L <= CPIM_NTT_MAX_MODULI distinct primes, each q = 1 (mod 2N) (so
 *    that a primitive 2N-th root of unity psi exists), and either a word
 *    modulus (q < 2^31) or a double-word one (q < 2^62); word and
 *    double-word moduli may be mixed.
 * Anything else is CPIM_ERR_NTT_PARAM (primality is decided exactly, by a
 * deterministic Miller-Rabin test).
 *
 * Batches.  A batch of `count` polynomials in RNS form is a uint64_t array
 * where polynomial p, limb j (the residue mod q_j), coefficient k is at index
 * (p * L + j) * N + k.  Every input coefficient must be < q_j (else
 * CPIM_ERR_NTT_COEFF and nothing is written); every output coefficient is
 * < q_j.  count * L * N * 8 bytes must fit a size_t (else CPIM_ERR_NTT_PARAM).
 * count 0 does nothing (the arrays may then be NULL).
 *
 * The NTT domain.  cpim_ntt_forward is the negacyclic NTT: for each limb,
 * out[bitrev(i)] = sum_{k<N} in[k] * psi^((2i+1)k) mod q, i.e. the values of
 * the polynomial at the N roots psi^(2i+1) of X^N + 1, in BIT-REVERSED order
 * (bitrev: reversal of log2(N) bits), which is the order Cooley-Tukey
 * butterflies produce without a permutation pass (as SEAL and HEXL do).
 * cpim_ntt_inverse takes that order back to natural order and multiplies by
 * N^-1, so inverse(forward(x)) = x.  psi is fixed per modulus at
 * cpim_ntt_create: x^((q-1)/2N) for the smallest x = 2, 3, ... for which
 * that has order 2N; every backend uses the same psi, so NTT-domain data may
 * move between contexts of the same parameters.
 *
 * Backends:
 *   name    word moduli (< 2^31)        double-word < 2^50     double-word < 2^62
 *   ------  --------------------------  ---------------------  -------------------
 *   cpu     portable C, 32-bit values   portable C, 64-bit values, 64 x 64 -> 128
 *   aesni   AVX-512 (16 lanes) or AVX2  AVX-512 IFMA52         AVX-512DQ (8 lanes),
 *           (8 lanes), else portable    (8 lanes), else as the  else portable C
 *                                       next column             (scalar)
 *           (N < 32: portable C, the vector kernels need two vectors)
 *   auto    aesni's kernels where AES-NI is there, else cpu's
 *   pim     the DPUs (RNS limbs over DPUs; docs/NTT.md) for 1024 <= N <=
 *           65536; other rings on the host, cpu's portable code (the DPU
 *           kernel's four-step passes need N >= 1024 -- a whole WRAM block
 *           and rows of 16-byte DMAs -- and its MRAM plan N <= 65536);
 *           such a call's statistics have no modeled time (has_modeled 0)
 *   cpu-table, shani: cpu's portable code (they differ from cpu in AES / SHA-256 only)
 * The CPU backends spread (polynomial, limb) pairs over host threads.  A
 * backend without the op answers CPIM_ERR_UNSUPPORTED.  docs/NTT.md has the
 * algorithms, their sources and the measurements.
 *
 * Statistics: every call records cpim_last_stats (measured; pim also
 * modeled with its phases); `bytes` is the size of the input coefficients
 * (count * polynomials per element * L * N * 8).
 */
#ifndef CRYPTOPIM_NTT_H
#define CRYPTOPIM_NTT_H

#include "cryptopim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CPIM_NTT_MIN_N      2u
#define CPIM_NTT_MAX_N      1048576u
#define CPIM_NTT_MAX_MODULI 16u
#define CPIM_NTT_WORD_BITS  31u /* word moduli: q < 2^31 */
#define CPIM_NTT_DWORD_BITS 62u /* double-word moduli: q < 2^62 */

typedef struct cpim_ntt cpim_ntt;

/* Creates a ring on ctx (which must outlive it): checks the parameters
 * above and precomputes the twiddle tables (about 32 N bytes per double-word
 * modulus, 48 N per word modulus).
 * On error *ring is NULL. */
cpim_err cpim_ntt_create(cpim_ctx *ctx, size_t n, const uint64_t *moduli, size_t nmoduli,
                         cpim_ntt **ring);
/* As cpim_ntt_create, with the caller's psi for each modulus: roots[j] must
 * be a primitive 2N-th root of unity mod moduli[j] (roots[j]^N = -1 mod q),
 * else CPIM_ERR_NTT_PARAM; NULL roots = the default psi above.  For
 * libraries that fix their own root (SEAL and HEXL take the smallest
 * primitive 2N-th root): the transform's definition is the one above with
 * that psi, so their NTT-domain data and ours agree. */
cpim_err cpim_ntt_create_roots(cpim_ctx *ctx, size_t n, const uint64_t *moduli,
                               const uint64_t *roots, size_t nmoduli, cpim_ntt **ring);
/* Frees the ring; NULL is fine. */
void cpim_ntt_destroy(cpim_ntt *ring);

/* Forward negacyclic NTT of count polynomials (natural order in,
 * bit-reversed order out). */
cpim_err cpim_ntt_forward(cpim_ntt *ring, const uint64_t *in, uint64_t *out, size_t count);
/* Inverse NTT (bit-reversed order in, natural order out, times N^-1). */
cpim_err cpim_ntt_inverse(cpim_ntt *ring, const uint64_t *in, uint64_t *out, size_t count);
/* out = a * b coefficient-wise mod q_j: the product of two NTT-domain
 * batches (out may be a or b). */
cpim_err cpim_ntt_pointwise(cpim_ntt *ring, const uint64_t *a, const uint64_t *b, uint64_t *out,
                            size_t count);
/* out = a * b in Z_{q_j}[X]/(X^N + 1) for every polynomial and limb,
 * coefficient domain in and out (forward, pointwise, inverse in one backend
 * call: on pim the data stays on the DPUs). */
cpim_err cpim_ntt_polymul(cpim_ntt *ring, const uint64_t *a, const uint64_t *b, uint64_t *out,
                          size_t count);
/* The ciphertext x ciphertext tensor product of BFV/CKKS multiplication:
 * ciphertext i of c is the two consecutive polynomials (c0, c1) at
 * polynomial indices 2i and 2i+1, likewise (d0, d1) in d; out gets the three
 * polynomials c0*d0, c0*d1 + c1*d0, c1*d1 at indices 3i, 3i+1, 3i+2
 * (coefficient domain in and out; out must not overlap c or d).  count is
 * the number of ciphertexts. */
cpim_err cpim_ntt_tensor(cpim_ntt *ring, const uint64_t *c, const uint64_t *d, uint64_t *out,
                         size_t count);

/* The one-limb path, for HE libraries that transform one RNS limb at a time
 * with lazy ranges (Intel HEXL's NTT API, which SEAL calls): one polynomial
 * of limb `limb` (n coefficients at in, result at out; out may equal in,
 * else they must not overlap), run at once on the calling thread on the
 * ring's CPU kernels, with no copy, no check of the coefficients and no
 * statistics (cpim_last_stats is not touched).  Unlike every other call,
 * any number of threads may call these at the same time on one ring (they
 * read the ring only), concurrently with other calls on its context.
 *  - in_bound: the inputs are promised to be in [0, in_bound * q) (forward:
 *    in_bound 1, 2 or 4; inverse: 1 or 2).  The promise is trusted, as HEXL
 *    trusts it: an input outside gives unspecified output values (never a
 *    fault, never a write outside out).
 *  - out_bound: 1 gives outputs in [0, q), the values of cpim_ntt_forward /
 *    cpim_ntt_inverse; forward 4 or inverse 2 leave them lazy, in [0, 4q) or
 *    [0, 2q) and congruent to those values (one pass fewer).
 * CPIM_ERR_INVALID_ARG for a NULL ring or pointer, a limb >= L or a bound
 * not listed; CPIM_ERR_UNSUPPORTED when the context's NTT has no CPU
 * kernels (pim: use cpim_ntt_forward). */
cpim_err cpim_ntt_forward_limb(const cpim_ntt *ring, size_t limb, const uint64_t *in, uint64_t *out,
                               unsigned in_bound, unsigned out_bound);
cpim_err cpim_ntt_inverse_limb(const cpim_ntt *ring, size_t limb, const uint64_t *in, uint64_t *out,
                               unsigned in_bound, unsigned out_bound);

#ifdef __cplusplus
}
#endif
#endif /* CRYPTOPIM_NTT_H */
