/*
 * exp.h -- what the experiments of `cryptopim bench` share (bench/exp_*.c):
 * the run's settings, the long CSV schema's rows, the AES / SHA-256
 * workloads with their cpu-backend references, the CPU baselines (measured
 * clock) and the pim runs (modeled clock).  bench.c holds the one table of
 * experiments and the command; exp_common.c defines what is declared here.
 *
 * Every experiment writes ONE CSV, DIR/NAME.csv, opened by bench.c before
 * the experiment runs (b->csv); a long-format experiment gets the schema's
 * header line written for it:
 *   experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,
 *   time_s,throughput_GBps,speedup,clock,machine,modeled_J_per_GB
 * `clock` is `measured` (wall time on this machine: the CPU backends) or
 * `modeled` (what the real UPMEM machine would take, from the virtual
 * UPMEM's model: the pim backend).  A modeled number is never a measurement.
 * `machine` says which machine: `this-host` for a measured row; for a
 * modeled row the virtual UPMEM's named machine (--machine, default
 * `study`: the CryptoPIM study's 40-rank 450 MHz server, profile key
 * machine=NAME, docs/MODEL.md), or `upmem-hw` on real hardware.
 * `modeled_J_per_GB` (pim `total` rows only, else empty): the call's energy
 * from the virtual UPMEM's power model per GB of payload -- modeled, never
 * measured (cpim_stats.modeled_joules, docs/MODEL.md).
 *
 * Every output produced is checked against a reference (bench_work_init).  The kernels
 * are data-oblivious (tests/test_bench.c proves equal modeled cycles for
 * different data), which is what lets `--sample` time one DPU per rank and
 * launch and skip identical ones (a timing-only run, cpim_options.timing_only:
 * profile key sampleDpus, docs/MODEL.md); such a run returns no output
 * (CPIM_ERR_TIMING_ONLY, output zeroed), which the check requires.
 */
#ifndef CPIM_BENCH_EXP_H
#define CPIM_BENCH_EXP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"
#include "cryptopim.h"

/* ---- settings ---------------------------------------------------------------------- */

typedef struct {
    const char *out;
    int quick;
    int sample;          /* use sampleDpus=1 where allowed */
    int sample_ok;       /* the UPMEM layer accepted it (and hostClock, machine):
                          * the virtual UPMEM */
    const char *machine; /* --machine: the virtual UPMEM's named machine */
    char profile[96];    /* machine=NAME,hostClock=thread (virtual UPMEM) */
    FILE *csv;           /* the running experiment's CSV */
    const char *exp;     /* the running experiment's name (first column) */
    int failed;          /* an output was wrong or a run failed */
    int partial;         /* set by the experiment: its CSV is one part of a
                          * run split over processes, drawn once merged
                          * (bench.c then draws no plot) */
    unsigned cores;
} bench;

/* One experiment: NAME.csv written through b->csv.  0, or -1 (reported;
 * the command then exits 1). */
typedef struct {
    const char *name;
    int (*fn)(bench *b);
    int long_format; /* bench.c writes the long schema's header line first */
    uint64_t rng;    /* bench_rng at its start (0: it draws nothing from it) */
} experiment;

int exp_roofline(bench *b); /* exp_roofline.c: Fig. 1 */
int exp_tasklets(bench *b); /* exp_tasklets.c: Fig. 3 */
int exp_strong(bench *b);   /* exp_scaling.c: Fig. 4 */
int exp_weak(bench *b);     /* exp_scaling.c: Fig. 5 */
int exp_ranks(bench *b);    /* exp_ranks.c: Figs. 6-7 */
int exp_servers(bench *b);  /* exp_servers.c: cryptopim-mpi's link model */
int exp_ntt(bench *b);      /* exp_ntt.c: NTTs and polynomial products */
int exp_resident(bench *b); /* exp_resident.c: MRAM-resident data in place */
int exp_tsme(bench *b);     /* exp_tsme.c: MRAM encryption (own columns) */

/* The virtual UPMEM profile of the run's pim contexts: NULL on real
 * hardware (it knows neither the machine nor hostClock). */
const char *bench_profile(const bench *b);
/* Timing-only runs allowed (--no-sample not given, virtual UPMEM). */
int bench_sampled(const bench *b);
/* The CSVs' machine column: where a number of this clock comes from. */
const char *bench_machine_label(const bench *b, cpim_clock clock);

/* "bench: " fmt "\n" on stderr. */
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The pseudo-random stream (xorshift64*) the workloads are drawn from;
 * bench_fill() draws n bytes from it.  bench.c sets it at the start of each
 * experiment to that experiment's own fixed state (experiments[]), so an
 * experiment draws the same data whether it runs alone, in a list or in
 * `all`, and parallel jobs of `make bench` reproduce a sequential run. */
extern uint64_t bench_rng;
void bench_fill(uint8_t *p, size_t n);

/* ---- CSV rows ------------------------------------------------------------------------ */

typedef struct {
    const char *kernel, *impl, *mode;
    unsigned ranks, dpus, tasklets, threads;
    size_t bytes;
} row_cfg;

/* One row of phase `phase` taking t seconds.  joules: the call's modeled
 * energy (pim backend, "total" rows), written as joules per GB of payload
 * in the last column; < 0: none (empty).  The phase host-cpu-per-GB is CPU
 * seconds per GB, not a time: its throughput column is 0. */
