/*
 * validate.c -- model validation: PrIM-style microbenchmarks run on the
 * (virtual) UPMEM, compared with the published numbers.
 *
 *   build/emu/validate/validate [--out DIR] [--dpu-dir DIR] [--xfer-kib N] [--quick]
 *   build/emu/validate/validate --replot DIR    redraw the PNGs from DIR's CSVs only
 *
 * Writes into DIR (default docs/results):
 *   micro_arith.csv   INT32/INT64 ADD/MUL throughput vs tasklets (DPU cycles)
 *   micro_mram.csv    MRAM read/write latency and bandwidth vs DMA size
 *   micro_stream.csv  STREAM COPY / COPY-DMA / ADD in MRAM vs tasklets
 *   micro_xfer.csv    CPU-DPU / DPU-CPU bandwidth vs DPUs in one rank
 *                     (serial copies, parallel push, broadcast)
 *   validation.csv    quantity, published value and source, modeled value, ratio
 *   validation.md     the same as a Markdown table (pasted into docs/MODEL.md)
 * and, when gnuplot is installed, one PNG per CSV except validation.
 *
 * Clocks: DPU-side numbers come from the DPU perfcounter (on the virtual
 * UPMEM that is the modeled DPU clock); transfer times come from the
 * modeled host timeline of dpu_emu.h.  On a real UPMEM server (no
 * dpu_emu.h) the same program times transfers with the wall clock and labels
 * them "measured".  Every output of every DPU run is checked.
 */
#include <dpu.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gnuplot.h"
#include "micro_args.h"

#ifndef MICRO_DPU_DIR
#define MICRO_DPU_DIR "build/emu/validate/dpu"
#endif

#ifdef DPU_EMU
#define XFER_CLOCK "modeled"
#else
#define XFER_CLOCK "measured"
#endif
/* DPU cycle counts come from the DPU itself: modeled on the virtual UPMEM. */
#ifdef DPU_EMU
#define DPU_CLOCK "modeled"
#else
#define DPU_CLOCK "measured"
#endif

static const char *g_out = "docs/results";
static const char *g_dpu_dir = MICRO_DPU_DIR;
static unsigned g_xfer_kib = 4096; /* bytes per DPU in the transfer sweep */
static int g_quick;

#define TRY(call)                                                                                  \
    do {                                                                                           \
        dpu_error_t err_ = (call);                                                                 \
        if (err_ != DPU_OK) {                                                                      \
            char *msg_ = dpu_error_to_string(err_);                                                \
            fprintf(stderr, "micro: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                   \
                    msg_ ? msg_ : "?");                                                            \
            free(msg_);                                                                            \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

static FILE *open_out(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_out, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "micro: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("micro: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}
static void fill_random(void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(rng() >> 56);
}

/* ---- one DPU runs --------------------------------------------------------- */

typedef struct {
    struct dpu_set_t set, dpu;
    double clock_hz;
} one_dpu;

static int one_open(one_dpu *o, const char *binary)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_dpu_dir, binary);
    TRY(dpu_alloc(1, NULL, &o->set));
    TRY(dpu_load(o->set, path, NULL));
    DPU_FOREACH (o->set, o->dpu) {
        break;
    }
    /* the DPU clock, if the runtime exposes it to the host; else the
     * default profile's 350 MHz (perf-facts P1) */
    uint32_t hz = 0;
    if (dpu_copy_from(o->dpu, "CLOCKS_PER_SEC", 0, &hz, sizeof hz) != DPU_OK)
        hz = 0;
    o->clock_hz = hz ? (double)hz : 350e6;
    return 0;
}

static void one_close(one_dpu *o)
{
    dpu_free(o->set);
}

/* Runs with ARGS = *a and returns the per-tasklet results. */
static int one_run(one_dpu *o, const micro_args_t *a, micro_result_t *res, unsigned tasklets)
{
    TRY(dpu_copy_to(o->set, "ARGS", 0, a, sizeof *a));
    TRY(dpu_launch(o->set, DPU_SYNCHRONOUS));
    TRY(dpu_copy_from(o->dpu, "RESULTS", 0, res, tasklets * sizeof *res));
    return 0;
}

static uint64_t max_counted(const micro_result_t *res, unsigned tasklets)
{
    uint64_t m = 0;
    for (unsigned t = 0; t < tasklets; t++)
        if (res[t].counted > m)
            m = res[t].counted;
    return m;
}

/* ---- results kept for the validation table --------------------------------- */

enum { ARITH_I32_ADD, ARITH_I64_ADD, ARITH_I32_MUL, ARITH_I64_MUL, ARITH_N };
static const char *const arith_type[ARITH_N] = {"int32", "int64", "int32", "int64"};
static const char *const arith_op[ARITH_N] = {"add", "add", "mul", "mul"};
static double arith_mops[ARITH_N][25]; /* [variant][tasklets] */
static double arith_insn_per_op[ARITH_N];

static const unsigned mram_sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048};
#define N_MRAM_SIZES (sizeof mram_sizes / sizeof mram_sizes[0])
static double mram_lat[2][N_MRAM_SIZES]; /* [read/write][size] cycles */
static double mram_bw[2][N_MRAM_SIZES];  /* MB/s */

