/*
 * aesni.c -- the `aesni` backend: AES-128/192/256 ECB and CTR with AES-NI,
 * and with VAES on 256-bit (ymm) or 512-bit (zmm) vectors where the CPU has
 * them (see backend.h for the contract, cryptopim.h for the modes).
 *
 * Three kernel tiers, chosen once per context at open() from CPUID/XGETBV
 * (x86_cpu.h), each compiled with its own target attribute so that the
 * library needs no global -maes and still runs on any x86-64:
 *
 *   tier      instructions           blocks in flight per loop iteration
 *   --------  ---------------------  -----------------------------------
 *   vaes512   VAES + AVX-512F/BW/VL  16 (4 zmm x 4 blocks)
 *   vaes256   VAES + AVX2            16 (8 ymm x 2 blocks)
 *   aesni     AES-NI + SSE4.1         8 (8 xmm)
 *
 * Many independent blocks are in flight because an AES round instruction has
 * a latency of several cycles but a throughput of one or two per cycle: with
 * one block at a time the unit would idle most of the time.
 *
 * CTR: the 128-bit big-endian counter is kept as two host integers (hi, lo).
 * Kernels build counter blocks with vector adds on the low 64 bits in a
 * byte-reversed (little-endian) layout and byte-swap them with one shuffle;
 * the glue never hands a kernel a run that crosses a 2^64 boundary of the low
 * word, so the kernels never propagate a carry (the glue does, on the rare
 * wrap).  The input is folded into the last round key (aesenclast ends
 * with an XOR with its key), which saves one XOR per vector.  A final
 * partial block goes through a 16-byte bounce buffer.
 *
 * XTS: VAES-512 has its own kernel (4 tweaks per zmm); the other tiers run
 * its tweak passes around the same ECB kernels (see aesni_xts).
 *
 * The NTT of cryptopim_ntt.h runs on the x86 vector kernels of ntt_x86.c
 * (AVX-512 or AVX2 for word moduli).
 *
 * SHA-256 in this backend is the portable code (src/crypto/sha256.h), split
 * over threads by messages; for SHA-256 speed use `shani`.
 *
 * AES-NI is constant-time (no key- or data-dependent table lookups).
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gcm.h"
#include "gcm_run.h"
#include "ntt_run.h"
#include "parallel.h"
#include "portable.h"
#include "x86_cpu.h"

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
 * blocks (ciphertext stealing goes on from there). */
typedef void (*xts_kernel)(const uint8_t *rk, unsigned nr, int dec, int cts, uint64_t *t, size_t nu,
                           size_t stride, const uint8_t *in, uint8_t *out, size_t nb);

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
    /* GCM: H^1..H^16 byte-reversed (PCLMULQDQ's order) when ghash is set,
     * else the portable 4-bit table (a CPU with AES-NI but no PCLMULQDQ) */
    ghash_kernel ghash;
    uint8_t hpow[16 * GHASH_POWERS];
    cpim_crypto_ghash_key gh;
};

#ifdef CPIM_HAVE_X86

#define TGT_NI   __attribute__((target("aes,sse4.1")))
#define TGT_V256 __attribute__((target("aes,sse4.1,avx2,vaes")))
#define TGT_V512 __attribute__((target("aes,sse4.1,avx2,vaes,avx512f,avx512bw,avx512vl")))
#define INLINE   static inline __attribute__((always_inline))

/* ---- key schedule ---------------------------------------------------------------------- */

/* SubWord through aeskeygenassist: with w in every dword, dword 0 of the
 * result is SubWord(w).  Words are little-endian loads of the key bytes, so
 * RotWord is a right rotation by 8 and Rcon goes in the low byte. */
TGT_NI static uint32_t sub_word(uint32_t w)
{
    __m128i v = _mm_set1_epi32((int)w);
    return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(v, 0));
}

TGT_NI static void expand_key(struct aesni_state *s, const uint8_t *key, size_t key_len)
{
    unsigned nk = (unsigned)(key_len / 4), nr = nk + 6, total = 4 * (nr + 1);
    uint32_t w[4 * (AESNI_MAX_ROUNDS + 1)];
    uint32_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word(t);
            t = ((t >> 8) | (t << 24)) ^ rcon;
            rcon = ((rcon << 1) ^ ((rcon >> 7) * 0x1b)) & 0xff;
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memcpy(s->ek, w, 16 * (nr + 1));
    /* Equivalent inverse cipher (FIPS-197 5.3.5) for aesdec. */
    memcpy(s->dk, s->ek + 16 * nr, 16);
    for (unsigned r = 1; r < nr; r++) {
        __m128i k = _mm_loadu_si128((const __m128i *)(s->ek + 16 * (nr - r)));
        _mm_storeu_si128((__m128i *)(s->dk + 16 * r), _mm_aesimc_si128(k));
    }
    memcpy(s->dk + 16 * nr, s->ek, 16);
    s->nr = nr;
    cpim_wipe(w, sizeof w);
}

/* ---- AES-NI, 8 xmm blocks in flight ---------------------------------------------------- */

#define NI_LANES 8

TGT_NI INLINE void ni_ecb(const uint8_t *rk, const unsigned nr, const int dec, const uint8_t *in,
                          uint8_t *out, size_t nb)
{
    __m128i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm_loadu_si128((const __m128i *)(rk + 16 * r));
    for (; nb >= NI_LANES; nb -= NI_LANES, in += 16 * NI_LANES, out += 16 * NI_LANES) {
        __m128i x[NI_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++)
            x[i] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < NI_LANES; i++)
                x[i] = dec ? _mm_aesdec_si128(x[i], k[r]) : _mm_aesenc_si128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = dec ? _mm_aesdeclast_si128(x[i], k[nr]) : _mm_aesenclast_si128(x[i], k[nr]);
            _mm_storeu_si128((__m128i *)(out + 16 * i), x[i]);
        }
    }
    for (; nb; nb--, in += 16, out += 16) {
        __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm_aesdec_si128(x, k[r]) : _mm_aesenc_si128(x, k[r]);
        x = dec ? _mm_aesdeclast_si128(x, k[nr]) : _mm_aesenclast_si128(x, k[nr]);
        _mm_storeu_si128((__m128i *)out, x);
    }
}

