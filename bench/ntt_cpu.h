/*
 * ntt_cpu.h -- the CPU side of the NTT measurements: one
 * function that times the batched negacyclic product or the forward NTT on
 * a CPU backend or on FLINT, used by `cryptopim speed`'s NTT rows
 * (speed_ntt in ntt_cpu.c) and by the DPU experiment (`bench --experiment
 * ntt`) for its CPU baselines measured in the same run.  Every time here is
 * on the measured clock (wall time of this machine, cpim_now).
 */
#ifndef CPIM_BENCH_NTT_CPU_H
#define CPIM_BENCH_NTT_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"

typedef enum { NTT_CPU_POLYMUL, NTT_CPU_FORWARD } ntt_cpu_op;

typedef struct ntt_cpu_result {
    double seconds;  /* best run (measured), the whole batch */
    double per_us;   /* seconds / (count * nmod) in microseconds: one polynomial
                      * product (or one NTT) of one limb */
    unsigned runs;   /* runs timed after the warm-up */
    uint64_t digest; /* FNV-1a of the output: equal outputs, equal digests */
} ntt_cpu_result;

/* 1 when FLINT was compiled in (the subject "flint"). */
int ntt_cpu_have_flint(void);

/* Times `op` on `subject` -- a backend name (opened with `threads` host
 * threads, 0 = all cores) or "flint" (one thread; NTT_CPU_POLYMUL only:
 * nmod_poly_mul then the reduction mod X^N + 1) -- on `count` seeded random
 * polynomials of the ring (n, moduli): one warm-up run, then runs until
 * min_time seconds and min_runs runs.  Returns CPIM_OK, CPIM_ERR_UNSUPPORTED
 * (the subject lacks the op: nothing timed) or another error. */
cpim_err ntt_cpu_measure(const char *subject, ntt_cpu_op op, size_t n, const uint64_t *moduli,
                         size_t nmod, size_t count, unsigned threads, double min_time,
                         unsigned min_runs, ntt_cpu_result *res);

/* `cryptopim speed`'s NTT rows (speed.c's format: csv or table) for the
 * backends `names`, one thread each, and FLINT; quick: tiny sizes (tests).
 * Returns 1 if an output differed from the cpu backend's or a call failed. */
int speed_ntt(const char *const *names, size_t nnames, int csv, int quick);

#endif /* CPIM_BENCH_NTT_CPU_H */