static const unsigned stream_tasklets[] = {1, 2, 3, 4, 5, 6, 8, 11, 12, 16};
#define N_STREAM_T (sizeof stream_tasklets / sizeof stream_tasklets[0])
static const char *const stream_name[3] = {"copy", "copy-dma", "add"};
static double stream_bw[3][N_STREAM_T];

static const unsigned xfer_dpus[] = {1, 2, 4, 8, 16, 32, 64};
#define N_XFER (sizeof xfer_dpus / sizeof xfer_dpus[0])
enum { X_SERIAL_TO, X_SERIAL_FROM, X_PAR_TO, X_PAR_FROM, X_BCAST, X_N };
static const char *const xfer_mode[X_N] = {"serial", "serial", "parallel", "parallel", "broadcast"};
static const char *const xfer_dir[X_N] = {"cpu-dpu", "dpu-cpu", "cpu-dpu", "dpu-cpu", "cpu-dpu"};
static double xfer_gbps[X_N][N_XFER];

/* ---- arithmetic throughput --------------------------------------------------- */

static int arith_check(one_dpu *o, int v, uint32_t bytes, const uint8_t *in)
{
    uint8_t *out = malloc(bytes);
    if (!out)
        return -1;
    TRY(dpu_copy_from(o->dpu, DPU_MRAM_HEAP_POINTER_NAME, bytes, out, bytes));
    int bad = 0;
    if (v == ARITH_I32_ADD || v == ARITH_I32_MUL) {
        uint32_t s = bytes / 4;
        for (uint32_t i = 0; i < bytes / 4 && !bad; i++) {
            uint32_t x, y;
            memcpy(&x, in + 4 * i, 4);
            memcpy(&y, out + 4 * i, 4);
            bad = y != (v == ARITH_I32_ADD ? x + s : x * s);
        }
    } else {
        uint64_t s = bytes / 8;
        for (uint32_t i = 0; i < bytes / 8 && !bad; i++) {
            uint64_t x, y;
            memcpy(&x, in + 8 * i, 8);
            memcpy(&y, out + 8 * i, 8);
            bad = y != (v == ARITH_I64_ADD ? x + s : x * s);
        }
    }
    free(out);
    if (bad)
        fprintf(stderr, "micro: arith %s %s: wrong DPU output\n", arith_type[v], arith_op[v]);
    return bad ? -1 : 0;
}

static int run_arith(void)
{
    FILE *f = open_out("micro_arith.csv");
    if (!f)
        return -1;
    fprintf(f, "type,op,tasklets,ops,dpu_cycles,instructions_per_op,throughput_MOPS,clock\n");
    const uint32_t bytes = g_quick ? 64 * 1024 : 256 * 1024;
    uint8_t *in = malloc(bytes);
    if (!in) {
        fclose(f);
        return -1;
    }
    fill_random(in, bytes);
    int rc = 0;
    for (int v = 0; v < ARITH_N && rc == 0; v++) {
        unsigned tmax = (v == ARITH_I32_ADD || v == ARITH_I64_ADD) ? 24 : 16;
        for (unsigned t = 1; t <= tmax && rc == 0; t++) {
            /* MUL: the curve's shape is the same; 1, 2, 4, 8, 11, 16 suffice */
            if (tmax == 16 && !(t == 1 || t == 2 || t == 4 || t == 8 || t == 11 || t == 16))
                continue;
            char bin[128];
            snprintf(bin, sizeof bin, "arith-%s-%s-t%u", arith_type[v], arith_op[v], t);
            progress("arith %s %s, %u tasklets", arith_type[v], arith_op[v], t);
            one_dpu o;
            if (one_open(&o, bin) != 0) {
                rc = -1;
                break;
            }
            micro_result_t res[24];
            micro_args_t a = {.bytes = bytes, .count = MICRO_COUNT_CYCLES};
            double ops = (double)bytes / (v == ARITH_I32_ADD || v == ARITH_I32_MUL ? 4 : 8);
            double ipo = 0;
            dpu_error_t e = dpu_copy_to(o.dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in, bytes);
            if (e != DPU_OK)
                fprintf(stderr, "micro: cannot copy the input to the DPU (%d)\n", (int)e);
            if (e != DPU_OK || one_run(&o, &a, res, t) != 0 || arith_check(&o, v, bytes, in) != 0) {
                rc = -1;
            } else {
                uint64_t cyc = max_counted(res, t);
                double mops = ops * o.clock_hz / (double)cyc / 1e6;
                arith_mops[v][t] = mops;
                if (t == 1) {
                    /* instruction count of the loop: exact with one tasklet */
                    a.count = MICRO_COUNT_INSNS;
                    if (one_run(&o, &a, res, t) != 0)
                        rc = -1;
                    ipo = (double)res[0].counted / ops;
                    arith_insn_per_op[v] = ipo;
                }
                fprintf(f, "%s,%s,%u,%.0f,%" PRIu64 ",%.3f,%.3f,%s\n", arith_type[v], arith_op[v],
                        t, ops, cyc, t == 1 ? ipo : arith_insn_per_op[v], mops, DPU_CLOCK);
            }
            one_close(&o);
        }
    }
    free(in);
    fclose(f);
    return rc;
}