TGT_NI INLINE void ni_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                          const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i one = _mm_set_epi64x(0, 1);
    __m128i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm_loadu_si128((const __m128i *)(rk + 16 * r));
    /* Byte-reversed counter: qword 0 = lo, qword 1 = hi (never carried here). */
    __m128i c = _mm_set_epi64x((long long)hi, (long long)lo);
    for (; nb >= NI_LANES; nb -= NI_LANES, in += 16 * NI_LANES, out += 16 * NI_LANES) {
        __m128i x[NI_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), k[0]);
            c = _mm_add_epi64(c, one);
        }
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < NI_LANES; i++)
                x[i] = _mm_aesenc_si128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < NI_LANES; i++) {
            x[i] = _mm_aesenclast_si128(
                x[i], _mm_xor_si128(k[nr], _mm_loadu_si128((const __m128i *)(in + 16 * i))));
            _mm_storeu_si128((__m128i *)(out + 16 * i), x[i]);
        }
    }
    for (; nb; nb--, in += 16, out += 16) {
        __m128i x = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), k[0]);
        c = _mm_add_epi64(c, one);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm_aesenc_si128(x, k[r]);
        x = _mm_aesenclast_si128(x, k[nr]);
        _mm_storeu_si128((__m128i *)out, _mm_xor_si128(x, _mm_loadu_si128((const __m128i *)in)));
    }
}

/* ---- VAES on ymm (AVX2), 8 ymm = 16 blocks in flight ----------------------------------- */

#define V256_LANES 8

TGT_V256 INLINE void v256_ecb(const uint8_t *rk, const unsigned nr, const int dec,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    __m256i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (; nb >= 2 * V256_LANES;
         nb -= 2 * V256_LANES, in += 32 * V256_LANES, out += 32 * V256_LANES) {
        __m256i x[V256_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++)
            x[i] = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(in + 32 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V256_LANES; i++)
                x[i] = dec ? _mm256_aesdec_epi128(x[i], k[r]) : _mm256_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] =
                dec ? _mm256_aesdeclast_epi128(x[i], k[nr]) : _mm256_aesenclast_epi128(x[i], k[nr]);
            _mm256_storeu_si256((__m256i *)(out + 32 * i), x[i]);
        }
    }
    for (; nb >= 2; nb -= 2, in += 32, out += 32) {
        __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm256_aesdec_epi128(x, k[r]) : _mm256_aesenc_epi128(x, k[r]);
        x = dec ? _mm256_aesdeclast_epi128(x, k[nr]) : _mm256_aesenclast_epi128(x, k[nr]);
        _mm256_storeu_si256((__m256i *)out, x);
    }
    if (nb)
        ni_ecb(rk, nr, dec, in, out, nb);
}

TGT_V256 INLINE void v256_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m256i bswap = _mm256_broadcastsi128_si256(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    const __m256i two = _mm256_set_epi64x(0, 2, 0, 2);
    __m256i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    __m256i c = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);
    size_t done = 0;
    for (; nb - done >= 2 * V256_LANES; done += 2 * V256_LANES) {
        const uint8_t *ip = in + 16 * done;
        uint8_t *op = out + 16 * done;
        __m256i x[V256_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] = _mm256_xor_si256(_mm256_shuffle_epi8(c, bswap), k[0]);
            c = _mm256_add_epi64(c, two);
        }
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V256_LANES; i++)
                x[i] = _mm256_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V256_LANES; i++) {
            x[i] = _mm256_aesenclast_epi128(
                x[i], _mm256_xor_si256(k[nr], _mm256_loadu_si256((const __m256i *)(ip + 32 * i))));
            _mm256_storeu_si256((__m256i *)(op + 32 * i), x[i]);
        }
    }
    if (nb > done)
        ni_ctr(rk, nr, hi, lo + done, in + 16 * done, out + 16 * done, nb - done);
}

/* ---- VAES on zmm (AVX-512), 8 zmm = 32 blocks in flight -------------------------------- */

/* 4 zmm = 16 blocks per iteration: as fast as 8 zmm when the data is in
 * cache (the AES units are busy either way), and clearly faster when the
 * data streams from DRAM (measured on Zen 4: 8 zmm lost ~25% at 256 MiB). */
#define V512_LANES 4

/* Opmask for the first n (1..3) blocks of a zmm, in 64-bit elements. */
#define V512_MASK(n) ((__mmask8)((1u << (2 * (n))) - 1))

TGT_V512 INLINE void v512_ecb(const uint8_t *rk, const unsigned nr, const int dec,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    for (; nb >= 4 * V512_LANES;
         nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
        __m512i x[V512_LANES];
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++)
            x[i] = _mm512_xor_si512(_mm512_loadu_si512((const void *)(in + 64 * i)), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = dec ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++) {
            x[i] =
                dec ? _mm512_aesdeclast_epi128(x[i], k[nr]) : _mm512_aesenclast_epi128(x[i], k[nr]);
            _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
        }
    }
    while (nb) {
        size_t n = nb < 4 ? nb : 4;
        __mmask8 m = V512_MASK(n);
        __m512i x = _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, in), k[0]);
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = dec ? _mm512_aesdec_epi128(x, k[r]) : _mm512_aesenc_epi128(x, k[r]);
        x = dec ? _mm512_aesdeclast_epi128(x, k[nr]) : _mm512_aesenclast_epi128(x, k[nr]);
        _mm512_mask_storeu_epi64(out, m, x);
        nb -= n, in += 16 * n, out += 16 * n;
    }
}

