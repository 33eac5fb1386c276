/*
 * test_hmac.c -- HMAC-SHA256 and PBKDF2-HMAC-SHA256 on every backend.
 *
 *  - hmac_rfc4231_<backend>: RFC 4231 section 4, test cases 1-7, one at a
 *    time and all in one batch; case 5 is a truncated MAC (RFC 4231 4.6):
 *    the leftmost 128 bits are compared, as the RFC says.
 *  - pbkdf2_vectors_<backend>: RFC 7914 section 11 (the two PBKDF2-HMAC-
 *    SHA256 vectors) and the SHA-256 results for RFC 6070's inputs, as
 *    commonly published (e.g. the Stack Overflow answer "PBKDF2-HMAC-SHA256
 *    test vectors"; this file's values were checked against Python's
 *    hashlib.pbkdf2_hmac); RFC 6070's c = 16777216 case is left out (tens of
 *    seconds per backend).
 *  - hmac_random_<backend>, pbkdf2_random_<backend>: seeded random keys
 *    (0..200 bytes: longer than a block too), messages (empty too), salts,
 *    iteration counts and output lengths (not multiples of 32), in batches
 *    whose sizes do not divide evenly over threads, DPUs or tasklets;
 *    against OpenSSL (HMAC(), PKCS5_PBKDF2_HMAC) when the build has it, and
 *    the portable code (src/crypto/hmac.c) always.
 *  - hmac_pim_shapes: the pim backend with 3 DPUs x 5 tasklets and a small
 *    MRAM budget, so that the calls take several rounds.
 *  - hmac_api_errors: argument checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

#include "cryptopim.h"
#include "hmac.h"
#include "test.h"

static char skip_reason[256];

static void unhex(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* Opens backend bi; NULL (test skipped) when it is unavailable. */
static cpim_ctx *open_at(size_t bi, const char *profile, unsigned dpus, unsigned tasklets,
                         const char **name)
{
    cpim_backend_info info;
    if (cpim_backend_info_at(bi, &info) != CPIM_OK) {
        CHECK(0, "backend %zu vanished", bi);
        return NULL;
    }
    *name = info.name;
    if (!info.available) {
        snprintf(skip_reason, sizeof skip_reason, "backend %s unavailable: %s", info.name,
                 info.why);
        test_skip(skip_reason);
        return NULL;
    }
    cpim_options o;
    cpim_options_init(&o);
    o.threads = 2;
    o.profile = profile;
    o.dpus = dpus;
    o.tasklets = tasklets;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, info.name, &o);
    CHECK(rc == CPIM_OK, "cpim_open(%s): %s", info.name, cpim_strerror(rc));
    return ctx;
}

/* ---- RFC 4231 ------------------------------------------------------------------ */

struct rfc4231 {
    const char *key, *data, *mac;
    size_t klen, dlen, maclen; /* bytes; maclen 16 = truncated (case 5) */
};

static uint8_t aa131[131], aa20[20], dd50[50], cd50[50];

static const char k2_key[] = "Jefe", k2_data[] = "what do ya want for nothing?";
static const char t6_data[] = "Test Using Larger Than Block-Size Key - Hash Key First";
static const char t7_data[] =
    "This is a test using a larger than block-size key and a larger than block-size data. The "
    "key needs to be hashed before being used by the HMAC algorithm.";

