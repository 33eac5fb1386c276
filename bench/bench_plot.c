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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gnuplot.h"

/* ---- CSV ------------------------------------------------------------------------ */

#define CSV_MAX_COLS 24

typedef struct {
    char *text;  /* the file; cells are cut out of it in place */
    char **cell; /* nrows x ncols, row-major; "" where a row is short */
    size_t nrows, ncols;
    char *head[CSV_MAX_COLS];
} csv;

static void csv_free(csv *c)
{
    free(c->text);
    free(c->cell);
    memset(c, 0, sizeof *c);
}

/* Cuts one line at its commas (the bench CSVs quote nothing) into at most
 * max cells; returns how many. */
static size_t split(char *line, char **out, size_t max)
{
    size_t n = 0;
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (n < max)
            out[n++] = p;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static int csv_read(csv *c, const char *path)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("bench: cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 0, len = 0;
    int bad = 0;
    for (;;) {
        if (cap - len < 4096) {
            char *t = realloc(c->text, cap ? 2 * cap : 65536);
            if (!t) {
                bad = 1;
                break;
            }
            c->text = t;
            cap = cap ? 2 * cap : 65536;
        }
        size_t r = fread(c->text + len, 1, cap - len - 1, f);
        len += r;
        if (r == 0)
            break;
    }
    bad |= ferror(f);
    fclose(f);
    if (bad) {
        cli_error("bench: cannot read %s", path);
        csv_free(c);
        return -1;
    }
    c->text[len] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += c->text[i] == '\n';
    char *save = NULL, *line = strtok_r(c->text, "\r\n", &save);
    if (!line) {
        cli_error("bench: %s is empty", path);
        csv_free(c);
        return -1;
    }
    c->ncols = split(line, c->head, CSV_MAX_COLS);
    c->cell = calloc(lines * c->ncols, sizeof *c->cell);
    if (!c->cell) {
        cli_error("bench: out of memory");
        csv_free(c);
        return -1;
    }
    while ((line = strtok_r(NULL, "\r\n", &save))) {
        char **row = c->cell + c->nrows++ * c->ncols;
        for (size_t i = split(line, row, c->ncols); i < c->ncols; i++)
            row[i] = "";
    }
    return 0;
}

static int csv_col(const csv *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (!strcmp(c->head[i], name))
            return (int)i;
    return -1;
}

static const char *cell(const csv *c, size_t r, int col)
{
    return c->cell[r * c->ncols + (size_t)col];
}

static double num(const csv *c, size_t r, int col)
{
    return strtod(cell(c, r, col), NULL);
}

/* The long format of the experiments (bench.c, top of the file). */
typedef struct {
    csv c;
    int kernel, impl, mode, ranks, dpus, tasklets, threads, bytes, phase, time, speedup, clock;
} results;

static int results_read(results *r, const char *path)
{
    if (csv_read(&r->c, path) != 0)
        return -1;
    static const char *const names[] = {"kernel", "impl",     "mode",    "ranks",
                                        "dpus",   "tasklets", "threads", "bytes",
                                        "phase",  "time_s",   "speedup", "clock"};
    int *idx[] = {&r->kernel,  &r->impl,  &r->mode,  &r->ranks, &r->dpus,    &r->tasklets,
                  &r->threads, &r->bytes, &r->phase, &r->time,  &r->speedup, &r->clock};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if ((*idx[i] = csv_col(&r->c, names[i])) < 0) {
            cli_error("bench: %s: no column '%s'", path, names[i]);
            csv_free(&r->c);
            return -1;
        }
    }
    if (r->c.nrows == 0) {
        cli_error("bench: %s has no rows", path);
        csv_free(&r->c);
        return -1;
    }
    return 0;
}

/* Distinct values of column col, in order of first appearance, among the
 * rows whose kernel is `kernel` (NULL: all rows).  Returns how many. */