/* Counter blocks for blocks lo .. lo+3 of a zmm (byte-reversed lo in qword 0
 * of each lane, hi in qword 1), byte-swapped to the big-endian blocks. */
TGT_V512 INLINE __m512i v512_counters(uint64_t hi, uint64_t lo, __m512i bswap)
{
    const long long h = (long long)hi;
    return _mm512_shuffle_epi8(_mm512_set_epi64(h, (long long)(lo + 3), h, (long long)(lo + 2), h,
                                                (long long)(lo + 1), h, (long long)lo),
                               bswap);
}

TGT_V512 INLINE void v512_ctr(const uint8_t *rk, const unsigned nr, uint64_t hi, uint64_t lo,
                              const uint8_t *in, uint8_t *out, size_t nb)
{
    const __m512i bswap =
        _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    /* Fast path: while the last counter byte does not overflow within an
     * iteration, the counters are the big-endian block of `lo` plus the lane
     * offset in its last byte (qword 1 of each lane, bits 56..63), so no
     * byte swap is needed; otherwise (about 1 iteration in 16) they are
     * rebuilt from the scalar counter. */
    __m512i off[V512_LANES];
    for (int i = 0; i < V512_LANES; i++) {
        long long o = 4 * i;
        off[i] = _mm512_set_epi64((o + 3) << 56, 0, (o + 2) << 56, 0, (o + 1) << 56, 0, o << 56, 0);
    }
    const __m512i step = _mm512_set_epi64(
        (long long)(4 * V512_LANES) << 56, 0, (long long)(4 * V512_LANES) << 56, 0,
        (long long)(4 * V512_LANES) << 56, 0, (long long)(4 * V512_LANES) << 56, 0);
    __m512i base = _mm512_broadcast_i32x4(_mm512_castsi512_si128(v512_counters(hi, lo, bswap)));
    for (; nb >= 4 * V512_LANES;
         nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
        __m512i x[V512_LANES];
        /* Strictly below: `base` must also stay exact after the step. */
        if ((lo & 0xff) < 256 - 4 * V512_LANES) {
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_xor_si512(_mm512_add_epi64(base, off[i]), k[0]);
            base = _mm512_add_epi64(base, step);
        } else {
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_xor_si512(v512_counters(hi, lo + 4 * (unsigned)i, bswap), k[0]);
            base = _mm512_broadcast_i32x4(
                _mm512_castsi512_si128(v512_counters(hi, lo + 4 * V512_LANES, bswap)));
        }
        lo += 4 * V512_LANES;
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
        for (int i = 0; i < V512_LANES; i++) {
            x[i] = _mm512_aesenclast_epi128(
                x[i], _mm512_xor_si512(k[nr], _mm512_loadu_si512((const void *)(in + 64 * i))));
            _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
        }
    }
    while (nb) {
        size_t n = nb < 4 ? nb : 4;
        __mmask8 m = V512_MASK(n);
        __m512i x = _mm512_xor_si512(v512_counters(hi, lo, bswap), k[0]);
        lo += 4;
#pragma GCC unroll 14
        for (unsigned r = 1; r < nr; r++)
            x = _mm512_aesenc_epi128(x, k[r]);
        x = _mm512_aesenclast_epi128(x, k[nr]);
        _mm512_mask_storeu_epi64(out, m, _mm512_xor_si512(x, _mm512_maskz_loadu_epi64(m, in)));
        nb -= n, in += 16 * n, out += 16 * n;
    }
}

/* ---- instantiation per tier and key size ----------------------------------------------- */

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

