/*
 * timing.h -- the one timing module of cryptopim (measured clock).
 *
 * Everything in the project that measures wall time uses these, so that
 * every measured figure comes from the same monotonic clock.
 */
#ifndef CPIM_TIMING_H
#define CPIM_TIMING_H

/* Seconds from CLOCK_MONOTONIC; only differences are meaningful. */
double cpim_now(void);

#endif /* CPIM_TIMING_H */
