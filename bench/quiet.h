/*
 * quiet.h -- parallel jobs of `make bench` (bench.mk) share the host's cores
 * with the measured CPU baselines: a baseline must not run beside a
 * simulation (or another baseline), or its wall time measures the other
 * job.  With CRYPTOPIM_BENCH_LOCK=PATH in the environment, every process of
 * the run holds the file PATH shared while it works and exclusively while
 * it measures; PATH.gate keeps a waiting measurement from being starved by
 * the others' shared holds.  Without the variable every call is a no-op.
 *
 *   bench_quiet_init()   at the start of a command: takes PATH shared
 *   bench_quiet_yield()  between two units of simulation (a pim call): lets
 *                        a waiting measurement in, then takes PATH shared
 *                        again
 *   bench_quiet_begin()  before a measured section: waits until no other
 *                        process works (PATH exclusive); nests
 *   bench_quiet_end()    after it: back to shared
 *   bench_quiet_waited() seconds of wall time this process spent waiting
 *                        for the lock so far (measured; its core idle)
 *
 * Other programs of the run hold the same lock with flock(1): shared for a
 * simulation only (validate, ntt-compare), exclusive for one with measured
 * rows (asap).  A lock that cannot be opened or taken is reported once and
 * the run goes on unlocked: the lock only protects the measured rows'
 * quality, never a result.
 */
#ifndef CPIM_BENCH_QUIET_H
#define CPIM_BENCH_QUIET_H

void bench_quiet_init(void);
void bench_quiet_yield(void);
void bench_quiet_begin(void);
void bench_quiet_end(void);
double bench_quiet_waited(void);

#endif /* CPIM_BENCH_QUIET_H */
