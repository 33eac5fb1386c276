/*
 * hmac_api.c -- HMAC-SHA256 and PBKDF2-HMAC-SHA256 (see cryptopim.h):
 * argument checks, and the generic computation on the SHA-256 engine's
 * compression (blocks) for the backends that have no op of their own (the CPU
 * ones; the pim backend runs PBKDF2's iterations on the DPUs).
 *
 * HMAC(K, m) = H((K' ^ opad) || H((K' ^ ipad) || m)).  The chaining values
 * after the two key blocks (istate, ostate) are computed once per key; a
 * 32-byte message then costs two compressions (inner and outer), which is
 * all a PBKDF2 iteration is (RFC 8018 5.2: U_c = PRF(P, U_{c-1})).
 *
 * Every call hands the backend *all* streams of a step at once: the
 * backend spreads them over its SIMD lanes (`shani`: 16 AVX-512 lanes, the
 * tail on 4 SHA-NI streams) or threads, so a batch of PBKDF2 chains runs
 * side by side, one iteration per pair of calls.  PBKDF2 first splits its
 * chains over the context's threads (each range runs all its iterations),
 * so that threads start once per call rather than twice per iteration.
 *
 * Secrets (keys, K' blocks, the HMAC states, U and T) live in one scratch
 * allocation per call, wiped before it is freed.
 */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "engine.h"
#include "parallel.h"
#include "sha256.h"

static const uint32_t sha_iv[8] = CPIM_SHA256_IV;

/* Longest PBKDF2 output: (2^32 - 1) blocks of 32 bytes (RFC 8018 5.2 step 1). */
#define PBKDF2_MAX_OUT ((uint64_t)0xffffffffu * 32u)

/* One backend call (count streams) with its phases added to st. */
struct eng {
    const cpim_ctx *ctx;
    cpim_stats *st;
};

static cpim_err blocks(struct eng *e, uint32_t **h, const uint8_t **p, size_t *nb, size_t count)
{
    /* streams with nothing to absorb are left out (the contract allows
     * them, but they would cost the pim backend a DPU slot) */
    size_t w = 0;
    for (size_t i = 0; i < count; i++)
        if (nb[i])
            h[w] = h[i], p[w] = p[i], nb[w] = nb[i], w++;
    if (!w)
        return CPIM_OK;
    cpim_stats one;
    memset(&one, 0, sizeof one);
    cpim_err rc = cpim_engine_sha_blocks(e->ctx, h, p, nb, w, &one);
    cpim_stats *st = e->st;
    st->modeled.cpu_dpu_s += one.modeled.cpu_dpu_s;
    st->modeled.kernel_s += one.modeled.kernel_s;
    st->modeled.dpu_cpu_s += one.modeled.dpu_cpu_s;
    st->modeled.total_s += one.modeled.total_s;
    st->has_modeled |= one.has_modeled;
    st->ranks = one.ranks, st->dpus = one.dpus, st->tasklets = one.tasklets;
    st->virtual_upmem = one.virtual_upmem;
    return rc;
}

static void be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The one padded block of a 32-byte message that follows a 64-byte key
 * block: the 8 words big-endian, 0x80, zeros, length 768 bits. */
static void block32(uint8_t blk[64], const uint32_t w[8])
{
    for (int i = 0; i < 8; i++)
        be32_put(blk + 4 * i, w[i]);
    memset(blk + 32, 0, 32);
    blk[32] = 0x80;
    blk[62] = 0x03;
}

/* Per stream of a generic call: its states and blocks. */
struct lane {
    uint32_t is[8], os[8]; /* HMAC states of its key */
    uint32_t h[8];         /* chaining value being computed */
    uint32_t u[8], t[8];   /* PBKDF2: U_c and the running XOR */
    uint8_t blk[128];      /* padded tail, key blocks, 32-byte messages */
};

/* Scratch of a call: n lanes and the argument arrays of a backend call
 * (up to 2 streams per lane). */
struct scratch {
    struct lane *ln;
    uint32_t **hp;
    const uint8_t **pp;
    size_t *nb;
    size_t n;
};