#define DEFINE_TIER(tgt, tier)                                                                     \
    tgt static void tier##_enc(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,    \
                               size_t nb)                                                          \
    {                                                                                              \
        BY_ROUNDS(tier##_ecb(rk, 10, 0, in, out, nb), tier##_ecb(rk, 12, 0, in, out, nb),          \
                  tier##_ecb(rk, 14, 0, in, out, nb));                                             \
    }                                                                                              \
    tgt static void tier##_dec(const uint8_t *rk, unsigned nr, const uint8_t *in, uint8_t *out,    \
                               size_t nb)                                                          \
    {                                                                                              \
        BY_ROUNDS(tier##_ecb(rk, 10, 1, in, out, nb), tier##_ecb(rk, 12, 1, in, out, nb),          \
                  tier##_ecb(rk, 14, 1, in, out, nb));                                             \
    }                                                                                              \
    tgt static void tier##_ctrk(const uint8_t *rk, unsigned nr, uint64_t hi, uint64_t lo,          \
                                const uint8_t *in, uint8_t *out, size_t nb)                        \
    {                                                                                              \
        BY_ROUNDS(tier##_ctr(rk, 10, hi, lo, in, out, nb),                                         \
                  tier##_ctr(rk, 12, hi, lo, in, out, nb),                                         \
                  tier##_ctr(rk, 14, hi, lo, in, out, nb));                                        \
    }

DEFINE_TIER(TGT_NI, ni)
DEFINE_TIER(TGT_V256, v256)
DEFINE_TIER(TGT_V512, v512)

/* ---- XTS on zmm: 4 tweaks per vector (issue 15) ------------------------------------------ */

/* Each 128-bit lane times alpha^k (1 <= k <= 56): the lane is a
 * little-endian 128-bit number (qword 0 low), shifted left by k; the k bits
 * that leave the top are c * x^128 = c * (x^7 + x^2 + x + 1), a carry-less
 * product of at most k + 7 bits, xored into the low qword.  Only shifts and
 * xors: no PCLMULQDQ needed, and no data-dependent branch (the tweak is
 * secret). */
TGT_V512 INLINE __m512i v512_alpha_k(__m512i x, const unsigned k)
{
    const __m512i c = _mm512_srli_epi64(x, 64 - k);
    const __m512i up = _mm512_bslli_epi128(c, 8); /* the low qword's top bits, into the high */
    const __m512i dn = _mm512_bsrli_epi128(c, 8); /* the high qword's: reduced into the low */
    __m512i red = _mm512_ternarylogic_epi64(dn, _mm512_slli_epi64(dn, 1), _mm512_slli_epi64(dn, 2),
                                            0x96); /* a ^ b ^ c */
    red = _mm512_ternarylogic_epi64(red, _mm512_slli_epi64(dn, 7), up, 0x96);
    return _mm512_xor_si512(_mm512_slli_epi64(x, k), red);
}

/* XTS over nb whole blocks of one data unit: out_j = E(in_j ^ T_j) ^ T_j,
 * T_j = t * alpha^j; with cts, t becomes T_nb (for ciphertext stealing).
 * The tweaks of 16 blocks are 4 zmm, tw * alpha^(0, 4, 8, 12), in
 * registers: no serial pass over a tweak array (the batch path below made
 * XTS ~10x slower than ECB).  The last round adds key ^ T_j (aesenclast's
 * AddRoundKey), so the output needs no separate xor.  In place is fine. */
TGT_V512 INLINE void v512_xts(const uint8_t *rk, const unsigned nr, const int dec, const int cts,
                              uint64_t *tu, size_t nu, size_t stride, const uint8_t *in0,
                              uint8_t *out0, const size_t nb0)
{
    __m512i k[AESNI_MAX_ROUNDS + 1];
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rk + 16 * r)));
    /* T_0 .. T_3: t in every lane, lane i times alpha^i (v512_alpha_k with
     * per-lane shift counts; a count of 64 shifts everything out) */
    const __m512i sh = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    for (size_t u = 0; u < nu; u++) { /* units back to back: keys loaded once */
        uint64_t *t = tu + 2 * u;
        const uint8_t *in = in0 + u * stride;
        uint8_t *out = out0 + u * stride;
        size_t nb = nb0;
        const __m512i t4 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
        const __m512i c0 = _mm512_srlv_epi64(t4, _mm512_sub_epi64(_mm512_set1_epi64(64), sh));
        const __m512i dn0 = _mm512_bsrli_epi128(c0, 8);
        __m512i tw = _mm512_ternarylogic_epi64(_mm512_sllv_epi64(t4, sh),
                                               _mm512_bslli_epi128(c0, 8), dn0, 0x96);
        tw = _mm512_ternarylogic_epi64(tw, _mm512_slli_epi64(dn0, 1), _mm512_slli_epi64(dn0, 2),
                                       0x96);
        tw = _mm512_xor_si512(tw, _mm512_slli_epi64(dn0, 7));
        for (; nb >= 4 * V512_LANES;
             nb -= 4 * V512_LANES, in += 64 * V512_LANES, out += 64 * V512_LANES) {
            __m512i x[V512_LANES], T[V512_LANES];
            /* each from tw directly: the chain carried from one iteration to
             * the next is one v512_alpha_k, not V512_LANES of them (a chain of
             * four made the loop latency-bound at ~40 % of ECB's speed) */
            T[0] = tw;
#pragma GCC unroll 8
            for (int i = 1; i < V512_LANES; i++)
                T[i] = v512_alpha_k(tw, 4 * (unsigned)i);
            tw = v512_alpha_k(tw, 4 * V512_LANES);
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++)
                x[i] = _mm512_ternarylogic_epi64(_mm512_loadu_si512((const void *)(in + 64 * i)),
                                                 T[i], k[0], 0x96);
#pragma GCC unroll 14
            for (unsigned r = 1; r < nr; r++)
#pragma GCC unroll 8
                for (int i = 0; i < V512_LANES; i++)
                    x[i] =
                        dec ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
#pragma GCC unroll 8
            for (int i = 0; i < V512_LANES; i++) {
                const __m512i kl = _mm512_xor_si512(k[nr], T[i]);
                x[i] =
                    dec ? _mm512_aesdeclast_epi128(x[i], kl) : _mm512_aesenclast_epi128(x[i], kl);
                _mm512_storeu_si512((void *)(out + 64 * i), x[i]);
            }
        }
        unsigned lane = 0; /* where T_nb is in tw */
        while (nb) {
            const size_t n = nb < 4 ? nb : 4;
            const __mmask8 m = V512_MASK(n);
            __m512i x = _mm512_ternarylogic_epi64(_mm512_maskz_loadu_epi64(m, in), tw, k[0], 0x96);
#pragma GCC unroll 14
            for (unsigned r = 1; r < nr; r++)
                x = dec ? _mm512_aesdec_epi128(x, k[r]) : _mm512_aesenc_epi128(x, k[r]);
            const __m512i kl = _mm512_xor_si512(k[nr], tw);
            x = dec ? _mm512_aesdeclast_epi128(x, kl) : _mm512_aesenclast_epi128(x, kl);
            _mm512_mask_storeu_epi64(out, m, x);
            nb -= n, in += 16 * n, out += 16 * n;
            if (n == 4)
                tw = v512_alpha_k(tw, 4);
            else
                lane = (unsigned)n;
        }
        if (cts) { /* T_nb, for the stealing step */
            uint64_t tv[8];
            _mm512_storeu_si512((void *)tv, tw);
            t[0] = tv[2 * lane], t[1] = tv[2 * lane + 1];
            cpim_wipe(tv, sizeof tv);
        }
    }
}

