/*
 * tests/emu/host/test_model.c -- the modeled clock as an event-ordered
 * simulation (docs/VIRTUAL_UPMEM_HOST.md §4): bit-identical modeled times
 * whatever the threads do, the fluid bandwidth sharing (re-priced at every
 * start and end, never above a cap or a transfer's own bandwidth), the
 * per-rank scaling law at one DPU, hostClock=none, and the projection of
 * dpu_emu_rank_time.
 *
 * Part of test-host (same folder, same DPU programs); tests register
 * themselves (TEST() of tests/test.h).
 */
#define _DEFAULT_SOURCE
#include <dpu.h>
#include <dpu_emu.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h" /* the segment log (emu_model_debug_*) */
#include "set.h"   /* emu_model_param_table: the prices the tests expect */
#include "test.h"

#define M_CHECK_ERR(call, want)                                                                    \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == (want), "line %d: %s returned %d, want %d", __LINE__, #call, (int)e_,          \
              (int)(want));                                                                        \
    } while (0)
#define M_OK(call) M_CHECK_ERR(call, DPU_OK)

static double mparam(const char *key)
{
    for (unsigned i = 0; i < emu_model_param_count; i++)
        if (!strcmp(emu_model_param_table[i].key, key))
            return emu_model_param_table[i].def;
    return NAN;
}

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 + 1e-9 * fabs(want);
}

/* ------------------------------------------------ the cap, re-priced */

/* The invariants of the fluid model over its segment log: no segment above
 * its transfer's own bandwidth; at every instant, per direction, the sum of
 * the rates in cap units within the cap; each transfer's segments deliver
 * exactly its bytes. Returns the peak DPU->CPU sum (bytes/s). */
static double check_segments(const emu_model_seg_t *g, size_t n, double *peak_to)
{
    double peak[2] = {0, 0};
    int bad_rate = 0, bad_cap = 0;
    for (size_t i = 0; i < n; i++) {
        if (g[i].rate > g[i].rmax * (1 + 1e-12) && bad_rate++ == 0)
            CHECK(0, "segment %zu: rate %.6g B/s above the transfer's own %.6g B/s", i, g[i].rate,
                  g[i].rmax);
        /* the sum over the segments that contain the start of this one */
        double t = g[i].t0, sum = 0;
        for (size_t j = 0; j < n; j++)
            if (g[j].dir == g[i].dir && g[j].t0 <= t && t < g[j].t1)
                sum += g[j].rate * g[j].weight;
        if (sum > peak[g[i].dir])
            peak[g[i].dir] = sum;
        if (sum > g[i].cap * (1 + 1e-9) && bad_cap++ == 0)
            CHECK(0, "t = %.9f s, direction %d: %.6g cap units/s above the cap %.6g", t, g[i].dir,
                  sum, g[i].cap);
    }
    /* bytes delivered per record */
    int bad_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = g[j].rec != g[i].rec;
        if (!first)
            continue;
        double b = 0;
        for (size_t j = i; j < n; j++)
            if (g[j].rec == g[i].rec)
                b += g[j].rate * (g[j].t1 - g[j].t0);
        if (fabs(b - g[i].bytes) > 1e-6 * g[i].bytes + 1 && bad_bytes++ == 0)
            CHECK(0, "record %llu delivered %.3f bytes of %.0f", (unsigned long long)g[i].rec, b,
                  g[i].bytes);
    }
    *peak_to = peak[0];
    return peak[1];
}

/* Transfer events of a trace: name, rank row, start, duration (us), bytes. */
typedef struct {
    char name[16];
    unsigned tid;
    double ts, dur;
    unsigned long long bytes;
} tev_t;

static size_t read_trace(const char *path, tev_t *ev, size_t cap)
{
    FILE *f = fopen(path, "r");
    char line[512];
    size_t n = 0;
    while (f && n < cap && fgets(line, sizeof line, f)) {
        tev_t e;
        if (sscanf(
                line,
                "{\"name\":\"%15[^\"]\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,\"ts\":%lf,\"dur\":%lf,"
                "\"args\":{\"bytes\":%llu",
                e.name, &e.tid, &e.ts, &e.dur, &e.bytes) == 5 &&
            e.tid > 0)
            ev[n++] = e;
    }
    if (f)
        fclose(f);
    return n;
}

/* 40 ranks of 64 DPUs, random asynchronous traffic in both directions
 * (pushes of different sizes, broadcasts, serial copies, launches between
 * them): the segment log keeps every cap, and each push's average rate
 * (from the trace) is within its rank's bandwidth. */
