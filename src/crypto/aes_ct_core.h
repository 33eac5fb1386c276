/*
 * aes_ct_core.h -- the bitsliced AES rounds of aes_ct.c, written once for any
 * word width (a template: include it after defining the macros below).
 *
 *   CT_W        the word type: uint64_t, or a GCC vector of uint64_t lanes
 *               (vector_size(32) for AVX2, (64) for AVX-512)
 *   CT_LANES    64-bit lanes per word (1, 4, 8)
 *   CT_SFX(n)   the name of function n for this width (n ## _avx2, ...)
 *   CT_TGT      the function attributes (a target("...") attribute or nothing)
 *   CT_LINK     the linkage of the one entry point (empty or static)
 *
 * Representation (Kaesper-Schwabe bitslicing in the 64-bit layout BearSSL's
 * "ct64" uses): one 64-bit lane holds 4 blocks; plane q[k] holds bit k of
 * every byte, at bit 16 * row + 4 * column + block.  So ShiftRows is a
 * rotation of each 16-bit row group, the row rotations of MixColumns are
 * 16- and 32-bit lane rotations, and SubBytes is a boolean circuit (Boyar and
 * Peralta, "A new combinational logic minimization technique with
 * applications to cryptology", SEA 2010 / eprint 2009/191: 113 gates).  A
 * vector word is CT_LANES such lanes side by side, running the same lane
 * operations (GCC's vector extensions broadcast scalar operands), so 4 *
 * CT_LANES blocks go through the rounds together.
 *
 * Constant time: only AND, XOR, NOT, OR and shifts/rotations by constants
 * on the data and key; no branch or memory address depends on them (the
 * valgrind test tests/ct/ checks this).
 */

/* Forced: GCC leaves the S-box out of line otherwise, and its planes then
 * go through memory every round. */
#define CT_INLINE static inline __attribute__((always_inline))

#define CT_ROTR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

/* The bit-matrix transposition between "4 interleaved blocks per word pair"
 * and "8 planes" (its own inverse): swaps of 1-, 2- and 4-bit groups. */
#define CT_SWAPN(cl, ch, s, x, y)                                                                  \
    do {                                                                                           \
        CT_W a_ = (x), b_ = (y);                                                                   \
        (x) = (a_ & (cl)) | ((b_ & (cl)) << (s));                                                  \
        (y) = ((a_ & (ch)) >> (s)) | (b_ & (ch));                                                  \
    } while (0)

CT_TGT CT_INLINE void CT_SFX(ortho)(CT_W *q)
{
    const uint64_t m1l = 0x5555555555555555ull, m1h = 0xAAAAAAAAAAAAAAAAull;
    const uint64_t m2l = 0x3333333333333333ull, m2h = 0xCCCCCCCCCCCCCCCCull;
    const uint64_t m4l = 0x0F0F0F0F0F0F0F0Full, m4h = 0xF0F0F0F0F0F0F0F0ull;
    CT_SWAPN(m1l, m1h, 1, q[0], q[1]);
    CT_SWAPN(m1l, m1h, 1, q[2], q[3]);
    CT_SWAPN(m1l, m1h, 1, q[4], q[5]);
    CT_SWAPN(m1l, m1h, 1, q[6], q[7]);
    CT_SWAPN(m2l, m2h, 2, q[0], q[2]);
    CT_SWAPN(m2l, m2h, 2, q[1], q[3]);
    CT_SWAPN(m2l, m2h, 2, q[4], q[6]);
    CT_SWAPN(m2l, m2h, 2, q[5], q[7]);
    CT_SWAPN(m4l, m4h, 4, q[0], q[4]);
    CT_SWAPN(m4l, m4h, 4, q[1], q[5]);
    CT_SWAPN(m4l, m4h, 4, q[2], q[6]);
    CT_SWAPN(m4l, m4h, 4, q[3], q[7]);
}

