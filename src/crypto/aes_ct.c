/*
 * aes_ct.c -- constant-time AES (bitsliced, 64-bit words), its key schedule,
 * CTR and XTS over any width of the rounds, and a constant-time GHASH (see
 * aes_ct.h for the contract; aes_ct_core.h for the rounds).
 */
#include "aes_ct.h"

#include "bytes.h"
#include "gcm.h"

/* ---- the 64-bit width of the rounds ---------------------------------------- */

#define CT_W      uint64_t
#define CT_LANES  1
#define CT_SFX(n) n
#define CT_TGT
#define CT_LINK
#include "aes_ct_core.h"
#undef CT_LINK
#undef CT_W
#undef CT_LANES
#undef CT_SFX
#undef CT_TGT

const cpim_crypto_aes_ct_impl cpim_crypto_aes_ct64 = {"ct64", 4, cpim_crypto_aes_ct_blocks};

/* ---- key schedule -------------------------------------------------------- */

/* SubWord on a big-endian column word through the bitsliced S-box: the word
 * is one block's first 4 bytes (the rest zero), so no index depends on it. */
static uint32_t sub_word_ct(uint32_t x)
{
    uint8_t b[64] = {0};
    uint64_t q[8];
    st32(b, x);
    load(q, b);
    sbox(q);
    store(b, q);
    uint32_t r = ld32(b);
    cpim_crypto_ct_wipe(b, sizeof b);
    cpim_crypto_ct_wipe(q, sizeof q);
    return r;
}

/* Doubling each byte of a word in GF(2^8), by masks (no branch). */
static inline uint32_t xtime4(uint32_t x)
{
    return ((x & 0x7f7f7f7fu) << 1) ^ (((x >> 7) & 0x01010101u) * 0x1bu);
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return x << n | x >> (32 - n);
}

/* InvMixColumns of one big-endian column word (row 0 in the top byte), as
 * MixColumns o (5 a_r + 4 a_r+2) (aes_ct_core.h, inv_mix_columns). */
static uint32_t inv_mix_word(uint32_t x)
{
    uint32_t t = x ^ rotl32(x, 16);
    x ^= xtime4(xtime4(t));
    uint32_t r = rotl32(x, 8); /* row r holds a_r+1 */
    uint32_t a = x ^ r;
    return xtime4(a) ^ r ^ rotl32(a, 16);
}

/* see aes_ct.h */
uint32_t cpim_crypto_aes_ct_expand_words(cpim_crypto_aes_ks *ek, cpim_crypto_aes_ks *dk,
                                         const uint8_t *key, uint32_t key_len)
{
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return 0;
    /* the loop structure depends on the key length only (public) */
    uint32_t nk = key_len / 4, nr = nk + 6, n = 4 * (nr + 1);
    uint32_t rcon = 1, j = 0;
    for (uint32_t i = 0; i < nk; i++)
        ek->rk[i] = ld32(key + 4 * i);
    for (uint32_t i = nk; i < n; i++) {
        uint32_t t = ek->rk[i - 1];
        if (j == 0) {
            t = sub_word_ct(rotl32(t, 8)) ^ (rcon << 24);
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11bu);
        } else if (nk > 6 && j == 4) {
            t = sub_word_ct(t);
        }
        ek->rk[i] = ek->rk[i - nk] ^ t;
        j = j + 1 == nk ? 0 : j + 1;
    }
    for (uint32_t i = n; i < 4 * (CPIM_AES_MAX_ROUNDS + 1); i++)
        ek->rk[i] = 0;
    ek->nr = nr;
    if (dk) {
        for (uint32_t r = 0; r <= nr; r++)
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t x = ek->rk[4 * (nr - r) + c];
                dk->rk[4 * r + c] = r != 0 && r != nr ? inv_mix_word(x) : x;
            }
        for (uint32_t i = n; i < 4 * (CPIM_AES_MAX_ROUNDS + 1); i++)
            dk->rk[i] = 0;
        dk->nr = nr;
    }
    return nr;
}