static size_t distinct(const results *r, int col, const char *kernel, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->c.nrows; i++) {
        if (kernel && strcmp(cell(&r->c, i, r->kernel), kernel))
            continue;
        const char *v = cell(&r->c, i, col);
        size_t j = 0;
        while (j < n && strcmp(out[j], v))
            j++;
        if (j == n && n < max)
            out[n++] = v;
    }
    return n;
}

/* First row of a kernel with the given impl (NULL: any); -1 if none. */
static long first_row(const results *r, const char *kernel, const char *impl)
{
    for (size_t i = 0; i < r->c.nrows; i++)
        if (!strcmp(cell(&r->c, i, r->kernel), kernel) &&
            (!impl || !strcmp(cell(&r->c, i, r->impl), impl)))
            return (long)i;
    return -1;
}

/* ---- series ---------------------------------------------------------------------- */

#define MAX_PTS 64

typedef struct {
    double x[MAX_PTS], y[MAX_PTS];
    size_t n;
    unsigned threads;
    char clock[16];
} pts;

/* The rows of one series (mode NULL: any), sorted by x. */
static void collect(const results *r, const char *kernel, const char *impl, const char *mode,
                    const char *phase, int xcol, int ycol, pts *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < r->c.nrows && p->n < MAX_PTS; i++) {
        if (strcmp(cell(&r->c, i, r->kernel), kernel) || strcmp(cell(&r->c, i, r->impl), impl) ||
            (mode && strcmp(cell(&r->c, i, r->mode), mode)) ||
            strcmp(cell(&r->c, i, r->phase), phase))
            continue;
        double x = num(&r->c, i, xcol), y = num(&r->c, i, ycol);
        size_t j = p->n++;
        for (; j > 0 && p->x[j - 1] > x; j--) {
            p->x[j] = p->x[j - 1];
            p->y[j] = p->y[j - 1];
        }
        p->x[j] = x;
        p->y[j] = y;
        p->threads = (unsigned)num(&r->c, i, r->threads);
        snprintf(p->clock, sizeof p->clock, "%s", cell(&r->c, i, r->clock));
    }
}

/* Colour and marker per series name (a PIM phase, a PIM host mode, or a CPU
 * implementation), the same in every panel and plot. */
typedef struct {
    const char *name;
    const char *rgb;
    int pt;
} style;

static const style styles[] = {
    /* PIM phases (strong, weak) */
    {"cpu-dpu", "#56b4e9", 9},
    {"kernel", "#009e73", 7},
    {"dpu-cpu", "#0072b2", 11},
    {"total", "#000000", 5},
    /* PIM host modes (ranks: their totals) */
    {"async-xfer", "#000000", 5},
    {"async-exec", "#cc79a7", 13},
    {"sync", "#808080", 5},
    /* CPU backends and libraries */
    {"cpu", "#e69f00", 4},
    {"cpu-1t", "#d55e00", 6},
    {"aesni", "#7b3294", 8},
    {"shani", "#b2182b", 10},
    {"ipsec-mb-multibuffer", "#8c6d31", 12},
    /* tsme (issue 17): kernels, the what-if's engines, the seed's SME */
    {"stream-copy", "#0072b2", 7},
    {"stream-scale", "#009e73", 5},
    {"stream-add", "#e69f00", 9},
    {"stream-triad", "#d55e00", 11},
    {"prim-va", "#cc79a7", 13},
    {"prim-red", "#56b4e9", 4},
    {"stream-copy/serial", "#0072b2", 6},
    {"stream-copy/pipelined", "#56b4e9", 8},
    {"stream-triad/serial", "#d55e00", 10},
    {"stream-triad/pipelined", "#e69f00", 12},
    {"sme", "#000000", 1},
};

static const style *style_of(const char *name)
{
    static const style other = {"", "#808080", 3};
    for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++)
        if (!strcmp(styles[i].name, name))
            return &styles[i];
    return &other;
}

typedef struct {
    pts p;
    char title[160];
    const style *st;
    int hline;  /* p.y[0] drawn across the panel's x range */
    int points; /* markers only (no line) */
} elem;