/* ---- MRAM latency -------------------------------------------------------------- */

static int run_mram(void)
{
    FILE *f = open_out("micro_mram.csv");
    if (!f)
        return -1;
    fprintf(f, "direction,dma_bytes,tasklets,dmas,latency_cycles,bandwidth_MBps,clock\n");
    one_dpu o;
    if (one_open(&o, "mram-t1") != 0) {
        fclose(f);
        return -1;
    }
    int rc = 0;
    const uint32_t bytes = 64 * 1024;
    uint8_t *in = malloc(bytes), *back = malloc(bytes);
    if (!in || !back)
        rc = -1;
    else
        fill_random(in, bytes);
    for (int dir = 0; dir < 2 && rc == 0; dir++) {
        for (size_t k = 0; k < N_MRAM_SIZES && rc == 0; k++) {
            micro_args_t a = {.bytes = bytes, .kernel = (uint32_t)dir, .dma_size = mram_sizes[k]};
            micro_result_t res[1];
            if (dpu_copy_to(o.dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in, bytes) != DPU_OK ||
                one_run(&o, &a, res, 1) != 0) {
                rc = -1;
                break;
            }
            /* reads leave MRAM as it was; writes store the (unchanged) WRAM
             * buffer: either way MRAM must still be readable and, for reads,
             * equal to the input */
            if (dpu_copy_from(o.dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, back, bytes) != DPU_OK ||
                (dir == 0 && memcmp(in, back, bytes) != 0) || res[0].windows == 0) {
                fprintf(stderr, "micro: mram %s %u: bad state after run\n", dir ? "write" : "read",
                        mram_sizes[k]);
                rc = -1;
                break;
            }
            double lat = (double)res[0].counted / res[0].windows;
            double bw = mram_sizes[k] * o.clock_hz / lat / 1e6;
            mram_lat[dir][k] = lat;
            mram_bw[dir][k] = bw;
            fprintf(f, "%s,%u,1,%u,%.1f,%.1f,%s\n", dir ? "write" : "read", mram_sizes[k],
                    res[0].windows, lat, bw, DPU_CLOCK);
        }
    }
    free(in);
    free(back);
    one_close(&o);
    fclose(f);
    return rc;
}

/* ---- STREAM in MRAM ------------------------------------------------------------ */

static int stream_check(one_dpu *o, unsigned k, uint32_t n, const uint8_t *in)
{
    uint8_t *c = malloc(n);
    if (!c)
        return -1;
    int bad = dpu_copy_from(o->dpu, DPU_MRAM_HEAP_POINTER_NAME, 2 * n, c, n) != DPU_OK;
    for (uint32_t i = 0; i < n / 8 && !bad; i++) {
        uint64_t x, y, z;
        memcpy(&x, in + 8 * i, 8);
        memcpy(&y, in + n + 8 * i, 8);
        memcpy(&z, c + 8 * i, 8);
        bad = z != (k == MICRO_STREAM_ADD ? x + y : x);
    }
    free(c);
    if (bad)
        fprintf(stderr, "micro: stream %s: wrong DPU output\n", stream_name[k]);
    return bad ? -1 : 0;
}

