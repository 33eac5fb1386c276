/*
 * api.c -- the public API (see cryptopim.h): argument checks, statistics,
 * and the thin wrappers that are the only callers of backend vtables.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"

struct cpim_ctx {
    const cpim_backend_vt *vt;
    void *state;
    int has_key;
    int has_xts_key;
    cpim_stats last;
    unsigned threads; /* cpim_options.threads, for the core's own parallel work */
    atomic_flag busy; /* set while a call runs (see CPIM_ERR_BUSY) */
};

static const char *const err_text[CPIM_ERR_COUNT_] = {
    /* CPIM_OK */ "success",
    /* CPIM_ERR_INVALID_ARG */ "invalid argument",
    /* CPIM_ERR_UNKNOWN_BACKEND */ "unknown backend",
    /* CPIM_ERR_UNAVAILABLE */ "backend not available on this machine",
    /* CPIM_ERR_UNSUPPORTED */ "operation not supported by this backend",
    /* CPIM_ERR_KEY_LENGTH */ "AES key must be 16, 24 or 32 bytes",
    /* CPIM_ERR_NO_KEY */ "no AES key set",
    /* CPIM_ERR_LENGTH */
    "bad length: ECB needs a multiple of 16 bytes, XTS a last data unit of at least 16",
    /* CPIM_ERR_NOMEM */ "out of memory",
    /* CPIM_ERR_THREAD */ "could not start a worker thread",
    /* CPIM_ERR_PIM_ALLOC */ "not enough DPUs available",
    /* CPIM_ERR_PIM_LOAD */ "DPU program missing or invalid",
    /* CPIM_ERR_PIM_FAULT */ "a DPU faulted while running the kernel",
    /* CPIM_ERR_PIM */ "UPMEM error",
    /* CPIM_ERR_TIMING_ONLY */ "timing-only run: the operation was timed, its output discarded",
    /* CPIM_ERR_BUSY */ "context in use by another thread",
    /* CPIM_ERR_XTS_WEAK_KEY */ "XTS key refused: its two halves are equal",
    /* CPIM_ERR_AUTH */ "authentication failed",
    /* CPIM_ERR_NTT_PARAM (parenthesised: clang-14's -Wstring-concatenation, `make fuzz`) */
    ("NTT parameters refused: N must be a power of two in 1024..65536, each modulus a distinct "
     "prime q = 1 mod 2N below 2^62, batch not too large"),
    /* CPIM_ERR_NTT_COEFF */ "NTT input coefficient not below its modulus",
    /* CPIM_ERR_REGION_SIZE */ "resident region larger than its DPUs' MRAM",
    /* CPIM_ERR_REGION_INTERRUPTED */
    "resident region interrupted: repeat the interrupted operation to finish it",
};

/* see cryptopim.h */
const char *cpim_version(void)
{
    return CPIM_VERSION_STRING;
}

const char *cpim_strerror(cpim_err err)
{
    if ((unsigned)err < CPIM_ERR_COUNT_)
        return err_text[err];
    return "unknown error code";
}

const char *cpim_clock_name(cpim_clock clock)
{
    return clock == CPIM_CLOCK_MODELED ? "modeled" : "measured";
}

void cpim_wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void cpim_options_init(cpim_options *opt)
{
    if (opt)
        memset(opt, 0, sizeof *opt);
}

static void fill_info(const cpim_backend_vt *vt, cpim_backend_info *info)
{
    const char *why = "";
    info->name = vt->name;
    info->description = vt->description;
    info->available = vt->available(&why);
    info->why = info->available ? "" : (why ? why : "unavailable");
}

size_t cpim_backend_count(void)
{
    return cpim_backend_nr();
}

cpim_err cpim_backend_info_at(size_t index, cpim_backend_info *info)
{
    const cpim_backend_vt *vt = cpim_backend_at(index);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(vt, info);
    return CPIM_OK;
}

cpim_err cpim_backend_info_by_name(const char *name, cpim_backend_info *info)
{
    const cpim_backend_vt *vt = cpim_backend_find(name);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(vt, info);
    return CPIM_OK;
}

