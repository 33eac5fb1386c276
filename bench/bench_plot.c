/*
 * bench_plot.c -- the plots of `cryptopim bench` (see bench_plot.h).
 *
 * How a plot is made.  The CSV is parsed here; every series (one kernel,
 * impl, mode and phase of the long format) is collected, sorted by x and
 * handed to gnuplot as its own inline data block, so it is drawn as ONE
 * connected line.  (The long format interleaves the series row by row;
 * filtering it inside gnuplot with `cond ? x : NaN` left every point
 * isolated between undefined ones, so lines were never drawn.)  A CPU series
 * with a single point in a plot over DPUs (strong scaling: the CPU runs the
 * same problem, once, without DPUs) becomes a horizontal reference line
 * across the whole x range.  Series without data get no legend entry.
 *
 * One style per series name in every panel of every plot (styles[]): solid
 * lines for the modeled clock (PIM), dashed for the measured clock (CPU);
 * every legend entry ends with the clock written in the CSV's clock column.
 */
#include "bench_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_parts.h"

/* ---- the experiments' plots --------------------------------------------------------- */

#define MAX_KERNELS 2

/* Figs. 4 and 5: one panel per kernel, time over DPUs, log-log. */
static void plot_scaling(gp *g, const results *r, int weak, panel *pn)
{
    static const char *const phases[] = {"cpu-dpu", "kernel", "dpu-cpu", "total"};
    static const char *const what[] = {"PIM CPU-DPU", "PIM DPU kernel", "PIM DPU-CPU", "PIM total"};
    const char *kernels[MAX_KERNELS];
    size_t nk = results_distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        fig_x_range(r, kernels[k], r->dpus, &p->x0, &p->x1);
        for (size_t i = 0; i < 4; i++)
            fig_pim_elem(r, p, kernels[k], NULL, phases[i], r->dpus, r->time, phases[i], what[i]);
        fig_cpu_elems(r, p, kernels[k], r->dpus, 0);
        long f = results_first_row(r, kernels[k], NULL);
        char sz[32];
        fmt_bytes(sz, sizeof sz,
                  csv_num(&r->c, (size_t)f, r->bytes) /
                      (weak ? csv_num(&r->c, (size_t)f, r->dpus) : 1));
        snprintf(p->title, sizeof p->title, "%s, %s%s", kernel_title(kernels[k]), sz,
                 weak ? " per DPU" : " in total");
        if (p->x0 < p->x1)
            snprintf(p->xrange, sizeof p->xrange, "[%g:%g]", p->x0, p->x1);
    }
    long p0 = results_first_row(r, kernels[0], "pim");
    char title[512], tl[32] = "";
    if (p0 >= 0)
        snprintf(tl, sizeof tl, ", %u tasklets", (unsigned)csv_num(&r->c, (size_t)p0, r->tasklets));
    snprintf(title, sizeof title,
             "%s scaling in one rank%s: PIM on the modeled clock (solid lines), CPU on the "
             "measured clock (dashed)\n%s",
             weak ? "Weak" : "Strong", tl,
             weak ? "the CPU baselines process the same total bytes as the DPUs at each point"
                  : "horizontal lines: the CPU baselines on the same problem (measured once, "
                    "no DPUs)");
    fputs("set logscale x 2\nset logscale y\nset xlabel 'DPUs (log scale)'\n"
          "set ylabel 'time in seconds (log scale)'\n",
          g->g);
    fig_draw(g, title, pn, nk, 1, (int)nk, 1);
}

/* Figs. 6 and 7: totals over ranks; the second row without the portable CPU
 * code, so the PIM modes and the hardware-instruction code can be told apart. */
