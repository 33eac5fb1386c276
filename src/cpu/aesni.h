/*
 * aesni.h -- what the files of the `aesni` backend share: its state, the
 * kernel types, the target attributes and the per-tier kernels.
 *
 *   aesni.c        the backend: tier choice, keys, ECB and CTR glue, the row
 *   aesni_ni.c     the key schedule and the AES-NI tier (8 xmm in flight)
 *   aesni_v256.c   the VAES tier on ymm (AVX2)
 *   aesni_v512.c   the VAES tier on zmm (AVX-512), with its own XTS kernel
 *   aesni_ghash.c  GHASH with PCLMULQDQ / VPCLMULQDQ
 *   aesni_xts.c    AES-XTS around the tier kernels
 *   aesni_clmul.h  GF(2^128) products for GHASH (PCLMULQDQ, VPCLMULQDQ)
 *   aesni_gcm512.c GCM's CTR and GHASH in one pass on zmm (VAES + VPCLMULQDQ)
 *   aesni_gcm256.c the same on ymm (VAES + VPCLMULQDQ without AVX-512)
 *   aesni_gcm.c    AES-GCM: gcm_run.h with this backend's kernels
 */
#ifndef CPIM_AESNI_H
#define CPIM_AESNI_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "gcm.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPIM_HAVE_X86 1
#endif

#define AESNI_MAX_ROUNDS 14
/* Blocks per parallel_for grain: 64 KiB, big enough that thread start-up is
 * amortised, small enough to balance. */
#define AESNI_GRAIN_BLOCKS 4096u

typedef void (*ecb_kernel)(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,
                           size_t nb);
typedef void (*ctr_kernel)(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,
                           const uint8_t *in, uint8_t *out, size_t nb);
/* XTS over nu data units of nb whole blocks each, stride bytes apart, unit
 * u from tweak t[2u..2u+1]; with cts, each t is advanced past its unit's
 * blocks (ciphertext stealing goes on from there).  rk2 NULL: the t are the
 * encrypted tweaks; else the t are the plain ones, which the kernel
 * encrypts with rk2 (the tweak key's schedule, nr rounds) first. */
typedef void (*xts_kernel)(const uint8_t *rk, const uint8_t *rk2, unsigned nr, int dec, int cts,
                           uint64_t *t, size_t nu, size_t stride, const uint8_t *in, uint8_t *out,
                           size_t nb);

/* XTS: t *= alpha; t[0] the low 64 bits, t[1] the high (the tweak's bytes
 * are a little-endian 128-bit number). */
static inline void xts_alpha(uint64_t t[2])
{
    uint64_t c = t[1] >> 63;
    t[1] = t[1] << 1 | t[0] >> 63;
    t[0] = t[0] << 1 ^ (0x87u & (0 - c));
}
/* GHASH over nb whole blocks with the powers of H in hp (see gcm_key). */
typedef void (*ghash_kernel)(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb);

/* GCM over nb whole blocks in one pass: CTR from counter block c (GCM's
 * inc32: the low 32 bits wrap alone; c is advanced) and y = GHASH of the
 * ciphertext (in when dec, else out) continued from y, with the powers of
 * H in hp.  in == out is fine. */
typedef void (*gcm_kernel)(const uint8_t *rk, unsigned nr, const uint8_t *hp, int dec,
                           uint8_t c[16], uint8_t y[16], const uint8_t *in, uint8_t *out,
                           size_t nb);

#define GHASH_POWERS 16

struct aesni_state {
    uint8_t ek[16 * (AESNI_MAX_ROUNDS + 1)]; /* encryption round keys, FIPS byte order */
    uint8_t dk[16 * (AESNI_MAX_ROUNDS + 1)]; /* for aesdec: reversed, InvMixColumns'd */
    unsigned nr;
    unsigned threads;
    ecb_kernel enc, dec;
    ctr_kernel ctr;
    xts_kernel xts; /* NULL: XTS in batches around enc / dec (see aesni_xts) */
    /* the XTS key slot: key1 for encryption and aesdec, key2 (tweak) */
    uint8_t xek1[16 * (AESNI_MAX_ROUNDS + 1)], xdk1[16 * (AESNI_MAX_ROUNDS + 1)];
    uint8_t xek2[16 * (AESNI_MAX_ROUNDS + 1)];
    unsigned xnr;
    /* GCM: H^16..H^1 times x^-1, byte-reversed (aesni_clmul.h), when ghash is set,
     * else the portable 4-bit table (a CPU with AES-NI but no PCLMULQDQ) */
    ghash_kernel ghash;
    gcm_kernel gcm; /* NULL: CTR and GHASH one after the other (gcm_run.h) */
    uint8_t hpow[16 * GHASH_POWERS];
    cpim_crypto_ghash_key gh;
};

#ifdef CPIM_HAVE_X86

