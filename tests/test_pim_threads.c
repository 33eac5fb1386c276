/*
 * test_pim_threads.c -- contexts and threads, and the timing-only contract.
 *
 *  - Opening pim contexts with different profiles from several threads at
 *    once gives each its own machine (the profile parser was not reentrant:
 *    contexts silently got the default machine).
 *  - One context used by two threads at once: the second call gets
 *    CPIM_ERR_BUSY and touches nothing; the first call's result is right.
 *  - cpim_options.timing_only: sampleDpus needs it; a timing-only call
 *    returns CPIM_ERR_TIMING_ONLY with its output zeroed, its statistics
 *    filled, and a CTR counter not advanced.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "cryptopim.h"
#include "test.h"

static const uint8_t key16[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                  0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

/* ---- concurrent opens ----------------------------------------------------- */

struct opener {
    const char *profile;
    unsigned want_dpus; /* DPUs the profile's machine has */
    unsigned got_dpus;
    cpim_err rc;
};

static void *open_and_hash(void *arg)
{
    struct opener *o = arg;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.ranks = 1; /* one whole rank: its size says which profile was used */
    opt.tasklets = 2;
    opt.profile = o->profile;
    cpim_ctx *ctx = NULL;
    o->rc = cpim_open(&ctx, "pim", &opt);
    if (o->rc == CPIM_OK) {
        static const uint8_t msg[1] = {'a'};
        const uint8_t *m = msg;
        size_t len = 1;
        uint8_t d[1][32];
        cpim_stats st;
        o->rc = cpim_sha256_batch(ctx, &m, &len, 1, d);
        if (o->rc == CPIM_OK && cpim_last_stats(ctx, &st) == CPIM_OK)
            o->got_dpus = st.dpus;
    }
    cpim_close(ctx);
    return NULL;
}

TEST(pim_open_concurrent_profiles)
{
    if (!test_require_backend("pim"))
        return;
    enum { THREADS = 4, ROUNDS = 6 };
    /* the default machine has 40 ranks: each context takes one of them,
     * of the size its own profile says (64 DPUs if it got the default) */
    static const char *const profiles[THREADS] = {
        "nrDpusPerRank=2,mramBudget=4096",
        "directMin=0,nrDpusPerRank=3",
        "mramBudget=8192,nrDpusPerRank=4,directMin=64",
        "nrDpusPerRank=5",
    };
    static const unsigned dpus[THREADS] = {2, 3, 4, 5};
    int wrong = 0;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_t th[THREADS];
        struct opener o[THREADS];
        for (int i = 0; i < THREADS; i++) {
            o[i] = (struct opener){profiles[i], dpus[i], 0, CPIM_OK};
            CHECK(pthread_create(&th[i], NULL, open_and_hash, &o[i]) == 0, "pthread_create");
        }
        for (int i = 0; i < THREADS; i++) {
            pthread_join(th[i], NULL);
            if (o[i].rc != CPIM_OK || o[i].got_dpus != o[i].want_dpus) {
                if (!wrong++)
                    CHECK(0, "round %d, profile %s: %s, %u DPUs (want %u)", r, o[i].profile,
                          cpim_strerror(o[i].rc), o[i].got_dpus, o[i].want_dpus);
            }
        }
    }
    CHECK(wrong == 0, "%d of %d opens got another machine or failed", wrong, THREADS * ROUNDS);
}

/* ---- one context, two threads ------------------------------------------- */

/* The second thread: small calls on the shared context until told to stop,
 * counting CPIM_ERR_BUSY answers; a refused call must not touch its
 * buffer. */
struct hammer {
    cpim_ctx *ctx;
    atomic_int started, stop;
    unsigned busy, ran, wrote_when_refused;
};

static void *hammer_main(void *arg)
{
    struct hammer *h = arg;
    atomic_store(&h->started, 1);
    while (!atomic_load(&h->stop)) {
        uint8_t buf[64];
        memset(buf, 0x5a, sizeof buf);
        cpim_err rc = cpim_aes_ecb(h->ctx, CPIM_ENCRYPT, buf, buf, sizeof buf);
        if (rc == CPIM_ERR_BUSY) {
            h->busy++;
            for (size_t i = 0; i < sizeof buf; i++)
                h->wrote_when_refused += buf[i] != 0x5a;
        } else {
            h->ran++;
        }
        /* a gap between calls, so that the other thread's long call gets
         * the context soon, also under ASan on a loaded machine */
        nanosleep(&(struct timespec){0, 200000}, NULL);
    }
    return NULL;
}