/* SubBytes on every byte: the Boyar-Peralta circuit (x0 = the high bit). */
CT_TGT CT_INLINE void CT_SFX(sbox)(CT_W *q)
{
    CT_W x0 = q[7], x1 = q[6], x2 = q[5], x3 = q[4], x4 = q[3], x5 = q[2], x6 = q[1], x7 = q[0];

    /* top linear layer */
    CT_W y14 = x3 ^ x5, y13 = x0 ^ x6, y9 = x0 ^ x3, y8 = x0 ^ x5, t0 = x1 ^ x2;
    CT_W y1 = t0 ^ x7, y4 = y1 ^ x3, y12 = y13 ^ y14, y2 = y1 ^ x0, y5 = y1 ^ x6;
    CT_W y3 = y5 ^ y8, t1 = x4 ^ y12, y15 = t1 ^ x5, y20 = t1 ^ x1, y6 = y15 ^ x7;
    CT_W y10 = y15 ^ t0, y11 = y20 ^ y9, y7 = x7 ^ y11, y17 = y10 ^ y11, y19 = y10 ^ y8;
    CT_W y16 = t0 ^ y11, y21 = y13 ^ y16, y18 = x0 ^ y16;

    /* nonlinear middle: inversion in GF(2^4)^2 */
    CT_W t2 = y12 & y15, t3 = y3 & y6, t4 = t3 ^ t2, t5 = y4 & x7, t6 = t5 ^ t2;
    CT_W t7 = y13 & y16, t8 = y5 & y1, t9 = t8 ^ t7, t10 = y2 & y7, t11 = t10 ^ t7;
    CT_W t12 = y9 & y11, t13 = y14 & y17, t14 = t13 ^ t12, t15 = y8 & y10, t16 = t15 ^ t12;
    CT_W t17 = t4 ^ t14, t18 = t6 ^ t16, t19 = t9 ^ t14, t20 = t11 ^ t16;
    CT_W t21 = t17 ^ y20, t22 = t18 ^ y19, t23 = t19 ^ y21, t24 = t20 ^ y18;
    CT_W t25 = t21 ^ t22, t26 = t21 & t23, t27 = t24 ^ t26, t28 = t25 & t27, t29 = t28 ^ t22;
    CT_W t30 = t23 ^ t24, t31 = t22 ^ t26, t32 = t31 & t30, t33 = t32 ^ t24, t34 = t23 ^ t33;
    CT_W t35 = t27 ^ t33, t36 = t24 & t35, t37 = t36 ^ t34, t38 = t27 ^ t36, t39 = t29 & t38;
    CT_W t40 = t25 ^ t39, t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40, t44 = t33 ^ t37;
    CT_W t45 = t42 ^ t41;
    CT_W z0 = t44 & y15, z1 = t37 & y6, z2 = t33 & x7, z3 = t43 & y16, z4 = t40 & y1;
    CT_W z5 = t29 & y7, z6 = t42 & y11, z7 = t45 & y17, z8 = t41 & y10, z9 = t44 & y12;
    CT_W z10 = t37 & y3, z11 = t33 & y4, z12 = t43 & y13, z13 = t40 & y5, z14 = t29 & y2;
    CT_W z15 = t42 & y9, z16 = t45 & y14, z17 = t41 & y8;

    /* bottom linear layer */
    CT_W t46 = z15 ^ z16, t47 = z10 ^ z11, t48 = z5 ^ z13, t49 = z9 ^ z10, t50 = z2 ^ z12;
    CT_W t51 = z2 ^ z5, t52 = z7 ^ z8, t53 = z0 ^ z3, t54 = z6 ^ z7, t55 = z16 ^ z17;
    CT_W t56 = z12 ^ t48, t57 = t50 ^ t53, t58 = z4 ^ t46, t59 = z3 ^ t54, t60 = t46 ^ t57;
    CT_W t61 = z14 ^ t57, t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z4 ^ t59, t65 = t61 ^ t62;
    CT_W t66 = z1 ^ t63;
    CT_W s0 = t59 ^ t63, s6 = t56 ^ ~t62, s7 = t48 ^ ~t60, t67 = t64 ^ t65;
    CT_W s3 = t53 ^ t66, s4 = t51 ^ t66, s5 = t47 ^ t65, s1 = t64 ^ ~s3, s2 = t55 ^ ~t67;

    q[7] = s0, q[6] = s1, q[5] = s2, q[4] = s3, q[3] = s4, q[2] = s5, q[1] = s6, q[0] = s7;
}