static cpim_err scratch_get(struct scratch *x, size_t n)
{
    x->n = n;
    x->ln = calloc(n, sizeof *x->ln);
    x->hp = malloc(2 * n * sizeof *x->hp);
    x->pp = malloc(2 * n * sizeof *x->pp);
    x->nb = malloc(2 * n * sizeof *x->nb);
    return x->ln && x->hp && x->pp && x->nb ? CPIM_OK : CPIM_ERR_NOMEM;
}

static void scratch_free(struct scratch *x)
{
    if (x->ln)
        cpim_wipe(x->ln, x->n * sizeof *x->ln);
    free(x->ln), free(x->hp), free(x->pp), free(x->nb);
}

/* Finishes a SHA-256 for every lane: ln[i].h (a chaining value after
 * prior[i] bytes, a multiple of 64) absorbs msg[i][0..len[i]) and the
 * padding; the digest stays in ln[i].h as words.  Two backend calls: the
 * whole blocks straight from the caller's buffers, then every padded tail. */
static cpim_err finish_hash(struct eng *e, struct scratch *x, const uint8_t *const *msg,
                            const size_t *len, uint64_t prior)
{
    size_t n = x->n;
    for (size_t i = 0; i < n; i++) {
        x->hp[i] = x->ln[i].h;
        x->pp[i] = msg[i];
        x->nb[i] = len[i] / 64;
    }
    cpim_err rc = blocks(e, x->hp, x->pp, x->nb, n);
    if (rc != CPIM_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        struct lane *l = &x->ln[i];
        size_t rem = len[i] % 64, nb = rem < 56 ? 1 : 2;
        uint64_t bits = (prior + len[i]) * 8;
        memset(l->blk, 0, sizeof l->blk);
        if (rem)
            memcpy(l->blk, msg[i] + len[i] - rem, rem);
        l->blk[rem] = 0x80;
        for (int k = 0; k < 8; k++)
            l->blk[64 * nb - 1 - k] = (uint8_t)(bits >> (8 * k));
        x->hp[i] = l->h;
        x->pp[i] = l->blk;
        x->nb[i] = nb;
    }
    return blocks(e, x->hp, x->pp, x->nb, n);
}

/* The HMAC states of every lane's key (lane i: keys[i]). */
static cpim_err key_states(struct eng *e, struct scratch *x, const uint8_t *const *keys,
                           const size_t *key_lens)
{
    size_t n = x->n;
    /* keys longer than a block are hashed first (RFC 2104 section 2) */
    int any_long = 0;
    for (size_t i = 0; i < n; i++)
        any_long |= key_lens[i] > 64;
    const uint8_t **kp = NULL;
    size_t *kl = NULL;
    if (any_long) {
        kp = calloc(n, sizeof *kp);
        kl = calloc(n, sizeof *kl);
        if (!kp || !kl) {
            free(kp), free(kl);
            return CPIM_ERR_NOMEM;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(x->ln[i].h, sha_iv, sizeof sha_iv);
            if (key_lens[i] > 64)
                kp[i] = keys[i], kl[i] = key_lens[i];
        }
        cpim_err rc = finish_hash(e, x, kp, kl, 0); /* short keys: a wasted empty hash */
        free(kp), free(kl);
        if (rc != CPIM_OK)
            return rc;
    }
    for (size_t i = 0; i < n; i++) {
        struct lane *l = &x->ln[i];
        uint8_t k[64] = {0};
        if (key_lens[i] > 64) {
            for (int w = 0; w < 8; w++)
                be32_put(k + 4 * w, l->h[w]);
        } else if (key_lens[i]) {
            memcpy(k, keys[i], key_lens[i]);
        }
        for (int b = 0; b < 64; b++) {
            l->blk[b] = k[b] ^ 0x36;
            l->blk[64 + b] = k[b] ^ 0x5c;
        }
        cpim_wipe(k, sizeof k);
        memcpy(l->is, sha_iv, sizeof sha_iv);
        memcpy(l->os, sha_iv, sizeof sha_iv);
        x->hp[2 * i] = l->is, x->pp[2 * i] = l->blk, x->nb[2 * i] = 1;
        x->hp[2 * i + 1] = l->os, x->pp[2 * i + 1] = l->blk + 64, x->nb[2 * i + 1] = 1;
    }
    return blocks(e, x->hp, x->pp, x->nb, 2 * n);
}

