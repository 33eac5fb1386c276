/*
 * exp_roofline.c -- `--experiment roofline` (the study's Fig. 1): the arithmetic
 * intensity of AES-128 and SHA-256 (operations per byte from the virtual
 * DPU, modeled) against this host's measured memory bandwidth and integer
 * peak (a STREAM-like copy and 8 chains of add/xor/shift, all cores).
 * Its own CSV columns (not the long schema).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exp.h"
#include "quiet.h"

typedef struct {
    uint8_t *src, *dst;
} copy_arg;

/* The roofline's own fan-out (the experiments see only the public API):
 * fn(arg, begin, end) on `threads` equal parts of [0, n), each a multiple
 * of `grain` but the last, one thread each (the caller runs part 0). */
typedef struct {
    void (*fn)(void *, size_t, size_t);
    void *arg;
    size_t begin, end;
} part;

static void *run_part(void *p)
{
    part *q = p;
    q->fn(q->arg, q->begin, q->end);
    return NULL;
}

static void on_threads(unsigned threads, size_t n, size_t grain, void (*fn)(void *, size_t, size_t),
                       void *arg)
{
    part parts[64];
    pthread_t th[64];
    int started[64] = {0};
    if (threads > 64)
        threads = 64;
    size_t step = (n / threads + grain - 1) / grain * grain;
    for (unsigned i = 0; i < threads; i++) {
        size_t b = i * step < n ? i * step : n, e = b + step < n ? b + step : n;
        parts[i] = (part){fn, arg, b, i + 1 == threads ? n : e};
    }
    for (unsigned i = 1; i < threads; i++)
        started[i] = pthread_create(&th[i], NULL, run_part, &parts[i]) == 0;
    run_part(&parts[0]);
    for (unsigned i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            run_part(&parts[i]); /* no thread: the work is still done */
    }
}

static void copy_range(void *arg, size_t begin, size_t end)
{
    copy_arg *a = arg;
    memcpy(a->dst + begin, a->src + begin, end - begin);
}

typedef struct {
    uint64_t iters;
    uint64_t sink[64];
} alu_arg;

/* 8 independent dependency chains of add/xor/rotate: what one core retires
 * at most on simple integer work (the "ops" of the kernels are the same
 * kind: xor, add, shift/rotate, load). */
static void alu_range(void *arg, size_t begin, size_t end)
{
    alu_arg *a = arg;
    for (size_t t = begin; t < end; t++) {
        uint32_t x0 = (uint32_t)t, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,
                 x6 = x0 + 6, x7 = x0 + 7;
        for (uint64_t i = 0; i < a->iters; i++) {
            x0 = (x0 + 0x9e3779b9u) ^ (x0 >> 7);
            x1 = (x1 + 0x9e3779b9u) ^ (x1 >> 7);
            x2 = (x2 + 0x9e3779b9u) ^ (x2 >> 7);
            x3 = (x3 + 0x9e3779b9u) ^ (x3 >> 7);
            x4 = (x4 + 0x9e3779b9u) ^ (x4 >> 7);
            x5 = (x5 + 0x9e3779b9u) ^ (x5 >> 7);
            x6 = (x6 + 0x9e3779b9u) ^ (x6 >> 7);
            x7 = (x7 + 0x9e3779b9u) ^ (x7 >> 7);
            __asm__ volatile("" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3));
        }
        a->sink[t % 64] = (uint64_t)x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
    }
}

/* Modeled DPU cycles per byte on one DPU at 16 tasklets (compute-bound, IPC
 * ~1): the kernel's operations per byte on the virtual DPU's RV32 proxy ISA.
 * 0 if the pim backend is missing. */
static double pim_ops_per_byte(bench *b, enum kern k)
{
    if (!bench_pim_available())
        return 0;
    work w;
    if (bench_work_init(&w, k == K_AES ? 256 * 1024 : 0, k == K_SHA ? 16 : 0, 16 * 1024) != 0)
        return 0;
    pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, b->sample_ok};
    cpim_stats st;
    double opb = 0;
    /* DPU cycles per byte (IPC ~1 at 16 tasklets): at 1000 MHz without
     * launch overhead on the virtual UPMEM; on hardware the kernel time at
     * PrIM's 350 MHz */
    double hz = b->sample_ok ? 1e9 : 350e6;
    if (bench_pim_run(b, &pc, &w, k, &st) == 0)
        opb = st.modeled.kernel_s * hz / (double)bench_work_bytes(&w, k);
    bench_work_free(&w);
    return opb;
}