static void plot_ranks(gp *g, const results *r, panel *pn, int fixed)
{
    const char *kernels[MAX_KERNELS];
    size_t nk = results_distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (int fig = 0; fig < 2; fig++) {
        for (size_t k = 0; k < nk; k++) {
            panel *p = &pn[(size_t)fig * nk + k];
            fig_x_range(r, kernels[k], r->ranks, &p->x0, &p->x1);
            fig_pim_elem(r, p, kernels[k], "async-xfer", "total", r->ranks, r->time, "async-xfer",
                         "PIM #1 async-xfer, total");
            fig_pim_elem(r, p, kernels[k], "async-exec", "total", r->ranks, r->time, "async-exec",
                         "PIM #2 async-exec, total");
            fig_pim_elem(r, p, kernels[k], "sync", "total", r->ranks, r->time, "sync",
                         "PIM sync, total");
            fig_cpu_elems(r, p, kernels[k], r->ranks, fig == 1);
            long f = results_first_row(r, kernels[k], NULL);
            double rk = csv_num(&r->c, (size_t)f, r->ranks);
            char sz[32];
            fmt_bytes(sz, sizeof sz,
                      csv_num(&r->c, (size_t)f, r->bytes) / (rk > 0 && !fixed ? rk : 1));
            if (fixed) /* ntt: the same batch at every point */
                snprintf(p->title, sizeof p->title, "%s, %s in total%s", kernel_title(kernels[k]),
                         sz, fig ? ", without the portable CPU code" : "");
            else if (fig == 0)
                snprintf(p->title, sizeof p->title, "%s, %s per rank (Fig. 6)",
                         kernel_title(kernels[k]), sz);
            else
                snprintf(p->title, sizeof p->title, "%s without the portable CPU code (Fig. 7)",
                         kernel_title(kernels[k]));
            snprintf(p->xrange, sizeof p->xrange, "[0:%g]", p->x1 > 1 ? p->x1 : 2);
        }
    }
    long p0 = results_first_row(r, kernels[0], "pim");
    char title[512], per[64] = "";
    if (p0 >= 0 && csv_num(&r->c, (size_t)p0, r->ranks) > 0)
        snprintf(
            per, sizeof per, " (%u DPUs per rank, %u tasklets)",
            (unsigned)(csv_num(&r->c, (size_t)p0, r->dpus) / csv_num(&r->c, (size_t)p0, r->ranks)),
            (unsigned)csv_num(&r->c, (size_t)p0, r->tasklets));
    snprintf(title, sizeof title,
             "%s over ranks%s: PIM on the modeled clock (solid lines), CPU on the "
             "measured clock (dashed)\nthe CPU baselines process the same total bytes as the "
             "ranks at each point",
             fixed ? "Strong scaling (a fixed batch)" : "Weak scaling", per);
    fputs("set xlabel 'ranks'\nset ylabel 'time in seconds'\nset yrange [0:*]\n", g->g);
    fig_draw(g, title, pn, 2 * nk, 2, (int)nk, 1);
}

/* servers: per kernel, time over servers -- one server's PIM
 * time, the network of each set-up and the totals -- log-log. */
static void plot_servers(gp *g, const results *r, panel *pn)
{
    const char *kernels[6]; /* through the bus: 2; resident in place: 3 */
    size_t nk = results_distinct(r, r->kernel, NULL, kernels, 6);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        fig_x_range(r, kernels[k], r->ranks, &p->x0, &p->x1);
        fig_pim_elem(r, p, kernels[k], "net-shared", "pim", r->ranks, r->time, "kernel",
                     "PIM of the slowest server");
        fig_pim_elem(r, p, kernels[k], "net-shared", "network", r->ranks, r->time, "cpu-dpu",
                     "network, a link per server");
        fig_pim_elem(r, p, kernels[k], "net-one-link", "network", r->ranks, r->time, "dpu-cpu",
                     "network, one link for all");
        fig_pim_elem(r, p, kernels[k], "net-shared", "total", r->ranks, r->time, "total",
                     "run, a link per server");
        fig_pim_elem(r, p, kernels[k], "net-one-link", "total", r->ranks, r->time, "async-exec",
                     "run, one link for all");
        long f = results_first_row(r, kernels[k], NULL);
        char sz[32];
        double rk = f >= 0 ? csv_num(&r->c, (size_t)f, r->ranks) : 1;
        fmt_bytes(sz, sizeof sz, f >= 0 ? csv_num(&r->c, (size_t)f, r->bytes) : 0);
        snprintf(p->title, sizeof p->title, "%s, %s per server of %g ranks",
                 kernel_title(kernels[k]), sz, rk);
    }
    fputs("set logscale x 2\nset logscale y\nset xlabel 'ranks in all (servers x ranks per "
          "server, log scale)'\nset ylabel 'time in seconds (log scale)'\n",
          g->g);
    fig_draw(g,
             "Servers: weak scaling over PIM servers with cryptopim-mpi's link model "
             "(modeled clock)\nrun = slowest server's PIM + network (no overlap)",
             pn, nk, nk > 3 ? 2 : 1, nk > 3 ? (int)(nk + 1) / 2 : (int)nk, 1);
}

/* resident (exp_resident.c): throughput over ranks per operation, in place
 * vs through the bus (modeled) vs AES-NI / SHA-NI (measured, one line). */