static void title_of_pim(elem *e, const char *what)
{
    char clock[sizeof e->p.clock];
    memcpy(clock, e->p.clock, sizeof clock); /* gcc: -Wrestrict on the same struct */
    snprintf(e->title, sizeof e->title, "%s (%s)", what, clock);
}

/* "CPU portable code, 2 threads (measured)" */
static void title_of_cpu(elem *e, const char *impl)
{
    const char *what = !strcmp(impl, "cpu") || !strcmp(impl, "cpu-1t") ? "CPU portable code"
                       : !strcmp(impl, "aesni")                        ? "AES-NI"
                       : !strcmp(impl, "shani")                        ? "SHA-NI"
                       : !strcmp(impl, "ipsec-mb-multibuffer")         ? "ipsec-mb multi-buffer"
                                                                       : impl;
    char clock[sizeof e->p.clock];
    memcpy(clock, e->p.clock, sizeof clock);
    snprintf(e->title, sizeof e->title, "%s, %u thread%s (%s)", what, e->p.threads,
             e->p.threads == 1 ? "" : "s", clock);
}

static const char *kernel_title(const char *k)
{
    return !strcmp(k, "aes-128-ecb")                ? "AES-128 ECB"
           : !strcmp(k, "sha256")                   ? "SHA-256"
           : !strcmp(k, "aes-xts-encrypt-in-place") ? "AES-XTS encrypt in place"
           : !strcmp(k, "aes-xts-rekey-in-place")   ? "AES-XTS re-key in place"
           : !strcmp(k, "sha256-merkle-in-place")   ? "SHA-256 + Merkle in place"
                                                    : k;
}

static void fmt_bytes(char *out, size_t n, double b)
{
    if (b >= 1024.0 * 1024)
        snprintf(out, n, "%g MiB", b / (1024.0 * 1024));
    else if (b >= 1024)
        snprintf(out, n, "%g KiB", b / 1024);
    else
        snprintf(out, n, "%g B", b);
}

#define MAX_ELEMS 12

typedef struct {
    elem e[MAX_ELEMS];
    size_t n;
    char title[128];
    char xrange[64];   /* "[a:b]", or "" */
    double x0, x1;     /* the span of horizontal reference lines */
    const char *extra; /* further plot elements (a function), or NULL */
} panel;

/* ---- gnuplot ----------------------------------------------------------------------- */

typedef struct {
    gp_pipe pipe; /* the shared gnuplot module (plot/gnuplot.h) */
    FILE *g;      /* = pipe.g */
    int w, h;     /* canvas, pixels */
    int blocks;
} gp;

static int gp_open(gp *g, const char *dir, const char *name, int w, int h)
{
    char err[256];
    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    if (gp_begin(&g->pipe, dir, name, w, h, err, sizeof err) != 0) {
        cli_error("bench: %s", err);
        return -1;
    }
    g->g = g->pipe.g;
    return 0;
}

static int gp_close(gp *g, const char *dir, const char *name)
{
    char err[256];
    if (gp_end(&g->pipe, dir, name, err, sizeof err) != 0) {
        cli_error("bench: %s", err);
        return -1;
    }
    return 0;
}

/* The style of one plot element (without its title). */
static void gp_style(gp *g, const elem *e)
{
    int modeled = !strcmp(e->p.clock, "modeled");
    int total = !strcmp(e->st->name, "total") || !strncmp(e->st->name, "async-", 6);
    if (e->points) {
        fprintf(g->g, "with points lc rgb '%s' pt %d ps 2", e->st->rgb, e->st->pt);
        return;
    }
    fprintf(g->g, "with %s lc rgb '%s' lw %s dt %d", e->hline ? "lines" : "linespoints", e->st->rgb,
            total ? "2.5" : "1.5", modeled ? 1 : 2);
    if (!e->hline)
        fprintf(g->g, " pt %d ps 1.2", e->st->pt);
}

/* One panel: a data block per series, then the plot command; titled
 * entries only without a shared legend. */
