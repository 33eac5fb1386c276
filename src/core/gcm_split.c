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
 * where it picks it) runs the range's CTR and GHASH there instead, and
 * every other GHASH here too (the AAD, the length block, a J0 from a long
 * IV: ghash_on_engine), so that no table indexed by bits of H is built.
 * Chaining the ranges' partials multiplies by powers of H bit by bit
 * (cpim_crypto_gf128_mul, no table either).  Every value derived from the
 * key (H, its table, E_K(J0), the running GHASH) is wiped before returning.
 */
#include <string.h>

#include "core.h"
#include "cryptopim.h"
#include "engine.h"
#include "gcm.h"

/* SP 800-38D 5.2.1.1, as aes_api.c: 2^32 - 2 blocks at most. */
#define GCM_MAX_LEN ((((uint64_t)1) << 36) - 32)

/* Scratch for the engine's GHASH (ghash_on_engine): its CTR output. */
#define GHASH_SCRATCH 4096u

/* y = GHASH of len bytes continued from y (a partial last block padded
 * with zeros) on the engine's gcm_range: the backend's constant-time
 * carry-less GHASH, where the portable one indexes tables by bits of H.
 * gcm_range also runs CTR over the bytes (from a zero counter block): that
 * output goes to a scratch buffer, wiped. */
static cpim_err ghash_on_engine(cpim_ctx *ctx, uint8_t y[16], const uint8_t *p, size_t len)
{
    uint8_t scratch[GHASH_SCRATCH], c[16] = {0};
    cpim_err rc = CPIM_OK;
    for (size_t off = 0; off < len && rc == CPIM_OK;) {
        size_t n = len - off < GHASH_SCRATCH ? len - off : GHASH_SCRATCH;
        cpim_stats st;
        if (cpim_core_begin(ctx, &st, n) != CPIM_OK) {
            rc = CPIM_ERR_BUSY;
            break;
        }
        double t0 = cpim_core_now(ctx);
        rc = cpim_core_finish(
            ctx, cpim_engine_gcm_range(ctx, CPIM_DECRYPT, c, y, p + off, scratch, n, &st), &st, t0);
        off += n;
    }
    cpim_wipe(scratch, sizeof scratch);
    cpim_wipe(c, sizeof c);
    return rc;
}

/* y = GHASH of len bytes continued from y: on the engine when it has
 * gcm_range, else with the portable table hk. */
static cpim_err hash_bytes(cpim_ctx *ctx, const cpim_crypto_ghash_key *hk, uint8_t y[16],
                           const uint8_t *p, size_t len)
{
    if (len == 0)
        return CPIM_OK;
    if (cpim_engine_has(ctx, CPIM_OP_GCM_RANGE))
        return ghash_on_engine(ctx, y, p, len);
    cpim_crypto_ghash_bytes(hk, y, p, len);
    return CPIM_OK;
}

/* J0 of the IV (SP 800-38D 7.1: IV || 0^31 || 1 for 96 bits, else the
 * GHASH of IV || 0^s || [8 * iv_len]_128); without the engine's GHASH, the
 * portable table hk of H = E_K(0^128), and with `need_h` H itself (h is
 * left zero when neither needs it: the engine's range does not). */
static cpim_err gcm_setup(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, int need_h,
                          uint8_t h[16], cpim_crypto_ghash_key *hk, uint8_t j0[16])
{
    const int engine = cpim_engine_has(ctx, CPIM_OP_GCM_RANGE);
    memset(h, 0, 16);
    memset(hk, 0, sizeof *hk);
    if (need_h || !engine) {
        cpim_err rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, h, h, 16);
        if (rc != CPIM_OK)
            return rc;
    }
    if (!engine)
        cpim_crypto_ghash_init(hk, h);
    if (cpim_crypto_gcm_j0_iv96(iv, iv_len, j0))
        return CPIM_OK;
    uint8_t lb[16];
    cpim_err rc = hash_bytes(ctx, hk, j0, iv, iv_len);
    cpim_crypto_gcm_len_block(lb, 0, iv_len);
    if (rc == CPIM_OK)
        rc = hash_bytes(ctx, hk, j0, lb, 16);
    return rc;
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
    double t0 = cpim_core_now(ctx);
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
    cpim_err rc = gcm_setup(ctx, iv, iv_len, 0, h, &hk, j0);
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
    cpim_err rc = gcm_setup(ctx, iv, iv_len, 1, h, &hk, j0);
    if (rc != CPIM_OK)
        goto out;
    rc = hash_bytes(ctx, &hk, y, aad, aad_len);
    if (rc != CPIM_OK)
        goto out;
    for (size_t i = 0; i < n; i++) { /* GHASH(A || R) = GHASH(A) H^blocks(R) + GHASH(R) */
        mul_h_pow(y, h, (lens[i] + 15) / 16);
        for (int k = 0; k < 16; k++)
            y[k] ^= ghash[i][k];
    }
    cpim_crypto_gcm_len_block(b, aad_len, total);
    rc = hash_bytes(ctx, &hk, y, b, 16);
    if (rc != CPIM_OK)
        goto out;
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
