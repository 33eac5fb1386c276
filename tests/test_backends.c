/*
 * test_backends.c -- every backend of the registry cross-checked against the
 * `cpu` backend (single-threaded) on seeded random inputs.
 *
 * Tests are registered at start-up, one per (backend, operation):
 * backends_<backend>_ecb, _ctr, _sha256, _sha256_stream.  Each runs the backend with
 * threads = 2 and threads = 1 (both must equal the reference), on sizes
 * from 0 to 1 MiB that include lengths that are not multiples of 16 (CTR)
 * and block counts that do not divide evenly by the thread count, in-place
 * buffers, and CTR continued across two calls.  An unavailable backend, or
 * one that answers CPIM_ERR_UNSUPPORTED, is reported as SKIP with the reason.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "test.h"

#define MIB (1u << 20)

enum op { OP_ECB, OP_CTR, OP_SHA, OP_STREAM, NOPS };
static const char *const op_name[NOPS] = {"ecb", "ctr", "sha256", "sha256_stream"};

static char skip_reason[256];

static cpim_ctx *open_backend(const char *name, unsigned threads)
{
    cpim_options o;
    cpim_options_init(&o);
    o.threads = threads;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, name, &o);
    CHECK(rc == CPIM_OK, "cpim_open(%s, threads=%u): %s", name, threads, cpim_strerror(rc));
    return ctx;
}

/* Returns 1 (and marks the test skipped) when rc is UNSUPPORTED. */
static int unsupported(cpim_err rc, const char *be, const char *what)
{
    if (rc != CPIM_ERR_UNSUPPORTED)
        return 0;
    snprintf(skip_reason, sizeof skip_reason, "backend %s does not support %s", be, what);
    test_skip(skip_reason);
    return 1;
}

/* The sizes: fixed ones around the edges, then seeded random ones. */
static size_t pick_size(uint64_t *seed, int i, int ctr)
{
    static const size_t fixed[] = {
        0, 1, 15, 16, 17, 48, 4096, 65535, 65536, 131072 + 48, MIB, MIB - 1, 3 * 4096 * 16 + 16};
    size_t n = i < (int)(sizeof fixed / sizeof fixed[0]) ? fixed[i]
                                                         : (size_t)(test_rand(seed) % (MIB + 1));
    return ctr ? n : n & ~(size_t)15;
}
#define NSIZES 20

static void run_aes(const char *be, int ctr)
{
    cpim_ctx *ref = open_backend("cpu", 1);
    cpim_ctx *t2 = open_backend(be, 2), *t1 = open_backend(be, 1);
    uint8_t *in = malloc(MIB + 16), *want = malloc(MIB + 16), *got = malloc(MIB + 16);
    uint64_t seed = 0x5eed0000u + (uint64_t)ctr;
    if (!ref || !t1 || !t2 || !in || !want || !got) {
        CHECK(in && want && got, "out of memory");
        goto out;
    }
    for (int i = 0; i < NSIZES; i++) {
        size_t len = pick_size(&seed, i, ctr);
        uint8_t key[32], c0[16];
        size_t kl = 16 + 8 * (size_t)(i % 3);
        test_fill(&seed, key, kl);
        test_fill(&seed, c0, 16);
        if (i % 4 == 1) /* a counter about to carry across 64 bits / wrap 2^128 */
            memset(c0 + (i % 8 == 1 ? 8 : 0), 0xff, i % 8 == 1 ? 8 : 16);
        test_fill(&seed, in, len);
        CHECK(cpim_aes_set_key(ref, key, kl) == CPIM_OK, "cpu set_key");
        uint8_t rc_ctr[16];
        memcpy(rc_ctr, c0, 16);
        cpim_dir dir = i % 2 ? CPIM_DECRYPT : CPIM_ENCRYPT;
        cpim_err rc =
            ctr ? cpim_aes_ctr(ref, rc_ctr, in, want, len) : cpim_aes_ecb(ref, dir, in, want, len);
        CHECK(rc == CPIM_OK, "cpu reference: %s", cpim_strerror(rc));
        for (int t = 0; t < 2; t++) {
            cpim_ctx *ctx = t ? t1 : t2;
            unsigned thr = t ? 1 : 2;
            char what[160];
            rc = cpim_aes_set_key(ctx, key, kl);
            if (unsupported(rc, be, "AES"))
                goto out;
            CHECK(rc == CPIM_OK, "%s set_key: %s", be, cpim_strerror(rc));
            uint8_t c[16];
            memcpy(c, c0, 16);
            memset(got, 0xaa, len);
            rc = ctr ? cpim_aes_ctr(ctx, c, in, got, len) : cpim_aes_ecb(ctx, dir, in, got, len);
            if (unsupported(rc, be, ctr ? "AES-CTR" : "AES-ECB"))
                goto out;
            snprintf(what, sizeof what, "%s threads=%u %s %zu bytes, %zu-byte key", be, thr,
                     ctr   ? "ctr"
                     : dir ? "ecb-dec"
                           : "ecb-enc",
                     len, kl);
            CHECK(rc == CPIM_OK, "%s: %s", what, cpim_strerror(rc));
            if (!CHECK_MEM(got, want, len, what))
                goto out;
            if (ctr)
                CHECK_MEM(c, rc_ctr, 16, "counter after the call");
            /* in place */
            memcpy(got, in, len);
            memcpy(c, c0, 16);
            rc = ctr ? cpim_aes_ctr(ctx, c, got, got, len) : cpim_aes_ecb(ctx, dir, got, got, len);
            CHECK(rc == CPIM_OK, "in-place %s: %s", what, cpim_strerror(rc));
            if (!CHECK_MEM(got, want, len, "in-place"))
                goto out;
            /* CTR continued across two calls, first a multiple of 16 */
            if (ctr && len) {
                size_t split = (size_t)(test_rand(&seed) % (len + 1)) & ~(size_t)15;
                memcpy(c, c0, 16);
                rc = cpim_aes_ctr(ctx, c, in, got, split);
                if (rc == CPIM_OK)
                    rc = cpim_aes_ctr(ctx, c, in + split, got + split, len - split);
                CHECK(rc == CPIM_OK, "two-call ctr: %s", cpim_strerror(rc));
                snprintf(what, sizeof what, "%s threads=%u ctr %zu bytes in two calls at %zu", be,
                         thr, len, split);
                if (!CHECK_MEM(got, want, len, what))
                    goto out;
                CHECK_MEM(c, rc_ctr, 16, "counter after two calls");
            }
        }
    }
out:
    free(in), free(want), free(got);
    cpim_close(ref), cpim_close(t1), cpim_close(t2);
}