static int run_stream(void)
{
    FILE *f = open_out("micro_stream.csv");
    if (!f)
        return -1;
    fprintf(f, "kernel,tasklets,bytes_moved,dpu_cycles,bandwidth_MBps,clock\n");
    const uint32_t n = g_quick ? 64 * 1024 : 256 * 1024;
    uint8_t *in = malloc(2 * (size_t)n);
    int rc = in ? 0 : -1;
    if (in)
        fill_random(in, 2 * (size_t)n);
    for (size_t ti = 0; ti < N_STREAM_T && rc == 0; ti++) {
        unsigned t = stream_tasklets[ti];
        char bin[64];
        snprintf(bin, sizeof bin, "stream-t%u", t);
        progress("stream, %u tasklets", t);
        one_dpu o;
        if (one_open(&o, bin) != 0) {
            rc = -1;
            break;
        }
        if (dpu_copy_to(o.dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in, 2 * (size_t)n) != DPU_OK)
            rc = -1;
        for (unsigned k = 0; k < 3 && rc == 0; k++) {
            micro_args_t a = {.bytes = n, .kernel = k};
            micro_result_t res[24];
            if (one_run(&o, &a, res, t) != 0 || stream_check(&o, k, n, in) != 0) {
                rc = -1;
                break;
            }
            double moved = (double)n * (k == MICRO_STREAM_ADD ? 3 : 2);
            double bw = moved * o.clock_hz / (double)res[0].counted / 1e6;
            stream_bw[k][ti] = bw;
            fprintf(f, "%s,%u,%.0f,%" PRIu64 ",%.1f,%s\n", stream_name[k], t, moved, res[0].counted,
                    bw, DPU_CLOCK);
        }
        one_close(&o);
    }
    free(in);
    fclose(f);
    return rc;
}

/* ---- host <-> DPU transfers -------------------------------------------------------- */

/* Wall time (measured clock): CLOCK_MONOTONIC, the clock of wall_now();
 * this program belongs to the virtual UPMEM's layer and links no crypto
 * library. */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Time of the operation just finished: modeled timeline on the virtual UPMEM,
 * wall clock on hardware. */
static double xfer_now(void)
{
#ifdef DPU_EMU
    return dpu_emu_host_time();
#else
    return wall_now();
#endif
}

static int xfer_one(struct dpu_set_t set, unsigned ndpus, int m, uint8_t *buf, size_t per,
                    double *secs)
{
    struct dpu_set_t dpu;
    uint32_t i;
    TRY(dpu_sync(set));
    double t0 = xfer_now();
    switch (m) {
    case X_SERIAL_TO:
        DPU_FOREACH (set, dpu, i) {
            TRY(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, buf + i * per, per));
        }
        break;
    case X_SERIAL_FROM:
        DPU_FOREACH (set, dpu, i) {
            TRY(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, buf + i * per, per));
        }
        break;
    case X_PAR_TO:
    case X_PAR_FROM:
        DPU_FOREACH (set, dpu, i) {
            TRY(dpu_prepare_xfer(dpu, buf + i * per));
        }
        TRY(dpu_push_xfer(set, m == X_PAR_TO ? DPU_XFER_TO_DPU : DPU_XFER_FROM_DPU,
                          DPU_MRAM_HEAP_POINTER_NAME, 0, per, DPU_XFER_DEFAULT));
        break;
    default:
        TRY(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, per, DPU_XFER_DEFAULT));
        break;
    }
    TRY(dpu_sync(set));
    *secs = xfer_now() - t0;
    (void)ndpus;
    return 0;
}