/* see aes_ct.h */
uint32_t cpim_crypto_aes_ct_expand(cpim_crypto_aes_ct_ks *ks, const uint8_t *key, uint32_t key_len)
{
    cpim_crypto_aes_ks ek;
    uint32_t nr = cpim_crypto_aes_ct_expand_words(&ek, 0, key, key_len);
    if (!nr)
        return 0;
    for (uint32_t u = 0; u < CPIM_AES_MAX_ROUNDS + 1; u++) {
        /* round key u in the 4 blocks of a word, then to planes */
        uint8_t b[64];
        uint64_t q[8];
        for (int blk = 0; blk < 4; blk++)
            for (int c = 0; c < 4; c++)
                st32(b + 16 * blk + 4 * c, u <= nr ? ek.rk[4 * u + c] : 0);
        load(q, b);
        for (int k = 0; k < 8; k++)
            ks->rk[8 * u + k] = q[k];
        cpim_crypto_ct_wipe(b, sizeof b);
        cpim_crypto_ct_wipe(q, sizeof q);
    }
    ks->nr = nr;
    cpim_crypto_ct_wipe(&ek, sizeof ek);
    return nr;
}

/* ---- CTR and XTS ------------------------------------------------------------ */

#define CT_CHUNK 128u /* blocks per pass of the modes (2 KiB): a multiple of every width's par */

/* Whole 8-byte loads and stores: the rounds read each 4-byte word of what
 * these write, and narrower stores there would stall store forwarding (it
 * halved CTR's speed when the counters were written byte by byte). */
static inline uint64_t le64(const uint8_t *p)
{
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    __builtin_memcpy(p, &v, 8);
}

static inline uint64_t be64(const uint8_t *p)
{
    return __builtin_bswap64(le64(p));
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
    put_le64(p, __builtin_bswap64(v));
}

/* out = a ^ b over n bytes, 8 at a time where it can */
static void xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        __builtin_memcpy(&x, a + i, 8);
        __builtin_memcpy(&y, b + i, 8);
        x ^= y;
        __builtin_memcpy(out + i, &x, 8);
    }
    for (; i < n; i++)
        out[i] = a[i] ^ b[i];
}

/* CTR with a 128-bit (inc32 = 0) or GCM's 32-bit (inc32 = 1) increment */
static void ctr_any(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *ks,
                    uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t len, int inc32)
{
    uint8_t buf[16 * CT_CHUNK];
    uint64_t hi = be64(ctr), lo = be64(ctr + 8); /* the counter is public */
    while (len) {
        size_t nb = (len + 15) / 16;
        if (nb > CT_CHUNK)
            nb = CT_CHUNK;
        for (size_t i = 0; i < nb; i++) {
            put_be64(buf + 16 * i, hi);
            put_be64(buf + 16 * i + 8, lo);
            if (inc32) /* arithmetic only: GCM's J0 may be secret */
                lo = (lo & 0xffffffff00000000ull) | ((lo + 1) & 0xffffffffull);
            else
                hi += ++lo == 0;
        }
        im->blocks(ks, 0, buf, buf, nb);
        size_t n = len < 16 * nb ? len : 16 * nb;
        xor_bytes(out, in, buf, n);
        in += n, out += n, len -= n;
    }
    put_be64(ctr, hi);
    put_be64(ctr + 8, lo);
    cpim_crypto_ct_wipe(buf, sizeof buf);
}

/* see aes_ct.h */
void cpim_crypto_aes_ct_ctr(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *ks,
                            uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t len)
{
    ctr_any(im, ks, ctr, in, out, len, 0);
}

/* see aes_ct.h */
void cpim_crypto_aes_ct_ctr32(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *ks,
                              uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t len)
{
    ctr_any(im, ks, ctr, in, out, len, 1);
}

/* t *= alpha in XTS's GF(2^128) (little-endian 128-bit number), by masks */
static inline void xts_alpha(uint64_t *tl, uint64_t *th)
{
    uint64_t m = 0 - (*th >> 63);
    *th = *th << 1 | *tl >> 63;
    *tl = *tl << 1 ^ (m & 0x87u);
}