cpim_err cpim_open(cpim_ctx **out, const char *backend, const cpim_options *opt)
{
    if (!out)
        return CPIM_ERR_INVALID_ARG;
    *out = NULL;
    const cpim_backend_vt *vt = cpim_backend_find(backend);
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    const char *why = NULL;
    cpim_options defaults;
    if (!opt) {
        cpim_options_init(&defaults);
        opt = &defaults;
    }
    if (vt->available_for ? !vt->available_for(opt, &why) : !vt->available(&why))
        return CPIM_ERR_UNAVAILABLE;
    if (opt->tasklets > 24 || opt->mode > CPIM_PIM_ASYNC_EXEC)
        return CPIM_ERR_INVALID_ARG;
    cpim_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return CPIM_ERR_NOMEM;
    ctx->vt = vt;
    ctx->threads = opt->threads;
    atomic_flag_clear(&ctx->busy);
    cpim_err rc = vt->open ? vt->open(&ctx->state, opt) : CPIM_OK;
    if (rc != CPIM_OK) {
        free(ctx);
        return rc;
    }
    *out = ctx;
    return CPIM_OK;
}

void cpim_close(cpim_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->vt->close)
        ctx->vt->close(ctx->state);
    cpim_wipe(ctx, sizeof *ctx);
    free(ctx);
}

const char *cpim_ctx_backend(const cpim_ctx *ctx)
{
    return ctx ? ctx->vt->name : NULL;
}

/* The common tail of the key setters (arguments checked): the context taken,
 * the backend's setter called, the slot marked set only when it succeeded. */
static cpim_err install_key(cpim_ctx *ctx,
                            cpim_err (*set)(void *state, const uint8_t *key, size_t key_len),
                            const uint8_t *key, size_t key_len, int *has)
{
    if (!set)
        return CPIM_ERR_UNSUPPORTED;
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    cpim_err rc = set(ctx->state, key, key_len);
    *has = rc == CPIM_OK;
    atomic_flag_clear(&ctx->busy);
    return rc;
}

cpim_err cpim_aes_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len)
{
    if (!ctx || !key)
        return CPIM_ERR_INVALID_ARG;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return CPIM_ERR_KEY_LENGTH;
    return install_key(ctx, ctx->vt->set_key, key, key_len, &ctx->has_key);
}

/* Common prologue/epilogue of every operation: the context taken (a
 * second thread gets CPIM_ERR_BUSY instead of racing on the backend's
 * state), fresh stats, measured total if the backend did not set one. */
static cpim_err begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes)
{
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    memset(st, 0, sizeof *st);
    st->bytes = bytes;
    st->measured.clock = CPIM_CLOCK_MEASURED;
    st->modeled.clock = CPIM_CLOCK_MODELED;
    return CPIM_OK;
}

static cpim_err finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0)
{
    if (rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY) {
        if (st->measured.total_s <= 0)
            st->measured.total_s = cpim_now() - t0;
        ctx->last = *st;
    }
    atomic_flag_clear(&ctx->busy);
    return rc;
}