static int run_xfer(void)
{
    FILE *f = open_out("micro_xfer.csv");
    if (!f)
        return -1;
    fprintf(f, "mode,direction,dpus,bytes_per_dpu,time_s,bandwidth_GBps,clock\n");
    const size_t per = (size_t)g_xfer_kib * 1024;
    uint8_t *buf = malloc(per * 64), *chk = malloc(per * 64);
    int rc = (buf && chk) ? 0 : -1;
    if (buf)
        fill_random(buf, per * 64);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_dpu_dir, "mram-t1");
    for (size_t k = 0; k < N_XFER && rc == 0; k++) {
        unsigned n = xfer_dpus[k];
        progress("transfers, %u DPUs x %zu KiB", n, per / 1024);
        struct dpu_set_t set;
        if (dpu_alloc(n, NULL, &set) != DPU_OK || dpu_load(set, path, NULL) != DPU_OK) {
            fprintf(stderr, "micro: cannot allocate %u DPUs\n", n);
            rc = -1;
            break;
        }
        for (int m = 0; m < X_N && rc == 0; m++) {
            double s = 0;
            uint8_t *b = (m == X_SERIAL_FROM || m == X_PAR_FROM) ? chk : buf;
            if (b == chk)
                memset(chk, 0, per * n);
            if (xfer_one(set, n, m, b, per, &s) != 0) {
                rc = -1;
                break;
            }
            /* what came back must be what the last TO transfer put there:
             * serial/parallel TO wrote buf slices; check every byte */
            if (m == X_SERIAL_FROM || m == X_PAR_FROM) {
                if (memcmp(chk, buf, per * n) != 0) {
                    fprintf(stderr, "micro: %s DPU-CPU transfer returned wrong data\n",
                            xfer_mode[m]);
                    rc = -1;
                    break;
                }
            }
            double gbps = (double)per * n / s / 1e9;
            xfer_gbps[m][k] = gbps;
            fprintf(f, "%s,%s,%u,%zu,%.6f,%.3f,%s\n", xfer_mode[m], xfer_dir[m], n, per, s, gbps,
                    XFER_CLOCK);
        }
        if (rc == 0) {
            /* after the broadcast every DPU holds the first slice */
            struct dpu_set_t dpu;
            DPU_FOREACH (set, dpu) {
                if (dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, chk, per) != DPU_OK ||
                    memcmp(chk, buf, per) != 0) {
                    fprintf(stderr, "micro: broadcast delivered wrong data\n");
                    rc = -1;
                    break;
                }
            }
        }
        dpu_free(set);
    }
    free(buf);
    free(chk);
    fclose(f);
    return rc;
}

/* ---- validation table -------------------------------------------------------------- */

typedef struct {
    const char *quantity;
    double published;
    const char *unit;
    const char *source;
    double modeled;
    const char *kind; /* "independent" or "consistency" (model parameterised from it) */
} vrow;

static double mram_at(int dir, unsigned size)
{
    for (size_t k = 0; k < N_MRAM_SIZES; k++)
        if (mram_sizes[k] == size)
            return mram_lat[dir][k];
    return 0;
}

/* Smallest tasklet count reaching 95% of the best bandwidth. */
static double stream_sat(int k)
{
    double best = 0;
    for (size_t i = 0; i < N_STREAM_T; i++)
        if (stream_bw[k][i] > best)
            best = stream_bw[k][i];
    for (size_t i = 0; i < N_STREAM_T; i++)
        if (stream_bw[k][i] >= 0.95 * best)
            return stream_tasklets[i];
    return 0;
}

static double stream_max(int k)
{
    double best = 0;
    for (size_t i = 0; i < N_STREAM_T; i++)
        if (stream_bw[k][i] > best)
            best = stream_bw[k][i];
    return best;
}

static double xfer_at(int m, unsigned dpus)
{
    for (size_t k = 0; k < N_XFER; k++)
        if (xfer_dpus[k] == dpus)
            return xfer_gbps[m][k];
    return 0;
}