TGT_V512 static void v512_xtsk(const uint8_t *rk, unsigned nr, int dec, int cts, uint64_t *t,
                               size_t nu, size_t stride, const uint8_t *in, uint8_t *out, size_t nb)
{
#define V512_XTS(n, d) v512_xts(rk, n, d, cts, t, nu, stride, in, out, nb)
    if (dec)
        BY_ROUNDS(V512_XTS(10, 1), V512_XTS(12, 1), V512_XTS(14, 1));
    else
        BY_ROUNDS(V512_XTS(10, 0), V512_XTS(12, 0), V512_XTS(14, 0));
#undef V512_XTS
}

/* ---- GHASH with PCLMULQDQ (issue 15) ----------------------------------------------------- */

/* Blocks are byte-reversed on load, so that GCM's reflected bit order
 * becomes plain polynomial order shifted by one bit; the product of two
 * such values is the 256-bit carry-less product, shifted left by one and
 * reduced modulo x^128 + x^7 + x^2 + x + 1 (Gueron and Kounavis, "Intel
 * Carry-Less Multiplication Instruction and its Usage for Computing the GCM
 * Mode", algorithm 5).  Products of several blocks with several powers of H
 * are summed unreduced and reduced once (aggregated reduction, ibid.): the
 * reduction is linear, and it costs as much as the multiplication. */
#define TGT_CL  __attribute__((target("pclmul,sse4.1")))
#define TGT_VCL __attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")))

TGT_CL INLINE __m128i cl_bswap(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* lo/mid/hi += the three parts of the carry-less product a * b. */
TGT_CL INLINE void cl_mul_acc(__m128i a, __m128i b, __m128i *lo, __m128i *mid, __m128i *hi)
{
    *lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
    *hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
    *mid = _mm_xor_si128(
        *mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10)));
}

/* The field element of the unreduced product (lo, mid, hi). */
TGT_CL INLINE __m128i cl_reduce(__m128i lo, __m128i mid, __m128i hi)
{
    __m128i t3 = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    __m128i t6 = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    /* shift the 256-bit t6:t3 left by one bit */
    __m128i t7 = _mm_srli_epi32(t3, 31), t8 = _mm_srli_epi32(t6, 31);
    t3 = _mm_slli_epi32(t3, 1);
    t6 = _mm_slli_epi32(t6, 1);
    __m128i t9 = _mm_srli_si128(t7, 12);
    t8 = _mm_slli_si128(t8, 4);
    t7 = _mm_slli_si128(t7, 4);
    t3 = _mm_or_si128(t3, t7);
    t6 = _mm_or_si128(_mm_or_si128(t6, t8), t9);
    /* reduce: first phase */
    t7 = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(t3, 31), _mm_slli_epi32(t3, 30)),
                       _mm_slli_epi32(t3, 25));
    t8 = _mm_srli_si128(t7, 4);
    t7 = _mm_slli_si128(t7, 12);
    t3 = _mm_xor_si128(t3, t7);
    /* second phase */
    __m128i t2 = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi32(t3, 1), _mm_srli_epi32(t3, 2)),
                               _mm_srli_epi32(t3, 7));
    t2 = _mm_xor_si128(t2, t8);
    t3 = _mm_xor_si128(t3, t2);
    return _mm_xor_si128(t6, t3);
}

TGT_CL INLINE __m128i cl_mul(__m128i a, __m128i b)
{
    __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
    cl_mul_acc(a, b, &lo, &mid, &hi);
    return cl_reduce(lo, mid, hi);
}

/* hp = H^1 .. H^GHASH_POWERS, byte-reversed. */
TGT_CL static void cl_powers(const uint8_t h[16], uint8_t *hp)
{
    __m128i H = cl_bswap(_mm_loadu_si128((const __m128i *)h)), x = H;
    for (int i = 0; i < GHASH_POWERS; i++) {
        _mm_storeu_si128((__m128i *)(hp + 16 * i), x);
        x = cl_mul(x, H);
    }
}

/* 4 blocks per reduction: y' = (y ^ B0) H^4 ^ B1 H^3 ^ B2 H^2 ^ B3 H. */
TGT_CL static void cl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    const __m128i *H = (const __m128i *)hp;
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    const __m128i h1 = _mm_loadu_si128(H), h2 = _mm_loadu_si128(H + 1);
    const __m128i h3 = _mm_loadu_si128(H + 2), h4 = _mm_loadu_si128(H + 3);
    for (; nb >= 4; nb -= 4, p += 64) {
        const __m128i *q = (const __m128i *)p;
        __m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;
        cl_mul_acc(_mm_xor_si128(Y, cl_bswap(_mm_loadu_si128(q))), h4, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 1)), h3, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 2)), h2, &lo, &mid, &hi);
        cl_mul_acc(cl_bswap(_mm_loadu_si128(q + 3)), h1, &lo, &mid, &hi);
        Y = cl_reduce(lo, mid, hi);
    }
    for (; nb; nb--, p += 16)
        Y = cl_mul(_mm_xor_si128(Y, cl_bswap(_mm_loadu_si128((const __m128i *)p))), h1);
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
}

/* VPCLMULQDQ on zmm: 16 blocks per reduction, four per instruction; zmm g
 * holds H^(16-4g) .. H^(13-4g) in its lanes 0..3, matching blocks 4g..4g+3. */