cpim_err cpim_aes_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len)
{
    if (!ctx || (len && (!in || !out)) || (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (len % 16)
        return CPIM_ERR_LENGTH;
    if (!ctx->vt->aes_ecb)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc = len ? ctx->vt->aes_ecb(ctx->state, dir, in, out, len, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_aes_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t len)
{
    if (!ctx || !counter || (len && (!in || !out)))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (!ctx->vt->aes_ctr)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc = len ? ctx->vt->aes_ctr(ctx->state, counter, in, out, len, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

/* ---- AES-XTS ------------------------------------------------------------------ */

#define XTS_MAX_UNIT ((size_t)1 << 24) /* IEEE 1619: at most 2^20 blocks per unit */

cpim_err cpim_xts_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len)
{
    if (!ctx || !key)
        return CPIM_ERR_INVALID_ARG;
    if (key_len != 32 && key_len != 64)
        return CPIM_ERR_KEY_LENGTH;
    /* equal halves, compared without an early exit (no timing on the key) */
    uint8_t diff = 0;
    for (size_t i = 0; i < key_len / 2; i++)
        diff |= key[i] ^ key[key_len / 2 + i];
    if (diff == 0)
        return CPIM_ERR_XTS_WEAK_KEY;
    return install_key(ctx, ctx->vt->xts_set_key, key, key_len, &ctx->has_xts_key);
}

cpim_err cpim_aes_xts(cpim_ctx *ctx, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                      const uint8_t *in, uint8_t *out, size_t len)
{
    if (!ctx || (len && (!in || !out)) || (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT) ||
        unit_size < 16 || unit_size > XTS_MAX_UNIT)
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_xts_key)
        return CPIM_ERR_NO_KEY;
    if (len && (len % unit_size ? len % unit_size : unit_size) < 16)
        return CPIM_ERR_LENGTH; /* a last unit shorter than one block */
    if (!ctx->vt->aes_xts)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc =
        len ? ctx->vt->aes_xts(ctx->state, dir, first_unit, unit_size, in, out, len, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_sha256_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens,
                           size_t count, uint8_t (*digests)[32])
{
    if (!ctx || (count && (!msgs || !lens || !digests)))
        return CPIM_ERR_INVALID_ARG;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (lens[i] && !msgs[i])
            return CPIM_ERR_INVALID_ARG;
        total += lens[i];
    }
    if (!ctx->vt->sha256_batch)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, total) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc =
        count ? ctx->vt->sha256_batch(ctx->state, msgs, lens, count, digests, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

/* ---- AES-GCM ------------------------------------------------------------------ */

/* SP 800-38D 5.2.1.1: at most 2^39 - 256 bits of plaintext, i.e. 2^32 - 2
 * blocks, so that the 32-bit counter never comes back to J0. */
#define GCM_MAX_LEN ((((uint64_t)1) << 36) - 32)

static cpim_err gcm_call(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                         size_t len, uint8_t tag[16])
{
    if (!ctx || !iv || iv_len == 0 || (aad_len && !aad) || (len && (!in || !out)) || !tag ||
        (uint64_t)len > GCM_MAX_LEN || (uint64_t)iv_len > (UINT64_MAX >> 4) ||
        (uint64_t)aad_len > (UINT64_MAX >> 4))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (!ctx->vt->aes_gcm)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc =
        ctx->vt->aes_gcm(ctx->state, dir, iv, iv_len, aad, aad_len, in, out, len, tag, &st);
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_aes_gcm_encrypt(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                              size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                              uint8_t tag[16])
{
    return gcm_call(ctx, CPIM_ENCRYPT, iv, iv_len, aad, aad_len, in, out, len, tag);
}

cpim_err cpim_aes_gcm_decrypt(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                              size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                              const uint8_t tag[16])
{
    if (!tag)
        return CPIM_ERR_INVALID_ARG;
    uint8_t mine[16];
    cpim_err rc = gcm_call(ctx, CPIM_DECRYPT, iv, iv_len, aad, aad_len, in, out, len, mine);
    if (rc == CPIM_OK) {
        /* constant time: every byte is compared, no early exit */
        volatile uint8_t diff = 0;
        for (int i = 0; i < 16; i++)
            diff |= mine[i] ^ tag[i];
        if (diff != 0) {
            if (len)
                cpim_wipe(out, len);
            rc = CPIM_ERR_AUTH;
        }
    }
    cpim_wipe(mine, sizeof mine);
    return rc;
}

/* ---- SHA-256, streaming ------------------------------------------------------ */

#define SHA_READY 0x53484132u /* cpim_sha256_state.ready after init */

static const uint32_t sha_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

cpim_err cpim_sha256_init(cpim_sha256_state *s)
{
    if (!s)
        return CPIM_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    memcpy(s->h, sha_iv, sizeof sha_iv);
    s->ready = SHA_READY;
    return CPIM_OK;
}

static int ptr_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return (x > y) - (x < y);
}

/* 1 if the count states are valid and pairwise distinct. */
static int states_ok(cpim_sha256_state *const *s, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!s[i] || s[i]->ready != SHA_READY || s[i]->nbuf >= 64)
            return 0;
    if (count < 2)
        return 1;
    void **v = malloc(count * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < count; i++)
        v[i] = s[i];
    qsort(v, count, sizeof *v, ptr_cmp);
    int ok = 1;
    for (size_t i = 1; i < count && ok; i++)
        ok = v[i] != v[i - 1];
    free(v);
    return ok;
}

/* Adds the phases of one backend call to the operation's statistics (a
 * streaming call may make two backend calls one after the other). */
static void add_phases(cpim_stats *to, const cpim_stats *one)
{
    to->measured.cpu_dpu_s += one->measured.cpu_dpu_s;
    to->measured.kernel_s += one->measured.kernel_s;
    to->measured.dpu_cpu_s += one->measured.dpu_cpu_s;
    to->modeled.cpu_dpu_s += one->modeled.cpu_dpu_s;
    to->modeled.kernel_s += one->modeled.kernel_s;
    to->modeled.dpu_cpu_s += one->modeled.dpu_cpu_s;
    to->modeled.total_s += one->modeled.total_s;
    to->has_modeled |= one->has_modeled;
    to->ranks = one->ranks, to->dpus = one->dpus, to->tasklets = one->tasklets;
    to->virtual_upmem = one->virtual_upmem;
}

/* One backend call over the streams with nb[i] > 0 (the others skipped). */
static cpim_err blocks_call(cpim_ctx *ctx, uint32_t **h, const uint8_t **p, size_t *nb,
                            size_t count, cpim_stats *st)
{
    size_t w = 0;
    for (size_t i = 0; i < count; i++)
        if (nb[i])
            h[w] = h[i], p[w] = p[i], nb[w] = nb[i], w++;
    if (w == 0)
        return CPIM_OK;
    cpim_stats one;
    memset(&one, 0, sizeof one);
    one.measured.clock = CPIM_CLOCK_MEASURED;
    one.modeled.clock = CPIM_CLOCK_MODELED;
    cpim_err rc = ctx->vt->sha256_blocks(ctx->state, h, p, nb, w, &one);
    add_phases(st, &one);
    return rc;
}

/* The working copies of a streaming call: chaining values and one or two
 * blocks per stream, and the argument arrays of the backend call. */
struct sha_scratch {
    struct sha_work {
        uint32_t h[8];
        uint8_t blk[128];
    } * wk;
    uint32_t **hp;
    const uint8_t **pp;
    size_t *nb;
};

static cpim_err scratch_get(struct sha_scratch *x, size_t count)
{
    memset(x, 0, sizeof *x);
    if (!count)
        return CPIM_OK;
    x->wk = malloc(count * sizeof *x->wk);
    x->hp = malloc(count * sizeof *x->hp);
    x->pp = malloc(count * sizeof *x->pp);
    x->nb = malloc(count * sizeof *x->nb);
    return x->wk && x->hp && x->pp && x->nb ? CPIM_OK : CPIM_ERR_NOMEM;
}

/* Wipes the copies (chaining values and message bytes) and frees. */
static void scratch_free(struct sha_scratch *x, size_t count)
{
    if (x->wk)
        cpim_wipe(x->wk, count * sizeof *x->wk);
    free(x->wk), free(x->hp), free(x->pp), free(x->nb);
}

/* What update_many and final_many do before their work: the states' checks,
 * the backend's streaming op, the working copies and the context's claim
 * (begin, with `total` bytes).  On an error nothing is left to free. */
static cpim_err many_begin(cpim_ctx *ctx, cpim_sha256_state *const *s, size_t count, size_t total,
                           struct sha_scratch *x, cpim_stats *st)
{
    int ok = states_ok(s, count);
    if (ok < 0)
        return CPIM_ERR_NOMEM;
    if (!ok)
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->vt->sha256_blocks)
        return CPIM_ERR_UNSUPPORTED;
    cpim_err rc = scratch_get(x, count);
    if (rc == CPIM_OK && begin(ctx, st, total) != CPIM_OK)
        rc = CPIM_ERR_BUSY;
    if (rc != CPIM_OK)
        scratch_free(x, count);
    return rc;
}

cpim_err cpim_sha256_update_many(cpim_ctx *ctx, cpim_sha256_state *const *s,
                                 const uint8_t *const *p, const size_t *lens, size_t count)
{
    if (!ctx || (count && (!s || !p || !lens)))
        return CPIM_ERR_INVALID_ARG;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (lens[i] && !p[i])
            return CPIM_ERR_INVALID_ARG;
        total += lens[i];
    }
    /* working copies, committed only when every backend call succeeded */
    struct sha_scratch x;
    cpim_stats st;
    cpim_err brc = many_begin(ctx, s, count, total, &x, &st);
    if (brc != CPIM_OK)
        return brc;
    struct sha_work *wk = x.wk;
    uint32_t **hp = x.hp;
    const uint8_t **pp = x.pp;
    size_t *nb = x.nb;
    double t0 = cpim_now();
    /* 1: streams whose partial block fills up: that block first */
    for (size_t i = 0; i < count; i++) {
        memcpy(wk[i].h, s[i]->h, sizeof wk[i].h);
        hp[i] = wk[i].h;
        nb[i] = 0;
        if (s[i]->nbuf && s[i]->nbuf + lens[i] >= 64) {
            memcpy(wk[i].blk, s[i]->buf, s[i]->nbuf);
            memcpy(wk[i].blk + s[i]->nbuf, p[i], 64 - s[i]->nbuf);
            pp[i] = wk[i].blk;
            nb[i] = 1;
        }
    }
    cpim_err rc = blocks_call(ctx, hp, pp, nb, count, &st);
    /* 2: the whole blocks left in the caller's buffers, straight from there */
    for (size_t i = 0; i < count && rc == CPIM_OK; i++) {
        size_t skip = s[i]->nbuf && s[i]->nbuf + lens[i] >= 64 ? 64 - s[i]->nbuf : 0;
        hp[i] = wk[i].h;
        pp[i] = p[i] ? p[i] + skip : NULL;
        nb[i] = s[i]->nbuf && !skip ? 0 : (lens[i] - skip) / 64;
    }
    if (rc == CPIM_OK)
        rc = blocks_call(ctx, hp, pp, nb, count, &st);
    if (rc == CPIM_OK) {
        for (size_t i = 0; i < count; i++) {
            size_t skip = s[i]->nbuf && s[i]->nbuf + lens[i] >= 64 ? 64 - s[i]->nbuf : 0;
            memcpy(s[i]->h, wk[i].h, sizeof wk[i].h);
            s[i]->bytes += lens[i];
            if (s[i]->nbuf && !skip) { /* still inside the partial block */
                if (lens[i])
                    memcpy(s[i]->buf + s[i]->nbuf, p[i], lens[i]);
                s[i]->nbuf += (uint32_t)lens[i];
            } else {
                size_t tail = (lens[i] - skip) % 64;
                if (tail)
                    memcpy(s[i]->buf, p[i] + lens[i] - tail, tail);
                s[i]->nbuf = (uint32_t)tail;
            }
        }
    }
    scratch_free(&x, count);
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_sha256_final_many(cpim_ctx *ctx, cpim_sha256_state *const *s, size_t count,
                                uint8_t (*digests)[32])
{
    if (!ctx || (count && (!s || !digests)))
        return CPIM_ERR_INVALID_ARG;
    struct sha_scratch x;
    cpim_stats st;
    cpim_err brc = many_begin(ctx, s, count, 0, &x, &st);
    if (brc != CPIM_OK)
        return brc;
    struct sha_work *wk = x.wk;
    uint32_t **hp = x.hp;
    const uint8_t **pp = x.pp;
    size_t *nb = x.nb;
    double t0 = cpim_now();
    /* FIPS 180-4 5.1.1: 0x80, zeros, the length in bits (64-bit big-endian) */
    for (size_t i = 0; i < count; i++) {
        uint32_t n = s[i]->nbuf;
        size_t blocks = n < 56 ? 1 : 2;
        memset(wk[i].blk, 0, sizeof wk[i].blk);
        memcpy(wk[i].blk, s[i]->buf, n);
        wk[i].blk[n] = 0x80;
        uint64_t bits = s[i]->bytes * 8;
        for (int k = 0; k < 8; k++)
            wk[i].blk[blocks * 64 - 1 - k] = (uint8_t)(bits >> (8 * k));
        memcpy(wk[i].h, s[i]->h, sizeof wk[i].h);
        hp[i] = wk[i].h;
        pp[i] = wk[i].blk;
        nb[i] = blocks;
    }
    cpim_err rc = blocks_call(ctx, hp, pp, nb, count, &st);
    if (rc == CPIM_OK) {
        for (size_t i = 0; i < count; i++) {
            for (int k = 0; k < 8; k++) {
                digests[i][4 * k] = (uint8_t)(wk[i].h[k] >> 24);
                digests[i][4 * k + 1] = (uint8_t)(wk[i].h[k] >> 16);
                digests[i][4 * k + 2] = (uint8_t)(wk[i].h[k] >> 8);
                digests[i][4 * k + 3] = (uint8_t)wk[i].h[k];
            }
            cpim_wipe(s[i], sizeof *s[i]);
        }
    }
    scratch_free(&x, count);
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_sha256_update(cpim_ctx *ctx, cpim_sha256_state *s, const uint8_t *p, size_t len)
{
    cpim_sha256_state *const v[1] = {s};
    const uint8_t *const q[1] = {p};
    return cpim_sha256_update_many(ctx, v, q, &len, 1);
}

cpim_err cpim_sha256_final(cpim_ctx *ctx, cpim_sha256_state *s, uint8_t digest[32])
{
    if (!digest)
        return CPIM_ERR_INVALID_ARG;
    cpim_sha256_state *const v[1] = {s};
    return cpim_sha256_final_many(ctx, v, 1, (uint8_t(*)[32])digest);
}

cpim_err cpim_last_stats(const cpim_ctx *ctx, cpim_stats *stats)
{
    if (!ctx || !stats)
        return CPIM_ERR_INVALID_ARG;
    *stats = ctx->last;
    return CPIM_OK;
}

/* ---- for the operations built on the backends' ops (core.h) ---------------- */

const cpim_backend_vt *cpim_core_vt(const cpim_ctx *ctx)
{
    return ctx->vt;
}

void *cpim_core_state(const cpim_ctx *ctx)
{
    return ctx->state;
}

unsigned cpim_core_threads(const cpim_ctx *ctx)
{
    return ctx->threads;
}

cpim_err cpim_core_begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes)
{
    return begin(ctx, st, bytes);
}

cpim_err cpim_core_finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0)
{
    return finish(ctx, rc, st, t0);
}

/* ---- resident regions (issue 17) ----------------------------------------------- */

struct cpim_region {
    cpim_ctx *ctx;
    const cpim_region_vt *vt;
    void *impl;
    uint32_t seq;          /* number of the last operation started */
    int interrupted;       /* that operation failed mid-way */
    cpim_region_kind kind; /* its kind (0: SHA-256) */
    cpim_stats last;
};

void *cpim_core_region_impl(const cpim_region *region)
{
    return region ? region->impl : NULL;
}

#define REGION_DEFAULT_UNIT 4096u
#define REGION_MAX_UNIT     (1u << 20)

cpim_err cpim_region_create(cpim_ctx *ctx, uint64_t size, size_t unit_size, cpim_region **region)
{
    if (region)
        *region = NULL;
    if (!ctx || !region || size == 0)
        return CPIM_ERR_INVALID_ARG;
    if (unit_size == 0)
        unit_size = REGION_DEFAULT_UNIT;
    if (unit_size % 128 || unit_size > REGION_MAX_UNIT)
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->vt->region)
        return CPIM_ERR_UNSUPPORTED;
    cpim_region *r = calloc(1, sizeof *r);
    if (!r)
        return CPIM_ERR_NOMEM;
    r->ctx = ctx;
    r->vt = ctx->vt->region;
    if (atomic_flag_test_and_set(&ctx->busy)) {
        free(r);
        return CPIM_ERR_BUSY;
    }
    cpim_err rc = r->vt->create(ctx->state, size, (uint32_t)unit_size, &r->impl);
    atomic_flag_clear(&ctx->busy);
    if (rc != CPIM_OK) {
        free(r);
        return rc;
    }
    *region = r;
    return CPIM_OK;
}

