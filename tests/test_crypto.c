/*
 * test_crypto.c -- the portable primitives of src/crypto/ called directly
 * (the official vectors run through the backends in test_vectors.c).
 */
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "sha256.h"
#include "test.h"

static void unhex(const char *hex, uint8_t *out, size_t n)
{
    long got = test_unhex(hex, out, n);
    CHECK(got == (long)n, "bad hex constant %s", hex);
}

/* ---- SHA-256 -------------------------------------------------------------------- */

TEST(crypto_sha256_fips180_examples)
{
    static const struct {
        const char *msg, *md;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t want[32], got[32];
        unhex(v[i].md, want, 32);
        cpim_crypto_sha256((const uint8_t *)v[i].msg, (uint32_t)strlen(v[i].msg), got);
        CHECK_MEM(got, want, 32, v[i].msg);
    }
}

TEST(crypto_sha256_million_a)
{
    uint8_t want[32], got[32], chunk[1000];
    unhex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", want, 32);
    memset(chunk, 'a', sizeof chunk);
    cpim_crypto_sha256_ctx c;
    cpim_crypto_sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        cpim_crypto_sha256_update(&c, chunk, sizeof chunk);
    cpim_crypto_sha256_final(&c, got);
    CHECK_MEM(got, want, 32, "streamed million-a");
    uint8_t *big = malloc(1000000);
    if (big) {
        memset(big, 'a', 1000000);
        cpim_crypto_sha256(big, 1000000, got);
        CHECK_MEM(got, want, 32, "one-shot million-a");
        free(big);
    }
}

/* Streaming at every split point, byte by byte, and from unaligned starts,
 * all equal to one-shot, for lengths around the padding boundaries. */
TEST(crypto_sha256_streaming_every_split)
{
    uint64_t seed = 11;
    uint8_t buf[300 + 4];
    test_fill(&seed, buf, sizeof buf);
    static const uint32_t lens[] = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 191, 300};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        uint32_t n = lens[li];
        uint8_t ref[32], got[32];
        cpim_crypto_sha256(buf, n, ref);
        for (uint32_t a = 0; a <= n; a++) {
            cpim_crypto_sha256_ctx c;
            cpim_crypto_sha256_init(&c);
            cpim_crypto_sha256_update(&c, buf, a);
            cpim_crypto_sha256_update(&c, NULL, 0);
            cpim_crypto_sha256_update(&c, buf + a, n - a);
            cpim_crypto_sha256_final(&c, got);
            if (!CHECK_MEM(got, ref, 32, "two-piece streaming"))
                return;
        }
        cpim_crypto_sha256_ctx c;
        cpim_crypto_sha256_init(&c);
        for (uint32_t i = 0; i < n; i++)
            cpim_crypto_sha256_update(&c, buf + i, 1);
        cpim_crypto_sha256_final(&c, got);
        CHECK_MEM(got, ref, 32, "byte-by-byte streaming");
        for (int off = 1; off < 4; off++) { /* unaligned input = same digest */
            memmove(buf + off, buf, n);
            cpim_crypto_sha256(buf + off, n, got);
            memmove(buf, buf + off, n);
            CHECK_MEM(got, ref, 32, "unaligned one-shot");
        }
    }
}

TEST(crypto_sha256_batch_matches_oneshot)
{
    enum { N = 40 };
    uint64_t seed = 5;
    uint8_t *data = malloc(N * 200);
    const uint8_t *msgs[N];
    uint32_t lens[N];
    uint8_t got[N][32], want[32];
    if (!data) {
        CHECK(0, "out of memory");
        return;
    }
    test_fill(&seed, data, N * 200);
    for (int i = 0; i < N; i++) {
        lens[i] = (uint32_t)(i < 8 ? (uint32_t[]){0, 1, 55, 56, 63, 64, 65, 199}[i]
                                   : test_rand(&seed) % 200);
        msgs[i] = lens[i] ? data + 200 * i + (i % 3) : NULL;
    }
    cpim_crypto_sha256_batch(msgs, lens, N, got);
    for (int i = 0; i < N; i++) {
        cpim_crypto_sha256(msgs[i], lens[i], want);
        CHECK_MEM(got[i], want, 32, "batch digest");
    }
    free(data);
}

/* ---- AES ------------------------------------------------------------------------ */

/* FIPS-197 Appendix A: the last round-key words of the key expansion. */
TEST(crypto_aes_key_expansion)
{
    uint8_t k[32];
    cpim_crypto_aes_ks ks;
    unhex("2b7e151628aed2a6abf7158809cf4f3c", k, 16);
    CHECK(cpim_crypto_aes_expand_enc(&ks, k, 16) == 10, "AES-128 rounds");
    CHECK(ks.rk[40] == 0xd014f9a8u && ks.rk[43] == 0xb6630ca6u, "A.1 w[40..43] wrong");
    unhex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", k, 32);
    CHECK(cpim_crypto_aes_expand_enc(&ks, k, 32) == 14, "AES-256 rounds");
    CHECK(ks.rk[56] == 0xfe4890d1u && ks.rk[59] == 0x706c631eu, "A.3 w[56..59] wrong");
    CHECK(cpim_crypto_aes_expand_enc(&ks, k, 20) == 0, "20-byte key accepted");
    CHECK(cpim_crypto_aes_expand_dec(&ks, k, 0) == 0, "0-byte key accepted");
}

