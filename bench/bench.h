/*
 * bench.h -- the experiment suite's commands (bench/), run by the
 * `cryptopim-bench` program (bench/main.c), which `cryptopim speed`,
 * `cryptopim study` and `cryptopim bench` hand over to.
 *
 * bench/ sees the public API (include/) and the CLI's option scanner and
 * error conventions (tools/cli.h), nothing of the library's inside.
 */
#ifndef CPIM_BENCH_H
#define CPIM_BENCH_H

int cmd_speed(int argc, char **argv);     /* speed.c: throughput, --compare with OpenSSL/ipsec-mb */
int cmd_study(int argc, char **argv);     /* study.c: the main job (`make run`) */
int cmd_bench(int argc, char **argv);     /* bench.c: the study's experiments */
int cmd_benchmark(int argc, char **argv); /* benchmark.c: the cryptsetup-benchmark table */
int cmd_dudect(int argc, char **argv);    /* dudect.c: timing test of the host AES (issue 19) */

/* exp_resident.c (issue 17): `--experiment resident`, rows in bench.c's
 * long CSV schema. */
#include <stdio.h>
typedef struct bench_exp_env {
    FILE *csv;
    const char *exp;     /* experiment name (first column) */
    const char *profile; /* virtual UPMEM profile (NULL on real hardware) */
    const char *machine; /* the machine column of modeled rows */
    int quick;
    int sampled; /* timing-only runs, one DPU per rank simulated */
} bench_exp_env;
int bench_exp_resident(const bench_exp_env *e);
/* exp_tsme.c (issue 17): `--experiment tsme`, its own header (the long
 * schema plus the what-if's columns). */
int bench_exp_tsme(const bench_exp_env *e);
/* One server of `ranks` ranks with `per` bytes resident on each DPU: the
 * modeled totals of an in-place XTS encryption, re-key and SHA-256 + Merkle
 * root (t[0..2], seconds), its DPUs and bytes (exp_resident.c; the servers
 * experiment's in-place rows).  0, or -1 (printed). */
int bench_resident_server(const bench_exp_env *e, unsigned ranks, size_t per, double t[3],
                          unsigned *dpus, size_t *bytes);

#endif /* CPIM_BENCH_H */
