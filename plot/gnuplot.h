/*
 * gnuplot.h -- the one plotting module: a gnuplot pipe with the project's
 * look, shared by the experiments (bench/bench_plot.c) and the model
 * validation (emu/validate/).  It knows nothing but stdio and gnuplot, so
 * any layer may use it.
 *
 *   gp_pipe p;
 *   if (gp_begin(&p, dir, name, 960, 580, err, sizeof err) == 0) {
 *       fprintf(p.g, "plot ...\n");
 *       gp_end(&p, err, sizeof err);
 *   }
 *
 * gp_begin sets the terminal (PNG, w x h), the output DIR/NAME.png, the
 * grid, plain number formats and the legend box every plot uses; the
 * caller writes the rest.  While the pipe is open a gnuplot that exits
 * early makes a write fail instead of killing the process (SIGPIPE).
 */
#ifndef CPIM_GNUPLOT_H
#define CPIM_GNUPLOT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

typedef struct gp_pipe {
    FILE *g;
    struct sigaction old_pipe;
} gp_pipe;

/* Is gnuplot on PATH? */
int gp_available(void);

/* 0, or -1 with the reason in err (no gnuplot, a quote in DIR, ...). */
int gp_begin(gp_pipe *p, const char *dir, const char *name, int w, int h, char *err, size_t errlen);
/* Closes the pipe: 0 if gnuplot succeeded, else -1 and the reason. */
int gp_end(gp_pipe *p, const char *dir, const char *name, char *err, size_t errlen);

/* Writes s as a gnuplot string (line breaks as \n, quotes made harmless). */
void gp_string(FILE *g, const char *s);

#endif /* CPIM_GNUPLOT_H */