TGT_VCL static void vcl_ghash(const uint8_t *hp, uint8_t y[16], const uint8_t *p, size_t nb)
{
    const __m512i rev =
        _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m512i hz[4];
    for (int g = 0; g < 4; g++) {
        const __m128i *H = (const __m128i *)hp;
        /* lane l of group g is block 4g + l: power 16 - 4g - l, index 15 - 4g - l */
        hz[g] = _mm512_inserti32x4(
            _mm512_inserti32x4(
                _mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128(H + 15 - 4 * g)),
                                   _mm_loadu_si128(H + 14 - 4 * g), 1),
                _mm_loadu_si128(H + 13 - 4 * g), 2),
            _mm_loadu_si128(H + 12 - 4 * g), 3);
    }
    __m128i Y = cl_bswap(_mm_loadu_si128((const __m128i *)y));
    for (; nb >= 16; nb -= 16, p += 256) {
        __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
        for (int g = 0; g < 4; g++) {
            __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512(p + 64 * g), rev);
            if (g == 0)
                x = _mm512_xor_si512(x, _mm512_zextsi128_si512(Y));
            lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, hz[g], 0x00));
            hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, hz[g], 0x11));
            mid = _mm512_xor_si512(mid, _mm512_xor_si512(_mm512_clmulepi64_epi128(x, hz[g], 0x01),
                                                         _mm512_clmulepi64_epi128(x, hz[g], 0x10)));
        }
#define FOLD4(z)                                                                                   \
    _mm_xor_si128(_mm_xor_si128(_mm512_castsi512_si128(z), _mm512_extracti32x4_epi32(z, 1)),       \
                  _mm_xor_si128(_mm512_extracti32x4_epi32(z, 2), _mm512_extracti32x4_epi32(z, 3)))
        Y = cl_reduce(FOLD4(lo), FOLD4(mid), FOLD4(hi));
#undef FOLD4
    }
    _mm_storeu_si128((__m128i *)y, cl_bswap(Y));
    if (nb)
        cl_ghash(hp, y, p, nb);
}

#endif /* CPIM_HAVE_X86 */

/* ---- backend glue ------------------------------------------------------------------------ */

static int aesni_available(const char **why)
{
    unsigned f = cpim_x86_features();
    if (!(f & CPIM_X86_AESNI)) {
        *why = "CPU lacks AES-NI";
        return 0;
    }
    if (!(f & CPIM_X86_SSE41)) {
        *why = "CPU lacks SSE4.1";
        return 0;
    }
    return 1;
}

static cpim_err aesni_open(void **state, const cpim_options *opt)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt->threads;
    unsigned f = cpim_x86_features();
    if (f & CPIM_X86_VAES512) {
        s->enc = v512_enc, s->dec = v512_dec, s->ctr = v512_ctrk, s->xts = v512_xtsk;
    } else if (f & CPIM_X86_VAES) {
        s->enc = v256_enc, s->dec = v256_dec, s->ctr = v256_ctrk;
    } else {
        s->enc = ni_enc, s->dec = ni_dec, s->ctr = ni_ctrk;
    }
    if (f & CPIM_X86_VPCLMUL)
        s->ghash = vcl_ghash;
    else if (f & CPIM_X86_PCLMUL)
        s->ghash = cl_ghash;
    *state = s;
    return CPIM_OK;
#else
    (void)state, (void)opt;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

static void aesni_close(void *p)
{
    struct aesni_state *s = p;
    if (!s)
        return;
    cpim_wipe(s, sizeof *s);
    free(s);
}

static cpim_err aesni_set_key(void *p, const uint8_t *key, size_t key_len)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = p;
    cpim_wipe(s->ek, sizeof s->ek);
    cpim_wipe(s->dk, sizeof s->dk);
    cpim_wipe(s->hpow, sizeof s->hpow);
    cpim_wipe(&s->gh, sizeof s->gh);
    expand_key(s, key, key_len);
    uint8_t h[16] = {0};
    s->enc(s->ek, s->nr, h, h, 1); /* the GCM hash key E_K(0^128) */
    if (s->ghash)
        cl_powers(h, s->hpow);
    else
        cpim_crypto_ghash_init(&s->gh, h);
    cpim_wipe(h, sizeof h);
    return CPIM_OK;
#else
    (void)p, (void)key, (void)key_len;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

struct aes_job {
    const struct aesni_state *s;
    const uint8_t *in;
    uint8_t *out;
    size_t nblocks; /* CTR: ceil(len / 16) */
    size_t tail;    /* CTR: len % 16 (0 = last block is whole) */
    cpim_dir dir;
    uint64_t hi, lo; /* CTR: start counter */
};

static void ecb_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    ecb_kernel k = j->dir == CPIM_DECRYPT ? j->s->dec : j->s->enc;
    const uint8_t *rk = j->dir == CPIM_DECRYPT ? j->s->dk : j->s->ek;
    k(rk, j->s->nr, j->in + 16 * b, j->out + 16 * b, e - b);
}

static void ctr_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    const struct aesni_state *s = j->s;
    uint64_t lo = j->lo + (uint64_t)b, hi = j->hi + (lo < j->lo);
    size_t full_end = e, i = b;
    if (e == j->nblocks && j->tail)
        full_end = e - 1;
    while (i < full_end) {
        /* Blocks until the low word wraps (2^64 - lo; lo == 0 means 2^64). */
        uint64_t room = lo ? 0 - lo : UINT64_MAX;
        size_t n = full_end - i;
        if ((uint64_t)n > room)
            n = (size_t)room;
        s->ctr(s->ek, s->nr, hi, lo, j->in + 16 * i, j->out + 16 * i, n);
        lo += n;
        hi += lo == 0;
        i += n;
    }
    if (full_end != e) {
        uint8_t buf[16] = {0};
        memcpy(buf, j->in + 16 * full_end, j->tail);
        s->ctr(s->ek, s->nr, hi, lo, buf, buf, 1);
        memcpy(j->out + 16 * full_end, buf, j->tail);
        cpim_wipe(buf, sizeof buf);
    }
}