TEST(emu_model_caps_never_exceeded)
{
    enum { L = 8192 };
    static uint8_t buf[64 * L];
    /* each DPU's pulls land in its own place (ranks run concurrently) */
    uint8_t *out = malloc((size_t)2560 * L);
    struct dpu_set_t set, rank, dpu;
    uint32_t i;
    M_OK(dpu_alloc_ranks(40, "hostClock=none", &set));
    M_OK(dpu_load(set, "basic.dpu", NULL));
    uint32_t ne = 64;
    M_OK(dpu_broadcast_to(set, "n_elems", 0, &ne, sizeof ne, DPU_XFER_DEFAULT));
    dpu_emu_reset();
    const char *trace = "trace-model-caps.json";
    M_OK(dpu_emu_trace_start(trace));
    emu_model_debug_segments(true);
    uint64_t rng = 0x5eed;
    for (int round = 0; round < 3; round++) {
        uint32_t r = 0;
        DPU_RANK_FOREACH (set, rank) {
            uint32_t kind = (uint32_t)(test_rand(&rng) % 5);
            size_t len = 8 * (1 + test_rand(&rng) % (L / 8));
            if (kind <= 1) {
                DPU_FOREACH (rank, dpu, i)
                    M_OK(
                        dpu_prepare_xfer(dpu, kind ? out + ((size_t)r * 64 + i) * L : buf + i * L));
                M_OK(dpu_push_xfer(rank, kind ? DPU_XFER_FROM_DPU : DPU_XFER_TO_DPU,
                                   DPU_MRAM_HEAP_POINTER_NAME, 0, len, DPU_XFER_ASYNC));
            } else if (kind == 2) {
                M_OK(dpu_broadcast_to(rank, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, len,
                                      DPU_XFER_ASYNC));
            } else if (kind == 3) {
                M_OK(dpu_launch(rank, DPU_ASYNCHRONOUS));
            } else {
                DPU_FOREACH (rank, dpu, i) {
                    M_OK(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, len));
                    break;
                }
            }
            r++;
        }
        /* and all ranks in one call, both directions */
        DPU_FOREACH (set, dpu, i)
            M_OK(dpu_prepare_xfer(dpu, round & 1 ? out + (size_t)i * L : buf + (i % 64) * L));
        M_OK(dpu_push_xfer(set, round & 1 ? DPU_XFER_FROM_DPU : DPU_XFER_TO_DPU,
                           DPU_MRAM_HEAP_POINTER_NAME, 0, L, DPU_XFER_ASYNC));
    }
    M_OK(dpu_sync(set));
    M_OK(dpu_emu_trace_stop());
    emu_model_debug_segments(false);
    size_t n;
    emu_model_seg_t *g = emu_model_debug_take(&n);
    CHECK(n > 100, "only %zu rate segments", n);
    double peak_to, peak_from = check_segments(g, n, &peak_to);
    printf("# modeled: peak CPU->DPU %.2f GiB/s (cap units), DPU->CPU %.2f GiB/s over %zu "
           "segments\n",
           peak_to / 1073741824.0, peak_from / 1073741824.0, n);
    CHECK(peak_from > 0.99 * mparam("capFromGiBps") * 1073741824.0,
          "the DPU->CPU cap was never reached (%.3g B/s): the test lost its point", peak_from);
    free(g);
    /* the trace: a 64-DPU push's average rate over its whole duration is
     * within the rank's bandwidth (P18, the higher of P18/P19) */
    static tev_t ev[8192];
    size_t ne_ = read_trace(trace, ev, 8192);
    int pushes = 0;
    double rmax = mparam("parallelToGBps") * 1e9;
    for (size_t k = 0; k < ne_; k++) {
        if (strcmp(ev[k].name, "push") || ev[k].dur <= 0)
            continue;
        pushes++;
        CHECK(ev[k].bytes / (ev[k].dur * 1e-6) <= rmax * (1 + 1e-6),
              "push of %llu bytes in %.3f us: above the rank's bandwidth", ev[k].bytes, ev[k].dur);
    }
    CHECK(pushes > 40, "the trace has %d pushes", pushes);
    unlink(trace);
    M_OK(dpu_free(set));
    free(out);
}

/* Re-pricing: 20 ranks push L bytes per DPU and 20 ranks 2L, all at once.
 * While all 40 run they share the cap; when the first 20 end, the other 20
 * get their share: the last ends at fixed + 64 L (40 + 20) / cap, where a
 * share fixed at pricing time would give fixed + 64 (2L) 40 / cap. */
