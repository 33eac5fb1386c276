/*
 * shani.c -- the `shani` backend: SHA-256 batches with the x86 SHA extensions
 * (sha256rnds2 / sha256msg1 / sha256msg2), see backend.h for the contract.
 *
 * One SHA-256 message is a chain of dependent compressions, and within a
 * block sha256rnds2 depends on the previous sha256rnds2, so a single stream
 * leaves the SHA unit idle for most of each instruction's latency.  The batch
 * API gives many independent messages, so the kernel runs SHANI_LANES
 * messages at once, interleaving their instruction streams round by round
 * (like intel-ipsec-mb's sha256_ni_x2).  A small scheduler keeps the lanes
 * fed: each lane walks its message's whole blocks straight from the caller's
 * buffer, then one or two padding blocks from a per-lane buffer, then takes
 * the next message; every kernel call runs all lanes for the smallest number
 * of blocks any lane has left in its current run.  When fewer messages than
 * lanes remain, the narrower kernels (x3, x2, x1) finish them.
 *
 * A 16-lane AVX-512 (or 8-lane AVX2) multi-buffer SHA-256 was measured
 * before choosing, through intel-ipsec-mb's own implementations on the
 * target machine (AMD Zen 4, 1 thread, 1024 x 32 KiB): AVX-512 16 lanes
 * 3.44 GB/s, AVX2 8 lanes 1.83 GB/s, its SHA-NI x2 3.44 GB/s.  4 interleaved
 * SHA-NI streams here do 3.4-3.6 GB/s, so the simpler SHA-NI code is kept
 * (docs/CRYPTO.md has the numbers).
 *
 * Bulk work is split over threads by messages, in contiguous runs of about
 * equal bytes.  AES in this backend is the portable code (portable.h),
 * multi-threaded like the `cpu` backend, so that every operation works here;
 * for AES speed use `aesni`.
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "parallel.h"
#include "portable.h"
#include "sha256.h"
#include "x86_cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPIM_HAVE_X86 1
#endif

/* Messages hashed at once per thread (interleaved SHA-NI streams). */
#define SHANI_LANES 4
/* Below this many bytes (plus 64 per message) a batch stays on one thread. */
#define MIN_SHA_PARALLEL (128u * 1024u)

struct shani_state {
    unsigned threads; /* 0 = all cores */
    cpim_portable_aes aes;
};

#ifdef CPIM_HAVE_X86

#define TGT_SHA __attribute__((target("sha,sse4.1")))
#define INLINE  static inline __attribute__((always_inline))

/* Compresses nb blocks for each of n (1..4) lanes: lane l hashes
 * p[l][0 .. 64 * nb) into h[l].  n is a compile-time constant at every call
 * site, so the lane loops unroll and the streams interleave. */
TGT_SHA INLINE void shani_kernel(const int n, uint32_t *const h[], const uint8_t *const p[],
                                 size_t nb)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i s0[SHANI_LANES], s1[SHANI_LANES];
    const uint8_t *q[SHANI_LANES];
    /* The state as the instructions want it: s0 = ABEF, s1 = CDGH. */
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h[l]), 0xB1);
        __m128i u = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h[l] + 4)), 0x1B);
        s0[l] = _mm_alignr_epi8(t, u, 8);
        s1[l] = _mm_blend_epi16(u, t, 0xF0);
        q[l] = p[l];
    }
    for (; nb; nb--) {
        __m128i save0[SHANI_LANES], save1[SHANI_LANES], w[SHANI_LANES][4];
#pragma GCC unroll 4
        for (int l = 0; l < n; l++)
            save0[l] = s0[l], save1[l] = s1[l];
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            const __m128i k = _mm_loadu_si128((const __m128i *)(cpim_crypto_sha256_k + 4 * g));
#pragma GCC unroll 4
            for (int l = 0; l < n; l++) {
                __m128i *x = w[l];
                if (g < 4) {
                    x[g] =
                        _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(q[l] + 16 * g)), bswap);
                } else {
                    /* W[4g..4g+3] from W[4g-16 ..]: msg1 adds sigma0, the
                     * alignr supplies W[i-7], msg2 adds sigma1. */
                    __m128i t = _mm_sha256msg1_epu32(x[g & 3], x[(g + 1) & 3]);
                    t = _mm_add_epi32(t, _mm_alignr_epi8(x[(g + 3) & 3], x[(g + 2) & 3], 4));
                    x[g & 3] = _mm_sha256msg2_epu32(t, x[(g + 3) & 3]);
                }
                __m128i m = _mm_add_epi32(x[g & 3], k);
                s1[l] = _mm_sha256rnds2_epu32(s1[l], s0[l], m);
                s0[l] = _mm_sha256rnds2_epu32(s0[l], s1[l], _mm_shuffle_epi32(m, 0x0E));
            }
        }