static void run_sha(const char *be)
{
    enum { MAXMSG = 64 };
    static const size_t special[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129};
    cpim_ctx *ref = open_backend("cpu", 1);
    cpim_ctx *t2 = open_backend(be, 2), *t1 = open_backend(be, 1);
    uint8_t *data = malloc(MIB);
    uint64_t seed = 0x5a256u;
    if (!ref || !t1 || !t2 || !data) {
        CHECK(data != NULL, "out of memory");
        goto out;
    }
    test_fill(&seed, data, MIB);
    for (int round = 0; round < 12; round++) {
        const uint8_t *msgs[MAXMSG];
        size_t lens[MAXMSG], count = 1 + (size_t)(test_rand(&seed) % MAXMSG);
        uint8_t want[MAXMSG][32], got[MAXMSG][32];
        if (round == 0)
            count = sizeof special / sizeof special[0];
        if (round == 1)
            count = 1;
        for (size_t i = 0; i < count; i++) {
            uint64_t r = test_rand(&seed);
            if (round == 0)
                lens[i] = special[i];
            else if (round == 1)
                lens[i] = 0;
            else if (r % 3 == 0)
                lens[i] = special[r % (sizeof special / sizeof special[0])];
            else
                lens[i] = (size_t)(r >> 8) % (round > 8 ? MIB / 2 : 20000);
            size_t off = (size_t)(test_rand(&seed) % (MIB - lens[i] + 1));
            msgs[i] = lens[i] ? data + off : NULL;
        }
        cpim_err rc = cpim_sha256_batch(ref, msgs, lens, count, want);
        CHECK(rc == CPIM_OK, "cpu reference: %s", cpim_strerror(rc));
        for (int t = 0; t < 2; t++) {
            memset(got, 0, sizeof got);
            rc = cpim_sha256_batch(t ? t1 : t2, msgs, lens, count, got);
            if (unsupported(rc, be, "SHA-256"))
                goto out;
            CHECK(rc == CPIM_OK, "%s sha256_batch: %s", be, cpim_strerror(rc));
            for (size_t i = 0; i < count; i++) {
                char what[120];
                snprintf(what, sizeof what, "%s threads=%d batch of %zu: digest %zu (%zu bytes)",
                         be, t ? 1 : 2, count, i, lens[i]);
                if (!CHECK_MEM(got[i], want[i], 32, what))
                    goto out;
            }
        }
    }
out:
    free(data);
    cpim_close(ref), cpim_close(t1), cpim_close(t2);
}

/* The streaming API: many streams fed in random chunks (0-byte ones too),
 * through update and update_many alternately, finished by final and
 * final_many: every digest must equal the cpu backend's one-shot batch. */