void bench_row(bench *b, const row_cfg *c, const char *phase, double t, double speedup,
               cpim_clock clock, double joules);
/* The four rows cpu-dpu, kernel (with speedup), dpu-cpu, total (with the
 * energy) of one call's phases. */
void bench_phase_rows(bench *b, const row_cfg *c, const cpim_phases *p, double speedup,
                      double joules);

/* ---- workloads ----------------------------------------------------------------------- */

typedef struct {
    size_t aes_len;          /* AES: bytes                          */
    size_t n_msgs, msg_len;  /* SHA-256: messages x bytes           */
    uint8_t *in, *out, *ref; /* AES buffers                         */
    uint8_t *sha_data;
    const uint8_t **msgs;
    size_t *lens;
    uint8_t (*dig)[32], (*ref_dig)[32];
} work;

enum kern { K_AES, K_SHA };
extern const char *const bench_kern_name[2]; /* aes-128-ecb, sha256 */

/* Allocates and fills from bench_rng; references computed with the auto
 * backend: AES-NI and SHA-NI (or multi-buffer SHA-256) where this CPU has
 * them, else the portable cpu backend -- each checked against official
 * vectors by the unit tests, and the portable one, the slowest by far, a
 * baseline the experiments measure anyway, so its output is then checked
 * against an independent implementation.  0, or -1 (reported, nothing left
 * allocated). */
int bench_work_init(work *w, size_t aes_len, size_t n_msgs, size_t msg_len);
/* The same without the references when !with_ref (for timing-only runs,
 * whose check wants no output at all): the same data, drawn the same way. */
int bench_work_draw(work *w, size_t aes_len, size_t n_msgs, size_t msg_len, int with_ref);
void bench_work_free(work *w);
size_t bench_work_bytes(const work *w, enum kern k);
/* Kernel k on w (the run's AES key set). */
cpim_err bench_run_kernel(cpim_ctx *ctx, work *w, enum kern k);
/* Output check.  Full runs: every byte must match.  Sampled (timing-only)
 * runs return no output: the library must have zeroed it all, so that no
 * unsimulated DPU's memory passes for a result.  Returns 0 when it passes,
 * else -1 (reported, b->failed set). */
int bench_check_output(bench *b, work *w, enum kern k, int sampled, const char *what);

/* ---- CPU baselines (measured clock) -------------------------------------------------- */

typedef struct {
    const char *impl;    /* row name                               */
    const char *backend; /* cryptopim backend, or NULL for a lib   */
    const cmp_impl *lib; /* comparison library (one thread)        */
    unsigned threads;
} cpu_impl;

/* Best wall time of >= 3 runs and >= 0.3 s (after one checked warm-up);
 * -1 unavailable, -2 wrong output (reported). */
double bench_cpu_time(bench *b, const cpu_impl *ci, work *w, enum kern k);
/* The CPU comparison set for kernel k -- portable code on all cores (and on
 * one thread if one_thread), the hardware backend, and (SHA-256)
 * intel-ipsec-mb's multi-buffer code -- one total row each. */
void bench_cpu_rows(bench *b, work *w, enum kern k, unsigned ranks, unsigned dpus, int one_thread);
/* bench_cpu_rows into memory (*buf, *len; free(*buf)) instead of b->csv,
 * which is left as it was: the baselines an experiment takes first, under
 * one hold of the measuring lock, and writes out later where one pass
 * writes them.  -1 when the buffer could not be made or written. */
int bench_cpu_rows_mem(bench *b, work *w, enum kern k, unsigned ranks, unsigned dpus,
                       int one_thread, char **buf, size_t *len);

/* ---- PIM runs (modeled clock) -------------------------------------------------------- */

typedef struct {
    unsigned dpus, ranks, tasklets;
    cpim_pim_mode mode;
    int sampled;
    int cycles; /* DPUs at 1000 MHz and no launch overhead: kernel seconds x
                 * 1e9 = DPU cycles, whatever the machine's clock */
} pim_cfg;

const char *bench_mode_name(cpim_pim_mode m);
/* The options of a pim run of configuration pc with this profile (NULL:
 * none; timing-only when pc->sampled). */
void bench_pim_options(cpim_options *o, const pim_cfg *pc, const char *profile);
/* One run of kernel k on the pim backend; fills *st and checks the output.
 * Returns 0, or -1 (error reported, b->failed set). */
int bench_pim_run(bench *b, const pim_cfg *pc, work *w, enum kern k, cpim_stats *st);
/* Does the UPMEM layer accept profile (with sampleDpus, which a
 * timing-only run adds on the virtual UPMEM) on `ranks` ranks (0: one
 * DPU)?  Only the virtual UPMEM knows sampleDpus, hostClock and machine. */
int bench_probe_profile(const char *profile, unsigned ranks);
int bench_pim_available(void);

/* One server of `ranks` ranks with `per` bytes resident on each DPU: the
 * modeled totals of an in-place XTS encryption, re-key and SHA-256 + Merkle
 * root (t[0..2], seconds), its DPUs and bytes (exp_resident.c; the servers
 * experiment's in-place rows).  0, or -1 (printed). */
int bench_resident_server(bench *b, unsigned ranks, size_t per, double t[3], unsigned *dpus,
                          size_t *bytes);

#endif /* CPIM_BENCH_EXP_H */
