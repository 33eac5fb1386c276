/*
 * test_pim_direct.c -- the pim backend's SHA-256 direct pushes (DPU data
 * pushed straight from the caller's buffers when a DPU's messages are one
 * contiguous run there) against the cpu backend: contiguous batches with
 * lengths that are and are not multiples of 8, empty messages, long
 * messages continued over MRAM rounds, and a batch mixing contiguous and
 * scattered messages.  The backend's profile key directMin=0 makes every
 * contiguous run direct (by default only groups of >= 1 MiB are).  The
 * contiguous buffer has no slack after its last byte, so a push reading
 * past the caller's data shows up in the sanitizer build.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cryptopim.h"
#include "test.h"

/* 2 ranks of 3 DPUs, one of them disabled: 5 DPUs in 2 ranks. */
#define PROFILE "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2"

/* Hashes msgs on pim (every mode, each profile) and compares with cpu. */
static void check_batch(const uint8_t *const *msgs, const size_t *lens, size_t n,
                        const char *const *profiles, size_t nprof, const char *what)
{
    uint8_t(*a)[32] = malloc(n * 32 + 1), (*b)[32] = malloc(n * 32 + 1);
    cpim_ctx *cpu = NULL;
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "cpu");
    CHECK(cpim_sha256_batch(cpu, msgs, lens, n, b) == CPIM_OK, "cpu sha");
    for (int mode = 0; mode < 3; mode++)
        for (size_t p = 0; p < nprof; p++) {
            cpim_options o;
            cpim_options_init(&o);
            o.ranks = 2;
            o.tasklets = 4;
            o.mode = (cpim_pim_mode)mode;
            o.profile = profiles[p];
            cpim_ctx *pim = NULL;
            cpim_err rc = cpim_open(&pim, "pim", &o);
            CHECK(rc == CPIM_OK, "open pim (%s): %s", profiles[p], cpim_strerror(rc));
            if (rc != CPIM_OK)
                continue;
            for (int rep = 0; rep < 2; rep++) { /* the second call reuses the staging */
                memset(a, 0, n * 32);
                rc = cpim_sha256_batch(pim, msgs, lens, n, a);
                CHECK(rc == CPIM_OK, "%s mode %d %s: %s", what, mode, profiles[p],
                      cpim_strerror(rc));
                if (rc == CPIM_OK && memcmp(a, b, n * 32) != 0)
                    CHECK_MEM(a, b, n * 32, what);
            }
            cpim_close(pim);
        }
    cpim_close(cpu);
    free(a);
    free(b);
}

TEST(pim_sha256_direct_contiguous)
{
    if (!test_require_backend("pim"))
        return;
    static const char *const profiles[] = {
        PROFILE ",directMin=0",
        PROFILE ",directMin=0,mramBudget=4096", /* long messages: segments, CONT */
        PROFILE,                                /* default: small groups are staged */
    };
    enum { N = 40 };
    size_t lens[N], total = 0;
    uint64_t seed = 21;
    for (int i = 0; i < N; i++) {
        /* runs of multiples of 8 (direct), odd tails, empties, long ones */
        size_t r = test_rand(&seed);
        lens[i] = i % 7 == 3   ? 0
                  : i % 5 == 1 ? (r % 700)
                  : i % 9 == 4 ? 8192 + (r % 9000)
                               : 8 * (1 + r % 400);
        total += lens[i];
    }
    uint8_t *data = malloc(total ? total : 1); /* exactly total: no slack */
    test_fill(&seed, data, total);
    const uint8_t *msgs[N];
    size_t at = 0;
    for (int i = 0; i < N; i++) {
        msgs[i] = lens[i] ? data + at : NULL; /* an empty message may have no buffer */
        at += lens[i];
    }
    check_batch(msgs, lens, N, profiles, 3, "contiguous batch");
    /* every message a multiple of 8: each DPU's run is whole words, no tail */
    for (int i = 0; i < N; i++)
        lens[i] &= ~(size_t)7;
    at = 0;
    for (int i = 0; i < N; i++) {
        msgs[i] = data + at;
        at += lens[i];
    }
    check_batch(msgs, lens, N, profiles, 3, "contiguous, multiples of 8");
    /* one long message per DPU (each DPU's run is a segment of one message) */
    size_t one[2] = {total / 2, total - total / 2};
    const uint8_t *om[2] = {data, data + one[0]};
    check_batch(om, one, 2, profiles, 2, "two long messages");
    free(data);
}

TEST(pim_sha256_direct_mixed)
{
    if (!test_require_backend("pim"))
        return;
    static const char *const profiles[] = {PROFILE ",directMin=0",
                                           PROFILE ",directMin=0,mramBudget=2048"};
    enum { N = 30 };
    size_t lens[N], total = 0;
    uint64_t seed = 5;
    for (int i = 0; i < N; i++) {
        lens[i] = 64 * (1 + test_rand(&seed) % 50) + (i == N - 1 ? 3 : 0);
        total += lens[i];
    }
    uint8_t *data = malloc(total);
    uint8_t *own[N];
    const uint8_t *msgs[N];
    test_fill(&seed, data, total);
    size_t at = 0;
    for (int i = 0; i < N; i++) {
        own[i] = NULL;
        if (i % 4 == 2) { /* a scattered message in the middle of contiguous ones */
            own[i] = malloc(lens[i]);
            memcpy(own[i], data + at, lens[i]);
        }
        msgs[i] = own[i] ? own[i] : data + at;
        at += lens[i];
    }
    check_batch(msgs, lens, N, profiles, 2, "mixed batch");
    for (int i = 0; i < N; i++)
        free(own[i]);
    free(data);
}

TEST(pim_sha256_direct_profile_key)
{
    if (!test_require_backend("pim"))
        return;
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 1;
    o.profile = "directMin=x";
    cpim_ctx *pim = NULL;
    CHECK(cpim_open(&pim, "pim", &o) == CPIM_ERR_INVALID_ARG, "directMin=x rejected");
    cpim_close(pim);
}