int exp_roofline(bench *b)
{
    fprintf(b->csv, "name,intensity_ops_per_B,performance_Gops,bandwidth_GBps,ops_per_B,"
                    "threads,clock,note\n");
    /* memory bandwidth: STREAM-like copy, read + write counted */
    size_t n = b->quick ? (32u << 20) : (512u << 20);
    copy_arg ca = {malloc(n), malloc(n)};
    if (!ca.src || !ca.dst) {
        free(ca.src);
        free(ca.dst);
        cli_error("bench: out of memory");
        return -1;
    }
    memset(ca.src, 1, n);
    memset(ca.dst, 2, n);
    bench_quiet_begin(); /* the host's roofs, alone on its cores (quiet.h) */
    double bw = 0;
    for (int r = 0; r < 5; r++) {
        double t0 = cpim_now();
        on_threads(b->cores, n, 1u << 20, copy_range, &ca);
        double t = cpim_now() - t0;
        if (2.0 * n / t / 1e9 > bw)
            bw = 2.0 * n / t / 1e9;
    }
    free(ca.src);
    free(ca.dst);
    bench_progress("roofline: memory bandwidth %.2f GB/s (measured, copy, %u threads)", bw,
                   b->cores);
    /* peak simple-integer throughput */
    alu_arg aa;
    memset(&aa, 0, sizeof aa);
    aa.iters = b->quick ? 2000000 : 50000000;
    double peak = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = cpim_now();
        on_threads(b->cores, b->cores, 1, alu_range, &aa);
        double t = cpim_now() - t0;
        double g = (double)b->cores * (double)aa.iters * 8 * 3 / t / 1e9;
        if (g > peak)
            peak = g;
    }
    bench_quiet_end();
    bench_progress("roofline: integer peak %.1f Gops/s (measured, %u threads)", peak, b->cores);
    fprintf(b->csv, "host memory roof,,,%.3f,,%u,measured,STREAM-like copy (read+write)\n", bw,
            b->cores);
    fprintf(b->csv, "host compute roof,,%.3f,,,%u,measured,8 chains of add/xor/shift\n", peak,
            b->cores);
    /* the kernels: ops/B from the virtual DPU; achieved throughput here */
    for (int k = K_AES; k <= K_SHA; k++) {
        double opb = pim_ops_per_byte(b, (enum kern)k);
        if (opb <= 0) {
            /* no pim backend: fall back to an operation count of the
             * portable code (documented in docs/RESULTS.md) */
            opb = k == K_AES ? 45.0 : 38.0;
        }
        work w;
        if (bench_work_init(&w, k == K_AES ? (b->quick ? 1u << 20 : 64u << 20) : 0,
                            k == K_SHA ? (b->quick ? 32 : 2048) : 0, 32 * 1024) != 0)
            return -1;
        cpu_impl ci = {"cpu", "cpu", NULL, b->cores};
        double t = bench_cpu_time(b, &ci, &w, (enum kern)k);
        double gbs = t > 0 ? (double)bench_work_bytes(&w, (enum kern)k) / t / 1e9 : 0;
        /* DRAM traffic per payload byte: AES reads and writes it (2 B),
         * SHA-256 only reads it (1 B). */
        double dram = k == K_AES ? 2.0 : 1.0;
        fprintf(b->csv,
                "%s (DRAM bytes),%.3f,%.3f,%.3f,%.2f,%u,measured,"
                "ops/B from the virtual DPU (modeled); throughput measured\n",
                bench_kern_name[k], opb / dram, gbs * opb, gbs, opb, b->cores);
        bench_progress("roofline: %s %.1f ops/B, intensity %.1f ops/DRAM-B, %.2f GB/s here",
                       bench_kern_name[k], opb, opb / dram, gbs);
        bench_work_free(&w);
    }
    return 0;
}