/* ln[i].h = HMAC(key of lane i, ln[i].h as 32 bytes): 2 backend calls. */
static cpim_err mac32(struct eng *e, struct scratch *x)
{
    size_t n = x->n;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            struct lane *l = &x->ln[i];
            block32(l->blk, l->h);
            memcpy(l->h, pass ? l->os : l->is, sizeof l->h);
            x->hp[i] = l->h, x->pp[i] = l->blk, x->nb[i] = 1;
        }
        cpim_err rc = blocks(e, x->hp, x->pp, x->nb, n);
        if (rc != CPIM_OK)
            return rc;
    }
    return CPIM_OK;
}

static cpim_err generic_hmac(struct eng *e, const uint8_t *const *keys, const size_t *key_lens,
                             const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                             uint8_t (*macs)[32])
{
    struct scratch x;
    cpim_err rc = scratch_get(&x, count);
    if (rc == CPIM_OK)
        rc = key_states(e, &x, keys, key_lens);
    if (rc == CPIM_OK) {
        for (size_t i = 0; i < count; i++)
            memcpy(x.ln[i].h, x.ln[i].is, sizeof x.ln[i].h);
        rc = finish_hash(e, &x, msgs, msg_lens, 64); /* inner: after the key block */
    }
    if (rc == CPIM_OK) { /* outer: one block from ostate */
        for (size_t i = 0; i < count; i++) {
            struct lane *l = &x.ln[i];
            block32(l->blk, l->h);
            memcpy(l->h, l->os, sizeof l->h);
            x.hp[i] = l->h, x.pp[i] = l->blk, x.nb[i] = 1;
        }
        rc = blocks(e, x.hp, x.pp, x.nb, count);
    }
    if (rc == CPIM_OK)
        for (size_t i = 0; i < count; i++)
            for (int w = 0; w < 8; w++)
                be32_put(macs[i] + 4 * w, x.ln[i].h[w]);
    scratch_free(&x);
    return rc;
}

/* One PBKDF2 call: chain c = i * nblk + j computes block j + 1 of outs[i]. */
struct pbkdf2_job {
    const cpim_ctx *ctx;
    const uint8_t *const *passes, *const *salts;
    const size_t *pass_lens, *salt_lens;
    uint32_t iterations;
    uint8_t *const *outs;
    size_t out_len, nblk;
    cpim_err *rc; /* per range: at the index of its first chain */
};

/* Chains [first, end): the whole computation, iterations included, on
 * its own scratch (so ranges run on threads side by side). */
