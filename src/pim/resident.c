/*
 * resident.c -- resident regions on the pim backend (the public
 * contract is in cryptopim.h, the DPU side in dpu/resident.c and
 * resident_args.h).
 *
 * A region takes its context's machine (DPUs): the context's other calls
 * use the MRAM heap of their DPUs as scratch, so while the region lives
 * they run on DPUs the context allocates anew (backend.c), and never
 * overwrite it.  Loads and reads are
 * transfers of one piece per DPU; every in-place operation is one launch of
 * dpu/resident.c with no data piece at all: the round keys (once, by
 * broadcast) and 16 bytes of job arguments per DPU go in, and for SHA-256
 * the 32-byte digests of the units come out.
 *
 * Faults: dpu/resident.c records each tasklet's progress in MRAM after
 * every chunk, keyed by the operation's number (seq).  A failed operation
 * leaves the core's region marked interrupted; repeating it (same seq)
 * makes every tasklet resume where its slot says, so nothing is converted
 * twice.  The repeat must use the same keys and nonces: this file keeps a
 * SHA-256 fingerprint of them (not the keys) and refuses others.
 */
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "aes_args.h"
#include "backend.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "resident_args.h"
#include "sha256.h"

struct pim_region {
    void *state; /* the context's backend state, whose machine this is */
    cpim_pim_machine *m;
    cpim_pim_faults *faults; /* the context's (failAt counts its checkpoints) */
    uint32_t nd, unit;
    uint64_t per; /* region bytes per DPU */
    int timing_only;
    int dirty;          /* written or operated on since it was zeroed */
    uint32_t fp_seq;    /* the operation the fingerprint belongs to */
    uint8_t fp[32];     /* SHA-256 of its kind, keys and nonces */
    cpim_pim_piece *to; /* nd * PIM_PIECES, all empty: no data goes in */
    cpim_pim_piece *from;
    struct res_job_args *jobs;
};

/* MRAM bytes a DPU's share takes: header, data, digests. */
static uint64_t share_bytes(uint64_t per, uint32_t unit)
{
    return RES_HDR + per + 32 * (per / unit);
}

cpim_pim_machine *cpim_pim_region_machine(void *region)
{
    return ((struct pim_region *)region)->m;
}

static void region_destroy(void *region)
{
    struct pim_region *r = region;
    if (!r)
        return;
    if (r->m && r->dirty) {
        /* the data, its digests and the progress slots: nothing of the
         * region stays in MRAM for the next user of these DPUs */
        cpim_pim_machine_zero_mram(r->m, (uint32_t)share_bytes(r->per, r->unit));
    }
    if (r->m) {
        cpim_pim_machine_wipe_key(r->m);
        cpim_pim_backend_give_back(r->state, r->m);
    }
    free(r->to), free(r->from), free(r->jobs);
    cpim_wipe(r, sizeof *r);
    free(r);
}

static cpim_err region_create(void *state, uint64_t size, uint32_t unit, void **out)
{
    *out = NULL;
    struct pim_region *r = calloc(1, sizeof *r);
    if (!r)
        return CPIM_ERR_NOMEM;
    r->state = state;
    r->unit = unit;
    cpim_err rc = cpim_pim_backend_take(state, &r->m, &r->faults, &r->timing_only);
    if (rc != CPIM_OK) {
        free(r);
        return rc;
    }
    cpim_pim_faults *faults = r->faults;
    r->nd = cpim_pim_machine_dpus(r->m);
    uint64_t per = (size + r->nd - 1) / r->nd;
    r->per = (per + unit - 1) / unit * unit;
    if (share_bytes(r->per, unit) > AES_MRAM_MAX) {
        r->per = 0;
        region_destroy(r);
        return CPIM_ERR_REGION_SIZE;
    }
    r->to = cpim_pim_calloc(faults, (size_t)r->nd * PIM_PIECES, sizeof *r->to);
    r->from = cpim_pim_calloc(faults, r->nd, sizeof *r->from);
    r->jobs = cpim_pim_calloc(faults, r->nd, sizeof *r->jobs);
    if (!r->to || !r->from || !r->jobs)
        rc = CPIM_ERR_NOMEM;
    if (rc == CPIM_OK)
        rc = cpim_pim_machine_load(r->m, PIM_PROG_RESIDENT);
    if (rc != CPIM_OK) {
        region_destroy(r);
        return rc;
    }
    /* a new region is zeros, progress slots included (seq 0 is never used) */
    cpim_pim_machine_zero_mram(r->m, (uint32_t)share_bytes(r->per, unit));
    *out = r;
    return CPIM_OK;
}