static void rfc4231_cases(struct rfc4231 *c, uint8_t k[7][131], uint8_t d[7][160])
{
    memset(aa131, 0xaa, sizeof aa131), memset(aa20, 0xaa, sizeof aa20);
    memset(dd50, 0xdd, sizeof dd50), memset(cd50, 0xcd, sizeof cd50);
    /* 1 */
    memset(k[0], 0x0b, 20);
    memcpy(d[0], "Hi There", 8);
    c[0] = (struct rfc4231){
        NULL, NULL, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 20, 8, 32};
    /* 2 */
    memcpy(k[1], k2_key, 4);
    memcpy(d[1], k2_data, 28);
    c[1] = (struct rfc4231){
        NULL, NULL, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 4, 28, 32};
    /* 3 */
    memcpy(k[2], aa20, 20);
    memcpy(d[2], dd50, 50);
    c[2] = (struct rfc4231){
        NULL, NULL, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 20, 50, 32};
    /* 4 */
    for (int i = 0; i < 25; i++)
        k[3][i] = (uint8_t)(i + 1);
    memcpy(d[3], cd50, 50);
    c[3] = (struct rfc4231){
        NULL, NULL, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 25, 50, 32};
    /* 5: truncated to 128 bits */
    memset(k[4], 0x0c, 20);
    memcpy(d[4], "Test With Truncation", 20);
    c[4] = (struct rfc4231){NULL, NULL, "a3b6167473100ee06e0c796c2955552b", 20, 20, 16};
    /* 6 */
    memcpy(k[5], aa131, 131);
    memcpy(d[5], t6_data, 54);
    c[5] = (struct rfc4231){
        NULL, NULL, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        131,  54,   32};
    /* 7 */
    memcpy(k[6], aa131, 131);
    memcpy(d[6], t7_data, 152);
    c[6] = (struct rfc4231){
        NULL, NULL, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
        131,  152,  32};
}

static void run_rfc4231(size_t bi, size_t unused)
{
    (void)unused;
    const char *be = "?";
    cpim_ctx *ctx = open_at(bi, NULL, 0, 0, &be);
    if (!ctx)
        return;
    struct rfc4231 c[7];
    static uint8_t k[7][131], d[7][160];
    rfc4231_cases(c, k, d);
    const uint8_t *kp[7], *dp[7];
    size_t kl[7], dl[7];
    uint8_t got[7][32], want[32];
    for (int i = 0; i < 7; i++) {
        kp[i] = k[i], dp[i] = d[i], kl[i] = c[i].klen, dl[i] = c[i].dlen;
        cpim_err rc = cpim_hmac_sha256(ctx, k[i], c[i].klen, d[i], c[i].dlen, got[i]);
        CHECK(rc == CPIM_OK, "%s case %d: %s", be, i + 1, cpim_strerror(rc));
        unhex(c[i].mac, want, c[i].maclen);
        char what[64];
        snprintf(what, sizeof what, "%s RFC 4231 case %d", be, i + 1);
        CHECK_MEM(got[i], want, c[i].maclen, what);
    }
    memset(got, 0, sizeof got);
    cpim_err rc = cpim_hmac_sha256_batch(ctx, kp, kl, dp, dl, 7, got);
    CHECK(rc == CPIM_OK, "%s batch: %s", be, cpim_strerror(rc));
    for (int i = 0; i < 7; i++) {
        unhex(c[i].mac, want, c[i].maclen);
        char what[64];
        snprintf(what, sizeof what, "%s RFC 4231 case %d in a batch", be, i + 1);
        CHECK_MEM(got[i], want, c[i].maclen, what);
    }
    cpim_close(ctx);
}

/* ---- PBKDF2 vectors ------------------------------------------------------------------ */

struct pbkdf2_vec {
    const char *pass, *salt;
    size_t plen, slen;
    uint32_t c;
    size_t dklen;
    const char *dk;
};

static const struct pbkdf2_vec pv[] = {
    /* RFC 7914 section 11 */
    {"passwd", "salt", 6, 4, 1, 64,
     "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
     "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"},
    {"Password", "NaCl", 8, 4, 80000, 64,
     "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
     "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"},
    /* RFC 6070's inputs with SHA-256 */
    {"password", "salt", 8, 4, 1, 32,
     "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"},
    {"password", "salt", 8, 4, 2, 32,
     "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"},
    {"password", "salt", 8, 4, 4096, 32,
     "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"},
    {"passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 24, 36, 4096, 40,
     "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1c635518c7dac47e9"},
    {"pass\0word", "sa\0lt", 9, 5, 4096, 16, "89b69d0516f829893c696226650a8687"},
};
#define NPV (sizeof pv / sizeof pv[0])

