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
int cmd_bench(int argc, char **argv);     /* bench.c: the study's experiments (exp_*.c) */
int cmd_benchmark(int argc, char **argv); /* benchmark.c: the cryptsetup-benchmark table */
int cmd_dudect(int argc, char **argv);    /* dudect.c: timing test of the host AES */

#endif /* CPIM_BENCH_H */
