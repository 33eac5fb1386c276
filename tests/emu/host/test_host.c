/*
 * tests/emu/host/test_host.c -- tests of the virtual UPMEM host library:
 * every rule of the emulator checklist (upmem-api.md §6: 1-6, 8), async
 * ordering and sticky errors, disabled DPUs, and the modeled clock.
 *
 * Run from the folder holding basic.dpu, fault.dpu, hello.dpu (built by
 * emu/host.mk). Runs on the harness of tests/test.h; arguments select tests by
 * name prefix.
 */
#define _DEFAULT_SOURCE
#include <dpu.h>
#include <dpu_emu.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "set.h" /* emu_model_param_table (the prices the clock tests expect), struct dpu_t */
#include "test.h"

/* A failure of the running test (CHECK() of test.h records them too). */
#define fail(...) test_fail(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK_ERR(call, want)                                                                      \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        if (e_ != (want))                                                                          \
            fail("line %d: %s returned %d, want %d (%s)", __LINE__, #call, (int)e_, (int)(want),   \
                 #want);                                                                           \
    } while (0)
#define OK(call) CHECK_ERR(call, DPU_OK)

/* Registers a test; main() lists them in order, then the harness runs them. */
static void run(const char *name, void (*fn)(void))
{
    test_register(name, fn);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double param(const char *key)
{
    for (unsigned i = 0; i < emu_model_param_count; i++)
        if (!strcmp(emu_model_param_table[i].key, key))
            return emu_model_param_table[i].def;
    return NAN;
}

/* ------------------------------------------------------------- rule 1 */

static void t_profile(void)
{
    struct dpu_set_t set;
    CHECK_ERR(dpu_alloc(1, "noSuchKey=1", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "nrRanks", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "nrRanks=abc", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "nrDpusPerRank=65", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "mode=warp", &set), DPU_ERR_INVALID_PROFILE);
    OK(dpu_alloc(1,
                 "backend=simulator, nrThreadsPerRank=2,nrJobsPerRank=8,disableResetOnAlloc=true,"
                 "dispatchOnAllRanks=false,sgXferEnable=true,chipId=0x42,clockMhz=400,mode=fast,"
                 "parallelToGBps=5.5,launchUs=50",
                 &set));
    OK(dpu_free(set));
    setenv("UPMEM_PROFILE", "nrRanks=3", 1);
    uint32_t n = 0;
    OK(dpu_alloc(DPU_ALLOCATE_ALL, NULL, &set));
    OK(dpu_get_nr_ranks(set, &n));
    CHECK(n == 3, "UPMEM_PROFILE=nrRanks=3 gave %u ranks", n);
    OK(dpu_free(set));
    setenv("UPMEM_PROFILE", "bogus=1", 1);
    CHECK_ERR(dpu_alloc(1, NULL, &set), DPU_ERR_INVALID_PROFILE);
    unsetenv("UPMEM_PROFILE");
    setenv("UPMEM_PROFILE_BASE", "nrRanks=2", 1);
    OK(dpu_alloc(DPU_ALLOCATE_ALL, "nrDpusPerRank=4", &set));
    OK(dpu_get_nr_dpus(set, &n));
    CHECK(n == 8, "UPMEM_PROFILE_BASE nrRanks=2 + nrDpusPerRank=4 gave %u DPUs", n);
    OK(dpu_free(set));
    unsetenv("UPMEM_PROFILE_BASE");
}

static void t_alloc_counts(void)
{
    struct dpu_set_t set, dpu, rank;
    uint32_t n = 0, r = 0, i, count = 0, last = 0;
    CHECK_ERR(dpu_alloc(0, NULL, &set), DPU_ERR_ALLOCATION);
    CHECK_ERR(dpu_alloc(2561, NULL, &set), DPU_ERR_ALLOCATION);
    CHECK_ERR(dpu_alloc_ranks(41, NULL, &set), DPU_ERR_ALLOCATION);
    OK(dpu_alloc(100, NULL, &set));
    CHECK(set.kind == DPU_SET_RANKS, "alloc returned kind %d", set.kind);
    OK(dpu_get_nr_dpus(set, &n));
    OK(dpu_get_nr_ranks(set, &r));
    CHECK(n == 100 && r == 2, "dpu_alloc(100): %u DPUs in %u ranks", n, r);
    DPU_FOREACH (set, dpu, i) {
        CHECK(dpu.kind == DPU_SET_DPU && i == count, "DPU_FOREACH index %u at %u", i, count);
        uint32_t one = 0;
        OK(dpu_get_nr_dpus(dpu, &one));
        CHECK(one == 1, "nr_dpus of a DPU set = %u", one);
        count++;
    }
    CHECK(count == 100, "DPU_FOREACH visited %u DPUs", count);
    count = 0;
    DPU_FOREACH (set, dpu)
        count++;
    CHECK(count == 100, "2-arg DPU_FOREACH visited %u DPUs", count);
    count = 0;
    DPU_RANK_FOREACH (set, rank, i) {
        uint32_t rn = 0, rr = 0;
        OK(dpu_get_nr_dpus(rank, &rn));
        OK(dpu_get_nr_ranks(rank, &rr));
        CHECK(rank.kind == DPU_SET_RANKS && rr == 1 && i == count, "rank set shape");
        CHECK(rn == (i == 0 ? 64u : 36u), "rank %u has %u DPUs (want 64 then 36)", i, rn);
        uint32_t inner = 0;
        DPU_FOREACH (rank, dpu)
            inner++;
        CHECK(inner == rn, "DPU_FOREACH on a rank: %u vs %u", inner, rn);
        count++;
        last = i;
    }
    CHECK(count == 2 && last == 1, "DPU_RANK_FOREACH visited %u ranks", count);
    count = 0;
    DPU_RANK_FOREACH (set, rank)
        count++;
    CHECK(count == 2, "2-arg DPU_RANK_FOREACH visited %u", count);
    /* on a DPU set: that DPU set, once (SDK), not the DPU's whole rank */
    count = 0;
    DPU_FOREACH (set, dpu, i)
        if (i == 70)
            break;
    DPU_RANK_FOREACH (dpu, rank) {
        uint32_t rn = 0;
        OK(dpu_get_nr_dpus(rank, &rn));
        CHECK(rank.kind == DPU_SET_DPU && rank.dpu == dpu.dpu && rn == 1,
              "DPU_RANK_FOREACH on a DPU set gave kind %d with %u DPUs", rank.kind, rn);
        count++;
    }
    CHECK(count == 1, "DPU_RANK_FOREACH on a DPU set visited %u", count);
    /* a second allocation takes other ranks; all 40 are then too many */
    struct dpu_set_t other;
    OK(dpu_alloc_ranks(38, NULL, &other));
    CHECK_ERR(dpu_alloc_ranks(1, NULL, &set.list.ranks == NULL ? &other : &dpu),
              DPU_ERR_ALLOCATION);
    OK(dpu_free(other));
    OK(dpu_free(set));
}

static void t_free_only_alloc(void)
{
    struct dpu_set_t set, dpu, rank;
    OK(dpu_alloc_ranks(2, "nrDpusPerRank=8", &set));
    DPU_FOREACH (set, dpu) {
        CHECK_ERR(dpu_free(dpu), DPU_ERR_INVALID_DPU_SET);
        break;
    }
    DPU_RANK_FOREACH (set, rank) {
        CHECK_ERR(dpu_free(rank), DPU_ERR_INVALID_DPU_SET);
        break;
    }
    struct dpu_set_t copy = set;
    copy.list.nr_ranks = 1;
    CHECK_ERR(dpu_free(copy), DPU_ERR_INVALID_DPU_SET);
    OK(dpu_free(set));
    CHECK_ERR(dpu_free(set), DPU_ERR_INVALID_DPU_SET);
}

static void t_disabled(void)
{
    struct dpu_set_t set, dpu;
    uint32_t n = 0, i;
    OK(dpu_alloc_ranks(2, "nrRanks=2,nrDpusPerRank=8,disabledDpus=0.5:1.0", &set));
    OK(dpu_get_nr_dpus(set, &n));
    CHECK(n == 14, "2 x 8 DPUs with 2 disabled: %u", n);
    uint32_t seen = 0;
    DPU_FOREACH (set, dpu, i) {
        struct dpu_t *d = dpu.dpu;
        CHECK(!((d->rank->id == 0 && d->index == 5) || (d->rank->id == 1 && d->index == 0)),
              "iteration visited disabled DPU %u.%u", d->rank->id, d->index);
        seen++;
    }
    CHECK(seen == 14, "visited %u", seen);
    /* transfers and launch skip them: a full round trip works */
    OK(dpu_load(set, "basic.dpu", NULL));
    uint32_t ne = 64;
    uint64_t bias = 1;
    OK(dpu_broadcast_to(set, "n_elems", 0, &ne, sizeof ne, DPU_XFER_DEFAULT));
    OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_DEFAULT));
    static uint64_t in[14][64];
    for (uint32_t k = 0; k < 14; k++)
        for (uint32_t j = 0; j < 64; j++)
            in[k][j] = k * 1000 + j;
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0],
                     DPU_XFER_DEFAULT));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i) {
        uint64_t res = 0, want = 0;
        for (uint32_t j = 0; j < 64; j++)
            want += in[i][j] * 2 + 1;
        OK(dpu_copy_from(dpu, "result", 0, &res, sizeof res));
        CHECK(res == want, "DPU %u result %llu want %llu", i, (unsigned long long)res,
              (unsigned long long)want);
    }
    OK(dpu_free(set));
    /* disabledMask applies to every rank */
    OK(dpu_alloc_ranks(2, "nrRanks=2,nrDpusPerRank=8,disabledMask=0x81", &set));
    OK(dpu_get_nr_dpus(set, &n));
    CHECK(n == 12, "disabledMask=0x81 over 2x8: %u", n);
    OK(dpu_free(set));
    /* dpu_alloc disables the surplus */
    OK(dpu_alloc(13, "nrDpusPerRank=8", &set));
    OK(dpu_get_nr_dpus(set, &n));
    seen = 0;
    DPU_FOREACH (set, dpu)
        seen++;
    CHECK(n == 13 && seen == 13, "dpu_alloc(13) over ranks of 8: %u / %u", n, seen);
    OK(dpu_free(set));
}