static void run_pbkdf2_vectors(size_t bi, size_t unused)
{
    (void)unused;
    const char *be = "?";
    cpim_ctx *ctx = open_at(bi, NULL, 0, 0, &be);
    if (!ctx)
        return;
    uint8_t got[NPV][64], want[64];
    const uint8_t *pp[NPV], *sp[NPV];
    size_t pl[NPV], sl[NPV];
    for (size_t i = 0; i < NPV; i++) {
        pp[i] = (const uint8_t *)pv[i].pass, sp[i] = (const uint8_t *)pv[i].salt;
        pl[i] = pv[i].plen, sl[i] = pv[i].slen;
        memset(got[i], 0xee, 64);
        cpim_err rc =
            cpim_pbkdf2_sha256(ctx, pp[i], pl[i], sp[i], sl[i], pv[i].c, got[i], pv[i].dklen);
        CHECK(rc == CPIM_OK, "%s vector %zu: %s", be, i, cpim_strerror(rc));
        unhex(pv[i].dk, want, pv[i].dklen);
        char what[64];
        snprintf(what, sizeof what, "%s PBKDF2 vector %zu (c=%u)", be, i, pv[i].c);
        CHECK_MEM(got[i], want, pv[i].dklen, what);
        CHECK(pv[i].dklen == 64 || got[i][pv[i].dklen] == 0xee, "%s wrote past out_len", be);
    }
    /* "password"/"salt" (vectors 2 and 3) again as one batch with c = 1: both
     * give vector 2's key */
    uint8_t *outs[2] = {got[0], got[1]};
    cpim_err rc = cpim_pbkdf2_sha256_batch(ctx, pp + 2, pl + 2, sp + 2, sl + 2, 2, 1, outs, 32);
    CHECK(rc == CPIM_OK, "%s batch: %s", be, cpim_strerror(rc));
    unhex(pv[2].dk, want, 32);
    CHECK_MEM(got[0], want, 32, "batch item 0");
    CHECK_MEM(got[1], want, 32, "batch item 1");
    cpim_close(ctx);
}

/* ---- random cross-checks ---------------------------------------------------------------- */

static void ref_hmac(const uint8_t *k, size_t kl, const uint8_t *m, size_t ml, uint8_t mac[32])
{
#ifdef HAVE_OPENSSL
    unsigned n = 32;
    static const uint8_t none[1];
    HMAC(EVP_sha256(), kl ? k : none, (int)kl, ml ? m : none, ml, mac, &n);
#else
    cpim_crypto_hmac_sha256(k, (uint32_t)kl, m, (uint32_t)ml, mac);
#endif
}

static void ref_pbkdf2(const uint8_t *p, size_t pl, const uint8_t *s, size_t sl, uint32_t c,
                       uint8_t *out, size_t ol)
{
#ifdef HAVE_OPENSSL
    static const uint8_t none[1];
    PKCS5_PBKDF2_HMAC(pl ? (const char *)p : (const char *)none, (int)pl, sl ? s : none, (int)sl,
                      (int)c, EVP_sha256(), (int)ol, out);
#else
    cpim_crypto_pbkdf2_sha256(p, (uint32_t)pl, s, (uint32_t)sl, c, out, (uint32_t)ol);
#endif
}

static void rand_bytes(uint64_t *seed, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)test_rand(seed);
}

static void hmac_random(cpim_ctx *ctx, const char *be, uint64_t seed)
{
    static const size_t counts[] = {1, 7, 67, 131};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        size_t n = counts[ci];
        const uint8_t **kp = calloc(n, sizeof *kp), **mp = calloc(n, sizeof *mp);
        size_t *kl = calloc(n, sizeof *kl), *ml = calloc(n, sizeof *ml);
        uint8_t(*got)[32] = calloc(n, 32);
        uint8_t *buf = malloc(n * (200 + 5000));
        if (!kp || !mp || !kl || !ml || !got || !buf) {
            CHECK(0, "out of memory");
        } else {
            for (size_t i = 0; i < n; i++) {
                uint8_t *k = buf + i * 5200, *m = k + 200;
                kl[i] = i == 0 ? 0 : i == 1 ? 64 : i == 2 ? 65 : test_rand(&seed) % 201;
                ml[i] = i == 3 ? 0 : test_rand(&seed) % 5001;
                rand_bytes(&seed, k, kl[i]);
                rand_bytes(&seed, m, ml[i]);
                kp[i] = kl[i] ? k : NULL, mp[i] = ml[i] ? m : NULL;
            }
            cpim_err rc = cpim_hmac_sha256_batch(ctx, kp, kl, mp, ml, n, got);
            CHECK(rc == CPIM_OK, "%s batch of %zu: %s", be, n, cpim_strerror(rc));
            for (size_t i = 0; i < n && rc == CPIM_OK; i++) {
                uint8_t want[32];
                ref_hmac(kp[i], kl[i], mp[i], ml[i], want);
                char what[120];
                snprintf(what, sizeof what, "%s HMAC %zu of %zu (key %zu, msg %zu bytes)", be, i, n,
                         kl[i], ml[i]);
                if (!CHECK_MEM(got[i], want, 32, what))
                    break;
            }
        }
        free(kp), free(mp), free(kl), free(ml), free(got), free(buf);
    }
}