/* see aes_ct.h */
void cpim_crypto_aes_ct_xts_unit(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *k1,
                                 const cpim_crypto_aes_ct_ks *k2, int dec, uint64_t unit,
                                 const uint8_t *in, uint8_t *out, size_t len)
{
    if (len < 16)
        return;
    uint8_t t[16] = {0}, tw[16 * CT_CHUNK], buf[16 * CT_CHUNK];
    put_le64(t, unit); /* plain64 tweak block */
    im->blocks(k2, 0, t, t, 1);
    uint64_t tl = le64(t), th = le64(t + 8);
    const size_t r = len % 16;
    /* with stealing, the last full block and the partial one go together */
    size_t m = len / 16 - (r != 0);
    while (m) {
        size_t nb = m < CT_CHUNK ? m : CT_CHUNK;
        for (size_t i = 0; i < nb; i++) {
            put_le64(tw + 16 * i, tl);
            put_le64(tw + 16 * i + 8, th);
            xts_alpha(&tl, &th);
        }
        xor_bytes(buf, in, tw, 16 * nb);
        im->blocks(k1, dec, buf, buf, nb);
        xor_bytes(out, buf, tw, 16 * nb);
        in += 16 * nb, out += 16 * nb, m -= nb;
    }
    if (r) {
        /* IEEE 1619 5.3.2 / 5.4.2: (tl, th) is T_m-1 here, the next T_m;
         * encrypt: CC = E(P_m-1, T_m-1), decrypt: PP = D(C_m-1, T_m) */
        uint8_t *ta = tw, *tb = tw + 16, *a = buf, *b = buf + 16;
        put_le64(ta, tl), put_le64(ta + 8, th);
        xts_alpha(&tl, &th);
        put_le64(tb, tl), put_le64(tb + 8, th);
        const uint8_t *tfirst = dec ? tb : ta, *tsecond = dec ? ta : tb;
        xor_bytes(a, in, tfirst, 16);
        im->blocks(k1, dec, a, a, 1);
        xor_bytes(a, a, tfirst, 16);
        for (size_t i = 0; i < 16; i++) /* the short block (read before out is written) */
            b[i] = i < r ? in[16 + i] : a[i];
        for (size_t i = 0; i < r; i++)
            out[16 + i] = a[i];
        xor_bytes(b, b, tsecond, 16);
        im->blocks(k1, dec, b, b, 1);
        xor_bytes(out, b, tsecond, 16);
    }
    cpim_crypto_ct_wipe(t, sizeof t);
    cpim_crypto_ct_wipe(tw, sizeof tw);
    cpim_crypto_ct_wipe(buf, sizeof buf);
    tl = th = 0;
}

/* ---- GHASH ------------------------------------------------------------------ */

/* The low 64 bits of the carry-less product x * y from 16 integer multiplies:
 * each operand split into 4 parts whose set bits are 4 apart.  In a product
 * of two parts, a column below bit 60 sums at most 15 one-bits, so its
 * carries stay within the next 3 bits, which belong to other parts and are
 * masked off; columns 60..63 may carry past bit 63, out of the word.  The
 * multiplier's time does not depend on its operands on the CPUs we target
 * (BearSSL's notes on ghash_ctmul64 list the exceptions: none current). */
