/*
 * bench.c -- `cryptopim bench`: the CryptoPIM study's experiments
 * (docs/RESULTS.md shows what they produced; docs/MODEL.md the model).
 *
 *   roofline  Fig. 1    arithmetic intensity of AES-128 and SHA-256 against
 *                       this host's measured memory bandwidth and peak
 *   tasklets  Fig. 3    1..24 tasklets on one DPU, speed-up over 1 tasklet
 *   strong    Fig. 4    1..64 DPUs of one rank on a fixed problem, phases,
 *                       beside the CPU backends
 *   weak      Fig. 5    1..64 DPUs, fixed work per DPU
 *   resident  MRAM      encrypt / re-key / hash data resident in MRAM in
 *                       place vs through the bus vs AES-NI / SHA-NI
 *                       (exp_resident.c)
 *   tsme      MRAM      STREAM / PrIM VA, RED plain vs built with dpu/tsme.h,
 *                       and the what-if of an AES engine on the DMA path
 *                       (exp_tsme.c)
 *   ranks     Figs. 6-7 1..40 ranks at 32 MiB per rank, async-xfer vs
 *                       async-exec vs the CPU backends
 *   servers   MPI       1..64 servers of 40 ranks with cryptopim-mpi's link
 *                       model: where the network, not the PIM, limits
 *   ntt       HE        NTT / polynomial products: ranks, DRAMatic's case,
 *                       tasklets and schedules, N and L (see exp_ntt)
 *
 * Every experiment lives in its own exp_NAME.c behind the one table below
 * (experiments[]), shares exp.h (settings, the long CSV schema, workloads,
 * CPU and pim runs) and writes ONE CSV and one PNG (gnuplot, when
 * installed), drawn from the CSV alone by bench_plot.c, so `--replot DIR`
 * redraws existing results.
 */
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "bench_plot.h"
#include "cli.h"
#include "exp.h"
#include "gnuplot.h"
#include "quiet.h"

static const char bench_help[] =
    "usage: cryptopim bench --experiment NAME[,NAME...]|all [--out DIR] [--quick] [--no-sample]\n"
    "                       [--machine NAME]\n"
    "       cryptopim bench --replot DIR [--experiment NAME|all]\n"
    "\n"
    "Runs the CryptoPIM study's experiments and writes NAME.csv and NAME.png\n"
    "into DIR (default build/results):\n"
    "  roofline   AES-128 / SHA-256 arithmetic intensity vs this host's roofline\n"
    "  tasklets   1..24 tasklets on one DPU (AES 8 MiB, SHA-256 96 x 32 KiB)\n"
    "  strong     1..64 DPUs of one rank (AES 8 MiB, SHA-256 1024 x 32 KiB)\n"
    "  weak       1..64 DPUs, 1 MiB AES / 16 x 32 KiB SHA-256 per DPU\n"
    "  ranks      1..40 ranks at 32 MiB per rank, async-xfer vs async-exec\n"
    "  servers    1..64 servers of 40 ranks (AES 32 MiB per rank, SHA-256) with\n"
    "             cryptopim-mpi's network model (docs/MPI.md)\n"
    "  ntt        NTTs and polynomial products of N = 4096 over 1..40 ranks,\n"
    "             DRAMatic's 32,768 NTTs on machine=dramatic, 1..24 tasklets,\n"
    "             N = 1024..16384 x 1..3 moduli (docs/NTT.md)\n"
    "  resident   in-place encrypt / re-key / hash of MRAM-resident data, 1..40\n"
    "             ranks, vs through the bus and AES-NI / SHA-NI\n"
    "  tsme       STREAM and PrIM VA/RED plain vs with MRAM encrypted (tsme.h), 1..24\n"
    "             tasklets, 1 DPU and a rank, + an AES engine on the DMA path (what-if)\n"
    "  all        every one of them (a comma-separated list: those, in this order)\n"
    "\n"
    "  --quick      small sizes (for tests)\n"
    "  --no-sample  simulate every DPU, each on its own data, its output checked,\n"
    "               even where the kernels' data-obliviousness allows timing one DPU\n"
    "               per rank (slow: about an hour for `ranks`, days for `resident`,\n"
    "               whose points must fit in this host's memory; docs/RESULTS.md)\n"
    "  --machine NAME  the machine the virtual UPMEM models (its profile key\n"
    "               machine=NAME, docs/MODEL.md): study (default: the CryptoPIM\n"
    "               study's server, 40 ranks x 64 DPUs at 450 MHz), prim (PrIM's\n"
    "               2,556 DPUs at 350 MHz), dramatic (6 ranks, 383 DPUs, 400 MHz).\n"
    "               Keys in UPMEM_PROFILE (e.g. clockMhz=400) override its keys.\n"
    "  --replot DIR run nothing: redraw DIR/NAME.png from the existing DIR/NAME.csv\n"
    "               (all: every experiment whose CSV is in DIR; needs gnuplot)\n"
    "\n"
    "PIM numbers are on the modeled clock (the virtual UPMEM modeling the\n"
    "machine above, 16 tasklets unless varied), CPU numbers on the measured\n"
    "clock; the CSVs' `machine` column says which.  Host work between UPMEM\n"
    "calls is the calling thread's CPU time (hostClock=thread); UPMEM_PROFILE\n"
    "overrides it as any profile key (UPMEM_PROFILE=hostClock=none: no host\n"
    "work, modeled rows identical on every run).  Progress goes to stderr.\n"
    "Exit status: 0, 1 if an output was wrong or a run failed, 2 bad usage.\n";

