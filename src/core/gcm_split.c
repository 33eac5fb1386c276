/*
 * gcm_split.c -- one AES-GCM message processed in ranges (by different
 * processes, cryptopim-mpi) and one tag made from the ranges' partial
 * GHASH values (include/cryptopim.h, "AES-GCM split over processes").
 *
 * Built on the public calls (cpim_aes_ecb for H and E_K(J0), cpim_aes_ctr
 * for the keystream), so it works on every backend that has ECB and CTR,
 * and on the portable GHASH of src/crypto/gcm.c for the hashing: the range
 * is hashed on the host, which is what lets any backend join without a new
 * engine op.  A backend with the optional aes.gcm_range op (backend.h:
 * `aesni`, with its constant-time PCLMULQDQ / VPCLMULQDQ GHASH, and `auto`
 * where it picks it) runs the range's CTR and GHASH there instead.  Every value derived from the
 * key (H, its table, E_K(J0), the running GHASH) is wiped before returning.
 */
#include <string.h>

#include "core.h"
#include "cryptopim.h"
#include "engine.h"
#include "gcm.h"

/* SP 800-38D 5.2.1.1, as aes_api.c: 2^32 - 2 blocks at most. */
#define GCM_MAX_LEN ((((uint64_t)1) << 36) - 32)

/* H = E_K(0^128), its table, and J0 of the IV. */
static cpim_err gcm_setup(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, uint8_t h[16],
                          cpim_crypto_ghash_key *hk, uint8_t j0[16])
{
    memset(h, 0, 16);
    cpim_err rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, h, h, 16);
    if (rc != CPIM_OK)
        return rc;
    cpim_crypto_ghash_init(hk, h);
    cpim_crypto_gcm_j0(hk, iv, iv_len, j0);
    return CPIM_OK;
}

static void wipe_setup(uint8_t h[16], cpim_crypto_ghash_key *hk, uint8_t j0[16])
{
    cpim_wipe(h, 16);
    cpim_wipe(hk, sizeof *hk);
    cpim_wipe(j0, 16);
}

/* The range in one call of the engine's gcm_range (CTR and GHASH with the
 * backend's constant-time kernels), timed as a public call. */
static cpim_err range_on_engine(cpim_ctx *ctx, cpim_dir dir, const uint8_t j0[16],
                                uint64_t first_block, const uint8_t *in, uint8_t *out, size_t len,
                                uint8_t y[16])
{
    uint8_t c[16];
    memcpy(c, j0, 16);
    cpim_crypto_gcm_inc32(c, (uint32_t)(1 + first_block));
    cpim_stats st;
    if (cpim_core_begin(ctx, &st, len) != CPIM_OK) {
        cpim_wipe(c, sizeof c);
        return CPIM_ERR_BUSY;
    }
    double t0 = cpim_now();
    cpim_err rc = cpim_engine_gcm_range(ctx, dir, c, y, in, out, len, &st);
    cpim_wipe(c, sizeof c);
    return cpim_core_finish(ctx, rc, &st, t0);
}