static int write_validation(void)
{
    /* PrIM's published run logs: measured DPU cycles for 1,048,576 elements
     * at 350 MHz (prim-benchmarks Microbenchmarks/Arithmetic-Throughput/
     * profile/ADD_<type>_tl<tasklets>.txt, commits cb0090e and df5c792). */
    const double prim_ops = 1048576.0, f = 350e6;
#define PRIM_MOPS(cycles) (prim_ops * f / (cycles) / 1e6)
    const vrow rows[] = {
        {"INT32 ADD, 1 tasklet", PRIM_MOPS(6.92941e7), "MOPS", "[V] PrIM profile ADD_INT32_tl1.txt",
         arith_mops[ARITH_I32_ADD][1], "independent"},
        {"INT32 ADD, 4 tasklets", PRIM_MOPS(1.73262e7), "MOPS",
         "[V] PrIM profile ADD_INT32_tl4.txt", arith_mops[ARITH_I32_ADD][4], "independent"},
        {"INT32 ADD, 11 tasklets", PRIM_MOPS(6.31261e6), "MOPS",
         "[V] PrIM profile ADD_INT32_tl11.txt", arith_mops[ARITH_I32_ADD][11], "independent"},
        {"INT32 ADD, 16 tasklets", PRIM_MOPS(6.28186e6), "MOPS",
         "[V] PrIM profile ADD_INT32_tl16.txt; [R] 58.56", arith_mops[ARITH_I32_ADD][16],
         "independent"},
        {"INT64 ADD, 1 tasklet", PRIM_MOPS(8.07993e7), "MOPS", "[V] PrIM profile ADD_INT64_tl1.txt",
         arith_mops[ARITH_I64_ADD][1], "independent"},
        {"INT64 ADD, 16 tasklets", PRIM_MOPS(7.31051e6), "MOPS",
         "[V] PrIM profile ADD_INT64_tl16.txt; [R] 50.16", arith_mops[ARITH_I64_ADD][16],
         "independent"},
        {"INT32 MUL, 16 tasklets", 10.27, "MOPS", "[R] PrIM Fig. 4", arith_mops[ARITH_I32_MUL][16],
         "consistency"},
        {"INT64 MUL, 16 tasklets", 2.56, "MOPS", "[R] PrIM Fig. 4", arith_mops[ARITH_I64_MUL][16],
         "consistency"},
        {"INT32 ADD instructions per op", 6.0, "instr", "[S] Course-note loop length",
         arith_insn_per_op[ARITH_I32_ADD], "independent"},
        {"INT64 ADD instructions per op", 7.0, "instr", "[S] Course-note loop length",
         arith_insn_per_op[ARITH_I64_ADD], "independent"},
        {"MRAM read latency, 8 B", 81, "cycles", "[S] PrIM-note 77+0.5*S", mram_at(0, 8),
         "consistency"},
        {"MRAM read latency, 2048 B", 1101, "cycles", "[S] PrIM-note 77+0.5*S", mram_at(0, 2048),
         "consistency"},
        {"MRAM write latency, 8 B", 65, "cycles", "[S] PrIM-note 61+0.5*S", mram_at(1, 8),
         "consistency"},
        {"MRAM write latency, 2048 B", 1085, "cycles", "[S] PrIM-note 61+0.5*S", mram_at(1, 2048),
         "consistency"},
        {"MRAM read, 256 B, 1 tasklet (266 MHz part)", 272, "cycles",
         "[V] UBC-AES initial-results.md (incl. call overhead)", mram_at(0, 256), "independent"},
        {"MRAM read, 2048 B, 1 tasklet (266 MHz part)", 1200, "cycles",
         "[V] UBC-AES initial-results.md (incl. call overhead)", mram_at(0, 2048), "independent"},
        {"MRAM read bandwidth, 2048 B", 628.23, "MB/s", "[R] PrIM; [V] uPIM ~600",
         mram_bw[0][N_MRAM_SIZES - 1], "consistency"},
        {"MRAM write bandwidth, 2048 B", 633.22, "MB/s", "[R] PrIM", mram_bw[1][N_MRAM_SIZES - 1],
         "consistency"},
        {"STREAM COPY-DMA sustained", 624, "MB/s", "[R] PrIM", stream_max(MICRO_STREAM_COPY_DMA),
         "independent"},
        {"STREAM COPY-DMA saturation", 2, "tasklets", "[S] Course-note",
         stream_sat(MICRO_STREAM_COPY_DMA), "independent"},
        {"STREAM COPY saturation", 6, "tasklets", "[S] Course-note", stream_sat(MICRO_STREAM_COPY),
         "independent"},
        {"STREAM ADD saturation", 6, "tasklets", "[S] Course-note", stream_sat(MICRO_STREAM_ADD),
         "independent"},
        {"CPU-DPU serial, 1 DPU", 0.33, "GB/s", "[S]+[R] PrIM (P16)", xfer_at(X_SERIAL_TO, 1),
         "consistency"},
        {"CPU-DPU serial, 1 DPU, 4 MiB, host timer", 4194304.0 / 23.263e-3 / 1e9, "GB/s",
         "[V] PrIM profile ADD_INT32_tl16.txt (23.263 ms)", xfer_at(X_SERIAL_TO, 1), "independent"},
        {"DPU-CPU serial, 1 DPU", 0.12, "GB/s", "[R] PrIM (P17)", xfer_at(X_SERIAL_FROM, 1),
         "consistency"},
        {"DPU-CPU serial, 1 DPU, 4 MiB, host timer", 4194304.0 / 39.591e-3 / 1e9, "GB/s",
         "[V] PrIM profile ADD_INT32_tl16.txt (39.591 ms)", xfer_at(X_SERIAL_FROM, 1),
         "independent"},
        {"CPU-DPU parallel, 64 DPUs", 6.68, "GB/s", "[S]+[R] PrIM (P18)", xfer_at(X_PAR_TO, 64),
         "consistency"},
        {"DPU-CPU parallel, 64 DPUs", 4.74, "GB/s", "[R] PrIM (P19)", xfer_at(X_PAR_FROM, 64),
         "consistency"},
        {"CPU-DPU broadcast, 64 DPUs", 16.88, "GB/s", "[R] PrIM (P20)", xfer_at(X_BCAST, 64),
         "consistency"},
        {"DPU-CPU serial, 64 DPUs", 0.115, "GB/s", "[V/D] uPIM HW data (SEL, UNI rows)",
         xfer_at(X_SERIAL_FROM, 64), "independent"},
    };
#undef PRIM_MOPS
    FILE *c = open_out("validation.csv");
    FILE *m = open_out("validation.md");
    if (!c || !m) {
        if (c)
            fclose(c);
        if (m)
            fclose(m);
        return -1;
    }
    fprintf(c, "quantity,published,unit,source,modeled,ratio_modeled_over_published,kind,"
               "within_15pct\n");
    fprintf(m, "| quantity | published | source | modeled | ratio | kind | within 15 %% |\n"
               "|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const vrow *r = &rows[i];
        double ratio = r->published > 0 ? r->modeled / r->published : 0;
        int ok = ratio > 0.85 && ratio < 1.15;
        fprintf(c, "\"%s\",%.4g,%s,\"%s\",%.4g,%.3f,%s,%s\n", r->quantity, r->published, r->unit,
                r->source, r->modeled, ratio, r->kind, ok ? "yes" : "no");
        fprintf(m, "| %s | %.4g %s | %s | %.4g %s | %.2f | %s | %s |\n", r->quantity, r->published,
                r->unit, r->source, r->modeled, r->unit, ratio, r->kind, ok ? "yes" : "**no**");
    }
    fclose(c);
    fclose(m);
    return 0;
}