static void gp_panel(gp *g, const panel *pn, int titles)
{
    int first = g->blocks;
    for (size_t i = 0; i < pn->n; i++) {
        const elem *e = &pn->e[i];
        fprintf(g->g, "$d%d << EOD\n", g->blocks++);
        if (e->hline)
            fprintf(g->g, "%.9g %.9g\n%.9g %.9g\n", pn->x0, e->p.y[0], pn->x1, e->p.y[0]);
        else
            for (size_t j = 0; j < e->p.n; j++)
                fprintf(g->g, "%.9g %.9g\n", e->p.x[j], e->p.y[j]);
        fputs("EOD\n", g->g);
    }
    fputs("set title ", g->g);
    gp_string(g->g, pn->title);
    fputc('\n', g->g);
    if (pn->xrange[0])
        fprintf(g->g, "set xrange %s\n", pn->xrange);
    if (pn->n == 0 && !pn->extra) {
        /* keep the panel's place, say why it is empty */
        fputs("set label 99 'no data in the CSV' at graph 0.5, 0.5 center\n"
              "plot 1e300 notitle\nunset label 99\n",
              g->g);
        return;
    }
    fputs("plot ", g->g);
    for (size_t i = 0; i < pn->n; i++) {
        fprintf(g->g, "%s$d%d ", i ? ", \\\n     " : "", first + (int)i);
        gp_style(g, &pn->e[i]);
        if (titles) {
            fputs(" title ", g->g);
            gp_string(g->g, pn->e[i].title);
        } else {
            fputs(" notitle", g->g);
        }
    }
    if (pn->extra)
        fprintf(g->g, "%s%s", pn->n ? ", \\\n     " : "", pn->extra);
    fputc('\n', g->g);
}

/*
 * A figure: a title, panels in a rows x cols grid, and (shared_legend) ONE
 * legend for all panels in a strip below them: series keep their style in
 * every panel, so one entry per style reads for all (the first panel's
 * title wins).  The legend's first column holds the PIM series (modeled),
 * the next ones the CPU series (measured).  Without a shared legend each
 * panel has its own key, placed by the caller.
 */
