/*
 * hmac.c -- portable HMAC-SHA256 and PBKDF2-HMAC-SHA256 (see hmac.h).
 */
#include "hmac.h"

#include "sha256.h"

/* A volatile loop the compiler keeps (no libc here: see sha256.h). */
static void wipe(void *p, uint32_t n)
{
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
}

static void be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static const uint32_t iv[8] = CPIM_SHA256_IV;

void cpim_crypto_hmac_sha256_pads(const uint8_t *key, uint32_t key_len, uint32_t istate[8],
                                  uint32_t ostate[8])
{
    uint8_t k[64], blk[64];
    for (int i = 0; i < 64; i++)
        k[i] = 0;
    if (key_len > 64) {
        cpim_crypto_sha256(key, key_len, k);
    } else {
        for (uint32_t i = 0; i < key_len; i++)
            k[i] = key[i];
    }
    for (int i = 0; i < 8; i++)
        istate[i] = iv[i], ostate[i] = iv[i];
    for (int i = 0; i < 64; i++)
        blk[i] = k[i] ^ 0x36;
    cpim_crypto_sha256_blocks(istate, blk, 1);
    for (int i = 0; i < 64; i++)
        blk[i] = k[i] ^ 0x5c;
    cpim_crypto_sha256_blocks(ostate, blk, 1);
    wipe(k, sizeof k);
    wipe(blk, sizeof blk);
}

/* The one padded block of a 32-byte message after a 64-byte key block:
 * bytes, 0x80, zeros, the length 96 * 8 = 768 bits. */
static void block32(uint8_t blk[64], const uint32_t in[8])
{
    for (int i = 0; i < 8; i++)
        be32_put(blk + 4 * i, in[i]);
    blk[32] = 0x80;
    for (int i = 33; i < 62; i++)
        blk[i] = 0;
    blk[62] = 0x03, blk[63] = 0x00;
}

void cpim_crypto_hmac_sha256_32(const uint32_t istate[8], const uint32_t ostate[8],
                                const uint32_t in[8], uint32_t out[8])
{
    uint8_t blk[64];
    uint32_t h[8];
    for (int i = 0; i < 8; i++)
        h[i] = istate[i];
    block32(blk, in);
    cpim_crypto_sha256_blocks(h, blk, 1);
    block32(blk, h);
    for (int i = 0; i < 8; i++)
        out[i] = ostate[i];
    cpim_crypto_sha256_blocks(out, blk, 1);
    wipe(blk, sizeof blk);
    wipe(h, sizeof h);
}

/* Inner hash of a message after the key block: from istate, with the
 * length counting the 64 key bytes. */
static void inner(const uint32_t istate[8], const uint8_t *msg, uint32_t len, const uint8_t *msg2,
                  uint32_t len2, uint32_t h[8])
{
    cpim_crypto_sha256_ctx c;
    cpim_crypto_sha256_init(&c);
    for (int i = 0; i < 8; i++)
        c.h[i] = istate[i];
    c.nbytes = 64;
    cpim_crypto_sha256_update(&c, msg, len);
    cpim_crypto_sha256_update(&c, msg2, len2);
    uint8_t d[32];
    cpim_crypto_sha256_final(&c, d);
    for (int i = 0; i < 8; i++)
        h[i] = (uint32_t)d[4 * i] << 24 | (uint32_t)d[4 * i + 1] << 16 |
               (uint32_t)d[4 * i + 2] << 8 | d[4 * i + 3];
    wipe(d, sizeof d);
    wipe(&c, sizeof c);
}

void cpim_crypto_hmac_sha256_states(const uint32_t istate[8], const uint32_t ostate[8],
                                    const uint8_t *m1, uint32_t l1, const uint8_t *m2, uint32_t l2,
                                    uint32_t out[8])
{
    uint32_t h[8];
    uint8_t blk[64];
    inner(istate, m1, l1, m2, l2, h);
    block32(blk, h);
    for (int i = 0; i < 8; i++)
        out[i] = ostate[i];
    cpim_crypto_sha256_blocks(out, blk, 1);
    wipe(h, sizeof h);
    wipe(blk, sizeof blk);
}

void cpim_crypto_hmac_sha256(const uint8_t *key, uint32_t key_len, const uint8_t *msg,
                             uint32_t msg_len, uint8_t mac[32])
{
    uint32_t is[8], os[8], h[8], out[8];
    cpim_crypto_hmac_sha256_pads(key, key_len, is, os);
    inner(is, msg, msg_len, 0, 0, h);
    uint8_t blk[64];
    block32(blk, h);
    for (int i = 0; i < 8; i++)
        out[i] = os[i];
    cpim_crypto_sha256_blocks(out, blk, 1);
    for (int i = 0; i < 8; i++)
        be32_put(mac + 4 * i, out[i]);
    wipe(is, sizeof is), wipe(os, sizeof os), wipe(h, sizeof h), wipe(out, sizeof out);
    wipe(blk, sizeof blk);
}

void cpim_crypto_pbkdf2_sha256(const uint8_t *pass, uint32_t pass_len, const uint8_t *salt,
                               uint32_t salt_len, uint32_t iterations, uint8_t *out,
                               uint32_t out_len)
{
    uint32_t is[8], os[8], u[8], t[8];
    cpim_crypto_hmac_sha256_pads(pass, pass_len, is, os);
    for (uint32_t j = 1, done = 0; done < out_len; j++) {
        uint8_t ij[4], tb[32];
        be32_put(ij, j);
        inner(is, salt, salt_len, ij, 4, u); /* U1 = PRF(P, S || INT(j)) */
        uint8_t blk[64];
        block32(blk, u);
        for (int i = 0; i < 8; i++)
            u[i] = os[i];
        cpim_crypto_sha256_blocks(u, blk, 1);
        for (int i = 0; i < 8; i++)
            t[i] = u[i];
        for (uint32_t c = 1; c < iterations; c++) {
            cpim_crypto_hmac_sha256_32(is, os, u, u);
            for (int i = 0; i < 8; i++)
                t[i] ^= u[i];
        }
        for (int i = 0; i < 8; i++)
            be32_put(tb + 4 * i, t[i]);
        uint32_t n = out_len - done < 32 ? out_len - done : 32;
        for (uint32_t i = 0; i < n; i++)
            out[done + i] = tb[i];
        done += n;
        wipe(tb, sizeof tb), wipe(blk, sizeof blk);
    }
    wipe(is, sizeof is), wipe(os, sizeof os), wipe(u, sizeof u), wipe(t, sizeof t);
}
