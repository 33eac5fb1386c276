/*
 * plot_csv.c -- the experiments' CSVs read back for their plots
 * (plot_parts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_parts.h"

/* ---- CSV ------------------------------------------------------------------------ */

void csv_free(csv *c)
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

int csv_read(csv *c, const char *path)
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

int csv_col(const csv *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (!strcmp(c->head[i], name))
            return (int)i;
    return -1;
}

const char *csv_cell(const csv *c, size_t r, int col)
{
    return c->cell[r * c->ncols + (size_t)col];
}

double csv_num(const csv *c, size_t r, int col)
{
    return strtod(csv_cell(c, r, col), NULL);
}

int results_read(results *r, const char *path)
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
size_t results_distinct(const results *r, int col, const char *kernel, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->c.nrows; i++) {
        if (kernel && strcmp(csv_cell(&r->c, i, r->kernel), kernel))
            continue;
        const char *v = csv_cell(&r->c, i, col);
        size_t j = 0;
        while (j < n && strcmp(out[j], v))
            j++;
        if (j == n && n < max)
            out[n++] = v;
    }
    return n;
}

/* First row of a kernel with the given impl (NULL: any); -1 if none. */
long results_first_row(const results *r, const char *kernel, const char *impl)
{
    for (size_t i = 0; i < r->c.nrows; i++)
        if (!strcmp(csv_cell(&r->c, i, r->kernel), kernel) &&
            (!impl || !strcmp(csv_cell(&r->c, i, r->impl), impl)))
            return (long)i;
    return -1;
}