TEST(emu_model_repriced_when_a_transfer_ends)
{
    enum { L = 65536 };
    static uint8_t buf[2 * L];
    struct dpu_set_t set, rank, dpu;
    uint32_t r = 0;
    M_OK(dpu_alloc_ranks(40, "hostClock=none", &set));
    M_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    DPU_RANK_FOREACH (set, rank) {
        DPU_FOREACH (rank, dpu)
            M_OK(dpu_prepare_xfer(dpu, buf));
        M_OK(dpu_push_xfer(rank, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, r < 20 ? L : 2 * L,
                           DPU_XFER_ASYNC));
        r++;
    }
    M_OK(dpu_sync(set));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    double cap = mparam("capToGiBps") * 1073741824.0;
    double want = mparam("callToUs") * 1e-6 + 64.0 * L * 60 / cap;
    CHECK(close_to(s.phase[DPU_EMU_PHASE_CPU_DPU], want),
          "40 pushes, 20 of twice the size: %.9f s, want %.9f s", s.phase[DPU_EMU_PHASE_CPU_DPU],
          want);
    CHECK(close_to(s.host_time, want), "host time %.9f s, want %.9f s", s.host_time, want);
    M_OK(dpu_free(set));
}

/* ------------------------------------------ the per-rank scaling law */

/* A push or a broadcast to one DPU of a rank moves at the serial figure
 * (P16): BW(k) = BW(64) (k/64)^a, a from BW(64) to BW(1) = serial, for the
 * push (P18) and the broadcast (P20) alike; at 64 DPUs they are P18, P20. */
TEST(emu_model_one_dpu_broadcast_is_a_copy)
{
    enum { LEN = 1 << 20 };
    uint8_t *buf = calloc(64, LEN);
    struct dpu_set_t set, dpu;
    uint32_t i;
    dpu_emu_stats_t s;
    M_OK(dpu_alloc(1, "hostClock=none", &set)); /* one enabled DPU in its rank */
    M_OK(dpu_load(set, "basic.dpu", NULL));
    double fixed = mparam("callToUs") * 1e-6, serial = mparam("serialToGBps") * 1e9;
    dpu_emu_reset();
    M_OK(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, LEN, DPU_XFER_DEFAULT));
    dpu_emu_get_stats(&s);
    CHECK(close_to(s.phase[DPU_EMU_PHASE_CPU_DPU], fixed + LEN / serial),
          "one-DPU broadcast: %.9f s, want %.9f s (%.3f GB/s, want the serial %.3f GB/s)",
          s.phase[DPU_EMU_PHASE_CPU_DPU], fixed + LEN / serial,
          LEN / (s.phase[DPU_EMU_PHASE_CPU_DPU] - fixed) / 1e9, serial / 1e9);
    dpu_emu_reset();
    DPU_FOREACH (set, dpu)
        M_OK(dpu_prepare_xfer(dpu, buf));
    M_OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, LEN, DPU_XFER_DEFAULT));
    dpu_emu_get_stats(&s);
    CHECK(close_to(s.phase[DPU_EMU_PHASE_CPU_DPU], fixed + LEN / serial),
          "one-DPU push: %.9f s, want %.9f s", s.phase[DPU_EMU_PHASE_CPU_DPU],
          fixed + LEN / serial);
    M_OK(dpu_free(set));
    /* and 64 DPUs: the rank figures, unchanged */
    M_OK(dpu_alloc(64, "hostClock=none", &set));
    M_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    M_OK(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, LEN, DPU_XFER_DEFAULT));
    dpu_emu_get_stats(&s);
    double want = fixed + 64.0 * LEN / (mparam("broadcastGBps") * 1e9);
    CHECK(close_to(s.phase[DPU_EMU_PHASE_CPU_DPU], want), "64-DPU broadcast: %.9f s, want %.9f s",
          s.phase[DPU_EMU_PHASE_CPU_DPU], want);
    dpu_emu_reset();
    DPU_FOREACH (set, dpu, i)
        M_OK(dpu_prepare_xfer(dpu, buf + (size_t)i * LEN));
    M_OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, LEN, DPU_XFER_DEFAULT));
    dpu_emu_get_stats(&s);
    want = fixed + 64.0 * LEN / (mparam("parallelToGBps") * 1e9);
    CHECK(close_to(s.phase[DPU_EMU_PHASE_CPU_DPU], want), "64-DPU push: %.9f s, want %.9f s",
          s.phase[DPU_EMU_PHASE_CPU_DPU], want);
    M_OK(dpu_free(set));
    free(buf);
}

/* ---------------------------------------------------- determinism */