/* ---- plots --------------------------------------------------------------------------- */

/* The clock of a CSV's numbers: its last column (`clock`) in the first data
 * row, so a replot labels what the CSV says, not what this build would do. */
static const char *csv_clock(const char *name, char *buf, size_t n)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/%s.csv", g_out, name);
    snprintf(buf, n, "?");
    FILE *f = fopen(path, "r");
    if (!f)
        return buf;
    if (fgets(line, sizeof line, f) && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *c = strrchr(line, ',');
        c = c ? c + 1 : line;
        size_t len = strlen(c) < n - 1 ? strlen(c) : n - 1;
        memcpy(buf, c, len);
        buf[len] = '\0';
    }
    fclose(f);
    return buf;
}

/* Draws DIR/NAME.png from DIR/NAME.csv with `script`, in which the gnuplot
 * variable `clock` is the CSV's clock.  `set datafile missing NaN`: the rows
 * a `using` filter turns into NaN are skipped instead of breaking the line,
 * so every series is one connected line (gnuplot >= 5.0.6).  Returns 0 or
 * -1. */
static int plot(const char *name, const char *script)
{
    char clock[32], err[256];
    csv_clock(name, clock, sizeof clock);
    gp_pipe p;
    if (gp_begin(&p, g_out, name, 960, 580, err, sizeof err) != 0) {
        progress("%s", err);
        return -1;
    }
    fprintf(p.g,
            "set datafile separator ','\nset datafile missing NaN\n"
            "cd '%s'\nf = '%s.csv'\nclock = '%s'\n",
            g_out, name, clock);
    fputs(script, p.g);
    if (gp_end(&p, g_out, name, err, sizeof err) != 0) {
        progress("%s", err);
        return -1;
    }
    return 0;
}

/* One plot per CSV except validation; one colour per series (and per
 * direction / access where they pair up).  Returns how many failed. */
