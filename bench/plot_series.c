/*
 * plot_series.c -- the series of a plot, their styles and titles
 * (plot_parts.h): one style per series name in every panel of every plot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_parts.h"

/* ---- series ---------------------------------------------------------------------- */

/* The rows of one series (mode NULL: any), sorted by x. */
void series_collect(const results *r, const char *kernel, const char *impl, const char *mode,
                    const char *phase, int xcol, int ycol, pts *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < r->c.nrows && p->n < MAX_PTS; i++) {
        if (strcmp(csv_cell(&r->c, i, r->kernel), kernel) ||
            strcmp(csv_cell(&r->c, i, r->impl), impl) ||
            (mode && strcmp(csv_cell(&r->c, i, r->mode), mode)) ||
            strcmp(csv_cell(&r->c, i, r->phase), phase))
            continue;
        double x = csv_num(&r->c, i, xcol), y = csv_num(&r->c, i, ycol);
        size_t j = p->n++;
        for (; j > 0 && p->x[j - 1] > x; j--) {
            p->x[j] = p->x[j - 1];
            p->y[j] = p->y[j - 1];
        }
        p->x[j] = x;
        p->y[j] = y;
        p->threads = (unsigned)csv_num(&r->c, i, r->threads);
        snprintf(p->clock, sizeof p->clock, "%s", csv_cell(&r->c, i, r->clock));
    }
}

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
    /* tsme: kernels, the what-if's engines, the seed's SME */
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

const style *style_of(const char *name)
{
    static const style other = {"", "#808080", 3};
    for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++)
        if (!strcmp(styles[i].name, name))
            return &styles[i];
    return &other;
}

void title_of_pim(elem *e, const char *what)
{
    char clock[sizeof e->p.clock];
    memcpy(clock, e->p.clock, sizeof clock); /* gcc: -Wrestrict on the same struct */
    snprintf(e->title, sizeof e->title, "%s (%s)", what, clock);
}

/* "CPU portable code, 2 threads (measured)" */
void title_of_cpu(elem *e, const char *impl)
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

const char *kernel_title(const char *k)
{
    return !strcmp(k, "aes-128-ecb")                ? "AES-128 ECB"
           : !strcmp(k, "sha256")                   ? "SHA-256"
           : !strcmp(k, "aes-xts-encrypt-in-place") ? "AES-XTS encrypt in place"
           : !strcmp(k, "aes-xts-rekey-in-place")   ? "AES-XTS re-key in place"
           : !strcmp(k, "sha256-merkle-in-place")   ? "SHA-256 + Merkle in place"
                                                    : k;
}

void fmt_bytes(char *out, size_t n, double b)
{
    if (b >= 1024.0 * 1024)
        snprintf(out, n, "%g MiB", b / (1024.0 * 1024));
    else if (b >= 1024)
        snprintf(out, n, "%g KiB", b / 1024);
    else
        snprintf(out, n, "%g B", b);
}