static void plot_resident(gp *g, const results *r, panel *pn)
{
    const char *kernels[3];
    size_t nk = results_distinct(r, r->kernel, NULL, kernels, 3);
    const int tp = csv_col(&r->c, "throughput_GBps");
    if (tp < 0)
        return;
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        p->x0 = 1;
        p->x1 = 40;
        fig_pim_elem(r, p, kernels[k], "in-place", "total", r->ranks, tp, "async-xfer",
                     "PIM in place, no data transfer");
        fig_pim_elem(r, p, kernels[k], "async-exec", "total", r->ranks, tp, "async-exec",
                     "PIM through the bus (in, kernel, out)");
        const char *host[] = {"aesni", "shani"};
        for (int i = 0; i < 2 && p->n < MAX_ELEMS; i++) {
            elem *e = &p->e[p->n];
            series_collect(r, kernels[k], host[i], NULL, "total", r->ranks, tp, &e->p);
            if (e->p.n == 0)
                continue;
            e->st = style_of(host[i]);
            e->hline = 1;
            e->points = 0;
            title_of_cpu(e, host[i]);
            p->n++;
        }
        snprintf(p->title, sizeof p->title, "%s", kernels[k]);
        snprintf(p->xrange, sizeof p->xrange, "[0:41]");
    }
    fputs("set xlabel 'ranks (64 DPUs each)'\nset ylabel 'GB/s'\nset yrange [0:*]\n", g->g);
    fig_draw(g,
             "Resident data: in place on the DPUs vs through the bus (modeled clock, solid) vs "
             "this host (measured, dashed)",
             pn, nk, 1, (int)nk, 1);
}

/* One tsme series: rows of kernel/impl/mode, x and y columns (y may be
 * slowdown_x or slowdown_pct), styled by `st`. */
static void tsme_elem(const results *r, panel *p, const char *kernel, const char *impl,
                      const char *mode, int xcol, int ycol, const char *st, const char *what)
{
    if (p->n == MAX_ELEMS)
        return;
    elem *e = &p->e[p->n];
    series_collect(r, kernel, impl, mode, "kernel", xcol, ycol, &e->p);
    if (e->p.n == 0)
        return;
    e->st = style_of(st);
    e->hline = e->points = 0;
    title_of_pim(e, what);
    p->n++;
}

/* tsme (exp_tsme.c): slowdown of the TSME builds over tasklets (1 DPU,
 * a rank), and the what-if's overhead over the engine's cycles per block,
 * beside the seed's SME figures (published, a band). */
static void plot_tsme(gp *g, const results *r, panel *pn)
{
    const int sx = csv_col(&r->c, "slowdown_x"), sp = csv_col(&r->c, "slowdown_pct"),
              cpb = csv_col(&r->c, "dma_aes_cycles_per_block");
    if (sx < 0 || sp < 0 || cpb < 0)
        return;
    static const char *const ks[] = {"stream-copy",  "stream-scale", "stream-add",
                                     "stream-triad", "prim-va",      "prim-red"};
    static const char *const modes[] = {"1dpu", "rank"};
    for (int m = 0; m < 2; m++) {
        panel *p = &pn[m];
        for (size_t k = 0; k < 6; k++)
            tsme_elem(r, p, ks[k], "tsme", modes[m], r->tasklets, sx, ks[k], ks[k]);
        snprintf(p->title, sizeof p->title, "TSME build / plain build, %s",
                 m ? "one rank (64 DPUs)" : "one DPU");
        snprintf(p->xrange, sizeof p->xrange, "[0:25]");
        p->extra = "1.037 with lines lw 2 dt 2 lc rgb '#000000' title 'AMD SME/TSME, STREAM: "
                   "1.026-1.042x, mean 1.037x (seed 004, published)'";
    }
    panel *p = &pn[2];
    static const char *const wk[] = {"stream-copy", "stream-triad"};
    for (int k = 0; k < 2; k++)
        for (int pipe = 0; pipe <= 1; pipe++) {
            char st[64], what[96];
            snprintf(st, sizeof st, "%s/%s", wk[k], pipe ? "pipelined" : "serial");
            snprintf(what, sizeof what, "%s, %s engine (hypothetical hardware)", wk[k],
                     pipe ? "pipelined" : "serial");
            tsme_elem(r, p, wk[k], "dma-aes", pipe ? "pipelined-t16" : "serial-t16", cpb, sp, st,
                      what);
        }
    snprintf(p->title, sizeof p->title, "What-if: AES engine on the DMA path, 1 DPU, 16 tasklets");
    p->extra = "3.7 with lines lw 2 dt 2 lc rgb '#000000' title 'SME mean 3.7% (published)', "
               "2.6 with lines lw 1 dt 3 lc rgb '#808080' title 'SME 2.6-4.2% (published)', "
               "4.2 with lines lw 1 dt 3 lc rgb '#808080' notitle";
    /* y up to 10^5: the legend sits above the data */
    fputs("set xlabel 'tasklets'\nset ylabel 'slowdown (x, modeled)'\nset logscale y\n"
          "set yrange [1:100000]\n"
          "set key inside top right font ',8'\nset xtics 4\n",
          g->g);
    /* two panels over tasklets, then the what-if over cycles per block */
    fputs("set multiplot layout 1,3 title 'TSME for MRAM: software AES-XTS on every MRAM "
          "access (modeled clock) vs AMD SME (published)' font ',12'\n",
          g->g);
    fig_panel(g, &pn[0], 1);
    fig_panel(g, &pn[1], 1);
    fputs("set xlabel 'engine cycles per 16-byte block'\nset ylabel 'overhead over plain (%, "
          "modeled)'\nset logscale xy\nset xrange [*:*]\nset xtics auto\n"
          "set yrange [0.001:1e7]\n",
          g->g);
    fig_panel(g, &pn[2], 1);
    fputs("unset multiplot\n", g->g);
}