/* CPU seconds of the process so far, all threads (user + system). */
static double cpu_seconds(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec * 1e-6;
}

/* The one table of experiments: `all` runs them in this order.  Each
 * starts bench_rng at its own state: the state that the one stream all
 * experiments used to share reached there in a full run (default options,
 * 40 ranks), so that the committed results' data are drawn again; ntt's
 * modeled times depend on its data (its runs multiply them). */
static const experiment experiments[] = {
    {"roofline", exp_roofline, 0, 0x243f6a8885a308d3ull},
    {"tasklets", exp_tasklets, 1, 0xdc4ad663fbcc74dfull},
    {"strong", exp_strong, 1, 0x0bb1287ac9a288f7ull},
    {"weak", exp_weak, 1, 0x08c1d762c9a74cb7ull},
    {"ranks", exp_ranks, 1, 0x9d396676661e5e26ull},
    {"servers", exp_servers, 1, 0xf21df97edd551cbdull},
    {"ntt", exp_ntt, 1, 0x6ab9678268f382d4ull},
    {"resident", exp_resident, 1, 0},
    {"tsme", exp_tsme, 0, 0},
};
#define N_EXPERIMENTS (sizeof experiments / sizeof experiments[0])

static int run_experiment(bench *b, const experiment *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", b->out, e->name);
    b->csv = fopen(path, "w");
    if (!b->csv) {
        cli_error("bench: cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    b->exp = e->name;
    b->partial = 0;
    if (e->rng)
        bench_rng = e->rng;
    bench_quiet_yield();
    if (e->long_format)
        fputs("experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,time_s,"
              "throughput_GBps,speedup,clock,machine,modeled_J_per_GB\n",
              b->csv);
    double t0 = cpim_now(), c0 = cpu_seconds(), w0 = bench_quiet_waited();
    bench_progress("%s: start", e->name);
    int rc = e->fn(b);
    if (fclose(b->csv) != 0)
        rc = -1;
    b->csv = NULL;
    bench_progress("%s: done in %.1f s (measured wall time; %.1f s of CPU time, all threads; "
                   "%.1f s waiting for the measuring lock)",
                   e->name, cpim_now() - t0, cpu_seconds() - c0, bench_quiet_waited() - w0);
    /* no gnuplot is not an error here: the CSV is the result */
    if (rc == 0 && !b->partial && gp_available() && bench_plot(b->out, e->name) != 0)
        rc = -1;
    return rc;
}

/* Is experiment `name` in `which`: "all", or a comma-separated list of
 * names (each run once, in the table's order whatever the list's)? */
static int selected(const char *which, const char *name)
{
    if (!strcmp(which, "all"))
        return 1;
    size_t n = strlen(name);
    for (const char *p = which; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* The first item of `which` that names no experiment (an empty one
 * included), or NULL; "all" is only allowed alone. */
static const char *unknown_experiment(const char *which)
{
    static char bad[64];
    if (!strcmp(which, "all"))
        return NULL;
    for (const char *p = which;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int known = 0;
        for (size_t i = 0; i < N_EXPERIMENTS && !known; i++)
            known = strlen(experiments[i].name) == len && !strncmp(p, experiments[i].name, len);
        if (!known) {
            snprintf(bad, sizeof bad, "%.*s", len < 60 ? (int)len : 60, p);
            return bad;
        }
        if (!e)
            return NULL;
        p = e + 1;
    }
}

/* --replot: the plots of the experiments whose CSV is in dir. */
static int replot(const char *dir, const char *which)
{
    int failed = 0, drawn = 0;
    for (size_t i = 0; i < N_EXPERIMENTS; i++) {
        const char *name = experiments[i].name;
        if (!selected(which, name))
            continue;
        char path[1024];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s.csv", dir, name);
        if (!strcmp(which, "all") && stat(path, &sb) != 0)
            continue; /* all = the experiments that were run */
        if (bench_plot(dir, name) != 0) {
            failed = 1;
            continue;
        }
        bench_progress("%s/%s.png redrawn from %s", dir, name, path);
        drawn++;
    }
    if (!drawn && !failed) {
        cli_error("bench: no experiment CSV in %s", dir);
        failed = 1;
    }
    return failed ? CLI_FAIL : CLI_OK;
}

/* see the top of the file */
int cmd_bench(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    b.out = "build/results";
    b.sample = 1;
    b.machine = "study";
    b.cores = cpim_cores();
    const char *which = NULL, *replot_dir = NULL;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *opt, *operand;
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            cli_error("bench: unexpected operand (argument %d)", cli_arg_number(&a));
            return CLI_USAGE;
        }
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(bench_help, stdout);
            return CLI_OK;
        } else if (!strcmp(opt, "--experiment") || !strcmp(opt, "-e")) {
            if (!(which = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--out") || !strcmp(opt, "-o")) {
            if (!(b.out = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--replot")) {
            if (!(replot_dir = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--quick")) {
            b.quick = 1;
        } else if (!strcmp(opt, "--no-sample")) {
            b.sample = 0;
        } else if (!strcmp(opt, "--machine")) {
            if (!(b.machine = cli_value(&a, opt)))
                return CLI_USAGE;
        } else {
            cli_error("bench: unknown option %s (see --help)", cli_quote(opt));
            return CLI_USAGE;
        }
    }
    if (replot_dir && !which)
        which = "all";
    if (!which) {
        cli_error("bench: --experiment NAME|all is required (see --help)");
        return CLI_USAGE;
    }
    const char *unknown = unknown_experiment(which);
    if (unknown) {
        cli_error("bench: unknown experiment %s in --experiment %s (roofline, tasklets, strong, "
                  "weak, ranks, servers, ntt, resident, tsme, all, or a comma-separated list)",
                  cli_quote(unknown), cli_quote(which));
        return CLI_USAGE;
    }
    if (replot_dir)
        return replot(replot_dir, which);
    /* An output folder that cannot be made is a usage/IO error (2, as the
     * README says), not an experiment that failed (1). */
    if (mkdir(b.out, 0777) != 0 && errno != EEXIST) {
        cli_error("bench: cannot create the output folder %s: %s", b.out, strerror(errno));
        return CLI_USAGE;
    }
    struct stat out_st;
    if (stat(b.out, &out_st) != 0 || !S_ISDIR(out_st.st_mode)) {
        cli_error("bench: the output folder %s is not a folder", b.out);
        return CLI_USAGE;
    }
    snprintf(b.profile, sizeof b.profile, "machine=%s,hostClock=thread", b.machine);
    if (bench_pim_available()) {
        b.sample_ok = bench_probe_profile(b.profile, 0);
        if (!b.sample_ok && bench_probe_profile("hostClock=thread", 0)) {
            cli_error("bench: the virtual UPMEM refused --machine %s (prim, study, dramatic)",
                      cli_quote(b.machine));
            return CLI_USAGE;
        }
    }
    if (b.sample_ok) {
        const char *env = getenv("UPMEM_PROFILE"), *base = getenv("UPMEM_PROFILE_BASE");
        bench_progress(
            "modeled machine: %s (virtual UPMEM, profile key machine=%s; --machine picks "
            "another, docs/MODEL.md)%s%s%s%s",
            b.machine, b.machine, env && *env ? "; UPMEM_PROFILE=" : "", env ? env : "",
            base && *base ? "; UPMEM_PROFILE_BASE=" : "", base ? base : "");
    } else if (bench_pim_available()) {
        bench_progress(
            "modeled machine: none (the pim backend runs on UPMEM hardware: its times are "
            "measured by the SDK's host, see the clock column)");
    }
    bench_quiet_init();
    double t0 = cpim_now();
    for (size_t i = 0; i < N_EXPERIMENTS; i++) {
        if (!selected(which, experiments[i].name))
            continue;
        if (run_experiment(&b, &experiments[i]) != 0)
            b.failed = 1;
    }
    bench_progress("all requested experiments done in %.1f s (measured)%s", cpim_now() - t0,
                   b.failed ? "; SOME FAILED" : "");
    return b.failed ? CLI_FAIL : CLI_OK;
}