static void region_layout(const void *region, uint32_t *dpus, uint64_t *per, uint32_t *unit)
{
    const struct pim_region *r = region;
    *dpus = r->nd, *per = r->per, *unit = r->unit;
}

static cpim_err region_xfer(void *region, int to, uint64_t off, uint8_t *buf, size_t len,
                            cpim_stats *st)
{
    struct pim_region *r = region;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    const uint64_t end = off + len;
    for (uint32_t d = 0; d < r->nd; d++) {
        uint64_t lo = (uint64_t)d * r->per, hi = lo + r->per;
        uint64_t a = off > lo ? off : lo, b = end < hi ? end : hi;
        r->from[d] = a < b ? (cpim_pim_piece){buf + (a - off), (uint32_t)(RES_HDR + a - lo),
                                              (uint32_t)(b - a)}
                           : (cpim_pim_piece){NULL, 0, 0};
    }
    cpim_err rc = cpim_pim_machine_load(r->m, PIM_PROG_RESIDENT);
    r->dirty |= to;
    if (rc == CPIM_OK)
        rc = cpim_pim_machine_xfer(r->m, to, r->from, &t);
    cpim_pim_clocks_stop(r->m, &clk, &t, st);
    if (rc != CPIM_OK)
        cpim_pim_machine_reset(r->m);
    return rc == CPIM_OK && r->timing_only ? CPIM_ERR_TIMING_ONLY : rc;
}

/* XTS key -> key1 (encryption or decryption schedule) and key2. */
static void xts_keys(const uint8_t *key, size_t len, int dec, uint32_t *rk, uint32_t *nr,
                     cpim_crypto_aes_ks *k2)
{
    cpim_crypto_aes_ks e, d;
    const uint32_t half = (uint32_t)len / 2;
    cpim_crypto_aes_expand_enc(&e, key, half);
    cpim_crypto_aes_expand_enc(k2, key + half, half);
    if (dec)
        cpim_crypto_aes_dec_from_enc(&d, &e);
    cpim_pim_dpu_schedule(rk, nr, dec ? &d : &e);
    cpim_wipe(&e, sizeof e), cpim_wipe(&d, sizeof d);
}

static void ctr_key(const uint8_t *key, size_t len, const uint8_t nonce[8], uint32_t *rk,
                    uint32_t *nr, uint32_t iv[2])
{
    cpim_crypto_aes_ks e;
    cpim_crypto_aes_expand_enc(&e, key, (uint32_t)len);
    cpim_pim_dpu_schedule(rk, nr, &e);
    cpim_wipe(&e, sizeof e);
    for (int i = 0; i < 2; i++)
        iv[i] = (uint32_t)nonce[4 * i] << 24 | (uint32_t)nonce[4 * i + 1] << 16 |
                (uint32_t)nonce[4 * i + 2] << 8 | nonce[4 * i + 3];
}

/* One launch of the loaded program: every DPU's job, no data in; `from`
 * (may be all empty) comes back. */
static cpim_err region_launch(struct pim_region *r, uint32_t seq, const struct res_key_args *ka,
                              cpim_pim_times *t)
{
    double t0 = cpim_now();
    cpim_err rc = cpim_pim_machine_send_res_key(r->m, ka, sizeof *ka);
    t->in += cpim_now() - t0;
    if (rc != CPIM_OK)
        return rc;
    for (uint32_t d = 0; d < r->nd; d++)
        r->jobs[d] = (struct res_job_args){(uint32_t)r->per, seq, d, r->unit};
    cpim_pim_round rd = {
        RES_XSTR(RES_JOB_SYM), r->jobs, sizeof *r->jobs, r->to, r->from, NULL, NULL, NULL, NULL, 0};
    rc = cpim_pim_machine_round(r->m, &rd, t);
    if (rc == CPIM_OK && !r->timing_only)
        cpim_pim_machine_key_consumed(r->m); /* every DPU's kernel wiped it */
    return rc;
}