static dpu_error_t cb_sleep(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)s;
    (void)idx;
    usleep((useconds_t)(uintptr_t)arg);
    return DPU_OK;
}

static dpu_error_t cb_fail(struct dpu_set_t s, uint32_t idx, void *arg)
{
    (void)s;
    (void)idx;
    (void)arg;
    return DPU_ERR_INVALID_BUFFER_SIZE;
}

/* A seeded random asynchronous pipeline on 4 ranks of 8 DPUs: pushes both
 * ways, broadcasts, serial copies, launches of varying length, callbacks,
 * syncs of one rank or all, failing jobs; the host sleeps at random points (with
 * hostClock=none that is not host work, but it lets the workers run ahead
 * or lag differently each time). Returns the final statistics. */
static dpu_emu_stats_t random_pipeline(const char *profile, uint64_t seed, int perturb)
{
    enum { L = 4096, DPUS = 8, STEPS = 120 };
    static uint64_t in[DPUS][2 * L / 8], out[4 * DPUS][L / 8];
    static uint32_t nvals[STEPS];
    struct dpu_set_t set, rank, dpu, ranks[4];
    uint32_t i, r = 0;
    dpu_emu_stats_t s;
    memset(&s, 0, sizeof s);
    if (dpu_alloc_ranks(4, profile, &set) != DPU_OK) {
        CHECK(0, "alloc %s", profile);
        return s;
    }
    M_OK(dpu_load(set, "basic.dpu", NULL));
    DPU_RANK_FOREACH (set, rank)
        ranks[r++] = rank;
    for (i = 0; i < DPUS; i++)
        for (uint32_t k = 0; k < 2 * L / 8; k++)
            in[i][k] = i * 1000 + k;
    dpu_emu_reset();
    uint64_t rng = seed, prng = seed ^ (uint64_t)perturb * 0x9e3779b97f4a7c15ull;
    for (int step = 0; step < STEPS; step++) {
        uint32_t pick = (uint32_t)(test_rand(&rng) % 5);
        struct dpu_set_t tgt = pick == 4 ? set : ranks[pick];
        uint32_t what = (uint32_t)(test_rand(&rng) % 9);
        size_t len = 8 * (1 + test_rand(&rng) % (L / 8));
        switch (what) {
        case 0:
        case 1:
            /* pulls: one place per DPU of the machine (ranks run concurrently) */
            DPU_FOREACH (tgt, dpu, i)
                M_OK(dpu_prepare_xfer(dpu, what ? out[(pick == 4 ? 0 : pick * DPUS) + i]
                                                : in[i % DPUS]));
            M_OK(dpu_push_xfer(tgt, what ? DPU_XFER_FROM_DPU : DPU_XFER_TO_DPU,
                               DPU_MRAM_HEAP_POINTER_NAME, what ? L : 0, len, DPU_XFER_ASYNC));
            break;
        case 2:
            /* an asynchronous transfer reads its buffer when it runs */
            nvals[step] = (uint32_t)(32 * (1 + test_rand(&rng) % (L / 8 / 32)));
            M_OK(dpu_broadcast_to(tgt, "n_elems", 0, &nvals[step], sizeof nvals[step],
                                  DPU_XFER_ASYNC));
            break;
        case 3:
        case 4:
            M_OK(dpu_launch(tgt, DPU_ASYNCHRONOUS));
            break;
        case 5:
            DPU_FOREACH (tgt, dpu) {
                M_OK(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in[0], len));
                break;
            }
            break;
        case 6:
            M_OK(dpu_callback(
                tgt, cb_sleep, (void *)(uintptr_t)(perturb ? test_rand(&prng) % 2000 : 0),
                DPU_CALLBACK_ASYNC | (test_rand(&rng) & 1 ? DPU_CALLBACK_SINGLE_CALL : 0)));
            break;
        case 7:
            M_OK(dpu_sync(tgt));
            break;
        default: {
            /* a failing asynchronous job, then a sync that reports it: the
             * failure comes before or after the sync is queued, as the
             * threads go; the modeled time must not depend on it */
            M_OK(dpu_callback(tgt, cb_fail, NULL, DPU_CALLBACK_ASYNC));
            if (perturb && test_rand(&prng) % 2)
                usleep(2000);
            dpu_error_t e = dpu_sync(tgt);
            CHECK(((uint32_t)e & 0xffffu) == DPU_ERR_INVALID_BUFFER_SIZE,
                  "step %d target %u: sync after a failing callback: 0x%x", step, pick,
                  (unsigned)e);
            break;
        }
        }
        if (perturb && test_rand(&prng) % 4 == 0)
            usleep((useconds_t)(test_rand(&prng) % 3000));
    }
    M_OK(dpu_sync(set));
    dpu_emu_get_stats(&s);
    M_OK(dpu_free(set));
    return s;
}