static void gp_figure(gp *g, const char *title, const panel *pn, size_t np, int rows, int cols,
                      int shared_legend)
{
    const elem *leg[32];
    size_t nl = 0, npim = 0, longest = 0;
    for (int pim = 1; pim >= 0; pim--) {
        for (size_t i = 0; shared_legend && i < np; i++) {
            for (size_t j = 0; j < pn[i].n && nl < 32; j++) {
                const elem *e = &pn[i].e[j];
                if ((strcmp(e->p.clock, "modeled") == 0) != pim)
                    continue;
                size_t k = 0;
                while (k < nl && leg[k]->st != e->st)
                    k++;
                if (k < nl)
                    continue;
                leg[nl++] = e;
                npim += pim;
                longest = strlen(e->title) > longest ? strlen(e->title) : longest;
            }
        }
    }
    /* legend columns: gnuplot reserves ~7.5 px per character at 9 pt plus
     * the line sample.  slot[] lists the entries column by column (NULL:
     * blank), the PIM ones alone in the first column when there is room. */
    size_t nother = nl - npim, lcols = (size_t)(g->w - 40) / ((size_t)(longest * 15 / 2) + 80);
    lcols = lcols < 1 ? 1 : lcols;
    const elem *slot[128]; /* <= 2 x 32 + padding */
    size_t ns = 0, lrows = nl;
    if (lcols >= 2 && npim && nother) {
        size_t per = (nother + lcols - 2) / (lcols - 1);
        lrows = npim > per ? npim : per;
        for (size_t i = 0; i < lrows; i++)
            slot[ns++] = i < npim ? leg[i] : NULL;
    } else if (lcols >= 2) {
        lrows = (nl + lcols - 1) / lcols;
        npim = 0;
    } else {
        npim = 0;
    }
    for (size_t i = npim; i < nl; i++)
        slot[ns++] = leg[i];
    while (lrows && ns % lrows) /* gnuplot fills as few rows as it can */
        slot[ns++] = NULL;
    lcols = lrows ? ns / lrows : 1;
    int strip = nl ? (int)lrows * 17 + 26 : 0;
    int lines = 1;
    for (const char *t = title; *t; t++)
        lines += *t == '\n';
    int top = 20 + 20 * lines;
    fputs("set multiplot title ", g->g);
    gp_string(g->g, title);
    fputs(" font ',12'\n", g->g);
    if (shared_legend)
        fputs("set key off\n", g->g);
    /* panel geometry in pixels: room for the y label and tics on the left,
     * the panel title above, the x label and tics below */
    double cw = (double)(g->w - 10) / cols, ch = (double)(g->h - top - strip) / rows;
    for (size_t i = 0; i < np; i++) {
        int r = (int)i / cols, c = (int)i % cols;
        double l = 5 + c * cw + 78, rt = 5 + (c + 1) * cw - 22;
        double t = top + r * ch + (r ? 40 : 26), b = top + (r + 1) * ch - 52;
        fprintf(g->g,
                "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
                "set tmargin at screen %.4f\nset bmargin at screen %.4f\n",
                l / g->w, rt / g->w, 1 - t / g->h, 1 - b / g->h);
        gp_panel(g, &pn[i], !shared_legend);
    }
    if (nl) {
        fprintf(g->g,
                "unset logscale\nunset border\nunset tics\nunset xlabel\nunset ylabel\n"
                "unset title\nunset grid\nunset arrow\nunset label\n"
                "set lmargin at screen 0.01\nset rmargin at screen 0.99\n"
                "set bmargin at screen %.4f\nset tmargin at screen %.4f\n"
                "set xrange [0:1]\nset yrange [0:1]\n"
                "set key on center center vertical maxrows %zu maxcols %zu\n",
                8.0 / g->h, (double)strip / g->h, lrows, lcols);
        fputs("plot ", g->g);
        for (size_t i = 0; i < ns; i++) {
            fputs(i ? ", \\\n     " : "", g->g);
            if (!slot[i]) {
                fputs("keyentry with lines lc rgb '#ffffff' title ' '", g->g);
                continue;
            }
            fputs("2 ", g->g);
            gp_style(g, slot[i]);
            fputs(" title ", g->g);
            gp_string(g->g, slot[i]->title);
        }
        fputc('\n', g->g);
    }
    fputs("unset multiplot\n", g->g);
}

/* The x range of a kernel's rows (all impls): [*x0, *x1]. */
static void x_range(const results *r, const char *kernel, int xcol, double *x0, double *x1)
{
    *x0 = 1e300;
    *x1 = -1e300;
    for (size_t i = 0; i < r->c.nrows; i++) {
        if (strcmp(cell(&r->c, i, r->kernel), kernel))
            continue;
        double x = num(&r->c, i, xcol);
        *x0 = x < *x0 ? x : *x0;
        *x1 = x > *x1 ? x : *x1;
    }
}

/* Adds a PIM series (mode NULL: any) to a panel if it has data. */
static void pim_elem(const results *r, panel *pn, const char *kernel, const char *mode,
                     const char *phase, int xcol, int ycol, const char *style_name,
                     const char *what)
{
    if (pn->n == MAX_ELEMS)
        return;
    elem *e = &pn->e[pn->n];
    collect(r, kernel, "pim", mode, phase, xcol, ycol, &e->p);
    if (e->p.n == 0)
        return;
    e->st = style_of(style_name);
    e->hline = e->points = 0;
    title_of_pim(e, what);
    pn->n++;
}

/* Adds the CPU series of a kernel (every impl but pim, in CSV order), phase
 * total; skip_portable leaves out cpu and cpu-1t (Fig. 7).  A single point
 * becomes a horizontal line when the panel spans more x (strong scaling:
 * the CPU runs the problem once, without DPUs). */