/* ---------------------------------------------------- rules 2, 3, 4 */

static void t_rank_set_refusals(void)
{
    struct dpu_set_t set, rank;
    uint64_t v = 0;
    OK(dpu_alloc(1, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    CHECK_ERR(dpu_copy_from(set, "result", 0, &v, sizeof v), DPU_ERR_INVALID_DPU_SET);
    CHECK_ERR(dpu_log_read(set, stdout), DPU_ERR_INVALID_DPU_SET);
    DPU_RANK_FOREACH (set, rank)
        CHECK_ERR(dpu_copy_from(rank, "result", 0, &v, sizeof v), DPU_ERR_INVALID_DPU_SET);
    OK(dpu_free(set));
}

static void t_symbols(void)
{
    struct dpu_set_t set, dpu;
    struct dpu_program_t *prog = NULL;
    struct dpu_symbol_t sym;
    uint32_t w = 0;
    OK(dpu_alloc(2, NULL, &set));
    CHECK_ERR(dpu_copy_to(set, "n_elems", 0, &w, sizeof w), DPU_ERR_NO_PROGRAM_LOADED);
    CHECK_ERR(dpu_load(set, "no-such-file.dpu", NULL), DPU_ERR_ELF_NO_SUCH_FILE);
    OK(dpu_load(set, "basic.dpu", &prog));
    CHECK(prog != NULL, "dpu_load gave no program");
    CHECK_ERR(dpu_get_symbol(prog, "nope", &sym), DPU_ERR_UNKNOWN_SYMBOL);
    CHECK_ERR(dpu_get_symbol(prog, "hidden", &sym), DPU_ERR_UNKNOWN_SYMBOL);
    CHECK_ERR(dpu_get_symbol(prog, "main", &sym), DPU_ERR_UNKNOWN_SYMBOL);
    CHECK_ERR(dpu_copy_to(set, "hidden", 0, &w, sizeof w), DPU_ERR_UNKNOWN_SYMBOL);
    CHECK_ERR(dpu_copy_to(set, "nope", 0, &w, sizeof w), DPU_ERR_UNKNOWN_SYMBOL);
    OK(dpu_get_symbol(prog, "n_elems", &sym));
    CHECK(sym.size == 4 && sym.address < 0x10000, "n_elems at 0x%x size %u", sym.address, sym.size);
    OK(dpu_get_symbol(prog, "mram_var", &sym));
    CHECK(sym.size == 128 && sym.address >= 0x08000000, "mram_var at 0x%x size %u", sym.address,
          sym.size);
    OK(dpu_get_symbol(prog, DPU_MRAM_HEAP_POINTER_NAME, &sym));
    CHECK(sym.address >= 0x08000000 && sym.size == 0x04000000 - (sym.address - 0x08000000),
          "heap pointer at 0x%x size 0x%x", sym.address, sym.size);
    uint64_t big[32] = {0};
    /* bounds: offset + length <= size */
    CHECK_ERR(dpu_copy_to(set, "n_elems", 0, big, 8), DPU_ERR_INVALID_SYMBOL_ACCESS);
    CHECK_ERR(dpu_copy_to(set, "mram_var", 8, big, 128), DPU_ERR_INVALID_SYMBOL_ACCESS);
    CHECK_ERR(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, sym.size - 8, big, 16),
              DPU_ERR_INVALID_SYMBOL_ACCESS);
    OK(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, sym.size - 8, big, 8));
    OK(dpu_copy_to(set, "mram_var", 120, big, 8));
    /* initialized MRAM data is loaded */
    DPU_FOREACH (set, dpu) {
        uint64_t mv[2];
        OK(dpu_copy_from(dpu, "mram_var", 0, mv, sizeof mv));
        CHECK(mv[0] == 1 && mv[1] == 2, "mram_var initial %llu %llu", (unsigned long long)mv[0],
              (unsigned long long)mv[1]);
    }
    /* the *_symbol variants */
    OK(dpu_get_symbol(prog, "bias", &sym));
    uint64_t b = 77, back = 0;
    OK(dpu_copy_to_symbol(set, sym, 0, &b, sizeof b));
    DPU_FOREACH (set, dpu) {
        OK(dpu_copy_from_symbol(dpu, sym, 0, &back, sizeof back));
        CHECK(back == 77, "copy_to_symbol/copy_from_symbol: %llu", (unsigned long long)back);
    }
    OK(dpu_free(set));
}

