/*
 * aes_api.c -- the public API's AES (see cryptopim.h): the key slots, ECB,
 * CTR, XTS and GCM; argument checks here, the work in the context's AES
 * engine (backend.h).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"
#include "engine.h"

/* The common tail of the key setters (arguments checked): the context
 * taken, the engine's setter (op) called, the slot marked set only when it
 * succeeded. */
static cpim_err install_key(cpim_ctx *ctx, cpim_engine_op op, const uint8_t *key, size_t key_len,
                            int *has)
{
    if (!cpim_engine_has(ctx, op))
        return CPIM_ERR_UNSUPPORTED;
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    cpim_err rc = op == CPIM_OP_SET_KEY ? cpim_engine_set_key(ctx, key, key_len)
                                        : cpim_engine_xts_set_key(ctx, key, key_len);
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
    return install_key(ctx, CPIM_OP_SET_KEY, key, key_len, &ctx->has_key);
}

cpim_err cpim_aes_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len)
{
    if (!ctx || (len && (!in || !out)) || (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (len % 16)
        return CPIM_ERR_LENGTH;
    if (!cpim_engine_has(ctx, CPIM_OP_ECB))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = len ? cpim_engine_ecb(ctx, dir, in, out, len, &st) : CPIM_OK;
    return cpim_core_finish(ctx, rc, &st, t0);
}

cpim_err cpim_aes_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t len)
{
    if (!ctx || !counter || (len && (!in || !out)))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (!cpim_engine_has(ctx, CPIM_OP_CTR))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = len ? cpim_engine_ctr(ctx, counter, in, out, len, &st) : CPIM_OK;
    return cpim_core_finish(ctx, rc, &st, t0);
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
    return install_key(ctx, CPIM_OP_XTS_SET_KEY, key, key_len, &ctx->has_xts_key);
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
    if (!cpim_engine_has(ctx, CPIM_OP_XTS))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc =
        len ? cpim_engine_xts(ctx, dir, first_unit, unit_size, in, out, len, &st) : CPIM_OK;
    return cpim_core_finish(ctx, rc, &st, t0);
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
    if (!cpim_engine_has(ctx, CPIM_OP_GCM))
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_core_now(ctx);
    cpim_err rc = cpim_engine_gcm(ctx, dir, iv, iv_len, aad, aad_len, in, out, len, tag, &st);
    return cpim_core_finish(ctx, rc, &st, t0);
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