/* The inverse of SubBytes' affine map (FIPS-197 5.3.2): bit i of the result
 * is bits i+2, i+5, i+7 (mod 8) of the input, plus the constant 0x05.  As
 * S = affine o inverse, InvS = inverse o affine^-1 = affine^-1 o S o affine^-1,
 * so the forward circuit serves decryption too. */
CT_TGT CT_INLINE void CT_SFX(inv_affine)(CT_W *q)
{
    CT_W y[8];
    for (int i = 0; i < 8; i++)
        y[i] = q[i];
    for (int i = 0; i < 8; i++)
        q[i] = y[(i + 2) & 7] ^ y[(i + 5) & 7] ^ y[(i + 7) & 7];
    q[0] = ~q[0];
    q[2] = ~q[2];
}

CT_TGT CT_INLINE void CT_SFX(inv_sbox)(CT_W *q)
{
    CT_SFX(inv_affine)(q);
    CT_SFX(sbox)(q);
    CT_SFX(inv_affine)(q);
}

/* ShiftRows: row r (bits 16r..16r+15, 4 bits per column) rotates left by r
 * columns, i.e. its 16-bit group right by 4r bits. */
CT_TGT CT_INLINE void CT_SFX(shift_rows)(CT_W *q)
{
    for (int i = 0; i < 8; i++) {
        CT_W x = q[i];
        q[i] = (x & 0x000000000000FFFFull) | ((x & 0x00000000FFF00000ull) >> 4) |
               ((x & 0x00000000000F0000ull) << 12) | ((x & 0x0000FF0000000000ull) >> 8) |
               ((x & 0x000000FF00000000ull) << 8) | ((x & 0xF000000000000000ull) >> 12) |
               ((x & 0x0FFF000000000000ull) << 4);
    }
}

CT_TGT CT_INLINE void CT_SFX(inv_shift_rows)(CT_W *q)
{
    for (int i = 0; i < 8; i++) {
        CT_W x = q[i];
        q[i] = (x & 0x000000000000FFFFull) | ((x & 0x000000000FFF0000ull) << 4) |
               ((x & 0x00000000F0000000ull) >> 12) | ((x & 0x0000FF0000000000ull) >> 8) |
               ((x & 0x000000FF00000000ull) << 8) | ((x & 0x000F000000000000ull) << 12) |
               ((x & 0xFFF0000000000000ull) >> 4);
    }
}

/* MixColumns: out_r = 2 a_r + 3 a_r+1 + a_r+2 + a_r+3 = 2 (a_r + a_r+1) +
 * a_r+1 + (a_r+2 + a_r+3); the next row is a 16-bit lane rotation, two rows
 * on a 32-bit one, and doubling moves planes (bit 7 folds into 0, 1, 3, 4). */