static void t_alignment(void)
{
    struct dpu_set_t set;
    uint64_t buf[8] = {0};
    OK(dpu_alloc(1, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    const char *H = DPU_MRAM_HEAP_POINTER_NAME;
    CHECK_ERR(dpu_copy_to(set, H, 4, buf, 8), DPU_ERR_INVALID_MRAM_ACCESS);
    CHECK_ERR(dpu_copy_to(set, H, 0, buf, 12), DPU_ERR_INVALID_MRAM_ACCESS);
    CHECK_ERR(dpu_copy_to(set, "mram_var", 1, buf, 8), DPU_ERR_INVALID_MRAM_ACCESS);
    CHECK_ERR(dpu_copy_to(set, "partial", 2, buf, 4), DPU_ERR_INVALID_WRAM_ACCESS);
    CHECK_ERR(dpu_copy_to(set, "partial", 0, buf, 6), DPU_ERR_INVALID_WRAM_ACCESS);
    OK(dpu_copy_to(set, "partial", 4, buf, 4)); /* WRAM: 4-byte granularity */
    CHECK_ERR(dpu_broadcast_to(set, H, 0, buf, 8, DPU_XFER_PARALLEL),
              DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER);
    struct dpu_set_t dpu;
    DPU_FOREACH (set, dpu)
        OK(dpu_prepare_xfer(dpu, buf));
    CHECK_ERR(dpu_push_xfer(set, DPU_XFER_TO_DPU, H, 0, 20, DPU_XFER_DEFAULT),
              DPU_ERR_INVALID_MRAM_ACCESS);
    CHECK_ERR(dpu_launch(set, (dpu_launch_policy_t)7), DPU_ERR_INVALID_LAUNCH_POLICY);
    OK(dpu_free(set));
}

/* --------------------------------------------------------- rule 5 */

static void t_push_xfer(void)
{
    struct dpu_set_t set, dpu;
    uint32_t i;
    static uint64_t a[4][16], back[4][16];
    OK(dpu_alloc(4, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 16; j++)
            a[k][j] = 100 * k + j;
    uint64_t zero[16] = {0};
    OK(dpu_broadcast_to(set, "mram_var", 0, zero, sizeof zero, DPU_XFER_DEFAULT));
    /* DPU 2 gets no buffer: it is skipped */
    DPU_FOREACH (set, dpu, i)
        if (i != 2)
            OK(dpu_prepare_xfer(dpu, a[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, "mram_var", 0, sizeof a[0], DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_copy_from(dpu, "mram_var", 0, back[i], sizeof back[i]));
    for (int k = 0; k < 4; k++) {
        if (k == 2)
            CHECK(!memcmp(back[k], zero, sizeof zero), "DPU without buffer was written");
        else
            CHECK(!memcmp(back[k], a[k], sizeof a[k]), "DPU %d got wrong data", k);
    }
    /* the table was cleared: a second push moves nothing */
    for (int k = 0; k < 4; k++)
        a[k][0] = 999;
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, "mram_var", 0, sizeof a[0], DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i) {
        uint64_t first = 0;
        OK(dpu_copy_from(dpu, "mram_var", 0, &first, sizeof first));
        CHECK(first != 999, "push after reset moved data to DPU %u", i);
    }
    /* NO_RESET keeps it */
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, a[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, "mram_var", 0, 8, DPU_XFER_NO_RESET));
    for (int k = 0; k < 4; k++)
        a[k][0] = 555;
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, "mram_var", 0, 8, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i) {
        uint64_t first = 0;
        OK(dpu_copy_from(dpu, "mram_var", 0, &first, sizeof first));
        CHECK(first == 555, "NO_RESET: DPU %u has %llu", i, (unsigned long long)first);
    }
    /* FROM_DPU into per-DPU buffers */
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, back[i]));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, "mram_var", 0, sizeof back[0], DPU_XFER_DEFAULT));
    CHECK(back[1][0] == 555 && back[1][1] == 101, "FROM_DPU push: %llu %llu",
          (unsigned long long)back[1][0], (unsigned long long)back[1][1]);
    OK(dpu_free(set));
}

/* ---------------------------------------------------------- kernels */

static void t_kernel_roundtrip(void)
{
    enum { N = 1000 };
    struct dpu_set_t set, dpu;
    uint32_t i, nd;
    OK(dpu_alloc(70, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    OK(dpu_get_nr_dpus(set, &nd));
    uint64_t *in = malloc(sizeof(uint64_t) * N * 70), *out = malloc(sizeof(uint64_t) * N * 70);
    for (size_t k = 0; k < (size_t)N * 70; k++)
        in[k] = k;
    uint32_t n = N;
    uint64_t bias = 3;
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    OK(dpu_copy_to(set, "bias", 0, &bias, sizeof bias));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in + (size_t)i * N));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, N * 8, DPU_XFER_DEFAULT));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    OK(dpu_launch(set, DPU_SYNCHRONOUS)); /* globals persist across launches */
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, out + (size_t)i * N));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, N * 8, N * 8,
                     DPU_XFER_DEFAULT));
    int bad = 0;
    for (size_t k = 0; k < (size_t)N * nd; k++)
        bad += out[k] != in[k] * 2 + 3;
    CHECK(bad == 0, "%d wrong outputs", bad);
    DPU_FOREACH (set, dpu, i) {
        uint32_t l = 0;
        OK(dpu_copy_from(dpu, "launches", 0, &l, sizeof l));
        CHECK(l == 2, "DPU %u launches=%u after two launches", i, l);
    }
    bool done = false, fault = true;
    OK(dpu_status(set, &done, &fault));
    CHECK(done && !fault, "status done=%d fault=%d", done, fault);
    free(in);
    free(out);
    OK(dpu_free(set));
}

/* Runs one launch of dma_rules.dpu with stderr captured into err[0..n). */
static dpu_error_t launch_captured(struct dpu_set_t set, char *err, size_t n)
{
    fflush(stderr);
    FILE *f = tmpfile();
    int saved = dup(2);
    if (!f || saved < 0 || dup2(fileno(f), 2) < 0) {
        if (f)
            fclose(f);
        if (saved >= 0)
            close(saved);
        snprintf(err, n, "cannot capture stderr");
        return DPU_ERR_SYSTEM;
    }
    dpu_error_t e = dpu_launch(set, DPU_SYNCHRONOUS);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t k = fread(err, 1, n - 1, f);
    err[k] = 0;
    fclose(f);
    return e;
}

/* Profile key dmaRules: a DMA that breaks the rules does what ldma/sdma do
 * (see vdpu_rules_t) with a warning per place on stderr naming the rule and
 * the key (warn, the default), silently (quiet, and hardware, its name
 * before the warnings), or faults (strict); other values refused. */