static cpim_err aesni_ecb(void *p, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                          cpim_stats *st)
{
    struct aesni_state *s = p;
    struct aes_job j = {.s = s, .in = in, .out = out, .nblocks = len / 16, .dir = dir};
    (void)st; /* the core records bytes and the measured time */
    /* A thread that cannot start has its share done by the caller. */
    (void)cpim_parallel_for(s->threads, j.nblocks, AESNI_GRAIN_BLOCKS, ecb_range, &j);
    return CPIM_OK;
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static cpim_err aesni_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                          cpim_stats *st)
{
    struct aesni_state *s = p;
    struct aes_job j = {.s = s,
                        .in = in,
                        .out = out,
                        .nblocks = len / 16 + (len % 16 != 0),
                        .tail = len % 16,
                        .hi = load_be64(counter),
                        .lo = load_be64(counter + 8)};
    (void)st;
    (void)cpim_parallel_for(s->threads, j.nblocks, AESNI_GRAIN_BLOCKS, ctr_range, &j);
    uint64_t lo = j.lo + (uint64_t)j.nblocks;
    store_be64(counter, j.hi + (lo < j.lo));
    store_be64(counter + 8, lo);
    return CPIM_OK;
}

/* ---- AES-XTS ------------------------------------------------------------------------------ */

/* XTS on VAES-512 is its own kernel (v512_xts: tweaks made 4 per zmm).
 * Elsewhere it runs on the context's ECB kernel (VAES-256 or AES-NI):
 * per batch of up to XTS_BATCH blocks of a data unit, the tweaks are made
 * (multiplication by alpha on two 64-bit halves: the tweak's bytes are a
 * little-endian 128-bit number), xored into a copy of the input, the copy
 * goes through the ECB kernel, and the tweaks are xored into its output.
 * 64 blocks are 1 KiB of tweaks and 1 KiB of copy: both stay in L1. */
#define XTS_BATCH 64u

static cpim_err aesni_xts_set_key(void *p, const uint8_t *key, size_t key_len)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = p, *t = calloc(1, sizeof *t);
    if (!t)
        return CPIM_ERR_NOMEM;
    cpim_wipe(s->xek1, sizeof s->xek1);
    cpim_wipe(s->xdk1, sizeof s->xdk1);
    cpim_wipe(s->xek2, sizeof s->xek2);
    expand_key(t, key, key_len / 2);
    memcpy(s->xek1, t->ek, sizeof s->xek1);
    memcpy(s->xdk1, t->dk, sizeof s->xdk1);
    expand_key(t, key + key_len / 2, key_len / 2);
    memcpy(s->xek2, t->ek, sizeof s->xek2);
    s->xnr = t->nr;
    cpim_wipe(t, sizeof *t);
    free(t);
    return CPIM_OK;
#else
    (void)p, (void)key, (void)key_len;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

/* One block: out = K(in ^ t) ^ t. */
static void xts_one(ecb_kernel k, const uint8_t *rk, unsigned nr, const uint64_t t[2],
                    const uint8_t *in, uint8_t *out)
{
    uint64_t w[2];
    memcpy(w, in, 16);
    w[0] ^= t[0], w[1] ^= t[1];
    k(rk, nr, (const uint8_t *)w, (uint8_t *)w, 1);
    w[0] ^= t[0], w[1] ^= t[1];
    memcpy(out, w, 16);
    cpim_wipe(w, sizeof w);
}

/* tw, buf: 2 * XTS_BATCH words each, the caller's (wiped once per range,
 * not per unit: a 2 KiB wipe per 512-byte unit cost more than the AES). */
static void xts_unit(const struct aesni_state *s, int dec, const uint64_t t0[2], const uint8_t *in,
                     uint8_t *out, size_t len, uint64_t *tw, uint64_t *buf)
{
    ecb_kernel k = dec ? s->dec : s->enc;
    const uint8_t *rk = dec ? s->xdk1 : s->xek1;
    uint64_t t[2] = {t0[0], t0[1]};
    const size_t r = len % 16, m = len / 16 - (r != 0);
    if (s->xts)
        s->xts(rk, s->xnr, dec, r != 0, t, 1, 0, in, out, m);
    for (size_t j = 0; j < m && !s->xts;) {
        size_t n = m - j < XTS_BATCH ? m - j : XTS_BATCH;
        memcpy(buf, in + 16 * j, 16 * n);
        for (size_t i = 0; i < n; i++) {
            tw[2 * i] = t[0], tw[2 * i + 1] = t[1];
            buf[2 * i] ^= t[0], buf[2 * i + 1] ^= t[1];
            xts_alpha(t);
        }
        k(rk, s->xnr, (const uint8_t *)buf, (uint8_t *)buf, n);
        for (size_t i = 0; i < 2 * n; i++)
            buf[i] ^= tw[i];
        memcpy(out + 16 * j, buf, 16 * n);
        j += n;
    }
    if (r) { /* ciphertext stealing (IEEE 1619 5.3.2, 5.4.2): t = T_m-1 */
        uint64_t t2[2] = {t[0], t[1]};
        uint8_t a[16], b[16];
        xts_alpha(t2);
        in += 16 * m, out += 16 * m;
        xts_one(k, rk, s->xnr, dec ? t2 : t, in, a);
        memcpy(b, in + 16, r); /* the short block, read before out is written */
        memcpy(b + r, a + r, 16 - r);
        memcpy(out + 16, a, r);
        xts_one(k, rk, s->xnr, dec ? t : t2, b, out);
        cpim_wipe(a, sizeof a), cpim_wipe(b, sizeof b), cpim_wipe(t2, sizeof t2);
    }
    cpim_wipe(t, sizeof t);
}