CT_TGT CT_INLINE void CT_SFX(mix_columns)(CT_W *q)
{
    CT_W q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3], q4 = q[4], q5 = q[5], q6 = q[6], q7 = q[7];
    CT_W r0 = CT_ROTR(q0, 16), r1 = CT_ROTR(q1, 16), r2 = CT_ROTR(q2, 16), r3 = CT_ROTR(q3, 16);
    CT_W r4 = CT_ROTR(q4, 16), r5 = CT_ROTR(q5, 16), r6 = CT_ROTR(q6, 16), r7 = CT_ROTR(q7, 16);
    CT_W a0 = q0 ^ r0, a1 = q1 ^ r1, a2 = q2 ^ r2, a3 = q3 ^ r3;
    CT_W a4 = q4 ^ r4, a5 = q5 ^ r5, a6 = q6 ^ r6, a7 = q7 ^ r7;
    q[0] = a7 ^ r0 ^ CT_ROTR(a0, 32);
    q[1] = a0 ^ a7 ^ r1 ^ CT_ROTR(a1, 32);
    q[2] = a1 ^ r2 ^ CT_ROTR(a2, 32);
    q[3] = a2 ^ a7 ^ r3 ^ CT_ROTR(a3, 32);
    q[4] = a3 ^ a7 ^ r4 ^ CT_ROTR(a4, 32);
    q[5] = a4 ^ r5 ^ CT_ROTR(a5, 32);
    q[6] = a5 ^ r6 ^ CT_ROTR(a6, 32);
    q[7] = a6 ^ r7 ^ CT_ROTR(a7, 32);
}

/* InvMixColumns = MixColumns o (a_r <- 5 a_r + 4 a_r+2) (the factorisation in
 * Daemen and Rijmen, "The Design of Rijndael", 4.1.3): u = 4 (a_r + a_r+2),
 * a ^= u, then MixColumns.  Times 4 on planes: see the table below. */
CT_TGT CT_INLINE void CT_SFX(inv_mix_columns)(CT_W *q)
{
    CT_W t[8];
    for (int i = 0; i < 8; i++)
        t[i] = q[i] ^ CT_ROTR(q[i], 32);
    /* 4x: bit 0 = x6, 1 = x6^x7, 2 = x0^x7, 3 = x1^x6, 4 = x2^x6^x7, 5 = x3^x7,
     * 6 = x4, 7 = x5 (doubling twice, reducing by x^8 = x^4 + x^3 + x + 1) */
    q[0] ^= t[6];
    q[1] ^= t[6] ^ t[7];
    q[2] ^= t[0] ^ t[7];
    q[3] ^= t[1] ^ t[6];
    q[4] ^= t[2] ^ t[6] ^ t[7];
    q[5] ^= t[3] ^ t[7];
    q[6] ^= t[4];
    q[7] ^= t[5];
    CT_SFX(mix_columns)(q);
}

CT_TGT CT_INLINE void CT_SFX(ark)(CT_W *q, const uint64_t *rk)
{
    for (int i = 0; i < 8; i++)
        q[i] ^= rk[i];
}

/* FIPS-197 Cipher on planes (after ortho): rk holds 8 planes per round key. */
CT_TGT CT_INLINE void CT_SFX(enc_q)(const uint64_t *rk, unsigned nr, CT_W *q)
{
    CT_SFX(ark)(q, rk);
    for (unsigned u = 1; u < nr; u++) {
        CT_SFX(sbox)(q);
        CT_SFX(shift_rows)(q);
        CT_SFX(mix_columns)(q);
        CT_SFX(ark)(q, rk + 8 * u);
    }
    CT_SFX(sbox)(q);
    CT_SFX(shift_rows)(q);
    CT_SFX(ark)(q, rk + 8 * nr);
}

/* FIPS-197 InvCipher (5.3) with the same round keys, last to first. */
CT_TGT CT_INLINE void CT_SFX(dec_q)(const uint64_t *rk, unsigned nr, CT_W *q)
{
    CT_SFX(ark)(q, rk + 8 * nr);
    for (unsigned u = nr - 1; u > 0; u--) {
        CT_SFX(inv_shift_rows)(q);
        CT_SFX(inv_sbox)(q);
        CT_SFX(ark)(q, rk + 8 * u);
        CT_SFX(inv_mix_columns)(q);
    }
    CT_SFX(inv_shift_rows)(q);
    CT_SFX(inv_sbox)(q);
    CT_SFX(ark)(q, rk);
}