/* see cryptopim.h */
cpim_err cpim_aes_gcm_range(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                            uint64_t first_block, const uint8_t *in, uint8_t *out, size_t len,
                            uint8_t ghash[16])
{
    if (!ctx || !iv || iv_len == 0 || (len && (!in || !out)) || !ghash ||
        (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT) || first_block > (GCM_MAX_LEN >> 4) ||
        (uint64_t)len > GCM_MAX_LEN - 16 * first_block || (uint64_t)iv_len > (UINT64_MAX >> 4))
        return CPIM_ERR_INVALID_ARG;
    uint8_t h[16], j0[16], y[16] = {0};
    cpim_crypto_ghash_key hk;
    cpim_err rc = gcm_setup(ctx, iv, iv_len, h, &hk, j0);
    if (rc != CPIM_OK)
        goto out;
    if (len && cpim_engine_has(ctx, CPIM_OP_GCM_RANGE)) {
        rc = range_on_engine(ctx, dir, j0, first_block, in, out, len, y);
        if (rc == CPIM_OK)
            memcpy(ghash, y, 16);
        goto out;
    }
    if (dir == CPIM_DECRYPT) /* hash the ciphertext before it is overwritten */
        cpim_crypto_ghash_bytes(&hk, y, in, len);
    /* cpim_aes_ctr increments all 128 bits; GCM's inc32 only the low 32:
     * they agree until the low 32 bits wrap, where the call is split. */
    uint8_t ctr[16];
    memcpy(ctr, j0, 16);
    cpim_crypto_gcm_inc32(ctr, (uint32_t)(1 + first_block));
    size_t done = 0;
    while (done < len) {
        uint32_t low = (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 | (uint32_t)ctr[14] << 8 |
                       (uint32_t)ctr[15];
        uint64_t to_wrap = ((uint64_t)1 << 32) - low; /* blocks before the low bits wrap */
        size_t n = len - done;
        if ((uint64_t)n > 16 * to_wrap)
            n = (size_t)(16 * to_wrap);
        rc = cpim_aes_ctr(ctx, ctr, in + done, out + done, n);
        if (rc != CPIM_OK)
            break;
        done += n;
        if (done < len) { /* the wrap: back to low 32 bits 0, the rest kept */
            memcpy(ctr, j0, 12);
            memset(ctr + 12, 0, 4);
        }
    }
    cpim_wipe(ctr, sizeof ctr);
    if (rc == CPIM_OK && dir == CPIM_ENCRYPT)
        cpim_crypto_ghash_bytes(&hk, y, out, len);
    if (rc == CPIM_OK)
        memcpy(ghash, y, 16);
out:
    cpim_wipe(y, sizeof y);
    wipe_setup(h, &hk, j0);
    return rc;
}

/* y = y * H^n, by squaring (n up to 2^32). */
static void mul_h_pow(uint8_t y[16], const uint8_t h[16], uint64_t n)
{
    uint8_t p[16];
    memcpy(p, h, 16);
    while (n) {
        if (n & 1)
            cpim_crypto_gf128_mul(y, p);
        n >>= 1;
        if (n)
            cpim_crypto_gf128_mul(p, p);
    }
    cpim_wipe(p, sizeof p);
}

/* see cryptopim.h */
cpim_err cpim_aes_gcm_finish(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                             const uint8_t *aad, size_t aad_len, const uint8_t (*ghash)[16],
                             const uint64_t *lens, size_t n, uint8_t tag[16])
{
    if (!ctx || !iv || iv_len == 0 || (aad_len && !aad) || (n && (!ghash || !lens)) || !tag ||
        (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT) || (uint64_t)iv_len > (UINT64_MAX >> 4) ||
        (uint64_t)aad_len > (UINT64_MAX >> 4))
        return CPIM_ERR_INVALID_ARG;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if ((i + 1 < n && lens[i] % 16) || lens[i] > GCM_MAX_LEN - total)
            return CPIM_ERR_INVALID_ARG;
        total += lens[i];
    }
    uint8_t h[16], j0[16], y[16] = {0}, b[16];
    cpim_crypto_ghash_key hk;
    cpim_err rc = gcm_setup(ctx, iv, iv_len, h, &hk, j0);
    if (rc != CPIM_OK)
        goto out;
    cpim_crypto_ghash_bytes(&hk, y, aad, aad_len);
    for (size_t i = 0; i < n; i++) { /* GHASH(A || R) = GHASH(A) H^blocks(R) + GHASH(R) */
        mul_h_pow(y, h, (lens[i] + 15) / 16);
        for (int k = 0; k < 16; k++)
            y[k] ^= ghash[i][k];
    }
    cpim_crypto_gcm_len_block(b, aad_len, total);
    cpim_crypto_ghash_blocks(&hk, y, b, 1);
    rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, j0, b, 16); /* E_K(J0) */
    if (rc != CPIM_OK)
        goto out;
    for (int k = 0; k < 16; k++)
        b[k] ^= y[k];
    if (dir == CPIM_ENCRYPT) {
        memcpy(tag, b, 16);
    } else {
        volatile uint8_t diff = 0; /* constant time: no early exit */
        for (int k = 0; k < 16; k++)
            diff |= b[k] ^ tag[k];
        if (diff != 0)
            rc = CPIM_ERR_AUTH;
    }
out:
    cpim_wipe(b, sizeof b);
    cpim_wipe(y, sizeof y);
    wipe_setup(h, &hk, j0);
    return rc;
}
