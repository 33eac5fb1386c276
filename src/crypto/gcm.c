/* see gcm.h */
#include "gcm.h"

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

void cpim_crypto_gf128_mul(uint8_t x[16], const uint8_t y[16])
{
    uint64_t zh = 0, zl = 0, vh = be64(y), vl = be64(y + 8);
    for (int i = 0; i < 128; i++) {
        /* bit i of x, most significant bit of byte 0 first; masks, not
         * branches, so the time does not depend on the operands */
        uint64_t m = 0 - (uint64_t)((x[i >> 3] >> (7 - (i & 7))) & 1u);
        zh ^= vh & m;
        zl ^= vl & m;
        uint64_t r = 0 - (vl & 1u); /* V * x: shift right, fold x^128 back */
        vl = vl >> 1 | vh << 63;
        vh = vh >> 1 ^ (0xe100000000000000ull & r);
    }
    put_be64(x, zh);
    put_be64(x + 8, zl);
}

void cpim_crypto_ghash_init(cpim_crypto_ghash_key *k, const uint8_t h[16])
{
    /* i is a polynomial of degree < 4 in the nibble order of the block:
     * bit 3 of i (value 8) is the lowest power, so entry 8 is H itself and
     * 4, 2, 1 are H * x, H * x^2, H * x^3; the rest are sums. */
    uint64_t vh = be64(h), vl = be64(h + 8);
    k->hh[0] = k->hl[0] = 0;
    k->hh[8] = vh, k->hl[8] = vl;
    for (int i = 4; i > 0; i >>= 1) {
        uint64_t r = 0 - (vl & 1u);
        vl = vl >> 1 | vh << 63;
        vh = vh >> 1 ^ (0xe100000000000000ull & r);
        k->hh[i] = vh, k->hl[i] = vl;
    }
    for (int i = 2; i <= 8; i <<= 1)
        for (int j = 1; j < i; j++) {
            k->hh[i + j] = k->hh[i] ^ k->hh[j];
            k->hl[i + j] = k->hl[i] ^ k->hl[j];
        }
}

/* What a 4-bit right shift of Z drops off its end, folded back: the low 4
 * bits r of Z times x^128 reduced, as the top 16 bits (x^128 = x^7 + x^2 +
 * x + 1, i.e. 0xe1 in this bit order). */
static const uint16_t last4[16] = {0x0000, 0x1c20, 0x3840, 0x2460, 0x7080, 0x6ca0, 0x48c0, 0x54e0,
                                   0xe100, 0xfd20, 0xd940, 0xc560, 0x9180, 0x8da0, 0xa9c0, 0xb5e0};

void cpim_crypto_ghash_mul(const cpim_crypto_ghash_key *k, uint8_t x[16])
{
    /* Horner over the 32 nibbles from the last (highest powers) to the
     * first: Z = Z * x^4 + nibble * H. */
    uint64_t zh = 0, zl = 0;
    for (int i = 15; i >= 0; i--) {
        for (int half = 0; half < 2; half++) {
            unsigned nib = half ? x[i] >> 4 : x[i] & 0xfu;
            unsigned rem = (unsigned)(zl & 0xfu);
            zl = zh << 60 | zl >> 4;
            zh = zh >> 4 ^ (uint64_t)last4[rem] << 48;
            zh ^= k->hh[nib];
            zl ^= k->hl[nib];
        }
    }
    put_be64(x, zh);
    put_be64(x + 8, zl);
}

void cpim_crypto_ghash_blocks(const cpim_crypto_ghash_key *k, uint8_t y[16], const uint8_t *p,
                              uint64_t nblocks)
{
    for (; nblocks; nblocks--, p += 16) {
        for (int i = 0; i < 16; i++)
            y[i] ^= p[i];
        cpim_crypto_ghash_mul(k, y);
    }
}

void cpim_crypto_ghash_bytes(const cpim_crypto_ghash_key *k, uint8_t y[16], const uint8_t *p,
                             uint64_t len)
{
    cpim_crypto_ghash_blocks(k, y, p, len / 16);
    if (len % 16) {
        p += len - len % 16;
        for (unsigned i = 0; i < len % 16; i++)
            y[i] ^= p[i];
        cpim_crypto_ghash_mul(k, y);
    }
}

void cpim_crypto_gcm_len_block(uint8_t b[16], uint64_t aad_len, uint64_t len)
{
    put_be64(b, aad_len * 8);
    put_be64(b + 8, len * 8);
}

int cpim_crypto_gcm_j0_iv96(const uint8_t *iv, uint64_t iv_len, uint8_t j0[16])
{
    for (int i = 0; i < 16; i++)
        j0[i] = 0;
    if (iv_len != 12)
        return 0;
    for (int i = 0; i < 12; i++)
        j0[i] = iv[i];
    j0[15] = 1;
    return 1;
}

void cpim_crypto_gcm_j0(const cpim_crypto_ghash_key *k, const uint8_t *iv, uint64_t iv_len,
                        uint8_t j0[16])
{
    if (cpim_crypto_gcm_j0_iv96(iv, iv_len, j0))
        return;
    uint8_t lb[16];
    cpim_crypto_ghash_bytes(k, j0, iv, iv_len);
    cpim_crypto_gcm_len_block(lb, 0, iv_len);
    cpim_crypto_ghash_blocks(k, j0, lb, 1);
}

void cpim_crypto_gcm_inc32(uint8_t ctr[16], uint32_t n)
{
    uint32_t c =
        (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 | (uint32_t)ctr[14] << 8 | ctr[15];
    c += n;
    ctr[12] = (uint8_t)(c >> 24), ctr[13] = (uint8_t)(c >> 16), ctr[14] = (uint8_t)(c >> 8);
    ctr[15] = (uint8_t)c;
}