static void t_dma_rules(void)
{
    struct dpu_set_t set, dpu;
    const uint64_t pat = 0xa5a5a5a5a5a5a5a5ull, sentinel = 0x5e5e5e5e5e5e5e5eull;
    uint64_t src[8], res[8], got[257];
    char err[4096];
    for (int i = 0; i < 8; i++)
        src[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
    CHECK_ERR(dpu_alloc(1, "dmaRules=loose", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "stopRules=hardware", &set), DPU_ERR_INVALID_PROFILE);

    OK(dpu_alloc(1, "dmaRules=strict", &set));
    OK(dpu_load(set, "dma_rules.dpu", NULL));
    CHECK_ERR(launch_captured(set, err, sizeof err), DPU_ERR_DPU_FAULT);
    CHECK(strstr(err, "faulted") && strstr(err, "dmaRules=strict"),
          "strict: the fault does not name the key: %s", err);
    OK(dpu_free(set));

    static const char *const profiles[] = {"", "dmaRules=warn", "dmaRules=quiet",
                                           "dmaRules=hardware"};
    for (unsigned p = 0; p < 4; p++) {
        OK(dpu_alloc(1, profiles[p], &set));
        OK(dpu_load(set, "dma_rules.dpu", NULL));
        OK(dpu_copy_to(set, "msrc", 0, src, sizeof src));
        OK(dpu_copy_to(set, "mdst", 256 * 8, &sentinel, 8));
        OK(launch_captured(set, err, sizeof err));
        DPU_FOREACH (set, dpu) {
            OK(dpu_copy_from(dpu, "res", 0, res, sizeof res));
            OK(dpu_copy_from(dpu, "mdst", 0, got, sizeof got));
        }
        CHECK(res[0] == src[0] && res[1] == src[1], "MRAM address 4 mod 8 not aligned down");
        CHECK(res[2] == src[0] && res[3] == src[1] && res[4] == 0,
              "WRAM address 4 mod 8 not aligned down");
        CHECK(res[5] == src[0] && res[6] == pat, "12-byte DMA did not move 8 bytes");
        CHECK(res[7] == pat, "2056-byte DMA did not move 8 bytes");
        int ok = got[256] == sentinel;
        for (uint64_t i = 0; i < 256; i++)
            ok = ok && got[i] == i;
        CHECK(ok, "0-byte DMA did not move 2048 bytes");
        if (p == 0) {
            /* the first load of the program in this process: warned */
            CHECK(strstr(err, "warning") && strstr(err, "DMA alignment rule") &&
                      strstr(err, "DMA size rule") && strstr(err, "dmaRules=strict"),
                  "default: no warning naming the rules: %s", err);
        } else {
            CHECK(strstr(err, "warning") == NULL, "%s: warned again or when quiet: %s", profiles[p],
                  err);
        }
        OK(dpu_free(set));
    }
}

/* The default watchdog: a DPU that loops forever fails the launch once the
 * cycle budget (maxCycles, here small) is spent, and the one fault line
 * names the limit, its key and where each tasklet is; the default budget is
 * set (a profile without the key has it: maxCycles=0 lifts it, not tested
 * here, as it would never end). */
static void t_watchdog(void)
{
    struct dpu_set_t set;
    char err[8192];
    OK(dpu_alloc(1, "maxCycles=200000", &set));
    OK(dpu_load(set, "spin.dpu", NULL));
    CHECK_ERR(launch_captured(set, err, sizeof err), DPU_ERR_DPU_FAULT);
    CHECK(strstr(err, "cycle limit of 200000 exceeded") && strstr(err, "maxCycles") &&
              strstr(err, "tasklet 0: running, pc 0x") && strstr(err, "tasklet 15: running") &&
              strstr(err, " in spin") && strchr(err, '\n') == err + strlen(err) - 1,
          "the watchdog's line lacks the limit, the key or the tasklets' places: %s", err);
    OK(dpu_free(set));
}

/* The SDK's runtime always defines CLOCKS_PER_SEC: a host reads it by name
 * from a program that never refers to it (dma_rules.c does not), as a
 * library of transcendental functions does to convert perfcounter cycles;
 * it is the profile's clock in Hz. */
static void t_clocks_per_sec(void)
{
    struct dpu_set_t set, dpu;
    uint32_t hz = 0;
    OK(dpu_alloc(1, "clockMhz=400", &set));
    OK(dpu_load(set, "dma_rules.dpu", NULL));
    DPU_FOREACH (set, dpu)
        OK(dpu_copy_from(dpu, "CLOCKS_PER_SEC", 0, &hz, sizeof hz));
    CHECK(hz == 400000000u, "CLOCKS_PER_SEC %u, expected 400000000", hz);
    OK(dpu_free(set));
}

static void t_fault(void)
{
    struct dpu_set_t set, dpu;
    uint32_t one = 1;
    OK(dpu_alloc(2, NULL, &set));
    OK(dpu_load(set, "fault.dpu", NULL));
    OK(dpu_copy_to(set, "do_fault", 0, &one, sizeof one));
    fprintf(stderr, "(two DPU fault reports expected below)\n");
    CHECK_ERR(dpu_launch(set, DPU_SYNCHRONOUS), DPU_ERR_DPU_FAULT);
    bool done = false, fault = false;
    OK(dpu_status(set, &done, &fault));
    CHECK(done && fault, "status after fault: done=%d fault=%d", done, fault);
    /* asynchronously: reported by dpu_sync, sticky until then */
    OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    dpu_error_t e = dpu_sync(set);
    CHECK(((uint32_t)e & 0xffffu) == DPU_ERR_DPU_FAULT && (e & DPU_ERR_ASYNC_JOBS),
          "async fault: dpu_sync gave 0x%x", (unsigned)e);
    OK(dpu_sync(set));
    uint32_t zero = 0;
    OK(dpu_copy_to(set, "do_fault", 0, &zero, sizeof zero));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu) {
        uint32_t d = 0;
        OK(dpu_copy_from(dpu, "done", 0, &d, sizeof d));
        CHECK(d == 1, "relaunch after fault did not run");
    }
    OK(dpu_free(set));
}

/* ---------------------------------------------------------- rule 6 */

static void t_async_order(void)
{
    enum { N = 4096 };
    struct dpu_set_t set, dpu;
    uint32_t i;
    OK(dpu_alloc(8, "nrDpusPerRank=4", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    static uint64_t in[8][N], out[8][N];
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < N; j++)
            in[k][j] = (uint64_t)k << 20 | (uint64_t)j;
    uint32_t n = N;
    uint64_t bias = 5;
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_ASYNC));
    OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_ASYNC));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, N * 8, DPU_XFER_ASYNC));
    OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, out[i]));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, N * 8, N * 8,
                     DPU_XFER_ASYNC));
    OK(dpu_sync(set));
    int bad = 0;
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < N; j++)
            bad += out[k][j] != in[k][j] * 2 + 5;
    CHECK(bad == 0, "async FROM push after async launch: %d wrong", bad);
    OK(dpu_free(set));
}

static atomic_int g_flag;

static dpu_error_t cb_wait_flag(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)s;
    (void)idx;
    (void)arg;
    double t0 = wall();
    while (!atomic_load(&g_flag) && wall() - t0 < 10.0)
        usleep(100);
    return atomic_load(&g_flag) ? DPU_OK : DPU_ERR_TIMEOUT;
}

