/*
 * sha_api.c -- the public API's SHA-256 (see cryptopim.h): whole messages
 * in a batch, and the streaming calls (partial blocks, padding and lengths
 * kept here; whole blocks to the context's SHA-256 engine, backend.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "engine.h"
#include "sha256.h" /* CPIM_SHA256_IV */

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
    if (!cpim_engine_has(ctx, CPIM_OP_SHA_BATCH))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, total) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = count ? cpim_engine_sha_batch(ctx, msgs, lens, count, digests, &st) : CPIM_OK;
    return cpim_core_finish(ctx, rc, &st, t0);
}

/* ---- SHA-256, streaming ------------------------------------------------------ */

#define SHA_READY 0x53484132u /* cpim_sha256_state.ready after init */

static const uint32_t sha_iv[8] = CPIM_SHA256_IV;

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
    cpim_err rc = cpim_engine_sha_blocks(ctx, h, p, nb, w, &one);
    add_phases(st, &one);
    return rc;
}

/* The working copies of a streaming call: chaining values and one or two
 * blocks per stream, and the argument arrays of the backend call.  One
 * stream (cpim_sha256_update / final: every EVP digest) uses the inline
 * `one` instead of four allocations. */
struct sha_work {
    uint32_t h[8];
    uint8_t blk[128];
};
struct sha_scratch {
    struct sha_work *wk;
    uint32_t **hp;
    const uint8_t **pp;
    size_t *nb;
    struct {
        struct sha_work wk;
        uint32_t *hp;
        const uint8_t *pp;
        size_t nb;
    } one;
};

static cpim_err scratch_get(struct sha_scratch *x, size_t count)
{
    memset(x, 0, offsetof(struct sha_scratch, one));
    if (!count)
        return CPIM_OK;
    if (count == 1) {
        x->wk = &x->one.wk, x->hp = &x->one.hp, x->pp = &x->one.pp, x->nb = &x->one.nb;
        return CPIM_OK;
    }
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
    if (x->wk != &x->one.wk)
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
    if (!cpim_engine_has(ctx, CPIM_OP_SHA_BLOCKS))
        return CPIM_ERR_UNSUPPORTED;
    cpim_err rc = scratch_get(x, count);
    if (rc == CPIM_OK && cpim_core_begin(ctx, st, total) != CPIM_OK)
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
    double t0 = cpim_core_now(ctx);
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
    return cpim_core_finish(ctx, rc, &st, t0);
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
    double t0 = cpim_core_now(ctx);
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
    return cpim_core_finish(ctx, rc, &st, t0);
}

/* ---- one message on an engine with a one-stream op ---------------------------------------- */

/* The state absorbs p[0..len) in place: the engine cannot fail, so no
 * working copy has to wait for the backend's success (as in update_many). */
static cpim_err stream_update(cpim_ctx *ctx, cpim_sha256_state *s, const uint8_t *p, size_t len)
{
    if ((len && !p) || s->ready != SHA_READY || s->nbuf >= 64)
        return CPIM_ERR_INVALID_ARG;
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    size_t n = len;
    if (s->nbuf && n) {
        size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, take);
        s->nbuf += (uint32_t)take;
        p += take, n -= take;
        if (s->nbuf == 64) {
            cpim_engine_sha_stream(ctx, s->h, s->buf, 1);
            s->nbuf = 0;
        }
    }
    if (n >= 64) { /* the whole blocks straight from the caller's buffer */
        cpim_engine_sha_stream(ctx, s->h, p, n / 64);
        p += n - n % 64, n %= 64;
    }
    if (n) {
        memcpy(s->buf, p, n);
        s->nbuf = (uint32_t)n;
    }
    s->bytes += len;
    cpim_core_done(ctx, len, t0);
    return CPIM_OK;
}

static cpim_err stream_final(cpim_ctx *ctx, cpim_sha256_state *s, uint8_t digest[32])
{
    if (s->ready != SHA_READY || s->nbuf >= 64)
        return CPIM_ERR_INVALID_ARG;
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    /* FIPS 180-4 5.1.1: 0x80, zeros, the length in bits (64-bit big-endian);
     * padded in the state's own block unless it takes a second one */
    const uint32_t n = s->nbuf;
    uint8_t two[128], *blk = n < 56 ? s->buf : two;
    const size_t blocks = n < 56 ? 1 : 2;
    if (blocks == 2)
        memcpy(two, s->buf, n);
    blk[n] = 0x80;
    memset(blk + n + 1, 0, 64 * blocks - 8 - (n + 1));
    const uint64_t bits = s->bytes * 8;
    for (int k = 0; k < 8; k++)
        blk[blocks * 64 - 1 - k] = (uint8_t)(bits >> (8 * k));
    cpim_engine_sha_stream(ctx, s->h, blk, blocks);
    for (int k = 0; k < 8; k++) {
        digest[4 * k] = (uint8_t)(s->h[k] >> 24);
        digest[4 * k + 1] = (uint8_t)(s->h[k] >> 16);
        digest[4 * k + 2] = (uint8_t)(s->h[k] >> 8);
        digest[4 * k + 3] = (uint8_t)s->h[k];
    }
    if (blocks == 2)
        cpim_wipe(two, sizeof two); /* message bytes */
    cpim_wipe(s, sizeof *s);
    cpim_core_done(ctx, 0, t0);
    return CPIM_OK;
}

cpim_err cpim_sha256_update(cpim_ctx *ctx, cpim_sha256_state *s, const uint8_t *p, size_t len)
{
    if (ctx && s && cpim_engine_has(ctx, CPIM_OP_SHA_STREAM))
        return stream_update(ctx, s, p, len);
    cpim_sha256_state *const v[1] = {s};
    const uint8_t *const q[1] = {p};
    return cpim_sha256_update_many(ctx, v, q, &len, 1);
}

cpim_err cpim_sha256_final(cpim_ctx *ctx, cpim_sha256_state *s, uint8_t digest[32])
{
    if (!digest)
        return CPIM_ERR_INVALID_ARG;
    if (ctx && s && cpim_engine_has(ctx, CPIM_OP_SHA_STREAM))
        return stream_final(ctx, s, digest);
    cpim_sha256_state *const v[1] = {s};
    return cpim_sha256_final_many(ctx, v, 1, (uint8_t(*)[32])digest);
}