#pragma GCC unroll 4
        for (int l = 0; l < n; l++) {
            s0[l] = _mm_add_epi32(s0[l], save0[l]);
            s1[l] = _mm_add_epi32(s1[l], save1[l]);
            q[l] += 64;
        }
    }
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) {
        __m128i t = _mm_shuffle_epi32(s0[l], 0x1B);                        /* FEBA */
        __m128i u = _mm_shuffle_epi32(s1[l], 0xB1);                        /* DCHG */
        _mm_storeu_si128((__m128i *)h[l], _mm_blend_epi16(t, u, 0xF0));    /* DCBA */
        _mm_storeu_si128((__m128i *)(h[l] + 4), _mm_alignr_epi8(u, t, 8)); /* HGFE */
    }
}

TGT_SHA static void shani_x1(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    shani_kernel(1, h, p, nb);
}
TGT_SHA static void shani_x2(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    shani_kernel(2, h, p, nb);
}
TGT_SHA static void shani_x3(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    shani_kernel(3, h, p, nb);
}
TGT_SHA static void shani_x4(uint32_t *const h[], const uint8_t *const p[], size_t nb)
{
    shani_kernel(4, h, p, nb);
}

typedef void (*shani_fn)(uint32_t *const h[], const uint8_t *const p[], size_t nb);
static const shani_fn shani_by_lanes[SHANI_LANES + 1] = {NULL, shani_x1, shani_x2, shani_x3,
                                                         shani_x4};

/* ---- multi-message scheduler ------------------------------------------------------------ */

struct lane {
    size_t msg;       /* index of the message in the batch */
    const uint8_t *p; /* next block of the current run */
    size_t nb;        /* blocks left in the current run */
    int in_pad;       /* 1 once the run is the padding blocks */
    uint32_t h[8];    /* chaining value */
    uint8_t pad[128]; /* the final 1 or 2 blocks */
};

struct sha_job {
    const uint8_t *const *msgs;
    const size_t *lens;
    uint8_t (*digests)[32];
};

static void lane_start(struct lane *ln, const struct sha_job *j, size_t i)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(ln->h, iv, sizeof iv);
    ln->msg = i;
    ln->p = j->msgs[i];
    ln->nb = j->lens[i] / 64;
    ln->in_pad = 0;
}

/* Switches a lane whose run is used up to its padding blocks; returns 0 when
 * the message is completely hashed. */
static int lane_next_run(struct lane *ln, const struct sha_job *j)
{
    if (ln->in_pad)
        return 0;
    size_t len = j->lens[ln->msg], rem = len % 64;
    uint64_t bits = (uint64_t)len * 8;
    size_t nb = rem + 9 <= 64 ? 1 : 2;
    memset(ln->pad, 0, sizeof ln->pad);
    if (rem)
        memcpy(ln->pad, j->msgs[ln->msg] + (len - rem), rem);
    ln->pad[rem] = 0x80;
    for (int b = 0; b < 8; b++)
        ln->pad[64 * nb - 1 - b] = (uint8_t)(bits >> (8 * b));
    ln->p = ln->pad;
    ln->nb = nb;
    ln->in_pad = 1;
    return 1;
}