static void pbkdf2_random(cpim_ctx *ctx, const char *be, uint64_t seed, int small)
{
    static const size_t counts[] = {1, 13, 70};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        size_t n = counts[ci];
        uint32_t c = 1 + (uint32_t)(test_rand(&seed) % (small ? 20 : 300));
        if (ci == 2 && !small) /* 70 chains x >= 1000: the core's threads (hmac.c) */
            c += 1000;
        size_t ol = ci == 0 ? 1 : 1 + test_rand(&seed) % 100;
        const uint8_t **pp = calloc(n, sizeof *pp), **sp = calloc(n, sizeof *sp);
        size_t *pl = calloc(n, sizeof *pl), *sl = calloc(n, sizeof *sl);
        uint8_t **outs = calloc(n, sizeof *outs);
        uint8_t *buf = malloc(n * 200), *ob = malloc(n * ol);
        if (!pp || !sp || !pl || !sl || !outs || !buf || !ob) {
            CHECK(0, "out of memory");
        } else {
            for (size_t i = 0; i < n; i++) {
                uint8_t *p = buf + i * 200, *s = p + 100;
                pl[i] = i == 1 ? 0 : i == 2 ? 99 : test_rand(&seed) % 100;
                sl[i] = i == 1 ? 0 : test_rand(&seed) % 100;
                rand_bytes(&seed, p, pl[i]);
                rand_bytes(&seed, s, sl[i]);
                pp[i] = pl[i] ? p : NULL, sp[i] = sl[i] ? s : NULL;
                outs[i] = ob + i * ol;
            }
            cpim_err rc = cpim_pbkdf2_sha256_batch(ctx, pp, pl, sp, sl, n, c, outs, ol);
            CHECK(rc == CPIM_OK, "%s batch of %zu: %s", be, n, cpim_strerror(rc));
            for (size_t i = 0; i < n && rc == CPIM_OK; i++) {
                uint8_t want[100];
                ref_pbkdf2(pp[i], pl[i], sp[i], sl[i], c, want, ol);
                char what[120];
                snprintf(what, sizeof what, "%s PBKDF2 %zu of %zu (pass %zu, salt %zu, c=%u, %zu)",
                         be, i, n, pl[i], sl[i], c, ol);
                if (!CHECK_MEM(outs[i], want, ol, what))
                    break;
            }
        }
        free(pp), free(sp), free(pl), free(sl), free(outs), free(buf), free(ob);
    }
}

static void run_hmac_random(size_t bi, size_t unused)
{
    (void)unused;
    const char *be = "?";
    cpim_ctx *ctx = open_at(bi, NULL, 0, 0, &be);
    if (ctx)
        hmac_random(ctx, be, 0x4a4du + bi);
    cpim_close(ctx);
}

static void run_pbkdf2_random(size_t bi, size_t unused)
{
    (void)unused;
    const char *be = "?";
    cpim_ctx *ctx = open_at(bi, NULL, 0, 0, &be);
    if (ctx) /* the virtual DPUs are slow: fewer iterations there */
        pbkdf2_random(ctx, be, 0x9bdf2u + bi, strcmp(be, "pim") == 0);
    cpim_close(ctx);
}

/* The pim backend with shapes that do not divide: 3 DPUs x 5 tasklets, and a
 * 4 KiB MRAM budget so that the batches take several rounds. */