void cpim_region_free(cpim_region *region)
{
    if (!region)
        return;
    region->vt->destroy(region->impl);
    free(region);
}

cpim_err cpim_region_layout(const cpim_region *region, uint32_t *dpus, uint64_t *bytes_per_dpu,
                            size_t *unit_size)
{
    if (!region)
        return CPIM_ERR_INVALID_ARG;
    uint32_t nd = 0, unit = 0;
    uint64_t per = 0;
    region->vt->layout(region->impl, &nd, &per, &unit);
    if (dpus)
        *dpus = nd;
    if (bytes_per_dpu)
        *bytes_per_dpu = per;
    if (unit_size)
        *unit_size = unit;
    return CPIM_OK;
}

uint64_t cpim_region_size(const cpim_region *region)
{
    uint32_t nd = 0, unit = 0;
    uint64_t per = 0;
    if (!region)
        return 0;
    region->vt->layout(region->impl, &nd, &per, &unit);
    return (uint64_t)nd * per;
}

int cpim_region_interrupted(const cpim_region *region)
{
    return region && region->interrupted;
}

cpim_err cpim_region_last_stats(const cpim_region *region, cpim_stats *stats)
{
    if (!region || !stats)
        return CPIM_ERR_INVALID_ARG;
    *stats = region->last;
    return CPIM_OK;
}