TEST(pim_shared_context_busy)
{
    if (!test_require_backend("pim"))
        return;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.dpus = 4;
    opt.tasklets = 4;
    opt.profile = "nrRanks=1,nrDpusPerRank=4";
    cpim_ctx *ctx = NULL, *cpu = NULL;
    CHECK(cpim_open(&ctx, "pim", &opt) == CPIM_OK, "open pim");
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK, "open cpu");
    const size_t len = 1u << 20;
    uint8_t *in = malloc(len), *out = malloc(len), *ref = malloc(len);
    if (!ctx || !cpu || !in || !out || !ref)
        goto done;
    uint64_t seed = 7;
    test_fill(&seed, in, len);
    CHECK(cpim_aes_set_key(ctx, key16, 16) == CPIM_OK, "key");
    CHECK(cpim_aes_set_key(cpu, key16, 16) == CPIM_OK, "cpu key");
    CHECK(cpim_aes_ecb(cpu, CPIM_ENCRYPT, in, ref, len) == CPIM_OK, "cpu ecb");
    struct hammer h = {ctx, 0, 0, 0, 0, 0};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, hammer_main, &h) == 0, "pthread_create");
    while (!atomic_load(&h.started))
        ;
    /* the long call; the other thread may hold the context for a moment */
    cpim_err rc;
    double t0 = cpim_now();
    while ((rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, len)) == CPIM_ERR_BUSY &&
           cpim_now() - t0 < 120.0)
        ;
    atomic_store(&h.stop, 1);
    pthread_join(th, NULL);
    CHECK(rc == CPIM_OK, "the long call: %s", cpim_strerror(rc));
    CHECK_MEM(out, ref, len, "the long call's output");
    CHECK(h.busy > 0, "no CPIM_ERR_BUSY while another thread used the context (%u calls ran)",
          h.ran);
    CHECK(h.wrote_when_refused == 0, "a refused call wrote %u bytes of its output",
          h.wrote_when_refused);
done:
    free(in);
    free(out);
    free(ref);
    cpim_close(ctx);
    cpim_close(cpu);
}

/* ---- timing-only ----------------------------------------------------------- */

TEST(pim_timing_only_contract)
{
    if (!test_require_backend("pim"))
        return;
    cpim_options opt;
    cpim_options_init(&opt);
    opt.dpus = 4;
    opt.tasklets = 4;
    opt.profile = "nrRanks=1,nrDpusPerRank=4,sampleDpus=1";
    cpim_ctx *ctx = NULL;
    CHECK(cpim_open(&ctx, "pim", &opt) == CPIM_ERR_INVALID_ARG && !ctx,
          "sampleDpus without timing_only was accepted");
    cpim_close(ctx);
    ctx = NULL;
    opt.timing_only = 1;
    CHECK(cpim_open(&ctx, "pim", &opt) == CPIM_OK, "open timing-only");
    if (!ctx)
        return;
    enum { LEN = 4096 + 5 };
    uint8_t in[LEN], out[LEN], zero[LEN], ctr[16], ctr0[16];
    memset(zero, 0, sizeof zero);
    memset(in, 0x33, sizeof in);
    memset(ctr0, 0xee, sizeof ctr0);
    memcpy(ctr, ctr0, 16);
    cpim_stats st;
    CHECK(cpim_aes_set_key(ctx, key16, 16) == CPIM_OK, "key");
    memset(out, 0xa5, sizeof out);
    CHECK(cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, 4096) == CPIM_ERR_TIMING_ONLY, "ecb");
    CHECK_MEM(out, zero, 4096, "timing-only ECB output");
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled && st.modeled.kernel_s > 0,
          "timing-only call has no modeled kernel time");
    memset(out, 0xa5, sizeof out);
    CHECK(cpim_aes_ctr(ctx, ctr, in, out, LEN) == CPIM_ERR_TIMING_ONLY, "ctr");
    CHECK_MEM(out, zero, LEN, "timing-only CTR output");
    CHECK_MEM(ctr, ctr0, 16, "timing-only CTR counter");
    /* in place: the input must not come back as if it were the output */
    memcpy(out, in, LEN);
    CHECK(cpim_aes_ctr(ctx, ctr, out, out, LEN) == CPIM_ERR_TIMING_ONLY, "ctr in place");
    CHECK_MEM(out, zero, LEN, "timing-only in-place CTR output");
    const uint8_t *msgs[5] = {in, in, in, in, in};
    size_t lens[5] = {0, 1, 64, 1000, 4096};
    uint8_t dig[5][32];
    memset(dig, 0xa5, sizeof dig);
    CHECK(cpim_sha256_batch(ctx, msgs, lens, 5, dig) == CPIM_ERR_TIMING_ONLY, "sha");
    CHECK_MEM(dig, zero, sizeof dig, "timing-only digests");
    CHECK(cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled && st.modeled.total_s > 0,
          "timing-only SHA call has no modeled time");
    cpim_close(ctx);
}
