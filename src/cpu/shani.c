/*
 * shani.c -- the `shani` backend: SHA-256 on x86 with whatever this CPU
 * has of SHA-NI, AVX-512 and AVX2 (the kernels: sha256_ni.c,
 * sha256_avx512.c, sha256_avx2.c, see sha256_x86.h), and the lane
 * scheduler that feeds them; see backend.h for the contract.
 *
 * Engines, picked at cpim_open from CPUID/XCR0 (cpim_x86_features):
 *  - one message or stream: the SHA-NI x1 kernel, called straight on the
 *    caller's buffer (no lane bookkeeping);
 *  - many: 16 AVX-512 lanes (else 8 AVX2 lanes if the CPU lacks SHA-NI),
 *    each lane one message, refilled with the next message as soon as its
 *    message ends, so lanes stay full while messages remain;
 *  - the tail: once too few messages are left to fill the SIMD lanes
 *    (fewer than `simd_min` busy lanes), the unfinished ones move, with their
 *    chaining values, to 4 interleaved SHA-NI streams (or, without SHA-NI,
 *    the last one to the portable code), which are faster than a SIMD kernel
 *    running mostly idle lanes;
 *  - without AVX2: 4 interleaved SHA-NI streams throughout.
 * Messages are taken longest first (a bucket sort on log2 of the block
 * count, O(n)), so the tail that the SIMD lanes cannot fill is short
 * messages, not the one 1 MiB message that arrived last.
 * The thresholds come from measurements on the development machine (Zen 4),
 * docs/CRYPTO.md "The `shani` engines".
 *
 * Bulk work is split over threads by messages, in contiguous runs of about
 * equal bytes; each thread runs its own scheduler.  AES and the NTT in
 * this backend are cpu's engines (backend.h, `from`), so that every
 * operation works here; for AES speed use `aesni`.
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "parallel.h"
#include "portable.h"
#include "sha256.h"
#include "sha256_x86.h"
#include "x86_cpu.h"

/* Below this many bytes (plus 64 per message) a batch stays on one thread. */
#define MIN_SHA_PARALLEL (128u * 1024u)
/* SHA-NI streams interleaved (4: 1.2x the throughput of 2 on Zen 4). */
#define NI_LANES  4
#define MAX_LANES 16

/* SIMD lanes that must be busy for the SIMD kernel to beat the alternative
 * once the queue is empty.  Measured on Zen 4 (docs/CRYPTO.md, kernels built
 * with clang-14): AVX-512 x16 ~4.5 GB/s, 4 SHA-NI streams ~2.9 GB/s ->
 * 16 * 2.9 / 4.5 ~ 10.3, so 11 lanes; without SHA-NI the alternative is the
 * portable code (~0.4 GB/s, one message at a time): 2 lanes of AVX-512
 * (2 * 4.5 / 16), 3 of AVX2 (3 * 1.35 / 8) beat it. */
#define AVX512_MIN_VS_NI   11
#define AVX512_MIN_VS_PORT 2
#define AVX2_MIN_VS_PORT   3

struct shani_state {
    unsigned threads; /* 0 = all cores */
    unsigned eng;     /* CPIM_SHA_ENG_* this context uses */
};

static unsigned engine_mask = ~0u;

unsigned cpim_sha256_x86_set_engines(unsigned mask)
{
    return __atomic_exchange_n(&engine_mask, mask, __ATOMIC_RELAXED);
}

unsigned cpim_sha256_x86_engines(void)
{
    unsigned f = cpim_x86_features(), e = 0;
    if ((f & CPIM_X86_SHANI) && (f & CPIM_X86_SSE41))
        e |= CPIM_SHA_ENG_NI;
    if (f & CPIM_X86_AVX2)
        e |= CPIM_SHA_ENG_AVX2;
    if (f & CPIM_X86_AVX512)
        e |= CPIM_SHA_ENG_AVX512;
    return e & __atomic_load_n(&engine_mask, __ATOMIC_RELAXED);
}

