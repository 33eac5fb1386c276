/*
 * test_pim_faults.c -- fault injection through every checkpoint of the pim
 * backend (profile key failAt=N, src/pim/fault.c), as SQLite tests its
 * malloc and I/O failures: for each host mode and operation, N walks over
 * every allocation, transfer, program load and launch of open + call.  Each
 * injected failure must give a clear error (never CPIM_OK with a wrong
 * output), leak nothing (the sanitizer build runs this too), and leave the
 * context usable: the same call again (past the injection point) must give
 * the right result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cryptopim.h"
#include "test.h"

enum { OP_ECB, OP_CTR, OP_SHA };
static const char *const op_name[] = {"ecb", "ctr", "sha"};

static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

#define LEN   5003u /* not a multiple of 16 (CTR), over two MRAM rounds */
#define NMSGS 7u

struct work {
    uint8_t in[LEN], out[LEN], ref[LEN];
    const uint8_t *msgs[NMSGS];
    size_t lens[NMSGS];
    uint8_t dig[NMSGS][32], ref_dig[NMSGS][32];
};

static cpim_err run(cpim_ctx *ctx, int op, struct work *w)
{
    uint8_t ctr[16] = {0xf0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xfe};
    memset(w->out, 0, sizeof w->out);
    memset(w->dig, 0, sizeof w->dig);
    cpim_err rc = cpim_aes_set_key(ctx, key, sizeof key);
    if (rc != CPIM_OK)
        return rc;
    if (op == OP_ECB)
        return cpim_aes_ecb(ctx, CPIM_ENCRYPT, w->in, w->out, LEN & ~15u);
    if (op == OP_CTR)
        return cpim_aes_ctr(ctx, ctr, w->in, w->out, LEN);
    return cpim_sha256_batch(ctx, w->msgs, w->lens, NMSGS, w->dig);
}

static int right(int op, const struct work *w)
{
    if (op == OP_SHA)
        return !memcmp(w->dig, w->ref_dig, sizeof w->dig);
    return !memcmp(w->out, w->ref, op == OP_ECB ? (LEN & ~15u) : LEN);
}

static cpim_ctx *open_ctx(cpim_pim_mode mode, unsigned long long fail_at, cpim_err *rc)
{
    char profile[160];
    snprintf(profile, sizeof profile,
             "nrRanks=2,nrDpusPerRank=3,disabledDpus=1.2,mramBudget=1024,directMin=0,failAt=%llu",
             fail_at);
    cpim_options o;
    cpim_options_init(&o);
    o.ranks = 2;
    o.tasklets = 4;
    o.mode = mode;
    o.profile = profile;
    cpim_ctx *ctx = NULL;
    *rc = cpim_open(&ctx, "pim", &o);
    return ctx;
}

static void walk(int op, cpim_pim_mode mode, struct work *w)
{
    unsigned long long n;
    int injected = 0;
    for (n = 1; n < 5000; n++) {
        cpim_err rc;
        cpim_ctx *ctx = open_ctx(mode, n, &rc);
        if (rc != CPIM_OK) {
            CHECK(!ctx, "failAt=%llu: open failed (%s) but returned a context", n,
                  cpim_strerror(rc));
            injected++;
            continue;
        }
        rc = run(ctx, op, w);
        if (rc == CPIM_OK) {
            CHECK(right(op, w), "%s mode %d failAt=%llu: CPIM_OK with a wrong output", op_name[op],
                  mode, n);
            cpim_close(ctx);
            break; /* past the last checkpoint: nothing was injected */
        }
        injected++;
        CHECK(rc != CPIM_ERR_INVALID_ARG && *cpim_strerror(rc),
              "%s mode %d failAt=%llu: unclear error %d", op_name[op], mode, n, rc);
        /* the context stays usable: the next call passes the injection */
        rc = run(ctx, op, w);
        CHECK(rc == CPIM_OK && right(op, w),
              "%s mode %d failAt=%llu: the call after the injected failure: %s%s", op_name[op],
              mode, n, cpim_strerror(rc), rc == CPIM_OK ? " (wrong output)" : "");
        cpim_close(ctx);
    }
    /* every walk passes allocations, transfers, a load and launches */
    CHECK(injected >= 10 && n < 5000, "%s mode %d: %d checkpoints injected, walk ended at %llu",
          op_name[op], mode, injected, n);
}

static void fault_case(size_t op, size_t mode)
{
    if (!test_require_backend("pim"))
        return;
    struct work *w = calloc(1, sizeof *w);
    uint64_t seed = 5;
    test_fill(&seed, w->in, LEN);
    static const size_t lens[NMSGS] = {0, 1, 64, 1000, 3000, 700, 55};
    for (size_t i = 0, off = 0; i < NMSGS; off += lens[i], i++) {
        w->msgs[i] = w->in + off;
        w->lens[i] = lens[i];
    }
    cpim_ctx *cpu = NULL;
    uint8_t ctr[16] = {0xf0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xfe};
    CHECK(cpim_open(&cpu, "cpu", NULL) == CPIM_OK && cpim_aes_set_key(cpu, key, 16) == CPIM_OK,
          "cpu");
    if (op == OP_ECB)
        CHECK(cpim_aes_ecb(cpu, CPIM_ENCRYPT, w->in, w->ref, LEN & ~15u) == CPIM_OK, "cpu ecb");
    else if (op == OP_CTR)
        CHECK(cpim_aes_ctr(cpu, ctr, w->in, w->ref, LEN) == CPIM_OK, "cpu ctr");
    else
        CHECK(cpim_sha256_batch(cpu, w->msgs, w->lens, NMSGS, w->ref_dig) == CPIM_OK, "cpu sha");
    cpim_close(cpu);
    walk((int)op, (cpim_pim_mode)mode, w);
    free(w);
}

__attribute__((constructor)) static void register_fault_cases(void)
{
    static const char *const modes[] = {"sync", "async_xfer", "async_exec"};
    char name[64];
    for (size_t op = 0; op < 3; op++)
        for (size_t mode = 0; mode < 3; mode++) {
            snprintf(name, sizeof name, "pim_faults_%s_%s", op_name[op], modes[mode]);
            test_register_case(name, fault_case, op, mode);
        }
}