/* After a launch: key wipe on the DPUs if it may be left, reload after a
 * failure, the timing-only answer. */
static cpim_err region_end(struct pim_region *r, cpim_err rc)
{
    cpim_pim_machine_wipe_key(r->m);
    if (rc != CPIM_OK)
        cpim_pim_machine_reset(r->m);
    return rc == CPIM_OK && r->timing_only ? CPIM_ERR_TIMING_ONLY : rc;
}

static cpim_err region_crypt(void *region, const cpim_region_op *op, cpim_stats *st)
{
    struct pim_region *r = region;
    /* the fingerprint: a repeat of the interrupted operation must bring
     * the same keys and nonces */
    uint8_t fp[32];
    cpim_crypto_sha256_ctx h;
    cpim_crypto_sha256_init(&h);
    cpim_crypto_sha256_update(&h, (const uint8_t *)"cpim-region-op", 14);
    cpim_crypto_sha256_update(&h, (const uint8_t *)&op->kind, sizeof op->kind);
    cpim_crypto_sha256_update(&h, op->key_a, (uint32_t)op->len_a);
    if (op->key_b)
        cpim_crypto_sha256_update(&h, op->key_b, (uint32_t)op->len_b);
    cpim_crypto_sha256_update(&h, op->nonce_a, 8);
    cpim_crypto_sha256_update(&h, op->nonce_b, 8);
    cpim_crypto_sha256_final(&h, fp);
    cpim_wipe(&h, sizeof h);
    if (op->seq == r->fp_seq && memcmp(fp, r->fp, sizeof fp) != 0)
        return CPIM_ERR_REGION_INTERRUPTED;
    memcpy(r->fp, fp, sizeof fp);
    r->fp_seq = op->seq;

    cpim_err rc = cpim_pim_machine_load(r->m, PIM_PROG_RESIDENT);
    if (rc != CPIM_OK)
        return region_end(r, rc);
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    struct res_key_args ka;
    memset(&ka, 0, sizeof ka);
    switch (op->kind) {
    case CPIM_REGION_XTS_ENC:
    case CPIM_REGION_XTS_DEC:
        ka.op = op->kind == CPIM_REGION_XTS_ENC ? RES_OP_XTS_ENC : RES_OP_XTS_DEC;
        xts_keys(op->key_a, op->len_a, op->kind == CPIM_REGION_XTS_DEC, ka.a_rk, &ka.a_nr,
                 &ka.a_k2);
        break;
    case CPIM_REGION_XTS_REKEY:
        ka.op = RES_OP_XTS_REKEY;
        xts_keys(op->key_a, op->len_a, 1, ka.a_rk, &ka.a_nr, &ka.a_k2);
        xts_keys(op->key_b, op->len_b, 0, ka.b_rk, &ka.b_nr, &ka.b_k2);
        break;
    case CPIM_REGION_CTR:
    case CPIM_REGION_CTR_REKEY:
        ka.op = op->kind == CPIM_REGION_CTR ? RES_OP_CTR : RES_OP_CTR_REKEY;
        ctr_key(op->key_a, op->len_a, op->nonce_a, ka.a_rk, &ka.a_nr, ka.a_iv);
        if (op->kind == CPIM_REGION_CTR_REKEY)
            ctr_key(op->key_b, op->len_b, op->nonce_b, ka.b_rk, &ka.b_nr, ka.b_iv);
        break;
    default:
        return CPIM_ERR_INVALID_ARG;
    }
    memset(r->from, 0, r->nd * sizeof *r->from);
    r->dirty = 1;
    rc = region_launch(r, op->seq, &ka, &t);
    cpim_wipe(&ka, sizeof ka);
    cpim_pim_clocks_stop(r->m, &clk, &t, st);
    st->bytes = (uint64_t)r->nd * r->per;
    return region_end(r, rc);
}