static dpu_error_t cb_set_flag(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)s;
    (void)idx;
    (void)arg;
    atomic_store(&g_flag, 1);
    return DPU_OK;
}

static void t_ranks_independent(void)
{
    struct dpu_set_t set, rank;
    uint32_t i;
    struct dpu_set_t r0 = {0}, r1 = {0};
    OK(dpu_alloc_ranks(2, "nrDpusPerRank=2", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    DPU_RANK_FOREACH (set, rank, i) {
        if (i == 0)
            r0 = rank;
        else
            r1 = rank;
    }
    atomic_store(&g_flag, 0);
    /* rank 0 blocks until rank 1's later job ran: only possible when ranks
     * progress independently */
    OK(dpu_callback(r0, cb_wait_flag, NULL, DPU_CALLBACK_ASYNC));
    OK(dpu_launch(r1, DPU_ASYNCHRONOUS));
    OK(dpu_callback(r1, cb_set_flag, NULL, DPU_CALLBACK_ASYNC));
    OK(dpu_sync(set));
    CHECK(atomic_load(&g_flag) == 1, "rank 1 did not progress while rank 0 was busy");
    OK(dpu_free(set));
}

static atomic_int g_calls;
static atomic_uint g_index_mask;

static dpu_error_t cb_count(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)arg;
    atomic_fetch_add(&g_calls, 1);
    if (idx != (uint32_t)-1)
        atomic_fetch_or(&g_index_mask, 1u << idx);
    uint32_t nr = 0;
    dpu_get_nr_ranks(s, &nr);
    return DPU_OK;
}

static dpu_error_t cb_fail(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)s;
    (void)idx;
    (void)arg;
    return DPU_ERR_INVALID_BUFFER_SIZE;
}

static void t_callbacks_sticky(void)
{
    struct dpu_set_t set;
    OK(dpu_alloc_ranks(3, "nrDpusPerRank=2", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    atomic_store(&g_calls, 0);
    atomic_store(&g_index_mask, 0);
    OK(dpu_callback(set, cb_count, NULL, DPU_CALLBACK_DEFAULT));
    CHECK(g_calls == 3 && g_index_mask == 7, "DEFAULT: %d calls, mask %x", g_calls, g_index_mask);
    atomic_store(&g_calls, 0);
    OK(dpu_callback(set, cb_count, NULL, DPU_CALLBACK_SINGLE_CALL));
    CHECK(g_calls == 1, "SINGLE_CALL: %d calls", g_calls);
    atomic_store(&g_calls, 0);
    OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    OK(dpu_callback(set, cb_count, NULL, DPU_CALLBACK_ASYNC | DPU_CALLBACK_SINGLE_CALL));
    OK(dpu_sync(set));
    CHECK(g_calls == 1, "ASYNC|SINGLE_CALL: %d calls", g_calls);
    CHECK_ERR(dpu_callback(set, cb_count, NULL, DPU_CALLBACK_NONBLOCKING),
              DPU_ERR_NONBLOCKING_SYNC_CALLBACK);

    /* sticky: an async job fails; later calls on that rank return it */
    dpu_error_t want =
        (dpu_error_t)((uint32_t)DPU_ERR_ASYNC_JOBS | (12u << DPU_ERROR_ASYNC_JOB_TYPE_SHIFT) |
                      DPU_ERR_INVALID_BUFFER_SIZE);
    OK(dpu_callback(set, cb_fail, NULL, DPU_CALLBACK_ASYNC));
    atomic_store(&g_calls, 0);
    /* queued behind the failing job: dropped, or refused if it already failed */
    dpu_error_t e = dpu_callback(set, cb_count, NULL, DPU_CALLBACK_ASYNC);
    CHECK(e == DPU_OK || e == want, "async call after failure: 0x%x", (unsigned)e);
    CHECK_ERR(dpu_sync(set), want);
    CHECK(g_calls == 0, "a job queued after the failure ran (%d)", g_calls);
    char *s = dpu_error_to_string(want);
    CHECK(s && strstr(s, "callback") && strstr(s, "invalid buffer size"), "string: %s",
          s ? s : "(null)");
    free(s);
    /* sticky until a synchronous call reported it */
    OK(dpu_callback(set, cb_fail, NULL, DPU_CALLBACK_ASYNC));
    OK(dpu_sync(set) == want ? DPU_OK : DPU_ERR_INTERNAL);
    OK(dpu_sync(set));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    OK(dpu_free(set));
}

static void t_error_strings(void)
{
    char *s = dpu_error_to_string(DPU_ERR_UNKNOWN_SYMBOL);
    CHECK(s && strlen(s) > 0, "no string");
    free(s);
    CHECK(DPU_ERR_INVALID_WRAM_ACCESS == 8 && DPU_ERR_INVALID_MRAM_ACCESS == 10 &&
              DPU_ERR_NO_PROGRAM_LOADED == 16 && DPU_ERR_DPU_ALREADY_RUNNING == 20 &&
              DPU_ERR_DPU_FAULT == 23 && DPU_ERR_INVALID_PROFILE == 28 &&
              DPU_ERR_UNKNOWN_SYMBOL == 29 && DPU_ERR_NONBLOCKING_SYNC_CALLBACK == 37 &&
              DPU_ERR_SG_NOT_MRAM_SYMBOL == 42 && (uint32_t)DPU_ERR_ASYNC_JOBS == 1u << 31,
          "enum values differ from SDK 2025.1");
    CHECK(DPU_XFER_ASYNC == 2 && DPU_XFER_PARALLEL == 4 && DPU_CALLBACK_PARALLEL == 8 &&
              DPU_SYNCHRONOUS == 1 && DPU_SET_DPU == 1,
          "flag values differ");
}

static void t_log(void)
{
    struct dpu_set_t set, dpu;
    uint32_t v = 42;
    OK(dpu_alloc(1, NULL, &set));
    OK(dpu_load(set, "hello.dpu", NULL));
    OK(dpu_copy_to(set, "value", 0, &v, sizeof v));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    DPU_FOREACH (set, dpu)
        OK(dpu_log_read(dpu, f));
    fclose(f);
    CHECK(text && strstr(text, "=== DPU#0x") && strstr(text, "hello 42 from the DPU"), "log: %s",
          text ? text : "(null)");
    free(text);
    OK(dpu_load(set, "basic.dpu", NULL));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu)
        CHECK_ERR(dpulog_read_for_dpu(dpu.dpu, stdout), DPU_ERR_LOG_CONTEXT_MISSING);
    OK(dpu_free(set));
}

/* ---------------------------------------------------------- the clock */

static void near(double got, double want, const char *what)
{
    if (fabs(got - want) > 1e-9 + 1e-9 * fabs(want))
        fail("%s: %.9f s, want %.9f s", what, got, want);
}

static void t_clock_sync_sum(void)
{
    struct dpu_set_t set, dpu;
    uint32_t i;
    static uint64_t in[64][512];
    OK(dpu_alloc(64, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    uint32_t n = 512;
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0],
                     DPU_XFER_DEFAULT));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in[i]));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0],
                     DPU_XFER_DEFAULT));
    uint64_t r;
    DPU_FOREACH (set, dpu)
        OK(dpu_copy_from(dpu, "result", 0, &r, sizeof r));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    double sum = s.host_work;
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++)
        sum += s.phase[p];
    near(s.host_time, sum, "synchronous total vs host work + phases");
    CHECK(s.phase[DPU_EMU_PHASE_KERNEL] > 0 && s.phase[DPU_EMU_PHASE_CPU_DPU] > 0 &&
              s.phase[DPU_EMU_PHASE_DPU_CPU] > 0,
          "a phase is empty");
    CHECK(s.dpu_cycles_max > 0, "no modeled cycles");
    OK(dpu_free(set));
}

