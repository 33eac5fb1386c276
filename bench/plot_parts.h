/*
 * plot_parts.h -- the pieces bench_plot.c draws the experiments' plots
 * with: the CSVs read back (plot_csv.c), series and their styles and
 * titles (plot_series.c), and panels and figures written to gnuplot
 * (plot_figure.c, over the shared plot/gnuplot.h).
 */
#ifndef CPIM_BENCH_PLOT_PARTS_H
#define CPIM_BENCH_PLOT_PARTS_H

#include <stddef.h>
#include <stdio.h>

#include "gnuplot.h"

#define CSV_MAX_COLS 24

typedef struct {
    char *text;  /* the file; cells are cut out of it in place */
    char **cell; /* nrows x ncols, row-major; "" where a row is short */
    size_t nrows, ncols;
    char *head[CSV_MAX_COLS];
} csv;

/* The long format of the experiments (exp.h). */
typedef struct {
    csv c;
    int kernel, impl, mode, ranks, dpus, tasklets, threads, bytes, phase, time, speedup, clock;
} results;

#define MAX_PTS 64

typedef struct {
    double x[MAX_PTS], y[MAX_PTS];
    size_t n;
    unsigned threads;
    char clock[16];
} pts;

/* Colour and marker per series name (a PIM phase, a PIM host mode, or a CPU
 * implementation), the same in every panel and plot. */
typedef struct {
    const char *name;
    const char *rgb;
    int pt;
} style;

typedef struct {
    pts p;
    char title[160];
    const style *st;
    int hline;  /* p.y[0] drawn across the panel's x range */
    int points; /* markers only (no line) */
} elem;

#define MAX_ELEMS 12

typedef struct {
    elem e[MAX_ELEMS];
    size_t n;
    char title[128];
    char xrange[64];   /* "[a:b]", or "" */
    double x0, x1;     /* the span of horizontal reference lines */
    const char *extra; /* further plot elements (a function), or NULL */
} panel;

typedef struct {
    gp_pipe pipe; /* the shared gnuplot module (plot/gnuplot.h) */
    FILE *g;      /* = pipe.g */
    int w, h;     /* canvas, pixels */
    int blocks;
} gp;

/* ---- CSV (plot_csv.c) ------------------------------------------------------------ */

/* Reads path whole: its header line names the columns.  0, or -1 (printed). */
int csv_read(csv *c, const char *path);
void csv_free(csv *c);
/* The column called name, or -1. */
int csv_col(const csv *c, const char *name);
/* Row r's cell of column col ("" where the row is short); as a number. */
const char *csv_cell(const csv *c, size_t r, int col);
double csv_num(const csv *c, size_t r, int col);
/* Reads an experiment's long-format CSV (exp.h) and finds its columns.
 * 0, or -1 (printed: unreadable, a column missing, no rows). */
int results_read(results *r, const char *path);
/* Distinct values of column col, in order of first appearance, among the
 * rows whose kernel is `kernel` (NULL: all rows).  Returns how many. */
size_t results_distinct(const results *r, int col, const char *kernel, const char **out,
                        size_t max);
/* First row of a kernel with the given impl (NULL: any); -1 if none. */
long results_first_row(const results *r, const char *kernel, const char *impl);

/* ---- series (plot_series.c) ------------------------------------------------------ */

/* The rows of one series (mode NULL: any), sorted by x. */
void series_collect(const results *r, const char *kernel, const char *impl, const char *mode,
                    const char *phase, int xcol, int ycol, pts *p);
/* The style of a series name (styles[]); a grey default for others. */
const style *style_of(const char *name);
/* "WHAT (clock)" */
void title_of_pim(elem *e, const char *what);
/* "CPU portable code, 2 threads (measured)" */
void title_of_cpu(elem *e, const char *impl);
/* A kernel's name as a title ("AES-128 ECB"), or the name itself. */
const char *kernel_title(const char *k);
/* "N MiB", "N KiB" or "N B". */
void fmt_bytes(char *out, size_t n, double b);

/* ---- panels and figures (plot_figure.c) -------------------------------------------- */

/* Starts DIR/NAME.png, w x h pixels.  0, or -1 (printed). */
int fig_open(gp *g, const char *dir, const char *name, int w, int h);
/* Finishes it.  0, or -1 (printed: gnuplot failed). */
int fig_close(gp *g, const char *dir, const char *name);
/* The style of one plot element (without its title). */
void fig_style(gp *g, const elem *e);
/* One panel: a data block per series, then the plot command; titled
 * entries only without a shared legend. */
void fig_panel(gp *g, const panel *pn, int titles);
/* A figure: a title, np panels in a rows x cols grid, and (shared_legend)
 * ONE legend for all panels in a strip below them. */
void fig_draw(gp *g, const char *title, const panel *pn, size_t np, int rows, int cols,
              int shared_legend);
/* The x range of a kernel's rows (all impls): [*x0, *x1]. */
void fig_x_range(const results *r, const char *kernel, int xcol, double *x0, double *x1);
/* Adds a PIM series (mode NULL: any) to a panel if it has data. */
void fig_pim_elem(const results *r, panel *pn, const char *kernel, const char *mode,
                  const char *phase, int xcol, int ycol, const char *style_name, const char *what);
/* Adds the CPU series of a kernel (every impl but pim, in CSV order), phase
 * total; skip_portable leaves out cpu and cpu-1t.  A single point becomes a
 * horizontal line when the panel spans more x. */
void fig_cpu_elems(const results *r, panel *pn, const char *kernel, int xcol, int skip_portable);

#endif /* CPIM_BENCH_PLOT_PARTS_H */