static void same_stats(const dpu_emu_stats_t *a, const dpu_emu_stats_t *b, const char *what)
{
    CHECK(memcmp(&a->host_time, &b->host_time, sizeof a->host_time) == 0,
          "%s: host time %.17g s vs %.17g s", what, a->host_time, b->host_time);
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++)
        CHECK(memcmp(&a->phase[p], &b->phase[p], sizeof(double)) == 0 &&
                  memcmp(&a->phase_rank_sum[p], &b->phase_rank_sum[p], sizeof(double)) == 0,
              "%s: phase %d %.17g / %.17g vs %.17g / %.17g", what, p, a->phase[p],
              a->phase_rank_sum[p], b->phase[p], b->phase_rank_sum[p]);
    CHECK(a->bytes_to_dpu == b->bytes_to_dpu && a->bytes_from_dpu == b->bytes_from_dpu &&
              a->nr_launches == b->nr_launches && a->nr_transfers == b->nr_transfers &&
              a->dpu_cycles_max == b->dpu_cycles_max,
          "%s: counters differ", what);
}

TEST(emu_model_random_pipeline_bit_identical)
{
    const char *base = "nrDpusPerRank=8,hostClock=none";
    dpu_emu_stats_t ref = random_pipeline(base, 42, 0);
    CHECK(ref.host_time > 0 && ref.host_work == 0.0 && ref.nr_launches > 0 &&
              ref.phase[DPU_EMU_PHASE_DPU_CPU] > 0,
          "degenerate run: host %.9f s, work %.9f s, %llu launches", ref.host_time, ref.host_work,
          (unsigned long long)ref.nr_launches);
    for (int run = 1; run <= 2; run++) {
        dpu_emu_stats_t s = random_pipeline(base, 42, run);
        same_stats(&ref, &s, "perturbed rerun");
    }
    /* the queue capacity changes when the host blocks, not the model */
    dpu_emu_stats_t s = random_pipeline("nrDpusPerRank=8,hostClock=none,nrJobsPerRank=1", 42, 3);
    same_stats(&ref, &s, "nrJobsPerRank=1");
    printf("# modeled: random pipeline (seed 42) %.17g s on every run\n", ref.host_time);
}

/* hostClock=none: nothing between the calls is host work, so a sleep
 * costs nothing on the modeled clock. */
TEST(emu_model_host_clock_none)
{
    struct dpu_set_t set;
    uint32_t n = 1;
    M_OK(dpu_alloc(1, "hostClock=none", &set));
    M_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    M_OK(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
    usleep(20000);
    M_OK(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    CHECK(s.host_work == 0.0, "hostClock=none: %.9f s of host work", s.host_work);
    CHECK(close_to(s.host_time, s.phase[DPU_EMU_PHASE_CPU_DPU]), "host %.9f s vs transfers %.9f s",
          s.host_time, s.phase[DPU_EMU_PHASE_CPU_DPU]);
    M_OK(dpu_free(set));
    M_OK(dpu_alloc(1, "hostClock=wall", &set)); /* back to the default for later tests */
    M_OK(dpu_free(set));
}

/* dpu_emu_rank_time projects the rank's queued work (shared bandwidth
 * included) without committing it: the value equals the end once synced. */
TEST(emu_model_rank_time_projection)
{
    enum { L = 65536 };
    static uint8_t buf[L];
    struct dpu_set_t set, rank, dpu;
    M_OK(dpu_alloc_ranks(2, "hostClock=none", &set));
    M_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    DPU_RANK_FOREACH (set, rank) {
        DPU_FOREACH (rank, dpu)
            M_OK(dpu_prepare_xfer(dpu, buf));
        M_OK(
            dpu_push_xfer(rank, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, L, DPU_XFER_ASYNC));
        M_OK(dpu_launch(rank, DPU_ASYNCHRONOUS));
    }
    double t0 = dpu_emu_rank_time(set, 0), t1 = dpu_emu_rank_time(set, 1);
    CHECK(dpu_emu_host_time() == 0.0, "the projection moved the host to %.9f s",
          dpu_emu_host_time());
    M_OK(dpu_sync(set));
    CHECK(t0 > 0 && t0 == t1 && dpu_emu_host_time() == t0,
          "projected %.9f / %.9f s, synced at %.9f s", t0, t1, dpu_emu_host_time());
    M_OK(dpu_free(set));
}