TEST(hmac_pim_shapes)
{
    cpim_backend_info info;
    if (cpim_backend_info_by_name("pim", &info) != CPIM_OK || !info.available) {
        test_skip("pim backend unavailable");
        return;
    }
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 3;
    o.tasklets = 5;
    o.profile = "mramBudget=8192";
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    if (!ctx)
        return;
    hmac_random(ctx, "pim 3x5 8K", 0x3535u);
    pbkdf2_random(ctx, "pim 3x5 8K", 0x5353u, 1);
    cpim_stats st;
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.dpus == 3 && st.tasklets == 5,
          "stats: %u DPUs x %u tasklets", st.dpus, st.tasklets);
    /* a message that does not fit one DPU's budget is refused, not cut */
    static uint8_t big[16384];
    uint8_t mac[32];
    CHECK(cpim_hmac_sha256(ctx, big, 3, big, sizeof big, mac) == CPIM_ERR_UNSUPPORTED,
          "oversized message");
    cpim_close(ctx);
}

/* A timing-only pim run returns CPIM_ERR_TIMING_ONLY with zeroed output. */
TEST(hmac_pim_timing_only)
{
    cpim_backend_info info;
    if (cpim_backend_info_by_name("pim", &info) != CPIM_OK || !info.available) {
        test_skip("pim backend unavailable");
        return;
    }
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 4;
    o.timing_only = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    if (!ctx)
        return;
    uint8_t out[40], zero[40] = {0};
    memset(out, 0xee, sizeof out);
    rc = cpim_pbkdf2_sha256(ctx, (const uint8_t *)"pw", 2, (const uint8_t *)"s", 1, 10, out, 40);
    CHECK(rc == CPIM_ERR_TIMING_ONLY, "pbkdf2: %s", cpim_strerror(rc));
    CHECK_MEM(out, zero, 40, "timing-only output");
    cpim_stats st;
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled && st.modeled.kernel_s > 0,
          "modeled kernel time");
    cpim_close(ctx);
}

TEST(hmac_api_errors)
{
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "cpu", NULL) == CPIM_OK, "open");
    if (!ctx)
        return;
    uint8_t mac[32], out[8];
    CHECK(cpim_hmac_sha256(NULL, NULL, 0, NULL, 0, mac) == CPIM_ERR_INVALID_ARG, "NULL ctx");
    CHECK(cpim_hmac_sha256(ctx, NULL, 0, NULL, 0, NULL) == CPIM_ERR_INVALID_ARG, "NULL mac");
    CHECK(cpim_hmac_sha256(ctx, NULL, 3, NULL, 0, mac) == CPIM_ERR_INVALID_ARG, "NULL key");
    CHECK(cpim_hmac_sha256(ctx, NULL, 0, NULL, 0, mac) == CPIM_OK, "empty key and message");
    CHECK(cpim_pbkdf2_sha256(ctx, NULL, 0, NULL, 0, 0, out, 8) == CPIM_ERR_INVALID_ARG,
          "0 iterations");
    CHECK(cpim_pbkdf2_sha256(ctx, NULL, 0, NULL, 0, 1, NULL, 8) == CPIM_ERR_INVALID_ARG,
          "NULL out");
    CHECK(cpim_pbkdf2_sha256(ctx, NULL, 0, NULL, 0, 1, NULL, 0) == CPIM_OK, "0 bytes");
    CHECK(cpim_hmac_sha256_batch(ctx, NULL, NULL, NULL, NULL, 0, NULL) == CPIM_OK, "empty batch");
    cpim_close(ctx);
}

__attribute__((constructor)) static void register_hmac_tests(void)
{
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        const char *name = cpim_backend_info_at(bi, &info) == CPIM_OK ? info.name : "?";
        char t[64];
        snprintf(t, sizeof t, "hmac_rfc4231_%s", name);
        test_register_case(t, run_rfc4231, bi, 0);
        snprintf(t, sizeof t, "pbkdf2_vectors_%s", name);
        test_register_case(t, run_pbkdf2_vectors, bi, 0);
        snprintf(t, sizeof t, "hmac_random_%s", name);
        test_register_case(t, run_hmac_random, bi, 0);
        snprintf(t, sizeof t, "pbkdf2_random_%s", name);
        test_register_case(t, run_pbkdf2_random, bi, 0);
    }
}