struct xts_job {
    const struct aesni_state *s;
    int dec;
    uint64_t first;
    size_t unit, len;
    const uint8_t *in;
    uint8_t *out;
};

/* The units' first tweaks are encrypted XTS_UNITS at a time (one ECB call
 * of that many blocks, pipelined, instead of one single-block call per
 * unit: with VAES a 512-byte unit takes ~50 cycles, a lone block's ten
 * dependent rounds as many). */
#define XTS_UNITS 16u

static void xts_range(void *arg, size_t b, size_t e)
{
    const struct xts_job *j = arg;
    uint64_t tw[2 * XTS_BATCH], buf[2 * XTS_BATCH], t0[2 * XTS_UNITS];
    for (size_t i = b; i < e; i += XTS_UNITS) {
        const size_t nu = e - i < XTS_UNITS ? e - i : XTS_UNITS;
        for (size_t u = 0; u < nu; u++) /* plain64: little-endian unit number, 8 zero bytes */
            t0[2 * u] = j->first + i + u, t0[2 * u + 1] = 0;
        j->s->enc(j->s->xek2, j->s->xnr, (const uint8_t *)t0, (uint8_t *)t0, nu); /* x86: LE */
        size_t u = 0;
        if (j->s->xts && j->unit % 16 == 0) { /* the whole units in one kernel call */
            size_t full = (j->len - i * j->unit) / j->unit;
            full = full < nu ? full : nu;
            const uint8_t *rk = j->dec ? j->s->xdk1 : j->s->xek1;
            j->s->xts(rk, j->s->xnr, j->dec, 0, t0, full, j->unit, j->in + i * j->unit,
                      j->out + i * j->unit, j->unit / 16);
            u = full;
        }
        for (; u < nu; u++) {
            size_t off = (i + u) * j->unit, n = j->len - off < j->unit ? j->len - off : j->unit;
            xts_unit(j->s, j->dec, t0 + 2 * u, j->in + off, j->out + off, n, tw, buf);
        }
    }
    cpim_wipe(tw, sizeof tw), cpim_wipe(buf, sizeof buf), cpim_wipe(t0, sizeof t0);
}

static cpim_err aesni_xts(void *p, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                          const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    struct aesni_state *s = p;
    struct xts_job j = {s, dir == CPIM_DECRYPT, first_unit, unit_size, len, in, out};
    size_t units = (len + unit_size - 1) / unit_size, grain = AESNI_GRAIN_BLOCKS * 16 / unit_size;
    (void)st;
    (void)cpim_parallel_for(s->threads, units, grain ? grain : 1, xts_range, &j);
    return CPIM_OK;
}

/* ---- AES-GCM: gcm_run.h with this backend's CTR and GHASH ---------------------------------- */

static void gcm_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len)
{
    (void)aesni_ctr(p, counter, in, out, len, NULL);
}

static void gcm_ghash(void *p, uint8_t y[16], const uint8_t *data, size_t nblocks)
{
    struct aesni_state *s = p;
    if (s->ghash)
        s->ghash(s->hpow, y, data, nblocks);
    else
        cpim_crypto_ghash_blocks(&s->gh, y, data, nblocks);
}

static void gcm_encrypt1(void *p, const uint8_t in[16], uint8_t out[16])
{
    struct aesni_state *s = p;
    s->enc(s->ek, s->nr, in, out, 1);
}

static cpim_err aesni_gcm(void *p, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                          size_t len, uint8_t tag[16], cpim_stats *st)
{
    const cpim_gcm_ops ops = {
        p, gcm_ctr, gcm_ghash, gcm_encrypt1, ((struct aesni_state *)p)->threads, NULL};
    (void)st; /* the core records bytes and the measured time */
    cpim_gcm_run(&ops, dir, iv, iv_len, aad, aad_len, in, out, len, tag);
    return CPIM_OK;
}

/* ---- SHA-256: the portable code (portable.h) ---------------------------------------------- */

static cpim_err aesni_sha(void *p, const uint8_t *const *msgs, const size_t *lens, size_t count,
                          uint8_t (*digests)[32], cpim_stats *st)
{
    struct aesni_state *s = p;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_sha256_batch(s->threads, msgs, lens, count, digests);
    return CPIM_OK;
}

static cpim_err aesni_sha_blocks(void *p, uint32_t *const *h, const uint8_t *const *msgs,
                                 const size_t *nblocks, size_t count, cpim_stats *st)
{
    struct aesni_state *s = p;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_sha256_blocks(s->threads, h, msgs, nblocks, count);
    return CPIM_OK;
}

/* issue 16: the NTT with the x86 vector kernels (ntt_x86.c); this backend
 * is the library's x86 vector backend, so the NTT lives here too */
static cpim_err aesni_ntt(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                          const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct aesni_state *s = state;
    (void)st;
    return cpim_ntt_run(cpim_ntt_x86_kernels(NULL), s->threads, plan, op, a, b, out, count);
}

const cpim_backend_vt cpim_backend_aesni = {
    .version = CPIM_BACKEND_VT_VERSION,
    .name = "aesni",
    .description = "AES-NI / VAES (x86), the portable code for SHA-256",
    .available = aesni_available,
    .open = aesni_open,
    .close = aesni_close,
    .set_key = aesni_set_key,
    .aes_ecb = aesni_ecb,
    .aes_ctr = aesni_ctr,
    .sha256_batch = aesni_sha,
    .sha256_blocks = aesni_sha_blocks,
    .xts_set_key = aesni_xts_set_key,
    .aes_xts = aesni_xts,
    .aes_gcm = aesni_gcm,
    .ntt = aesni_ntt,
};
