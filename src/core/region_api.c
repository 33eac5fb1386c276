/*
 * region_api.c -- the public API's resident regions (see cryptopim.h): the
 * argument and key checks, the interrupted state and its retry, the
 * region's statistics; the work in the context's region engine
 * (backend.h).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "engine.h"

struct cpim_region {
    cpim_ctx *ctx;
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
    if (!cpim_engine_has(ctx, CPIM_OP_REGION))
        return CPIM_ERR_UNSUPPORTED;
    cpim_region *r = calloc(1, sizeof *r);
    if (!r)
        return CPIM_ERR_NOMEM;
    r->ctx = ctx;
    if (atomic_flag_test_and_set(&ctx->busy)) {
        free(r);
        return CPIM_ERR_BUSY;
    }
    cpim_err rc = cpim_engine_region_create(ctx, size, (uint32_t)unit_size, &r->impl);
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
    cpim_engine_region_destroy(region->ctx, region->impl);
    free(region);
}

cpim_err cpim_region_layout(const cpim_region *region, uint32_t *dpus, uint64_t *bytes_per_dpu,
                            size_t *unit_size)
{
    if (!region)
        return CPIM_ERR_INVALID_ARG;
    uint32_t nd = 0, unit = 0;
    uint64_t per = 0;
    cpim_engine_region_layout(region->ctx, region->impl, &nd, &per, &unit);
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
    cpim_engine_region_layout(region->ctx, region->impl, &nd, &per, &unit);
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

/* The context taken (as cpim_core_begin()), and cpim_core_finish()'s statistics for the region. */
static cpim_err region_finish(cpim_region *r, cpim_err rc, cpim_stats *st, double t0)
{
    if (rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY) {
        cpim_core_measured(r->ctx, st, t0);
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
    if (cpim_core_begin(r->ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(r->ctx);
    cpim_err rc = len ? cpim_engine_region_xfer(r->ctx, r->impl, to, off, buf, len, &st) : CPIM_OK;
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
    if (cpim_core_begin(r->ctx, &st, cpim_region_size(r)) != CPIM_OK)
        return CPIM_ERR_BUSY;
    const uint32_t seq = r->interrupted ? r->seq : r->seq + 1;
    double t0 = cpim_core_now(r->ctx);
    cpim_err rc;
    if (sha) {
        rc = cpim_engine_region_sha256(r->ctx, r->impl, seq, digests, root, &st);
    } else {
        op->seq = seq;
        rc = cpim_engine_region_crypt(r->ctx, r->impl, op, &st);
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