static void lane_digest(const struct lane *ln, uint8_t out[32])
{
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(ln->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(ln->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(ln->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)ln->h[i];
    }
}

/* Hashes messages [b, e) of the job, up to SHANI_LANES at a time. */
static void shani_messages(const struct sha_job *j, size_t b, size_t e)
{
    struct lane lanes[SHANI_LANES];
    struct lane *act[SHANI_LANES]; /* the busy lanes, packed */
    int nact = 0;
    size_t next = b;
    for (int l = 0; l < SHANI_LANES && next < e; l++) {
        act[nact] = &lanes[l];
        lane_start(act[nact++], j, next++);
    }
    while (nact) {
        /* Every busy lane has a non-empty run: move on those that do not. */
        for (int l = 0; l < nact;) {
            struct lane *ln = act[l];
            if (ln->nb || lane_next_run(ln, j)) {
                l++;
                continue;
            }
            lane_digest(ln, j->digests[ln->msg]);
            if (next < e) {
                lane_start(ln, j, next++);
            } else {
                act[l] = act[--nact];
            }
        }
        if (!nact)
            break;
        size_t nb = act[0]->nb;
        uint32_t *h[SHANI_LANES];
        const uint8_t *p[SHANI_LANES];
        for (int l = 0; l < nact; l++) {
            if (act[l]->nb < nb)
                nb = act[l]->nb;
            h[l] = act[l]->h;
            p[l] = act[l]->p;
        }
        shani_by_lanes[nact](h, p, nb);
        for (int l = 0; l < nact; l++) {
            act[l]->p += 64 * nb;
            act[l]->nb -= nb;
        }
    }
    cpim_wipe(lanes, sizeof lanes);
}

static void sha_runs(void *arg, size_t first, size_t end)
{
    shani_messages(arg, first, end);
}

/* The streaming API's blocks (backend.h, sha256_blocks): the same lanes,
 * each taking one stream's run of whole blocks, straight into its h. */
struct blocks_job {
    uint32_t *const *h;
    const uint8_t *const *p;
    const size_t *nb;
};

static void blocks_runs(void *arg, size_t b, size_t e)
{
    const struct blocks_job *j = arg;
    uint32_t *h[SHANI_LANES];
    const uint8_t *p[SHANI_LANES];
    size_t left[SHANI_LANES];
    int nact = 0;
    size_t next = b;
    for (;;) {
        while (nact < SHANI_LANES && next < e) { /* fill idle lanes */
            if (j->nb[next]) {
                h[nact] = j->h[next];
                p[nact] = j->p[next];
                left[nact++] = j->nb[next];
            }
            next++;
        }
        if (!nact)
            break;
        size_t nb = left[0];
        for (int l = 1; l < nact; l++)
            if (left[l] < nb)
                nb = left[l];
        shani_by_lanes[nact](h, p, nb);
        for (int l = 0; l < nact;) {
            p[l] += 64 * nb;
            left[l] -= nb;
            if (left[l]) {
                l++;
                continue;
            }
            nact--; /* done: the last lane takes its place */
            h[l] = h[nact], p[l] = p[nact], left[l] = left[nact];
        }
    }
}
#endif /* CPIM_HAVE_X86 */

/* ---- backend glue ------------------------------------------------------------------------ */

static int shani_available(const char **why)
{
    unsigned f = cpim_x86_features();
    if (!(f & CPIM_X86_SHANI)) {
        *why = "CPU lacks the SHA extensions (SHA-NI)";
        return 0;
    }
    if (!(f & CPIM_X86_SSE41)) {
        *why = "CPU lacks SSE4.1";
        return 0;
    }
    return 1;
}

static cpim_err shani_open(void **state, const cpim_options *opt)
{
    struct shani_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt ? opt->threads : 0;
    *state = s;
    return CPIM_OK;
}

static void shani_close(void *p)
{
    if (!p)
        return;
    cpim_wipe(p, sizeof(struct shani_state));
    free(p);
}

static cpim_err shani_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                          uint8_t (*digests)[32], cpim_stats *st)
{
#ifdef CPIM_HAVE_X86
    struct shani_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    struct sha_job j = {msgs, lens, digests};
    /* A thread that cannot start has its share done by the caller. */
    (void)cpim_parallel_msgs(s->threads, lens, count, MIN_SHA_PARALLEL, sha_runs, &j);
    return CPIM_OK;
#else
    (void)state, (void)msgs, (void)lens, (void)count, (void)digests, (void)st;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

static cpim_err shani_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                                 const size_t *nblocks, size_t count, cpim_stats *st)
{
#ifdef CPIM_HAVE_X86
    struct shani_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    struct blocks_job j = {h, p, nblocks};
    (void)cpim_parallel_msgs(s->threads, nblocks, count, MIN_SHA_PARALLEL / 64, blocks_runs, &j);
    return CPIM_OK;
#else
    (void)state, (void)h, (void)p, (void)nblocks, (void)count, (void)st;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

/* ---- AES: the portable code (portable.h) ------------------------------------------------- */

static cpim_err shani_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct shani_state *s = state;
    return cpim_portable_set_key(&s->aes, key, key_len);
}

static cpim_err shani_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                          cpim_stats *st)
{
    struct shani_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_ecb(&s->aes, s->threads, dir, in, out, len);
    return CPIM_OK;
}

static cpim_err shani_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                          size_t len, cpim_stats *st)
{
    struct shani_state *s = state;
    (void)st;
    cpim_portable_ctr(&s->aes, s->threads, counter, in, out, len);
    return CPIM_OK;
}

const cpim_backend_vt cpim_backend_shani = {
    .version = CPIM_BACKEND_VT_VERSION,
    .name = "shani",
    .description = "SHA-NI (x86), 4 messages interleaved; the portable code for AES",
    .available = shani_available,
    .open = shani_open,
    .close = shani_close,
    .set_key = shani_set_key,
    .aes_ecb = shani_ecb,
    .aes_ctr = shani_ctr,
    .sha256_batch = shani_sha,
    .sha256_blocks = shani_sha_blocks,
};