/* Modeled duration of one call on a quiet machine: reset, call, sync, read
 * the phase's busy time (one rank: exactly the job's cost). */
static double priced(dpu_emu_phase_t ph, struct dpu_set_t set)
{
    OK(dpu_sync(set));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    return s.phase_rank_sum[ph];
}

/* sampleDpus=1: in each launch a rank runs only the first DPU of the launch
 * scope; the others keep their memory and are charged its cycles, and reads
 * of them fail (DPU_ERR_EMU_NOT_SIMULATED) without copying anything.
 * launches[i] is UINT32_MAX where that read was refused; *gather is the
 * status of the final push from all four DPUs. */
static void sample_run(const char *profile, int launch_one, uint64_t *cycles, double *kernel,
                       uint32_t launches[4], int *out_ok, int *out_untouched, dpu_error_t *gather)
{
    enum { N = 512 };
    static uint64_t in[4][N], out[4][N];
    struct dpu_set_t set, dpu;
    uint32_t i, n = N;
    OK(dpu_alloc(4, profile, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    for (i = 0; i < 4; i++)
        for (uint32_t k = 0; k < N; k++) {
            in[i][k] = (uint64_t)i * 1000003u + k * 7u;
            out[i][k] = 0x5a5a5a5a5a5a5a5aull; /* marks "not written by the DPU" */
        }
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, in[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0],
                     DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, out[i]));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0], sizeof out[0],
                     DPU_XFER_DEFAULT));
    dpu_emu_reset();
    if (launch_one) {
        DPU_FOREACH (set, dpu, i)
            if (i == 0)
                OK(dpu_launch(dpu, DPU_SYNCHRONOUS));
    } else {
        OK(dpu_launch(set, DPU_SYNCHRONOUS));
    }
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    *cycles = s.dpu_cycles_max;
    *kernel = s.phase[DPU_EMU_PHASE_KERNEL];
    DPU_FOREACH (set, dpu, i) {
        dpu_error_t e = dpu_copy_from(dpu, "launches", 0, &launches[i], sizeof launches[i]);
        if (e == DPU_ERR_EMU_NOT_SIMULATED)
            launches[i] = UINT32_MAX;
        else
            OK(e);
        OK(dpu_prepare_xfer(dpu, out[i]));
    }
    *gather = dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0],
                            sizeof out[0], DPU_XFER_DEFAULT);
    for (i = 0; i < 4; i++) {
        int right = 1, untouched = 1;
        for (uint32_t k = 0; k < N; k++) {
            right &= out[i][k] == in[i][k] * 2;
            untouched &= out[i][k] == 0x5a5a5a5a5a5a5a5aull;
        }
        out_ok[i] = right;
        out_untouched[i] = untouched;
    }
    OK(dpu_free(set));
}

static void t_sample_dpus(void)
{
    const char *base = "nrRanks=1,nrDpusPerRank=4";
    uint64_t c_full, c_one, c_smp;
    double k_full, k_one, k_smp;
    uint32_t l_full[4], l_one[4], l_smp[4];
    int ok_full[4], ok_one[4], ok_smp[4], un_full[4], un_one[4], un_smp[4];
    dpu_error_t g_full, g_one, g_smp;
    sample_run(base, 0, &c_full, &k_full, l_full, ok_full, un_full, &g_full);
    sample_run(base, 1, &c_one, &k_one, l_one, ok_one, un_one, &g_one);
    sample_run("nrRanks=1,nrDpusPerRank=4,sampleDpus=1", 0, &c_smp, &k_smp, l_smp, ok_smp, un_smp,
               &g_smp);
    CHECK(g_full == DPU_OK && g_one == DPU_OK, "gathers of unsampled runs: %d %d", g_full, g_one);
    for (int i = 0; i < 4; i++)
        CHECK(ok_full[i] && l_full[i] == 1, "full run: DPU %d wrong (launches %u)", i, l_full[i]);
    CHECK(ok_smp[0] && l_smp[0] == 1, "sampled run: DPU 0 did not run correctly");
    /* the skipped DPUs: nothing read back, every read refused */
    CHECK(g_smp == DPU_ERR_EMU_NOT_SIMULATED, "gather of a sampled run: %d", g_smp);
    for (int i = 1; i < 4; i++)
        CHECK(un_smp[i] && l_smp[i] == UINT32_MAX,
              "sampled run: DPU %d was read back (launches %u, output untouched %d)", i, l_smp[i],
              un_smp[i]);
    CHECK(c_smp > 0 && c_smp == c_one && c_smp == c_full,
          "cycles: sampled %llu, DPU 0 alone %llu, all four %llu", (unsigned long long)c_smp,
          (unsigned long long)c_one, (unsigned long long)c_full);
    near(k_smp, k_one, "sampled kernel time vs DPU 0 alone");
    near(k_smp, k_full, "sampled kernel time vs all four DPUs");
    /* a DPU set is its own scope: sampling never skips the one DPU launched */
    uint64_t c;
    double k;
    sample_run("nrRanks=1,nrDpusPerRank=4,sampleDpus=1", 1, &c, &k, l_smp, ok_smp, un_smp, &g_smp);
    CHECK(ok_smp[0] && l_smp[0] == 1 && c == c_one, "sampled single-DPU launch");
    struct dpu_set_t set;
    CHECK_ERR(dpu_alloc(1, "sampleDpus=65", &set), DPU_ERR_INVALID_PROFILE);
    CHECK_ERR(dpu_alloc(1, "sampleDpus=x", &set), DPU_ERR_INVALID_PROFILE);
}

/* sampleRanks=1 (with sampleDpus=1): only the first rank of the allocation
 * runs launches; the i-th launch of the others is charged its i-th
 * launch's cycles.  Three ranks of two DPUs, two launches, of the whole set
 * (synchronous) or rank by rank (asynchronous, as the pim backend's
 * async modes do): the modeled times equal the fully simulated run's;
 * reads of the ranks that did not run are refused.  hello_on_last loads
 * another program on the last rank: it runs its launches itself. */
