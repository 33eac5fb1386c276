/*
 * plot_figure.c -- panels and figures written to gnuplot (plot_parts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_parts.h"

/* ---- gnuplot ----------------------------------------------------------------------- */

int fig_open(gp *g, const char *dir, const char *name, int w, int h)
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

int fig_close(gp *g, const char *dir, const char *name)
{
    char err[256];
    if (gp_end(&g->pipe, dir, name, err, sizeof err) != 0) {
        cli_error("bench: %s", err);
        return -1;
    }
    return 0;
}

/* The style of one plot element (without its title). */
void fig_style(gp *g, const elem *e)
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
void fig_panel(gp *g, const panel *pn, int titles)
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
        fig_style(g, &pn->e[i]);
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
void fig_draw(gp *g, const char *title, const panel *pn, size_t np, int rows, int cols,
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
        fig_panel(g, &pn[i], !shared_legend);
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
            fig_style(g, slot[i]);
            fputs(" title ", g->g);
            gp_string(g->g, slot[i]->title);
        }
        fputc('\n', g->g);
    }
    fputs("unset multiplot\n", g->g);
}

/* The x range of a kernel's rows (all impls): [*x0, *x1]. */
void fig_x_range(const results *r, const char *kernel, int xcol, double *x0, double *x1)
{
    *x0 = 1e300;
    *x1 = -1e300;
    for (size_t i = 0; i < r->c.nrows; i++) {
        if (strcmp(csv_cell(&r->c, i, r->kernel), kernel))
            continue;
        double x = csv_num(&r->c, i, xcol);
        *x0 = x < *x0 ? x : *x0;
        *x1 = x > *x1 ? x : *x1;
    }
}

/* Adds a PIM series (mode NULL: any) to a panel if it has data. */
void fig_pim_elem(const results *r, panel *pn, const char *kernel, const char *mode,
                  const char *phase, int xcol, int ycol, const char *style_name, const char *what)
{
    if (pn->n == MAX_ELEMS)
        return;
    elem *e = &pn->e[pn->n];
    series_collect(r, kernel, "pim", mode, phase, xcol, ycol, &e->p);
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
void fig_cpu_elems(const results *r, panel *pn, const char *kernel, int xcol, int skip_portable)
{
    const char *impls[16];
    size_t ni = results_distinct(r, r->impl, kernel, impls, 16);
    for (size_t i = 0; i < ni && pn->n < MAX_ELEMS; i++) {
        if (!strcmp(impls[i], "pim") ||
            (skip_portable && (!strcmp(impls[i], "cpu") || !strcmp(impls[i], "cpu-1t"))))
            continue;
        elem *e = &pn->e[pn->n];
        series_collect(r, kernel, impls[i], NULL, "total", xcol, r->time, &e->p);
        if (e->p.n == 0)
            continue;
        e->st = style_of(impls[i]);
        e->hline = e->p.n == 1 && pn->x0 < pn->x1;
        e->points = 0;
        title_of_cpu(e, impls[i]);
        pn->n++;
    }
}