/* 4 * CT_LANES blocks of `in` to planes: each block's 4 little-endian words
 * spread over a pair of lane words (bytes of words 0/2 and 1/3 interleaved),
 * then ortho.  Lane j takes blocks 4j .. 4j+3. */
CT_TGT CT_INLINE void CT_SFX(load)(CT_W *q, const uint8_t *in)
{
    uint64_t a[8][CT_LANES];
    for (unsigned j = 0; j < CT_LANES; j++)
        for (unsigned i = 0; i < 4; i++) {
            const uint8_t *p = in + 16 * (4 * j + i);
            uint64_t x[4];
            for (int k = 0; k < 4; k++) {
                uint32_t w;
                __builtin_memcpy(&w, p + 4 * k, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                w = __builtin_bswap32(w);
#endif
                uint64_t v = w;
                v = (v | v << 16) & 0x0000FFFF0000FFFFull;
                x[k] = (v | v << 8) & 0x00FF00FF00FF00FFull;
            }
            a[i][j] = x[0] | x[2] << 8;
            a[i + 4][j] = x[1] | x[3] << 8;
        }
    for (int k = 0; k < 8; k++)
        __builtin_memcpy(&q[k], a[k], sizeof q[k]);
    CT_SFX(ortho)(q);
}

CT_TGT CT_INLINE void CT_SFX(store)(uint8_t *out, CT_W *q)
{
    uint64_t a[8][CT_LANES];
    CT_SFX(ortho)(q);
    for (int k = 0; k < 8; k++)
        __builtin_memcpy(a[k], &q[k], sizeof q[k]);
    for (unsigned j = 0; j < CT_LANES; j++)
        for (unsigned i = 0; i < 4; i++) {
            uint8_t *p = out + 16 * (4 * j + i);
            uint64_t x[4];
            x[0] = a[i][j] & 0x00FF00FF00FF00FFull;
            x[2] = a[i][j] >> 8 & 0x00FF00FF00FF00FFull;
            x[1] = a[i + 4][j] & 0x00FF00FF00FF00FFull;
            x[3] = a[i + 4][j] >> 8 & 0x00FF00FF00FF00FFull;
            for (int k = 0; k < 4; k++) {
                uint64_t v = (x[k] | x[k] >> 8) & 0x0000FFFF0000FFFFull;
                uint32_t w = (uint32_t)v | (uint32_t)(v >> 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                w = __builtin_bswap32(w);
#endif
                __builtin_memcpy(p + 4 * k, &w, 4);
            }
        }
}

/* ECB over nblocks blocks (any count: a partial group goes through a
 * zero-padded buffer; the count is public).  in == out is fine. */
CT_LINK CT_TGT void CT_SFX(cpim_crypto_aes_ct_blocks)(const cpim_crypto_aes_ct_ks *ks, int dec,
                                                      const uint8_t *in, uint8_t *out,
                                                      size_t nblocks)
{
    enum { PAR = 4 * CT_LANES };
    CT_W q[8];
    for (; nblocks >= PAR; nblocks -= PAR, in += 16 * PAR, out += 16 * PAR) {
        CT_SFX(load)(q, in);
        if (dec)
            CT_SFX(dec_q)(ks->rk, ks->nr, q);
        else
            CT_SFX(enc_q)(ks->rk, ks->nr, q);
        CT_SFX(store)(out, q);
    }
    if (nblocks) {
        uint8_t buf[16 * PAR] = {0};
        __builtin_memcpy(buf, in, 16 * nblocks);
        CT_SFX(load)(q, buf);
        if (dec)
            CT_SFX(dec_q)(ks->rk, ks->nr, q);
        else
            CT_SFX(enc_q)(ks->rk, ks->nr, q);
        CT_SFX(store)(buf, q);
        __builtin_memcpy(out, buf, 16 * nblocks);
        cpim_crypto_ct_wipe(buf, sizeof buf);
    }
    cpim_crypto_ct_wipe(q, sizeof q);
}

#undef CT_SWAPN
#undef CT_ROTR
#undef CT_INLINE