static void rank_sample_run(const char *profile, int per_rank, int hello_on_last, double *host,
                            double *kernel, double *energy, uint64_t *cycles, dpu_error_t rd[3])
{
    enum { N = 2048 };
    static uint64_t in[N];
    struct dpu_set_t set, rank, dpu;
    uint32_t i, n = N;
    OK(dpu_alloc_ranks(3, profile, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    for (uint32_t k = 0; k < N; k++)
        in[k] = k * 7u;
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    OK(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, in, sizeof in, DPU_XFER_DEFAULT));
    if (hello_on_last)
        DPU_RANK_FOREACH (set, rank, i)
            if (i == 2)
                OK(dpu_load(rank, "hello.dpu", NULL));
    dpu_emu_reset();
    for (int l = 0; l < 2; l++) {
        if (per_rank) {
            DPU_RANK_FOREACH (set, rank, i)
                OK(dpu_launch(rank, DPU_ASYNCHRONOUS));
            OK(dpu_sync(set));
        } else {
            OK(dpu_launch(set, DPU_SYNCHRONOUS));
        }
    }
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    *host = s.host_time;
    *kernel = s.phase[DPU_EMU_PHASE_KERNEL];
    *energy = s.energy;
    *cycles = s.dpu_cycles_max;
    uint32_t r = 0;
    DPU_RANK_FOREACH (set, rank, i) {
        DPU_FOREACH (rank, dpu) {
            uint64_t v;
            rd[r++] = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, sizeof in, &v, sizeof v);
            break; /* the rank's first DPU: the one sampleDpus=1 runs */
        }
    }
    OK(dpu_free(set));
}

static void t_sample_ranks(void)
{
    const char *full = "nrRanks=3,nrDpusPerRank=2,hostClock=none";
    const char *smp = "nrRanks=3,nrDpusPerRank=2,hostClock=none,sampleDpus=1,sampleRanks=1";
    for (int per_rank = 0; per_rank < 2; per_rank++) {
        double h_f, k_f, e_f, h_s, k_s, e_s;
        uint64_t c_f, c_s;
        dpu_error_t rd_f[3], rd_s[3];
        rank_sample_run(full, per_rank, 0, &h_f, &k_f, &e_f, &c_f, rd_f);
        rank_sample_run(smp, per_rank, 0, &h_s, &k_s, &e_s, &c_s, rd_s);
        CHECK(c_s > 0 && c_s == c_f, "%s: cycles sampled %llu, full %llu",
              per_rank ? "per rank" : "whole set", (unsigned long long)c_s,
              (unsigned long long)c_f);
        near(h_s, h_f, per_rank ? "per rank: host time" : "whole set: host time");
        near(k_s, k_f, per_rank ? "per rank: kernel time" : "whole set: kernel time");
        near(e_s, e_f, per_rank ? "per rank: energy" : "whole set: energy");
        CHECK(rd_f[0] == DPU_OK && rd_f[1] == DPU_OK && rd_f[2] == DPU_OK,
              "full run: reads %d %d %d", rd_f[0], rd_f[1], rd_f[2]);
        CHECK(rd_s[0] == DPU_OK && rd_s[1] == DPU_ERR_EMU_NOT_SIMULATED &&
                  rd_s[2] == DPU_ERR_EMU_NOT_SIMULATED,
              "sampled run: reads %d %d %d (rank 0 ran, 1 and 2 not)", rd_s[0], rd_s[1], rd_s[2]);
        /* another program on the last rank: it is not charged, it runs */
        rank_sample_run(smp, per_rank, 1, &h_s, &k_s, &e_s, &c_s, rd_s);
        CHECK(rd_s[0] == DPU_OK && rd_s[1] == DPU_ERR_EMU_NOT_SIMULATED && rd_s[2] == DPU_OK,
              "other program on rank 2: reads %d %d %d", rd_s[0], rd_s[1], rd_s[2]);
    }
    struct dpu_set_t set;
    CHECK_ERR(dpu_alloc(1, "sampleRanks=x", &set), DPU_ERR_INVALID_PROFILE);
    setenv("UPMEM_PROFILE", "nrRanks=1,sampleRanks=1", 1);
    CHECK_ERR(dpu_alloc(1, NULL, &set), DPU_ERR_INVALID_PROFILE);
    unsetenv("UPMEM_PROFILE");
}

/* A timing-only key only from the program itself: the environment cannot
 * turn it on for a program that did not ask (its reads would then fail or,
 * before this rule, return memory no kernel computed). */
static void t_sample_dpus_not_from_env(void)
{
    struct dpu_set_t set;
    const char *vars[] = {"UPMEM_PROFILE", "UPMEM_PROFILE_BASE"};
    for (int i = 0; i < 2; i++) {
        setenv(vars[i], "nrRanks=1,sampleDpus=1", 1);
        CHECK_ERR(dpu_alloc(1, NULL, &set), DPU_ERR_INVALID_PROFILE);
        unsetenv(vars[i]);
    }
    setenv("UPMEM_PROFILE", "nrRanks=1", 1);
    OK(dpu_alloc(1, "sampleDpus=1", &set)); /* the program's own string */
    OK(dpu_free(set));
    unsetenv("UPMEM_PROFILE");
}

/* Values that would make the model divide by zero are refused by name
 * instead of failing later as something else. */
static void t_profile_zero_values(void)
{
    struct dpu_set_t set;
    const char *bad[] = {"revolverCycles=0", "parallelToGBps=0", "capFromGiBps=0",
                         "rankRefDpus=0",    "mulSlots=0",       "clockMhz=0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(dpu_alloc(1, bad[i], &set) == DPU_ERR_INVALID_PROFILE, "%s accepted", bad[i]);
    OK(dpu_alloc(1, "loadUs=0,nrRanks=1", &set)); /* a fixed cost may be 0 */
    OK(dpu_free(set));
}

/* hostClock=thread: host work is the caller's CPU time, so a sleep (no
 * CPU) between two calls is not host work; with the default wall clock it is. */
static double slept_host_work(const char *profile)
{
    struct dpu_set_t set;
    uint32_t n = 1;
    OK(dpu_alloc(1, profile, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    OK(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
    usleep(50000);
    OK(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    OK(dpu_free(set));
    return s.host_work;
}

static void t_host_clock(void)
{
    double wall_work = slept_host_work(NULL);
    double cpu_work = slept_host_work("hostClock=thread");
    CHECK(wall_work >= 0.045, "hostClock=wall: 50 ms sleep gave %.6f s host work", wall_work);
    CHECK(cpu_work < 0.010, "hostClock=thread: 50 ms sleep gave %.6f s host work", cpu_work);
    (void)slept_host_work("hostClock=wall"); /* back to the default for later tests */
    struct dpu_set_t set;
    CHECK_ERR(dpu_alloc(1, "hostClock=cpu", &set), DPU_ERR_INVALID_PROFILE);
}

static void t_clock_push_price(void)
{
    struct dpu_set_t set, dpu;
    const size_t len = 1 << 20;
    uint8_t *buf = calloc(64, len);
    uint32_t i;
    OK(dpu_alloc(64, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, buf + i * len));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, len, DPU_XFER_ASYNC));
    near(priced(DPU_EMU_PHASE_CPU_DPU, set),
         param("callToUs") * 1e-6 + 64.0 * len / (param("parallelToGBps") * 1e9),
         "parallel push of 64 x 1 MiB");
    dpu_emu_reset();
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, buf + i * len));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, len, DPU_XFER_ASYNC));
    near(priced(DPU_EMU_PHASE_DPU_CPU, set),
         param("callFromUs") * 1e-6 + 64.0 * len / (param("parallelFromGBps") * 1e9),
         "parallel FROM push of 64 x 1 MiB");
    dpu_emu_reset();
    OK(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, len, DPU_XFER_ASYNC));
    near(priced(DPU_EMU_PHASE_CPU_DPU, set),
         param("callToUs") * 1e-6 + 64.0 * len / (param("broadcastGBps") * 1e9),
         "broadcast of 1 MiB to 64 DPUs");
    dpu_emu_reset();
    DPU_FOREACH (set, dpu) {
        OK(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, len));
        break;
    }
    near(priced(DPU_EMU_PHASE_CPU_DPU, set),
         param("serialDpuUs") * 1e-6 + len / (param("serialToGBps") * 1e9), "serial copy of 1 MiB");
    /* the system-wide cap: 40 ranks pushing together share P21 */
    free(buf);
    OK(dpu_free(set));
    const size_t l2 = 1 << 16;
    buf = calloc(2560, l2);
    OK(dpu_alloc_ranks(40, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, buf + i * l2));
    OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, l2, DPU_XFER_DEFAULT));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    double fixed = (param("callToUs") + 39 * param("callRankToUs")) * 1e-6;
    near(s.phase[DPU_EMU_PHASE_CPU_DPU], fixed + 2560.0 * l2 / (param("capToGiBps") * 1073741824.0),
         "40-rank push at the system cap");
    free(buf);
    OK(dpu_free(set));
}