/* Merkle root of n >= 1 digests (cryptopim.h): pairs hashed level by level,
 * an odd last node carried up.  A level is one batch of independent 64-byte
 * messages through the host's best SHA-256 (the `auto` backend: SHA-NI or
 * multi-buffer SIMD lanes on every core): at 40 ranks with 4 KiB units the
 * tree has 21 M leaves, and one portable hash after another took 13.4 s of
 * the call's 16.3 s (measured, docs/RESIDENT.md).  Two buffers, because a
 * batch may write a parent before another lane has read its children. */
static cpim_err merkle(const uint8_t (*dig)[32], size_t n, uint8_t root[32])
{
    if (n == 1) {
        memcpy(root, dig[0], 32);
        return CPIM_OK;
    }
    const size_t half = (n + 1) / 2;
    uint8_t(*a)[32] = malloc(half * 32);
    uint8_t(*b)[32] = malloc(half * 32);
    const uint8_t **msgs = malloc(half * sizeof *msgs);
    size_t *lens = malloc(half * sizeof *lens);
    cpim_ctx *h = NULL;
    cpim_options o;
    cpim_options_init(&o);
    cpim_err rc = a && b && msgs && lens ? cpim_open(&h, "auto", &o) : CPIM_ERR_NOMEM;
    const uint8_t(*in)[32] = dig;
    uint8_t(*out)[32] = a;
    while (rc == CPIM_OK && n > 1) {
        const size_t k = n / 2;
        for (size_t i = 0; i < k; i++) {
            msgs[i] = in[2 * i]; /* in[2i] || in[2i + 1] are adjacent */
            lens[i] = 64;
        }
        rc = cpim_sha256_batch(h, msgs, lens, k, out);
        if (n % 2)
            memcpy(out[k], in[n - 1], 32);
        n = k + n % 2;
        in = (const uint8_t(*)[32])out;
        out = out == a ? b : a;
    }
    if (rc == CPIM_OK)
        memcpy(root, in[0], 32);
    cpim_close(h);
    free(a);
    free(b);
    free(msgs);
    free(lens);
    return rc;
}

static cpim_err region_sha256(void *region, uint32_t seq, uint8_t (*digests)[32], uint8_t root[32],
                              cpim_stats *st)
{
    struct pim_region *r = region;
    const uint32_t upd = (uint32_t)(r->per / r->unit); /* units per DPU */
    const size_t n = (size_t)r->nd * upd;
    uint8_t(*dig)[32] = digests ? digests : cpim_pim_malloc(r->faults, n * 32);
    if (!dig)
        return CPIM_ERR_NOMEM;
    r->fp_seq = 0; /* no keys: nothing to check on a repeat */
    cpim_err rc = cpim_pim_machine_load(r->m, PIM_PROG_RESIDENT_SHA);
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    if (rc == CPIM_OK) {
        struct res_key_args ka;
        memset(&ka, 0, sizeof ka);
        ka.op = RES_OP_SHA;
        for (uint32_t d = 0; d < r->nd; d++)
            r->from[d] =
                (cpim_pim_piece){dig[(size_t)d * upd], (uint32_t)(RES_HDR + r->per), 32 * upd};
        r->dirty = 1;
        rc = region_launch(r, seq, &ka, &t);
    }
    if (rc == CPIM_OK) {        /* timing-only too: its host work is part of the call's time */
        double t0 = cpim_now(); /* the root is host work of the call */
        rc = merkle((const uint8_t(*)[32])dig, n, root);
        t.out += cpim_now() - t0;
    }
    cpim_pim_clocks_stop(r->m, &clk, &t, st);
    st->bytes = (uint64_t)r->nd * r->per;
    memset(r->from, 0, r->nd * sizeof *r->from);
    rc = region_end(r, rc);
    if (rc == CPIM_ERR_TIMING_ONLY) {
        memset(root, 0, 32);
        if (digests)
            memset(digests, 0, n * 32);
    }
    if (dig != digests)
        free(dig);
    return rc;
}

const cpim_region_engine cpim_pim_region_engine = {
    region_create, region_destroy, region_layout, region_xfer, region_crypt, region_sha256,
};