static void cpu_elems(const results *r, panel *pn, const char *kernel, int xcol, int skip_portable)
{
    const char *impls[16];
    size_t ni = distinct(r, r->impl, kernel, impls, 16);
    for (size_t i = 0; i < ni && pn->n < MAX_ELEMS; i++) {
        if (!strcmp(impls[i], "pim") ||
            (skip_portable && (!strcmp(impls[i], "cpu") || !strcmp(impls[i], "cpu-1t"))))
            continue;
        elem *e = &pn->e[pn->n];
        collect(r, kernel, impls[i], NULL, "total", xcol, r->time, &e->p);
        if (e->p.n == 0)
            continue;
        e->st = style_of(impls[i]);
        e->hline = e->p.n == 1 && pn->x0 < pn->x1;
        e->points = 0;
        title_of_cpu(e, impls[i]);
        pn->n++;
    }
}

/* ---- the experiments' plots --------------------------------------------------------- */

#define MAX_KERNELS 2

/* Figs. 4 and 5: one panel per kernel, time over DPUs, log-log. */
static void plot_scaling(gp *g, const results *r, int weak, panel *pn)
{
    static const char *const phases[] = {"cpu-dpu", "kernel", "dpu-cpu", "total"};
    static const char *const what[] = {"PIM CPU-DPU", "PIM DPU kernel", "PIM DPU-CPU", "PIM total"};
    const char *kernels[MAX_KERNELS];
    size_t nk = distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        x_range(r, kernels[k], r->dpus, &p->x0, &p->x1);
        for (size_t i = 0; i < 4; i++)
            pim_elem(r, p, kernels[k], NULL, phases[i], r->dpus, r->time, phases[i], what[i]);
        cpu_elems(r, p, kernels[k], r->dpus, 0);
        long f = first_row(r, kernels[k], NULL);
        char sz[32];
        fmt_bytes(sz, sizeof sz,
                  num(&r->c, (size_t)f, r->bytes) / (weak ? num(&r->c, (size_t)f, r->dpus) : 1));
        snprintf(p->title, sizeof p->title, "%s, %s%s", kernel_title(kernels[k]), sz,
                 weak ? " per DPU" : " in total");
        if (p->x0 < p->x1)
            snprintf(p->xrange, sizeof p->xrange, "[%g:%g]", p->x0, p->x1);
    }
    long p0 = first_row(r, kernels[0], "pim");
    char title[512], tl[32] = "";
    if (p0 >= 0)
        snprintf(tl, sizeof tl, ", %u tasklets", (unsigned)num(&r->c, (size_t)p0, r->tasklets));
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
    gp_figure(g, title, pn, nk, 1, (int)nk, 1);
}

/* Figs. 6 and 7: totals over ranks; the second row without the portable CPU
 * code, so the PIM modes and the hardware-instruction code can be told apart. */