/* ---- the work: a batch's messages, or the streaming API's runs of blocks ---------------- */

struct job {
    int blocks; /* 0: messages (padding, digest out); 1: runs of blocks into h[] */
    const uint8_t *const *p;
    const size_t *len; /* bytes (messages) or blocks (runs) */
    uint8_t (*digests)[32];
    uint32_t *const *h;
    unsigned eng;
};

static size_t item_blocks(const struct job *j, size_t i)
{
    return j->blocks ? j->len[i] : j->len[i] / 64 + (j->len[i] % 64 + 9 <= 64 ? 1 : 2);
}

struct lane {
    size_t item;      /* index in the job */
    const uint8_t *p; /* next block of the current run */
    size_t nb;        /* blocks left in the current run */
    int in_pad;       /* 1 once the run is the last one (padding, or a blocks run) */
    uint32_t h[8];    /* chaining value while the lane is not in a SIMD state */
    uint8_t pad[128]; /* the final 1 or 2 blocks of a message */
};

static const uint32_t iv[8] = CPIM_SHA256_IV;

static void lane_start(struct lane *ln, const struct job *j, size_t i)
{
    ln->item = i;
    ln->p = j->p[i];
    if (j->blocks) {
        memcpy(ln->h, j->h[i], sizeof ln->h);
        ln->nb = j->len[i];
        ln->in_pad = 1;
    } else {
        memcpy(ln->h, iv, sizeof iv);
        ln->nb = j->len[i] / 64;
        ln->in_pad = 0;
    }
}

/* The padding blocks of a message (FIPS 180-4 5.1.1) into ln->pad; their count. */
static size_t make_pad(uint8_t pad[128], const uint8_t *msg, size_t len)
{
    size_t rem = len % 64, nb = rem + 9 <= 64 ? 1 : 2;
    uint64_t bits = (uint64_t)len * 8;
    memset(pad, 0, 128);
    if (rem)
        memcpy(pad, msg + (len - rem), rem);
    pad[rem] = 0x80;
    for (int b = 0; b < 8; b++)
        pad[64 * nb - 1 - b] = (uint8_t)(bits >> (8 * b));
    return nb;
}

/* Switches a lane whose run is used up to the next one; 0 when the item is
 * completely hashed. */
static int lane_next_run(struct lane *ln, const struct job *j)
{
    if (ln->in_pad)
        return 0;
    ln->nb = make_pad(ln->pad, j->p[ln->item], j->len[ln->item]);
    ln->p = ln->pad;
    ln->in_pad = 1;
    return 1;
}