/* The context taken (as begin()), and finish()'s statistics for the region. */
static cpim_err region_finish(cpim_region *r, cpim_err rc, cpim_stats *st, double t0)
{
    if (rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY) {
        if (st->measured.total_s <= 0)
            st->measured.total_s = cpim_now() - t0;
        r->last = *st;
    }
    atomic_flag_clear(&r->ctx->busy);
    return rc;
}

static cpim_err region_xfer(cpim_region *r, int to, uint64_t off, uint8_t *buf, size_t len)
{
    if (!r || (len && !buf) || off % 8 || len % 8)
        return CPIM_ERR_INVALID_ARG;
    uint64_t size = cpim_region_size(r);
    if (off > size || len > size - off)
        return CPIM_ERR_INVALID_ARG;
    if (to && r->interrupted)
        return CPIM_ERR_REGION_INTERRUPTED;
    cpim_stats st;
    if (begin(r->ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc = len ? r->vt->xfer(r->impl, to, off, buf, len, &st) : CPIM_OK;
    return region_finish(r, rc, &st, t0);
}

cpim_err cpim_region_write(cpim_region *region, uint64_t off, const uint8_t *buf, size_t len)
{
    return region_xfer(region, 1, off, (uint8_t *)(uintptr_t)buf, len);
}

cpim_err cpim_region_read(cpim_region *region, uint64_t off, uint8_t *buf, size_t len)
{
    return region_xfer(region, 0, off, buf, len);
}

/* One in-place operation: a new one gets the next seq; the interrupted one
 * is resumed with its seq (the backend checks the keys are the same). */
static cpim_err region_run(cpim_region *r, cpim_region_op *op, int sha, uint8_t (*digests)[32],
                           uint8_t root[32])
{
    cpim_region_kind kind = sha ? (cpim_region_kind)0 : op->kind;
    if (r->interrupted && kind != r->kind)
        return CPIM_ERR_REGION_INTERRUPTED;
    cpim_stats st;
    if (begin(r->ctx, &st, cpim_region_size(r)) != CPIM_OK)
        return CPIM_ERR_BUSY;
    const uint32_t seq = r->interrupted ? r->seq : r->seq + 1;
    double t0 = cpim_now();
    cpim_err rc;
    if (sha) {
        rc = r->vt->sha256(r->impl, seq, digests, root, &st);
    } else {
        op->seq = seq;
        rc = r->vt->crypt(r->impl, op, &st);
    }
    if (rc != CPIM_ERR_REGION_INTERRUPTED) { /* a refused retry changes nothing */
        r->seq = seq;
        r->kind = kind;
        r->interrupted = rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY &&
                         rc != CPIM_ERR_INVALID_ARG && rc != CPIM_ERR_NOMEM;
    }
    return region_finish(r, rc, &st, t0);
}

static int region_key_ok(const uint8_t *key, size_t len, int xts)
{
    if (!key)
        return 0;
    if (!xts)
        return len == 16 || len == 24 || len == 32;
    return len == 32 || len == 64;
}

/* CPIM_ERR_KEY_LENGTH / CPIM_ERR_XTS_WEAK_KEY / CPIM_OK for an XTS key. */
static cpim_err region_xts_key(const uint8_t *key, size_t len)
{
    if (!region_key_ok(key, len, 1))
        return key ? CPIM_ERR_KEY_LENGTH : CPIM_ERR_INVALID_ARG;
    return memcmp(key, key + len / 2, len / 2) ? CPIM_OK : CPIM_ERR_XTS_WEAK_KEY;
}

cpim_err cpim_region_xts(cpim_region *region, cpim_dir dir, const uint8_t *key, size_t key_len)
{
    if (!region || (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT))
        return CPIM_ERR_INVALID_ARG;
    cpim_err rc = region_xts_key(key, key_len);
    if (rc != CPIM_OK)
        return rc;
    cpim_region_op op = {dir == CPIM_DECRYPT ? CPIM_REGION_XTS_DEC : CPIM_REGION_XTS_ENC,
                         key,
                         NULL,
                         key_len,
                         0,
                         {0},
                         {0},
                         0};
    return region_run(region, &op, 0, NULL, NULL);
}

cpim_err cpim_region_xts_rekey(cpim_region *region, const uint8_t *old_key, size_t old_len,
                               const uint8_t *new_key, size_t new_len)
{
    if (!region)
        return CPIM_ERR_INVALID_ARG;
    cpim_err rc = region_xts_key(old_key, old_len);
    if (rc == CPIM_OK)
        rc = region_xts_key(new_key, new_len);
    if (rc != CPIM_OK)
        return rc;
    cpim_region_op op = {CPIM_REGION_XTS_REKEY, old_key, new_key, old_len, new_len, {0}, {0}, 0};
    return region_run(region, &op, 0, NULL, NULL);
}

cpim_err cpim_region_ctr(cpim_region *region, const uint8_t *key, size_t key_len,
                         const uint8_t nonce[8])
{
    if (!region || !key || !nonce)
        return CPIM_ERR_INVALID_ARG;
    if (!region_key_ok(key, key_len, 0))
        return CPIM_ERR_KEY_LENGTH;
    cpim_region_op op = {CPIM_REGION_CTR, key, NULL, key_len, 0, {0}, {0}, 0};
    memcpy(op.nonce_a, nonce, 8);
    return region_run(region, &op, 0, NULL, NULL);
}

cpim_err cpim_region_ctr_rekey(cpim_region *region, const uint8_t *old_key, size_t old_len,
                               const uint8_t old_nonce[8], const uint8_t *new_key, size_t new_len,
                               const uint8_t new_nonce[8])
{
    if (!region || !old_key || !new_key || !old_nonce || !new_nonce)
        return CPIM_ERR_INVALID_ARG;
    if (!region_key_ok(old_key, old_len, 0) || !region_key_ok(new_key, new_len, 0))
        return CPIM_ERR_KEY_LENGTH;
    cpim_region_op op = {CPIM_REGION_CTR_REKEY, old_key, new_key, old_len, new_len, {0}, {0}, 0};
    memcpy(op.nonce_a, old_nonce, 8);
    memcpy(op.nonce_b, new_nonce, 8);
    return region_run(region, &op, 0, NULL, NULL);
}

cpim_err cpim_region_sha256(cpim_region *region, uint8_t (*digests)[32], uint8_t root[32])
{
    if (!region || !root)
        return CPIM_ERR_INVALID_ARG;
    return region_run(region, NULL, 1, digests, root);
}