/* Fig. 3: kernel speed-up over tasklets on one DPU, beside min(T, 11). */
static void plot_tasklets(gp *g, const results *r, panel *pn)
{
    const char *kernels[MAX_KERNELS];
    size_t nk = results_distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        fig_pim_elem(r, p, kernels[k], NULL, "kernel", r->tasklets, r->speedup, "kernel",
                     "PIM DPU kernel speed-up");
        long f = results_first_row(r, kernels[k], NULL);
        char sz[32];
        fmt_bytes(sz, sizeof sz, csv_num(&r->c, (size_t)f, r->bytes));
        snprintf(p->title, sizeof p->title, "%s, %s, 1 DPU", kernel_title(kernels[k]), sz);
        snprintf(p->xrange, sizeof p->xrange, "[0:25]");
        p->extra = "(x <= 11 ? x : 11) with lines lw 2 dt 3 lc rgb '#808080' "
                   "title 'min(T, 11): the pipeline is full from 11 tasklets'";
    }
    fputs("set xlabel 'tasklets'\nset ylabel 'DPU kernel speed-up over 1 tasklet (modeled)'\n"
          "set yrange [0:14]\nset xtics 2\nset ytics 2\nset key inside top left\n",
          g->g);
    fig_draw(g, "Tasklet scaling on one DPU (modeled clock)", pn, nk, 1, (int)nk, 0);
}