#define TGT_NI   __attribute__((target("aes,sse4.1")))
#define TGT_V256 __attribute__((target("aes,sse4.1,avx2,vaes")))
#define TGT_V512 __attribute__((target("aes,sse4.1,avx2,vaes,avx512f,avx512bw,avx512vl")))
#define INLINE   static inline __attribute__((always_inline))

/* The round count is made a compile-time constant so the round loops unroll
 * fully and the round keys stay in registers. */
#define BY_ROUNDS(call_10, call_12, call_14)                                                       \
    do {                                                                                           \
        if (nr == 10)                                                                              \
            call_10;                                                                               \
        else if (nr == 12)                                                                         \
            call_12;                                                                               \
        else                                                                                       \
            call_14;                                                                               \
    } while (0)

/* One tier's three kernels (ecb_kernel, ecb_kernel, ctr_kernel) over the
 * tier's inline `tier##_ecb` and `tier##_ctr`, one instance per key size. */
#define DEFINE_TIER(tgt, tier)                                                                     \
    tgt void cpim_aesni_##tier##_enc(const uint8_t *rk, unsigned nr, const uint8_t *in,            \
                                     uint8_t *out, size_t nb)                                      \
    {                                                                                              \
        BY_ROUNDS(tier##_ecb(rk, 10, 0, in, out, nb), tier##_ecb(rk, 12, 0, in, out, nb),          \
                  tier##_ecb(rk, 14, 0, in, out, nb));                                             \
    }                                                                                              \
    tgt void cpim_aesni_##tier##_dec(const uint8_t *rk, unsigned nr, const uint8_t *in,            \
                                     uint8_t *out, size_t nb)                                      \
    {                                                                                              \
        BY_ROUNDS(tier##_ecb(rk, 10, 1, in, out, nb), tier##_ecb(rk, 12, 1, in, out, nb),          \
                  tier##_ecb(rk, 14, 1, in, out, nb));                                             \
    }                                                                                              \
    tgt void cpim_aesni_##tier##_ctrk(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,    \
                                      const uint8_t *in, uint8_t *out, size_t nb)                  \
    {                                                                                              \
        BY_ROUNDS(tier##_ctr(rk, 10, hi, lo, in, out, nb),                                         \
                  tier##_ctr(rk, 12, hi, lo, in, out, nb),                                         \
                  tier##_ctr(rk, 14, hi, lo, in, out, nb));                                        \
    }

/* aesni_ni.c: the round keys of s (ek, dk, nr) from a 16/24/32-byte key. */
void cpim_aesni_expand_key(struct aesni_state *s, const uint8_t *key, size_t key_len);

/* The tiers' kernels (aesni_ni.c, aesni_v256.c, aesni_v512.c). */
void cpim_aesni_ni_enc(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out, size_t nb);
void cpim_aesni_ni_dec(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out, size_t nb);
void cpim_aesni_ni_ctrk(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo, const uint8_t *in,
                        uint8_t *out, size_t nb);
void cpim_aesni_v256_enc(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,
                         size_t nb);
void cpim_aesni_v256_dec(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,
                         size_t nb);
void cpim_aesni_v256_ctrk(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,
                          const uint8_t *in, uint8_t *out, size_t nb);
void cpim_aesni_v512_enc(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,
                         size_t nb);
void cpim_aesni_v512_dec(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,
                         size_t nb);
void cpim_aesni_v512_ctrk(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,
                          const uint8_t *in, uint8_t *out, size_t nb);
/* an xts_kernel */
void cpim_aesni_v512_xts(const uint8_t *rk, const uint8_t *rk2, unsigned nr, int dec, int cts,
                         uint64_t *t, size_t nu, size_t stride, const uint8_t *in, uint8_t *out,
                         size_t nb);

/* aesni_ghash.c: H^1..H^GHASH_POWERS into hp (see struct aesni_state), and
 * the two ghash_kernels. */
void cpim_aesni_cl_powers(const uint8_t h[16], uint8_t *hp);
void cpim_aesni_cl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb);
void cpim_aesni_vcl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb);

/* aesni_gcm512.c, aesni_gcm256.c: the gcm_kernels on zmm and on ymm. */
void cpim_aesni_v512_gcm(const uint8_t *rk, unsigned nr, const uint8_t *hp, int dec, uint8_t c[16],
                         uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nb);
void cpim_aesni_v256_gcm(const uint8_t *rk, unsigned nr, const uint8_t *hp, int dec, uint8_t c[16],
                         uint8_t y[16], const uint8_t *in, uint8_t *out, size_t nb);

#endif /* CPIM_HAVE_X86 */

/* The backend's AES operations beyond aesni.c's (contracts in backend.h). */
cpim_err cpim_aesni_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st);
cpim_err cpim_aesni_xts_set_key(void *p, const uint8_t *key, size_t key_len);
cpim_err cpim_aesni_xts(void *p, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                        const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);
cpim_err cpim_aesni_gcm(void *p, cpim_dir dir, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t tag[16], cpim_stats *st);
cpim_err cpim_aesni_gcm_range(void *p, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                              const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);

#endif /* CPIM_AESNI_H */