static void lane_finish(const struct lane *ln, const struct job *j)
{
    if (j->blocks) {
        memcpy(j->h[ln->item], ln->h, sizeof ln->h);
        return;
    }
    uint8_t *out = j->digests[ln->item];
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(ln->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(ln->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(ln->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)ln->h[i];
    }
}

/* Longest first: items [b, e) by descending floor(log2(blocks)), stable
 * within a bucket (a counting sort: O(n), where qsort on 1e6 tiny messages
 * would cost more than hashing them).  NULL if out of memory (then the
 * natural order is used). */
static size_t *longest_first(const struct job *j, size_t b, size_t e)
{
    size_t n = e - b, cnt[65] = {0};
    size_t *ord = malloc(n * sizeof *ord);
    unsigned char *lg = malloc(n);
    if (!ord || !lg) {
        free(ord);
        free(lg);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        size_t nb = item_blocks(j, b + i);
        unsigned l = 0;
        while (nb >>= 1)
            l++;
        lg[i] = (unsigned char)(63 - l); /* bucket 0 = longest */
        cnt[lg[i] + 1]++;
    }
    for (int k = 1; k < 65; k++)
        cnt[k] += cnt[k - 1];
    for (size_t i = 0; i < n; i++)
        ord[cnt[lg[i]]++] = b + i;
    free(lg);
    return ord;
}

#if defined(__x86_64__) || defined(__i386__)

/* The scheduler's queue: items in the order they are taken. */
struct queue {
    const struct job *j;
    const size_t *ord; /* NULL: natural order */
    size_t next, b, e;
};

static int queue_take(struct queue *q, struct lane *ln)
{
    for (;;) {
        if (q->b + q->next >= q->e)
            return 0;
        size_t i = q->ord ? q->ord[q->next] : q->b + q->next;
        q->next++;
        if (q->j->blocks && !q->j->len[i])
            continue; /* a stream with nothing to absorb: its h stays as it is */
        lane_start(ln, q->j, i);
        return 1;
    }
}

/* Brings a busy lane to a non-empty run: finishes items (refilling the lane
 * from the queue) until it has blocks to hash; 0 if it went idle. */
static int lane_ready(struct lane *ln, struct queue *q)
{
    while (!ln->nb) {
        if (lane_next_run(ln, q->j))
            continue;
        lane_finish(ln, q->j);
        if (!queue_take(q, ln))
            return 0;
    }
    return 1;
}

/* The SIMD phase: W lanes (16 or 8) kept full from the queue; returns when
 * fewer than `min` lanes are busy, leaving the busy ones in act[] with their
 * chaining values in ln->h. */
static int simd_phase(struct queue *q, struct lane *lanes, struct lane **act, int nact, int w,
                      int min)
{
    /* Zeroed: the kernels read every lane, idle ones included. */
    cpim_sha_x16 s16 = {0};
    cpim_sha_x8 s8 = {0};
    struct lane *slot[MAX_LANES] = {0};
    for (int l = 0; l < nact; l++) /* lanes are all fresh here */
        slot[l] = act[l];
    for (int l = nact; l < w; l++)
        slot[l] = queue_take(q, &lanes[l]) ? &lanes[l] : NULL;
    for (int l = 0; l < w; l++)
        if (slot[l])
            w == 16 ? cpim_sha_x16_set(&s16, l, slot[l]->h) : cpim_sha_x8_set(&s8, l, slot[l]->h);
    for (;;) {
        int busy = 0, first = -1;
        size_t nb = 0;
        for (int l = 0; l < w; l++) {
            struct lane *ln = slot[l];
            if (!ln)
                continue;
            if (!ln->nb) {
                /* Its run ended: the chaining value comes out of the SIMD state. */
                if (w == 16)
                    cpim_sha_x16_get(&s16, l, ln->h);
                else
                    cpim_sha_x8_get(&s8, l, ln->h);
                if (!lane_ready(ln, q)) {
                    slot[l] = NULL;
                    continue;
                }
                if (w == 16)
                    cpim_sha_x16_set(&s16, l, ln->h);
                else
                    cpim_sha_x8_set(&s8, l, ln->h);
            }
            if (first < 0 || ln->nb < nb)
                nb = ln->nb;
            if (first < 0)
                first = l;
            busy++;
        }
        if (busy < min || !busy)
            break;
        const uint8_t *p[MAX_LANES];
        for (int l = 0; l < w; l++) /* an idle lane rereads a busy one's blocks */
            p[l] = slot[l] ? slot[l]->p : slot[first]->p;
        if (w == 16)
            cpim_sha256_avx512_x16(&s16, p, nb);
        else
            cpim_sha256_avx2_x8(&s8, p, nb);
        for (int l = 0; l < w; l++)
            if (slot[l]) {
                slot[l]->p += 64 * nb;
                slot[l]->nb -= nb;
            }
    }
    nact = 0;
    for (int l = 0; l < w; l++)
        if (slot[l]) {
            if (w == 16)
                cpim_sha_x16_get(&s16, l, slot[l]->h);
            else
                cpim_sha_x8_get(&s8, l, slot[l]->h);
            act[nact++] = slot[l];
        }
    cpim_wipe(&s16, sizeof s16);
    cpim_wipe(&s8, sizeof s8);
    return nact;
}

/* The last phase: the busy lanes and the rest of the queue on up to 4
 * interleaved SHA-NI streams, or (ni == 0) one at a time in the portable
 * code. */
static void tail_phase(struct queue *q, struct lane *lanes, struct lane **act, int nact, int ni)
{
    int used[MAX_LANES] = {0};
    for (int l = 0; l < nact; l++)
        used[act[l] - lanes] = 1;
    int width = ni ? NI_LANES : 1;
    for (int l = 0; l < MAX_LANES && nact < width; l++) /* fill up from the queue */
        if (!used[l] && queue_take(q, &lanes[l])) {
            used[l] = 1;
            act[nact++] = &lanes[l];
        }
    for (;;) {
        for (int l = 0; l < nact;) {
            if (lane_ready(act[l], q)) {
                l++;
                continue;
            }
            act[l] = act[--nact];
        }
        if (!nact)
            break;
        int k = nact < width ? nact : width;
        size_t nb = act[0]->nb;
        uint32_t *h[NI_LANES];
        const uint8_t *p[NI_LANES];
        for (int l = 0; l < k; l++) {
            if (act[l]->nb < nb)
                nb = act[l]->nb;
            h[l] = act[l]->h;
            p[l] = act[l]->p;
        }
        if (ni)
            cpim_sha256_ni_lanes(k, h, p, nb);
        else
            cpim_portable_sha256_stream(h[0], p[0], nb);
        for (int l = 0; l < k; l++) {
            act[l]->p += 64 * nb;
            act[l]->nb -= nb;
        }
    }
}

/* One item alone on the x1 kernel, straight from the caller's buffer. */
static void single_x1(const struct job *j, size_t i)
{
    if (j->blocks) {
        if (j->len[i])
            cpim_sha256_ni_x1(j->h[i], j->p[i], j->len[i]);
        return;
    }
    struct lane ln;
    lane_start(&ln, j, i);
    if (ln.nb)
        cpim_sha256_ni_x1(ln.h, ln.p, ln.nb);
    size_t nb = make_pad(ln.pad, j->p[i], j->len[i]);
    cpim_sha256_ni_x1(ln.h, ln.pad, nb);
    lane_finish(&ln, j);
    cpim_wipe(&ln, sizeof ln);
}

/* Hashes items [b, e) of the job (one thread's share). */
static void run_items(void *arg, size_t b, size_t e)
{
    const struct job *j = arg;
    unsigned eng = j->eng;
    int ni = (eng & CPIM_SHA_ENG_NI) != 0;
    if (e - b == 1 && ni) {
        single_x1(j, b);
        return;
    }
    int w = (eng & CPIM_SHA_ENG_AVX512) ? 16 : (eng & CPIM_SHA_ENG_AVX2) ? 8 : 0;
    int min = w == 16 ? (ni ? AVX512_MIN_VS_NI : AVX512_MIN_VS_PORT)
                      : (ni ? MAX_LANES + 1 /* AVX2 loses to SHA-NI even when full */
                            : AVX2_MIN_VS_PORT);
    size_t *ord = e - b > 1 ? longest_first(j, b, e) : NULL;
    struct queue q = {j, ord, 0, b, e};
    struct lane lanes[MAX_LANES];
    struct lane *act[MAX_LANES];
    int nact = 0;
    if (w && (size_t)min <= e - b)
        nact = simd_phase(&q, lanes, act, 0, w, min);
    tail_phase(&q, lanes, act, nact, ni);
    cpim_wipe(lanes, sizeof lanes);
    free(ord);
}
#endif /* x86 */

/* ---- backend glue ------------------------------------------------------------------------ */

/* Available with SHA-NI, or with AVX2 alone (the SIMD lanes then do the
 * work, the portable code the last message): faster than `cpu` either way. */
static int shani_available(const char **why)
{
    if (!cpim_sha256_x86_engines()) {
        *why = "CPU lacks the SHA extensions (SHA-NI) and AVX2";
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
    s->eng = cpim_sha256_x86_engines();
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

#if defined(__x86_64__) || defined(__i386__)
/* A batch that stays on the calling thread (one message, or under `min`
 * bytes with the 64 per message cpim_parallel_msgs counts) is run here
 * directly: cpim_parallel_msgs asks the OS for the core count on every call
 * (sysconf reads /sys), which cost ~6 us, longer than hashing 4 KiB. */
static int fits_one_thread(const size_t *lens, size_t count, uint64_t min, unsigned per_item)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count && total < min; i++)
        total += (uint64_t)lens[i] + per_item;
    return count <= 1 || total < min;
}
#endif

static cpim_err shani_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                          uint8_t (*digests)[32], cpim_stats *st)
{
#if defined(__x86_64__) || defined(__i386__)
    struct shani_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    struct job j = {0, msgs, lens, digests, NULL, s->eng};
    if (s->threads == 1 || fits_one_thread(lens, count, MIN_SHA_PARALLEL, 64)) {
        run_items(&j, 0, count);
        return CPIM_OK;
    }
    /* A thread that cannot start has its share done by the caller. */
    (void)cpim_parallel_msgs(s->threads, lens, count, MIN_SHA_PARALLEL, run_items, &j);
    return CPIM_OK;
#else
    (void)state, (void)msgs, (void)lens, (void)count, (void)digests, (void)st;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

static cpim_err shani_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                                 const size_t *nblocks, size_t count, cpim_stats *st)
{
#if defined(__x86_64__) || defined(__i386__)
    struct shani_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    struct job j = {1, p, nblocks, NULL, h, s->eng};
    /* lengths in blocks here: one block of weight per stream, not 64 (with 64,
     * 1024 one-block streams -- a PBKDF2 iteration over 1024 chains, 16 us
     * of AVX-512 work -- went to threads started for every call) */
    if (s->threads == 1 || fits_one_thread(nblocks, count, MIN_SHA_PARALLEL / 64, 1)) {
        run_items(&j, 0, count);
        return CPIM_OK;
    }
    (void)cpim_parallel_msgs(s->threads, nblocks, count, MIN_SHA_PARALLEL / 64, run_items, &j);
    return CPIM_OK;
#else
    (void)state, (void)h, (void)p, (void)nblocks, (void)count, (void)st;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

/* One message (the streaming calls): the x1 kernel straight on h, or the
 * portable code on a CPU with AVX2 but no SHA-NI (its SIMD lanes need
 * several messages). */
static void shani_sha_stream(void *state, uint32_t h[8], const uint8_t *p, size_t nblocks)
{
#if defined(__x86_64__) || defined(__i386__)
    const struct shani_state *s = state;
    if (s->eng & CPIM_SHA_ENG_NI) {
        cpim_sha256_ni_x1(h, p, nblocks);
        return;
    }
#else
    (void)state;
#endif
    cpim_portable_sha256_stream(h, p, nblocks);
}

static const cpim_sha_engine shani_sha256 = {
    .batch = shani_sha,
    .blocks = shani_sha_blocks,
    .stream = shani_sha_stream,
};

/* AES and the NTT are cpu's engines (the portable code, portable.h); the
 * x86 vector NTT is aesni's (and auto's). */
const cpim_backend cpim_backend_shani = {
    .name = "shani",
    .description = "x86 SHA-256: SHA-NI (1 stream, 4 interleaved) and AVX-512 16-lane or AVX2 "
                   "8-lane multi-buffer, by CPUID; the portable code for AES",
    .available = shani_available,
    .chunk = CPIM_BACKEND_CHUNK,
    .constant_time = 1,
    .open = shani_open,
    .close = shani_close,
    .sha = &shani_sha256,
    .from = {[CPIM_FAMILY_AES] = &cpim_backend_cpu, [CPIM_FAMILY_NTT] = &cpim_backend_cpu},
};
