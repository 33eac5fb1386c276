/*
 * bench_plot.h -- the plots of `cryptopim bench`, drawn from the CSVs alone.
 *
 * The experiments (exp_*.c) write DIR/NAME.csv; bench_plot() reads that file
 * and nothing else, so `cryptopim bench --replot DIR` redraws committed
 * results without re-running an experiment.
 */
#ifndef CPIM_BENCH_PLOT_H
#define CPIM_BENCH_PLOT_H

/*
 * Draws DIR/NAME.png from DIR/NAME.csv with gnuplot.  NAME is one of the
 * experiments: roofline, tasklets, strong, weak, ranks.  Returns 0, or -1
 * with one error line printed (CSV unreadable or without the expected
 * columns, no data to plot, gnuplot missing or failing).
 */
int bench_plot(const char *dir, const char *name);

#endif