static cpim_err pbkdf2_chains(const struct pbkdf2_job *jb, size_t first, size_t end)
{
    const size_t n = end - first, nblk = jb->nblk;
    cpim_stats st; /* CPU backends: nothing modeled to add up */
    memset(&st, 0, sizeof st);
    struct eng e = {jb->ctx, &st};
    struct scratch x;
    const uint8_t **kp = malloc(n * sizeof *kp);
    size_t *kl = malloc(n * sizeof *kl);
    uint8_t **sj = calloc(n, sizeof *sj); /* S || INT(j) per chain */
    cpim_err rc = scratch_get(&x, n);
    if (!kp || !kl || !sj)
        rc = CPIM_ERR_NOMEM;
    for (size_t k = 0; k < n && rc == CPIM_OK; k++) {
        size_t c = first + k, i = c / nblk, j = c % nblk + 1;
        kp[k] = jb->passes[i], kl[k] = jb->pass_lens[i];
        if (!(sj[k] = malloc(jb->salt_lens[i] + 4))) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        if (jb->salt_lens[i])
            memcpy(sj[k], jb->salts[i], jb->salt_lens[i]);
        be32_put(sj[k] + jb->salt_lens[i], (uint32_t)j);
    }
    /* Every block of a password has the same states: computing them per
     * chain costs 2 compressions per block and keeps the code one shape. */
    if (rc == CPIM_OK)
        rc = key_states(&e, &x, kp, kl);
    if (rc == CPIM_OK) { /* U1 = PRF(P, S || INT(j)) */
        for (size_t k = 0; k < n; k++) {
            memcpy(x.ln[k].h, x.ln[k].is, sizeof x.ln[k].h);
            kl[k] = jb->salt_lens[(first + k) / nblk] + 4;
        }
        rc = finish_hash(&e, &x, (const uint8_t *const *)sj, kl, 64);
    }
    if (rc == CPIM_OK) {
        for (size_t k = 0; k < n; k++) {
            struct lane *l = &x.ln[k];
            block32(l->blk, l->h);
            memcpy(l->h, l->os, sizeof l->h);
            x.hp[k] = l->h, x.pp[k] = l->blk, x.nb[k] = 1;
        }
        rc = blocks(&e, x.hp, x.pp, x.nb, n);
    }
    for (size_t k = 0; k < n && rc == CPIM_OK; k++)
        memcpy(x.ln[k].t, x.ln[k].h, sizeof x.ln[k].t);
    for (uint32_t it = 1; it < jb->iterations && rc == CPIM_OK; it++) {
        rc = mac32(&e, &x);
        for (size_t k = 0; k < n && rc == CPIM_OK; k++)
            for (int w = 0; w < 8; w++)
                x.ln[k].t[w] ^= x.ln[k].h[w];
    }
    if (rc == CPIM_OK) {
        for (size_t k = 0; k < n; k++) {
            uint8_t tb[32];
            size_t c = first + k, off = (c % nblk) * 32;
            for (int w = 0; w < 8; w++)
                be32_put(tb + 4 * w, x.ln[k].t[w]);
            memcpy(jb->outs[c / nblk] + off, tb, jb->out_len - off < 32 ? jb->out_len - off : 32);
            cpim_wipe(tb, sizeof tb);
        }
    }
    if (sj)
        for (size_t k = 0; k < n; k++)
            free(sj[k]); /* salts are public */
    free(sj), free(kp), free(kl);
    scratch_free(&x);
    return rc;
}

static void pbkdf2_range(void *arg, size_t first, size_t end)
{
    const struct pbkdf2_job *jb = arg;
    if (first < end)
        jb->rc[first] = pbkdf2_chains(jb, first, end);
}

/* Below this much work (chains x iterations) a call stays on one thread. */
#define PBKDF2_MIN_PARALLEL (1u << 16)

/* The chains run in contiguous ranges on up to `threads` threads, each
 * range all its iterations on its own (one thread start per call, not two
 * per iteration; each backend call then covers one range's chains, which
 * the CPU backends keep on the calling thread: `shani` spreads them over
 * its SIMD lanes). */
static cpim_err generic_pbkdf2(const cpim_ctx *ctx, unsigned threads, const uint8_t *const *passes,
                               const size_t *pass_lens, const uint8_t *const *salts,
                               const size_t *salt_lens, size_t count, uint32_t iterations,
                               uint8_t *const *outs, size_t out_len)
{
    size_t nblk = (out_len + 31) / 32, n = count * nblk;
    size_t *weight = malloc(n * sizeof *weight);
    cpim_err *rc = malloc(n * sizeof *rc);
    if (!weight || !rc) {
        free(weight), free(rc);
        return CPIM_ERR_NOMEM;
    }
    for (size_t c = 0; c < n; c++) {
        weight[c] = iterations; /* equal work: ranges of equal chain counts */
        rc[c] = CPIM_OK;
    }
    struct pbkdf2_job jb = {ctx,        passes, salts,   pass_lens, salt_lens,
                            iterations, outs,   out_len, nblk,      rc};
    /* A thread that cannot start has its range run by the caller. */
    (void)cpim_parallel_msgs(threads, weight, n, PBKDF2_MIN_PARALLEL, pbkdf2_range, &jb);
    cpim_err r = CPIM_OK;
    for (size_t c = 0; c < n && r == CPIM_OK; c++)
        r = rc[c];
    free(weight), free(rc);
    return r;
}