static inline uint64_t bmul64(uint64_t x, uint64_t y)
{
    const uint64_t m0 = 0x1111111111111111ull, m1 = 0x2222222222222222ull;
    const uint64_t m2 = 0x4444444444444444ull, m3 = 0x8888888888888888ull;
    uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

static inline uint64_t rev64(uint64_t x)
{
    x = ((x & 0x5555555555555555ull) << 1) | ((x >> 1) & 0x5555555555555555ull);
    x = ((x & 0x3333333333333333ull) << 2) | ((x >> 2) & 0x3333333333333333ull);
    x = ((x & 0x0F0F0F0F0F0F0F0Full) << 4) | ((x >> 4) & 0x0F0F0F0F0F0F0F0Full);
    return __builtin_bswap64(x);
}

/* see aes_ct.h */
void cpim_crypto_ghash_ct_init(cpim_crypto_ghash_ct_key *k, const uint8_t h[16])
{
    /* GCM's bit 0 is the top bit of byte 0: reversing each big-endian half
     * gives the normal order (bit i = x^i) */
    k->h0 = rev64(be64(h));
    k->h1 = rev64(be64(h + 8));
    k->h2 = k->h0 ^ k->h1;
    k->h0r = rev64(k->h0);
    k->h1r = rev64(k->h1);
    k->h2r = rev64(k->h2);
}

/* see aes_ct.h */
void cpim_crypto_ghash_ct_blocks(const cpim_crypto_ghash_ct_key *k, uint8_t y[16], const uint8_t *p,
                                 size_t nblocks)
{
    uint64_t y0 = rev64(be64(y)), y1 = rev64(be64(y + 8));
    for (; nblocks; nblocks--, p += 16) {
        y0 ^= rev64(be64(p));
        y1 ^= rev64(be64(p + 8));
        /* Karatsuba: three 64 x 64 products, each as low half bmul64 and high
         * half from the reversed operands (rev(x) * rev(y) = rev(x * y) >> 1) */
        uint64_t y2 = y0 ^ y1, y0r = rev64(y0), y1r = rev64(y1), y2r = rev64(y2);
        uint64_t p0l = bmul64(y0, k->h0), p0h = rev64(bmul64(y0r, k->h0r)) >> 1;
        uint64_t p2l = bmul64(y1, k->h1), p2h = rev64(bmul64(y1r, k->h1r)) >> 1;
        uint64_t p1l = bmul64(y2, k->h2), p1h = rev64(bmul64(y2r, k->h2r)) >> 1;
        p1l ^= p0l ^ p2l;
        p1h ^= p0h ^ p2h;
        uint64_t z0 = p0l, z1 = p0h ^ p1l, z2 = p2l ^ p1h, z3 = p2h;
        /* reduce by x^128 = x^7 + x^2 + x + 1: fold z3:z2 into z1:z0, then
         * the (at most 7) bits the shifts pushed past x^127 */
        uint64_t o = (z3 >> 63) ^ (z3 >> 62) ^ (z3 >> 57);
        y0 = z0 ^ z2 ^ (z2 << 1) ^ (z2 << 2) ^ (z2 << 7) ^ o ^ (o << 1) ^ (o << 2) ^ (o << 7);
        y1 = z1 ^ z3 ^ (z3 << 1 | z2 >> 63) ^ (z3 << 2 | z2 >> 62) ^ (z3 << 7 | z2 >> 57);
    }
    put_be64(y, rev64(y0));
    put_be64(y + 8, rev64(y1));
}

/* see aes_ct.h */
void cpim_crypto_ghash_ct_bytes(const cpim_crypto_ghash_ct_key *k, uint8_t y[16], const uint8_t *p,
                                uint64_t len)
{
    cpim_crypto_ghash_ct_blocks(k, y, p, (size_t)(len / 16));
    if (len % 16) {
        uint8_t b[16] = {0};
        __builtin_memcpy(b, p + (len - len % 16), (size_t)(len % 16));
        cpim_crypto_ghash_ct_blocks(k, y, b, 1);
        cpim_crypto_ct_wipe(b, sizeof b);
    }
}

/* see aes_ct.h */
void cpim_crypto_gcm_ct_j0(const cpim_crypto_ghash_ct_key *k, const uint8_t *iv, uint64_t iv_len,
                           uint8_t j0[16])
{
    if (cpim_crypto_gcm_j0_iv96(iv, iv_len, j0))
        return;
    uint8_t lb[16];
    cpim_crypto_ghash_ct_bytes(k, j0, iv, iv_len);
    cpim_crypto_gcm_len_block(lb, 0, iv_len);
    cpim_crypto_ghash_ct_blocks(k, j0, lb, 1);
}