/* Fig. 1: the host's roofline and the kernels' points (own CSV schema). */
static int plot_roofline(gp *g, const char *path, panel *pn)
{
    csv c;
    if (csv_read(&c, path) != 0)
        return -1;
    int name = csv_col(&c, "name"), in = csv_col(&c, "intensity_ops_per_B"),
        perf = csv_col(&c, "performance_Gops"), bw = csv_col(&c, "bandwidth_GBps"),
        opb = csv_col(&c, "ops_per_B"), thr = csv_col(&c, "threads"), clk = csv_col(&c, "clock");
    if (name < 0 || in < 0 || perf < 0 || bw < 0 || opb < 0 || thr < 0 || clk < 0) {
        cli_error("bench: %s: not the roofline schema", path);
        csv_free(&c);
        return -1;
    }
    double mem = 0, peak = 0;
    unsigned threads = 0;
    for (size_t i = 0; i < c.nrows; i++) {
        if (!strcmp(csv_cell(&c, i, name), "host memory roof"))
            mem = csv_num(&c, i, bw);
        else if (!strcmp(csv_cell(&c, i, name), "host compute roof"))
            peak = csv_num(&c, i, perf);
        threads = (unsigned)csv_num(&c, i, thr);
    }
    if (mem <= 0 || peak <= 0) {
        cli_error("bench: %s: no host memory / compute roof rows", path);
        csv_free(&c);
        return -1;
    }
    static const style st[] = {{"point", "#0072b2", 7},
                               {"point", "#009e73", 5},
                               {"point", "#d55e00", 9},
                               {"point", "#cc79a7", 13}};
    panel *p = pn;
    for (size_t i = 0; i < c.nrows && p->n < 4; i++) {
        const char *nm = csv_cell(&c, i, name), *cut = strstr(nm, " (DRAM bytes)");
        if (!cut)
            continue;
        elem *e = &p->e[p->n];
        memset(&e->p, 0, sizeof e->p);
        e->p.n = 1;
        e->p.x[0] = csv_num(&c, i, in);
        e->p.y[0] = csv_num(&c, i, perf);
        snprintf(e->p.clock, sizeof e->p.clock, "%s", csv_cell(&c, i, clk));
        e->st = &st[p->n];
        e->hline = 0;
        e->points = 1;
        char k[32];
        snprintf(k, sizeof k, "%.*s", (int)(cut - nm), nm);
        snprintf(e->title, sizeof e->title,
                 "%s: %.1f ops/B (counted on the virtual DPU), %.2f GB/s (%s)", kernel_title(k),
                 csv_num(&c, i, opb), csv_num(&c, i, bw), csv_cell(&c, i, clk));
        p->n++;
    }
    p->extra = "roof(x) with lines lw 2.5 lc rgb '#000000' title sprintf('roof (measured): "
               "%.1f GB/s copy bandwidth, %.1f Gops/s integer peak', bw, pk)";
    snprintf(p->xrange, sizeof p->xrange, "[0.01:1000]");
    fprintf(g->g,
            "set logscale xy\nset yrange [0.1:%g]\nset samples 1000\n"
            "set xlabel 'arithmetic intensity (ops per DRAM byte; ops counted on the virtual "
            "DPU, modeled)'\n"
            "set ylabel 'Gops/s (measured on this host)'\n"
            "set key inside top left\n"
            "bw = %.17g\npk = %.17g\nroof(x) = x * bw < pk ? x * bw : pk\n"
            "set arrow from pk / bw, 0.1 to pk / bw, pk nohead front dt 2 lw 1.5 "
            "lc rgb '#808080'\n"
            "set label sprintf('ridge point %%.2f ops/B', pk / bw) at pk / bw * 1.15, pk * 0.7 "
            "front\n",
            peak * 4, mem, peak);
    char title[256];
    snprintf(title, sizeof title,
             "Roofline of this host (measured, %u threads) with AES-128 and SHA-256 "
             "(portable code)",
             threads);
    fig_draw(g, title, pn, 1, 1, 1, 0);
    csv_free(&c);
    return 0;
}

/* see bench_plot.h */
int bench_plot(const char *dir, const char *name)
{
    static const struct {
        const char *name;
        int w, h;
    } sizes[] = {{"roofline", 1000, 640}, {"tasklets", 1200, 580}, {"strong", 1300, 760},
                 {"weak", 1300, 760},     {"ranks", 1300, 1000},   {"servers", 1300, 700},
                 {"ntt", 1300, 1000},     {"resident", 1500, 560}, {"tsme", 1800, 620}};
    size_t s = 0;
    while (s < sizeof sizes / sizeof sizes[0] && strcmp(sizes[s].name, name))
        s++;
    if (s == sizeof sizes / sizeof sizes[0]) {
        cli_error("bench: no plot for '%s'", name);
        return -1;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    int roofline = !strcmp(name, "roofline");
    results r;
    if (!roofline && results_read(&r, path) != 0)
        return -1;
    /* (servers: up to 6 panels, the bus and in-place kernels) */
    panel *pn = calloc(2 * MAX_KERNELS > 6 ? 2 * MAX_KERNELS : 6, sizeof *pn);
    gp g;
    int rc = pn ? fig_open(&g, dir, name, sizes[s].w, sizes[s].h) : -1;
    if (!pn)
        cli_error("bench: out of memory");
    if (rc == 0) {
        if (roofline)
            rc = plot_roofline(&g, path, pn);
        else if (!strcmp(name, "tasklets"))
            plot_tasklets(&g, &r, pn);
        else if (!strcmp(name, "ranks") || !strcmp(name, "ntt"))
            plot_ranks(&g, &r, pn, !strcmp(name, "ntt")); /* ntt: its first two kernels */
        else if (!strcmp(name, "servers"))
            plot_servers(&g, &r, pn);
        else if (!strcmp(name, "resident"))
            plot_resident(&g, &r, pn);
        else if (!strcmp(name, "tsme"))
            plot_tsme(&g, &r, pn);
        else
            plot_scaling(&g, &r, !strcmp(name, "weak"), pn);
        if (fig_close(&g, dir, name) != 0)
            rc = -1;
    }
    free(pn);
    if (!roofline)
        csv_free(&r.c);
    return rc;
}