static void run_stream(const char *be)
{
    enum { MAXMSG = 24 };
    cpim_ctx *ref = open_backend("cpu", 1);
    cpim_ctx *t2 = open_backend(be, 2), *t1 = open_backend(be, 1);
    uint8_t *data = malloc(MIB);
    uint64_t seed = 0x57ea3u;
    if (!ref || !t1 || !t2 || !data) {
        CHECK(data != NULL, "out of memory");
        goto out;
    }
    test_fill(&seed, data, MIB);
    for (int round = 0; round < 10; round++) {
        cpim_ctx *ctx = round & 1 ? t1 : t2;
        const uint8_t *msgs[MAXMSG];
        size_t lens[MAXMSG], done[MAXMSG], count = 1 + (size_t)(test_rand(&seed) % MAXMSG);
        uint8_t want[MAXMSG][32], got[MAXMSG][32];
        cpim_sha256_state st[MAXMSG];
        cpim_sha256_state *sp[MAXMSG];
        for (size_t i = 0; i < count; i++) {
            uint64_t r = test_rand(&seed);
            lens[i] = r % 4 == 0 ? (size_t)(r >> 8) % 130 : (size_t)(r >> 8) % (MIB / 4);
            msgs[i] = data + (size_t)(test_rand(&seed) % (MIB - lens[i] + 1));
            done[i] = 0;
            sp[i] = &st[i];
            CHECK(cpim_sha256_init(&st[i]) == CPIM_OK, "init");
        }
        CHECK(cpim_sha256_batch(ref, msgs, lens, count, want) == CPIM_OK, "cpu reference");
        for (int step = 0;; step++) {
            const uint8_t *p[MAXMSG];
            size_t n[MAXMSG];
            int left = 0;
            for (size_t i = 0; i < count; i++) {
                uint64_t r = test_rand(&seed);
                size_t rest = lens[i] - done[i];
                /* chunk: 0, a few bytes, around a block, or a large piece */
                size_t c = r % 5 == 0   ? 0
                           : r % 5 == 1 ? (size_t)(r >> 8) % 7
                           : r % 5 == 2 ? 60 + (size_t)(r >> 8) % 9
                                        : (size_t)(r >> 8) % (rest + 1);
                n[i] = c < rest ? c : rest;
                p[i] = n[i] ? msgs[i] + done[i] : NULL;
                left |= done[i] + n[i] < lens[i];
            }
            cpim_err rc = CPIM_OK;
            if (step % 2 == 0) {
                rc = cpim_sha256_update_many(ctx, sp, p, n, count);
            } else {
                for (size_t i = 0; i < count && rc == CPIM_OK; i++)
                    rc = cpim_sha256_update(ctx, &st[i], p[i], n[i]);
            }
            if (unsupported(rc, be, "streaming SHA-256"))
                goto out;
            if (rc != CPIM_OK) {
                CHECK(0, "%s update: %s", be, cpim_strerror(rc));
                goto out;
            }
            for (size_t i = 0; i < count; i++)
                done[i] += n[i];
            if (!left && step > 2)
                break;
        }
        cpim_err rc = CPIM_OK;
        if (round % 3 == 0) {
            for (size_t i = 0; i < count && rc == CPIM_OK; i++)
                rc = cpim_sha256_final(ctx, &st[i], got[i]);
        } else {
            rc = cpim_sha256_final_many(ctx, sp, count, got);
        }
        if (rc != CPIM_OK) {
            CHECK(0, "%s final: %s", be, cpim_strerror(rc));
            goto out;
        }
        for (size_t i = 0; i < count; i++) {
            char what[120];
            snprintf(what, sizeof what, "%s stream %zu of %zu (%zu bytes, round %d)", be, i, count,
                     lens[i], round);
            if (!CHECK_MEM(got[i], want[i], 32, what))
                goto out;
        }
        /* a finished state is refused until init */
        CHECK(cpim_sha256_update(ctx, &st[0], data, 1) == CPIM_ERR_INVALID_ARG,
              "update after final must be refused");
    }
out:
    free(data);
    cpim_close(ref), cpim_close(t1), cpim_close(t2);
}

static void run_one(size_t bi, size_t op)
{
    cpim_backend_info info;
    if (cpim_backend_info_at(bi, &info) != CPIM_OK) {
        CHECK(0, "backend %zu vanished", bi);
        return;
    }
    if (!info.available) {
        snprintf(skip_reason, sizeof skip_reason, "backend %s unavailable: %s", info.name,
                 info.why);
        test_skip(skip_reason);
        return;
    }
    if (op == OP_SHA)
        run_sha(info.name);
    else if (op == OP_STREAM)
        run_stream(info.name);
    else
        run_aes(info.name, op == OP_CTR);
}

/* ---- registration: one test per (backend, operation) ------------------------------- */

__attribute__((constructor)) static void register_backend_tests(void)
{
    for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
        cpim_backend_info info;
        const char *name = cpim_backend_info_at(bi, &info) == CPIM_OK ? info.name : "?";
        for (size_t op = 0; op < NOPS; op++) {
            char test_name[64];
            snprintf(test_name, sizeof test_name, "backends_%s_%s", name, op_name[op]);
            test_register_case(test_name, run_one, bi, op);
        }
    }
}