/* Same work per rank: push, launch, pull; sync per rank vs async on all. */
static double clock_work(struct dpu_set_t set, bool async, uint64_t (*in)[2048])
{
    struct dpu_set_t rank, dpu;
    uint32_t i, n = 2048;
    dpu_emu_reset();
    double t0 = dpu_emu_host_time();
    dpu_xfer_flags_t fl = async ? DPU_XFER_ASYNC : DPU_XFER_DEFAULT;
    DPU_RANK_FOREACH (set, rank) {
        OK(dpu_broadcast_to(rank, "n_elems", 0, &n, sizeof n, fl));
        DPU_FOREACH (rank, dpu, i)
            OK(dpu_prepare_xfer(dpu, in[i]));
        OK(dpu_push_xfer(rank, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0], fl));
        OK(dpu_launch(rank, async ? DPU_ASYNCHRONOUS : DPU_SYNCHRONOUS));
        DPU_FOREACH (rank, dpu, i)
            OK(dpu_prepare_xfer(dpu, in[i]));
        OK(dpu_push_xfer(rank, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0],
                         sizeof in[0], fl));
    }
    OK(dpu_sync(set));
    return dpu_emu_host_time() - t0;
}

static void t_clock_pipeline(void)
{
    struct dpu_set_t set;
    static uint64_t in[16][2048];
    /* the model alone: wall-clock host work on a loaded machine is noise here */
    OK(dpu_alloc_ranks(4, "nrDpusPerRank=16,hostClock=none", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    double seq = clock_work(set, false, in);
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    double phases = s.phase[DPU_EMU_PHASE_CPU_DPU] + s.phase[DPU_EMU_PHASE_KERNEL] +
                    s.phase[DPU_EMU_PHASE_DPU_CPU];
    double asy = clock_work(set, true, in);
    CHECK(asy < 0.6 * seq, "pipelined %.3f ms not well below sequential %.3f ms", asy * 1e3,
          seq * 1e3);
    CHECK(asy < phases, "pipelined %.3f ms not below the sum of phases %.3f ms", asy * 1e3,
          phases * 1e3);
    printf("# modeled: 4 ranks sequential %.3f ms, pipelined async %.3f ms\n", seq * 1e3,
           asy * 1e3);
    OK(dpu_free(set));
}

static void t_trace(void)
{
    struct dpu_set_t set;
    OK(dpu_emu_trace_start("trace-test.json"));
    OK(dpu_alloc(4, NULL, &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    OK(dpu_free(set));
    OK(dpu_emu_trace_stop());
    size_t len = 0;
    FILE *f = fopen("trace-test.json", "r");
    char buf[65536];
    if (f) {
        len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[len] = 0;
    CHECK(strstr(buf, "\"traceEvents\"") && strstr(buf, "\"launch\"") && strstr(buf, "rank 0"),
          "trace file lacks events");
}

/* ---------------------------------------------------------- scale */

static void t_scale(void)
{
    struct dpu_set_t set;
    uint32_t n = 0;
    double t0 = wall();
    OK(dpu_alloc(DPU_ALLOCATE_ALL, NULL, &set));
    double t1 = wall();
    OK(dpu_load(set, "basic.dpu", NULL));
    double t2 = wall();
    OK(dpu_get_nr_dpus(set, &n));
    CHECK(n == 2560, "DPU_ALLOCATE_ALL gave %u DPUs", n);
    uint32_t ne = 16;
    OK(dpu_broadcast_to(set, "n_elems", 0, &ne, sizeof ne, DPU_XFER_DEFAULT));
    double t3 = wall();
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    double t4 = wall();
    OK(dpu_free(set));
    double t5 = wall();
    printf("# measured: alloc 2560 DPUs %.1f ms, load %.1f ms, launch %.1f ms, free %.1f ms\n",
           (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t4 - t3) * 1e3, (t5 - t4) * 1e3);
    /* a speed, so a benchmark figure (the line above), not a bound: a
     * wall-time limit failed on every loaded machine */
}

int main(int argc, char **argv)
{
    run("emu_host_profile_keys", t_profile);
    run("emu_host_alloc_counts_iteration", t_alloc_counts);
    run("emu_host_free_only_alloc_result", t_free_only_alloc);
    run("emu_host_disabled_dpus", t_disabled);
    run("emu_host_rank_set_refused", t_rank_set_refusals);
    run("emu_host_symbols", t_symbols);
    run("emu_host_alignment", t_alignment);
    run("emu_host_push_xfer_table", t_push_xfer);
    run("emu_host_kernel_roundtrip", t_kernel_roundtrip);
    run("emu_host_fault", t_fault);
    run("emu_host_dma_rules", t_dma_rules);
    run("emu_host_clocks_per_sec", t_clocks_per_sec);
    run("emu_host_watchdog", t_watchdog);
    run("emu_host_async_order", t_async_order);
    run("emu_host_ranks_independent", t_ranks_independent);
    run("emu_host_callbacks_sticky", t_callbacks_sticky);
    run("emu_host_error_strings", t_error_strings);
    run("emu_host_log", t_log);
    run("emu_host_clock_sync_sum", t_clock_sync_sum);
    run("emu_host_clock_prices", t_clock_push_price);
    run("emu_host_clock_pipeline", t_clock_pipeline);
    run("emu_host_sample_dpus", t_sample_dpus);
    run("emu_host_sample_dpus_not_from_env", t_sample_dpus_not_from_env);
    run("emu_host_sample_ranks", t_sample_ranks);
    run("emu_host_profile_zero_values", t_profile_zero_values);
    run("emu_host_host_clock", t_host_clock);
    run("emu_host_trace", t_trace);
    run("emu_host_scale_2560", t_scale);
    return test_main(argc, argv);
}