TEST(crypto_aes_ecb_roundtrip_all_sizes)
{
    uint64_t seed = 7;
    uint8_t key[32], pt[16 * 67], ct[16 * 67], back[16 * 67], ct1[16 * 67];
    test_fill(&seed, pt, sizeof pt);
    for (uint32_t kl = 16; kl <= 32; kl += 8) {
        test_fill(&seed, key, kl);
        cpim_crypto_aes_ks ek, dk, dk2;
        cpim_crypto_aes_expand_enc(&ek, key, kl);
        cpim_crypto_aes_expand_dec(&dk, key, kl);
        cpim_crypto_aes_dec_from_enc(&dk2, &ek);
        CHECK(memcmp(&dk, &dk2, sizeof dk) == 0, "two ways to the decryption schedule differ");
        cpim_crypto_aes_encrypt(&ek, pt, ct, 67);
        cpim_crypto_aes_decrypt(&dk, ct, back, 67);
        CHECK_MEM(back, pt, sizeof pt, "decrypt(encrypt(x))");
        CHECK(memcmp(ct, pt, sizeof pt) != 0, "encryption is the identity");
        cpim_crypto_aes_encrypt_1t(&ek, pt, ct1, 67); /* the 1-table set agrees */
        CHECK_MEM(ct1, ct, sizeof ct, "1-table encrypt");
        cpim_crypto_aes_decrypt_1t(&dk, ct, back, 67);
        CHECK_MEM(back, pt, sizeof pt, "1-table decrypt");
        memcpy(back, pt, sizeof pt); /* in place, unaligned */
        cpim_crypto_aes_encrypt(&ek, back + 1, back + 1, 66);
        cpim_crypto_aes_encrypt(&ek, pt + 1, ct1, 66);
        CHECK_MEM(back + 1, ct1, 66 * 16, "in-place unaligned encrypt");
    }
}

/* Keystream block i of a CTR stream, straight from the definition. */
static void keystream(const cpim_crypto_aes_ks *ek, const uint8_t ctr0[16], uint64_t i,
                      uint8_t out[16])
{
    uint8_t c[16];
    memcpy(c, ctr0, 16);
    cpim_crypto_aes_ctr_add(c, i);
    cpim_crypto_aes_encrypt(ek, c, out, 1);
}

static void ctr_case(const char *what, const char *ctr_hex, const char *after_hex)
{
    uint8_t key[16] = {1, 2, 3}, ctr0[16], ctr[16], after[16], zero[50] = {0}, out[50], ks[16];
    cpim_crypto_aes_ks ek;
    cpim_crypto_aes_expand_enc(&ek, key, 16);
    unhex(ctr_hex, ctr0, 16);
    unhex(after_hex, after, 16);
    for (int set = 0; set < 2; set++) {
        memcpy(ctr, ctr0, 16);
        if (set == 0)
            cpim_crypto_aes_ctr(&ek, ctr, zero, out, 50); /* 4 blocks, the last partial */
        else
            cpim_crypto_aes_ctr_1t(&ek, ctr, zero, out, 50);
        CHECK_MEM(ctr, after, 16, what);
        for (int b = 0; b < 4; b++) {
            keystream(&ek, ctr0, (uint64_t)b, ks);
            CHECK_MEM(out + 16 * b, ks, b < 3 ? 16 : 2, what);
        }
    }
}

TEST(crypto_aes_ctr_counter_wrap)
{
    ctr_case("wrap at 2^128", "fffffffffffffffffffffffffffffffe",
             "00000000000000000000000000000002");
    ctr_case("carry across the 64-bit boundary", "0000000000000000fffffffffffffffe",
             "00000000000000010000000000000002");
    ctr_case("carry across the 32-bit words", "00000000fffffffffffffffffffffffe",
             "00000001000000000000000000000002");
    uint8_t c[16], want[16];
    unhex("00000000000000000000000000000001", c, 16);
    cpim_crypto_aes_ctr_add(c, UINT64_MAX);
    unhex("00000000000000010000000000000000", want, 16);
    CHECK_MEM(c, want, 16, "ctr_add carry into the high half");
    memset(c, 0xff, 16);
    cpim_crypto_aes_ctr_add(c, 1);
    memset(want, 0, 16);
    CHECK_MEM(c, want, 16, "ctr_add wrap");
}

TEST(crypto_aes_ctr_continuation_and_in_place)
{
    uint64_t seed = 9;
    uint8_t key[24], ctr0[16], ca[16], cb[16], in[1000], one[1000], two[1000];
    test_fill(&seed, key, sizeof key);
    test_fill(&seed, ctr0, sizeof ctr0);
    test_fill(&seed, in, sizeof in);
    cpim_crypto_aes_ks ek;
    cpim_crypto_aes_expand_enc(&ek, key, 24);
    memcpy(ca, ctr0, 16);
    cpim_crypto_aes_ctr(&ek, ca, in, one, sizeof in);
    for (uint32_t split = 0; split <= sizeof in; split += 16) {
        memcpy(cb, ctr0, 16);
        cpim_crypto_aes_ctr(&ek, cb, in, two, split);
        cpim_crypto_aes_ctr(&ek, cb, in + split, two + split, (uint32_t)sizeof in - split);
        if (!CHECK_MEM(two, one, sizeof in, "two CTR calls = one call"))
            break;
        CHECK_MEM(cb, ca, 16, "counter after two calls");
    }
    memcpy(two, in, sizeof in);
    memcpy(cb, ctr0, 16);
    cpim_crypto_aes_ctr(&ek, cb, two, two, sizeof in);
    CHECK_MEM(two, one, sizeof in, "in-place CTR");
    memcpy(cb, ctr0, 16);
    cpim_crypto_aes_ctr(&ek, cb, two, two, sizeof in);
    CHECK_MEM(two, in, sizeof in, "CTR twice = identity");
}