static int plots(void)
{
    int failed = 0;
    failed += plot("micro_arith",
                   "set title 'Arithmetic throughput on 1 DPU ('.clock.' clock)' font ',12'\n"
                   "set xlabel 'tasklets'\nset ylabel 'MOPS ('.clock.', log scale)'\n"
                   "set logscale y\nset xrange [0:25]\nset xtics 2\n"
                   "set key inside bottom right\n"
                   "key(i) = word('int32,add int64,add int32,mul int64,mul', i)\n"
                   "name(i) = word('INT32-ADD INT64-ADD INT32-MUL INT64-MUL', i)\n"
                   "color(i) = word('#0072b2 #56b4e9 #d55e00 #e69f00', i)\n"
                   "plot for [i = 1:4] f using (strcol(1).','.strcol(2) eq key(i) ? $3 : NaN):7 "
                   "with linespoints lw 1.5 pt 7 lc rgb color(i) title name(i)\n") != 0;
    failed += plot("micro_mram",
                   "set title 'MRAM DMA on 1 DPU, 1 tasklet ('.clock.' clock)' font ',12'\n"
                   "set xlabel 'DMA size (bytes, log scale)'\nset logscale x 2\n"
                   "set ylabel 'latency (DPU cycles, '.clock.')'\n"
                   "set y2label 'bandwidth (MB/s, '.clock.')'\nset y2tics\nset ytics nomirror\n"
                   "set key inside top left\n"
                   "plot f using (strcol(1) eq 'read' ? $2 : NaN):5 w lp lw 1.5 pt 7 "
                   "lc rgb '#0072b2' t 'read latency (left axis)', "
                   "f using (strcol(1) eq 'write' ? $2 : NaN):5 w lp lw 1.5 pt 5 "
                   "lc rgb '#d55e00' t 'write latency (left axis)', "
                   "f using (strcol(1) eq 'read' ? $2 : NaN):6 axes x1y2 w lp lw 1.5 dt 2 pt 6 "
                   "lc rgb '#0072b2' t 'read bandwidth (right axis)', "
                   "f using (strcol(1) eq 'write' ? $2 : NaN):6 axes x1y2 w lp lw 1.5 dt 2 pt 4 "
                   "lc rgb '#d55e00' t 'write bandwidth (right axis)'\n") != 0;
    failed +=
        plot("micro_stream", "set title 'STREAM in MRAM on 1 DPU ('.clock.' clock)' font ',12'\n"
                             "set xlabel 'tasklets'\nset ylabel 'MB/s read + written ('.clock.')'\n"
                             "set xrange [0:*]\nset yrange [0:*]\nset key inside bottom right\n"
                             "key(i) = word('copy copy-dma add', i)\n"
                             "name(i) = word('COPY COPY-DMA ADD', i)\n"
                             "color(i) = word('#0072b2 #009e73 #d55e00', i)\n"
                             "plot for [i = 1:3] f using (strcol(1) eq key(i) ? $2 : NaN):5 "
                             "with linespoints lw 1.5 pt 7 lc rgb color(i) title name(i)\n") != 0;
    failed += plot("micro_xfer",
                   "set title 'Host <-> DPU transfers in one rank ('.clock.' clock)' "
                   "font ',12'\n"
                   "set xlabel 'DPUs (log scale)'\nset logscale x 2\nset logscale y\n"
                   "set ylabel 'GB/s ('.clock.', log scale)'\nset key inside top left\n"
                   "mode(i) = word('serial serial parallel parallel broadcast', i)\n"
                   "dir(i) = word('cpu-dpu dpu-cpu cpu-dpu dpu-cpu cpu-dpu', i)\n"
                   "name(i) = mode(i).(i % 2 ? ' CPU-DPU' : ' DPU-CPU')\n"
                   "color(i) = word('#808080 #808080 #0072b2 #0072b2 #009e73', i)\n"
                   "plot for [i = 1:5] f using (strcol(1) eq mode(i) && strcol(2) eq dir(i) ? "
                   "$3 : NaN):6 with linespoints lw 1.5 pt 6 + i % 2 dt 2 - i % 2 "
                   "lc rgb color(i) title name(i)\n") != 0;
    return failed;
}

/* ---- main ------------------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr, "usage: micro [--out DIR] [--dpu-dir DIR] [--xfer-kib N] [--quick]\n"
                    "       micro --replot DIR   (redraw the PNGs from DIR's CSVs)\n");
    return 2;
}

int main(int argc, char **argv)
{
    int replot = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            g_out = argv[++i];
        else if (!strcmp(argv[i], "--replot") && i + 1 < argc) {
            g_out = argv[++i];
            replot = 1;
        } else if (!strcmp(argv[i], "--dpu-dir") && i + 1 < argc)
            g_dpu_dir = argv[++i];
        else if (!strcmp(argv[i], "--xfer-kib") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v % 8 || v > 32768)
                return usage();
            g_xfer_kib = (unsigned)v;
        } else if (!strcmp(argv[i], "--quick"))
            g_quick = 1;
        else
            return usage();
    }
    if (replot) /* the plots of existing CSVs, nothing run */
        return plots() ? 1 : 0;
    mkdir(g_out, 0777);
    double t0 = wall_now();
    int rc = run_arith();
    if (rc == 0)
        rc = run_mram();
    if (rc == 0)
        rc = run_stream();
    if (rc == 0)
        rc = run_xfer();
    if (rc == 0)
        rc = write_validation();
    if (rc != 0) {
        fprintf(stderr, "micro: FAILED\n");
        return 1;
    }
    plots(); /* without gnuplot: the CSVs are the result */
    progress("done in %.1f s (measured); results in %s", wall_now() - t0, g_out);
    return 0;
}