/* ---- the API ------------------------------------------------------------------ */

static int ptrs_ok(const uint8_t *const *p, const size_t *len, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (len[i] && !p[i])
            return 0;
    return 1;
}

cpim_err cpim_hmac_sha256_batch(cpim_ctx *ctx, const uint8_t *const *keys, const size_t *key_lens,
                                const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                                uint8_t (*macs)[32])
{
    if (!ctx || (count && (!keys || !key_lens || !msgs || !msg_lens || !macs)))
        return CPIM_ERR_INVALID_ARG;
    if (!ptrs_ok(keys, key_lens, count) || !ptrs_ok(msgs, msg_lens, count))
        return CPIM_ERR_INVALID_ARG;
    if (!cpim_engine_has(ctx, CPIM_OP_HMAC) && !cpim_engine_has(ctx, CPIM_OP_SHA_BLOCKS))
        return CPIM_ERR_UNSUPPORTED;
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += msg_lens[i];
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, total) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = CPIM_OK;
    struct eng e = {ctx, &st};
    if (count && cpim_engine_has(ctx, CPIM_OP_HMAC))
        rc = cpim_engine_hmac(ctx, keys, key_lens, msgs, msg_lens, count, macs, &st);
    else if (count)
        rc = generic_hmac(&e, keys, key_lens, msgs, msg_lens, count, macs);
    return cpim_core_finish(ctx, rc, &st, t0);
}

cpim_err cpim_hmac_sha256(cpim_ctx *ctx, const uint8_t *key, size_t key_len, const uint8_t *msg,
                          size_t msg_len, uint8_t mac[32])
{
    if (!mac)
        return CPIM_ERR_INVALID_ARG;
    const uint8_t *const k[1] = {key}, *const m[1] = {msg};
    return cpim_hmac_sha256_batch(ctx, k, &key_len, m, &msg_len, 1, (uint8_t(*)[32])mac);
}

cpim_err cpim_pbkdf2_sha256_batch(cpim_ctx *ctx, const uint8_t *const *passes,
                                  const size_t *pass_lens, const uint8_t *const *salts,
                                  const size_t *salt_lens, size_t count, uint32_t iterations,
                                  uint8_t *const *outs, size_t out_len)
{
    if (!ctx || !iterations || (uint64_t)out_len > PBKDF2_MAX_OUT)
        return CPIM_ERR_INVALID_ARG;
    if (count && (!passes || !pass_lens || !salts || !salt_lens || !outs))
        return CPIM_ERR_INVALID_ARG;
    if (!ptrs_ok(passes, pass_lens, count) || !ptrs_ok(salts, salt_lens, count))
        return CPIM_ERR_INVALID_ARG;
    for (size_t i = 0; i < count; i++)
        if (out_len && !outs[i])
            return CPIM_ERR_INVALID_ARG;
    if (!cpim_engine_has(ctx, CPIM_OP_PBKDF2) && !cpim_engine_has(ctx, CPIM_OP_SHA_BLOCKS))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, count * out_len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = CPIM_OK;
    if (count && out_len && cpim_engine_has(ctx, CPIM_OP_PBKDF2))
        rc = cpim_engine_pbkdf2(ctx, passes, pass_lens, salts, salt_lens, count, iterations, outs,
                                out_len, &st);
    else if (count && out_len)
        rc = generic_pbkdf2(ctx, ctx->threads, passes, pass_lens, salts, salt_lens, count,
                            iterations, outs, out_len);
    return cpim_core_finish(ctx, rc, &st, t0);
}

cpim_err cpim_pbkdf2_sha256(cpim_ctx *ctx, const uint8_t *pass, size_t pass_len,
                            const uint8_t *salt, size_t salt_len, uint32_t iterations, uint8_t *out,
                            size_t out_len)
{
    uint8_t *const o[1] = {out};
    const uint8_t *const p[1] = {pass}, *const s[1] = {salt};
    return cpim_pbkdf2_sha256_batch(ctx, p, &pass_len, s, &salt_len, 1, iterations, o, out_len);
}