static void plot_ranks(gp *g, const results *r, panel *pn, int fixed)
{
    const char *kernels[MAX_KERNELS];
    size_t nk = distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (int fig = 0; fig < 2; fig++) {
        for (size_t k = 0; k < nk; k++) {
            panel *p = &pn[(size_t)fig * nk + k];
            x_range(r, kernels[k], r->ranks, &p->x0, &p->x1);
            pim_elem(r, p, kernels[k], "async-xfer", "total", r->ranks, r->time, "async-xfer",
                     "PIM #1 async-xfer, total");
            pim_elem(r, p, kernels[k], "async-exec", "total", r->ranks, r->time, "async-exec",
                     "PIM #2 async-exec, total");
            pim_elem(r, p, kernels[k], "sync", "total", r->ranks, r->time, "sync",
                     "PIM sync, total");
            cpu_elems(r, p, kernels[k], r->ranks, fig == 1);
            long f = first_row(r, kernels[k], NULL);
            double rk = num(&r->c, (size_t)f, r->ranks);
            char sz[32];
            fmt_bytes(sz, sizeof sz, num(&r->c, (size_t)f, r->bytes) / (rk > 0 && !fixed ? rk : 1));
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
    long p0 = first_row(r, kernels[0], "pim");
    char title[512], per[64] = "";
    if (p0 >= 0 && num(&r->c, (size_t)p0, r->ranks) > 0)
        snprintf(per, sizeof per, " (%u DPUs per rank, %u tasklets)",
                 (unsigned)(num(&r->c, (size_t)p0, r->dpus) / num(&r->c, (size_t)p0, r->ranks)),
                 (unsigned)num(&r->c, (size_t)p0, r->tasklets));
    snprintf(title, sizeof title,
             "%s over ranks%s: PIM on the modeled clock (solid lines), CPU on the "
             "measured clock (dashed)\nthe CPU baselines process the same total bytes as the "
             "ranks at each point",
             fixed ? "Strong scaling (a fixed batch)" : "Weak scaling", per);
    fputs("set xlabel 'ranks'\nset ylabel 'time in seconds'\nset yrange [0:*]\n", g->g);
    gp_figure(g, title, pn, 2 * nk, 2, (int)nk, 1);
}

/* servers (issue 18): per kernel, time over servers -- one server's PIM
 * time, the network of each set-up and the totals -- log-log. */
static void plot_servers(gp *g, const results *r, panel *pn)
{
    const char *kernels[6]; /* through the bus: 2; resident in place: 3 */
    size_t nk = distinct(r, r->kernel, NULL, kernels, 6);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        x_range(r, kernels[k], r->ranks, &p->x0, &p->x1);
        pim_elem(r, p, kernels[k], "net-shared", "pim", r->ranks, r->time, "kernel",
                 "PIM of the slowest server");
        pim_elem(r, p, kernels[k], "net-shared", "network", r->ranks, r->time, "cpu-dpu",
                 "network, a link per server");
        pim_elem(r, p, kernels[k], "net-one-link", "network", r->ranks, r->time, "dpu-cpu",
                 "network, one link for all");
        pim_elem(r, p, kernels[k], "net-shared", "total", r->ranks, r->time, "total",
                 "run, a link per server");
        pim_elem(r, p, kernels[k], "net-one-link", "total", r->ranks, r->time, "async-exec",
                 "run, one link for all");
        long f = first_row(r, kernels[k], NULL);
        char sz[32];
        double rk = f >= 0 ? num(&r->c, (size_t)f, r->ranks) : 1;
        fmt_bytes(sz, sizeof sz, f >= 0 ? num(&r->c, (size_t)f, r->bytes) : 0);
        snprintf(p->title, sizeof p->title, "%s, %s per server of %g ranks",
                 kernel_title(kernels[k]), sz, rk);
    }
    fputs("set logscale x 2\nset logscale y\nset xlabel 'ranks in all (servers x ranks per "
          "server, log scale)'\nset ylabel 'time in seconds (log scale)'\n",
          g->g);
    gp_figure(g,
              "Servers: weak scaling over PIM servers with cryptopim-mpi's link model "
              "(modeled clock)\nrun = slowest server's PIM + network (no overlap)",
              pn, nk, nk > 3 ? 2 : 1, nk > 3 ? (int)(nk + 1) / 2 : (int)nk, 1);
}

/* issue 17 (exp_resident.c): throughput over ranks per operation, in place
 * vs through the bus (modeled) vs AES-NI / SHA-NI (measured, one line). */
static void plot_resident(gp *g, const results *r, panel *pn)
{
    const char *kernels[3];
    size_t nk = distinct(r, r->kernel, NULL, kernels, 3);
    const int tp = csv_col(&r->c, "throughput_GBps");
    if (tp < 0)
        return;
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        p->x0 = 1;
        p->x1 = 40;
        pim_elem(r, p, kernels[k], "in-place", "total", r->ranks, tp, "async-xfer",
                 "PIM in place, no data transfer");
        pim_elem(r, p, kernels[k], "async-exec", "total", r->ranks, tp, "async-exec",
                 "PIM through the bus (in, kernel, out)");
        const char *host[] = {"aesni", "shani"};
        for (int i = 0; i < 2 && p->n < MAX_ELEMS; i++) {
            elem *e = &p->e[p->n];
            collect(r, kernels[k], host[i], NULL, "total", r->ranks, tp, &e->p);
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
    gp_figure(g,
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
    collect(r, kernel, impl, mode, "kernel", xcol, ycol, &e->p);
    if (e->p.n == 0)
        return;
    e->st = style_of(st);
    e->hline = e->points = 0;
    title_of_pim(e, what);
    p->n++;
}

/* issue 17 (exp_tsme.c): slowdown of the TSME builds over tasklets (1 DPU,
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
    gp_panel(g, &pn[0], 1);
    gp_panel(g, &pn[1], 1);
    fputs("set xlabel 'engine cycles per 16-byte block'\nset ylabel 'overhead over plain (%, "
          "modeled)'\nset logscale xy\nset xrange [*:*]\nset xtics auto\n"
          "set yrange [0.001:1e7]\n",
          g->g);
    gp_panel(g, &pn[2], 1);
    fputs("unset multiplot\n", g->g);
}

/* Fig. 3: kernel speed-up over tasklets on one DPU, beside min(T, 11). */
static void plot_tasklets(gp *g, const results *r, panel *pn)
{
    const char *kernels[MAX_KERNELS];
    size_t nk = distinct(r, r->kernel, NULL, kernels, MAX_KERNELS);
    for (size_t k = 0; k < nk; k++) {
        panel *p = &pn[k];
        pim_elem(r, p, kernels[k], NULL, "kernel", r->tasklets, r->speedup, "kernel",
                 "PIM DPU kernel speed-up");
        long f = first_row(r, kernels[k], NULL);
        char sz[32];
        fmt_bytes(sz, sizeof sz, num(&r->c, (size_t)f, r->bytes));
        snprintf(p->title, sizeof p->title, "%s, %s, 1 DPU", kernel_title(kernels[k]), sz);
        snprintf(p->xrange, sizeof p->xrange, "[0:25]");
        p->extra = "(x <= 11 ? x : 11) with lines lw 2 dt 3 lc rgb '#808080' "
                   "title 'min(T, 11): the pipeline is full from 11 tasklets'";
    }
    fputs("set xlabel 'tasklets'\nset ylabel 'DPU kernel speed-up over 1 tasklet (modeled)'\n"
          "set yrange [0:14]\nset xtics 2\nset ytics 2\nset key inside top left\n",
          g->g);
    gp_figure(g, "Tasklet scaling on one DPU (modeled clock)", pn, nk, 1, (int)nk, 0);
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
        if (!strcmp(cell(&c, i, name), "host memory roof"))
            mem = num(&c, i, bw);
        else if (!strcmp(cell(&c, i, name), "host compute roof"))
            peak = num(&c, i, perf);
        threads = (unsigned)num(&c, i, thr);
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
        const char *nm = cell(&c, i, name), *cut = strstr(nm, " (DRAM bytes)");
        if (!cut)
            continue;
        elem *e = &p->e[p->n];
        memset(&e->p, 0, sizeof e->p);
        e->p.n = 1;
        e->p.x[0] = num(&c, i, in);
        e->p.y[0] = num(&c, i, perf);
        snprintf(e->p.clock, sizeof e->p.clock, "%s", cell(&c, i, clk));
        e->st = &st[p->n];
        e->hline = 0;
        e->points = 1;
        char k[32];
        snprintf(k, sizeof k, "%.*s", (int)(cut - nm), nm);
        snprintf(e->title, sizeof e->title,
                 "%s: %.1f ops/B (counted on the virtual DPU), %.2f GB/s (%s)", kernel_title(k),
                 num(&c, i, opb), num(&c, i, bw), cell(&c, i, clk));
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
    gp_figure(g, title, pn, 1, 1, 1, 0);
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
    int rc = pn ? gp_open(&g, dir, name, sizes[s].w, sizes[s].h) : -1;
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
        if (gp_close(&g, dir, name) != 0)
            rc = -1;
    }
    free(pn);
    if (!roofline)
        csv_free(&r.c);
    return rc;
}
