/* vprof_bench.c -- what the profiler costs: the measured host CPU time of
 * runs of a DPU program with the profiler on, over the same runs with it
 * off, in the same process (a ratio, so the machine's speed and load cancel
 * out as far as they can). The goal (docs/PROFILING.md) is a ratio <= 2.
 * usage: vprof-bench [prog.elf SYMBOL VALUE]
 * Default: tests/emu/progs/bench_loop.c (WRAM loads and stores between ALU
 * runs, 16 tasklets) and stream.c (2 KiB DMAs), built through
 * emu/bin/dpu-upmem-dpurte-clang; run from the repository root. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vdpu.h"
#include "vprof.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* measured CPU seconds of `reps` runs (the best of 3 rounds) */
static double time_runs(vdpu_t *d, int reps, uint64_t *cycles)
{
    double best = 1e30;
    for (int round = 0; round < 3; round++) {
        double t0 = cpu_s();
        vdpu_result_t r;
        for (int i = 0; i < reps; i++)
            vdpu_run(d, &r);
        double t = cpu_s() - t0;
        if (t < best)
            best = t;
        *cycles = r.cycles;
    }
    return best;
}

static int bench(const char *elf, const char *sym, uint32_t val)
{
    char msg[256];
    vdpu_program_t *p;
    if (vdpu_program_load_file(elf, &p, msg, sizeof msg)) {
        fprintf(stderr, "vprof-bench: %s: %s\n", elf, msg);
        return 1;
    }
    vdpu_t *d;
    vdpu_symbol_t s;
    if (vdpu_create(NULL, &d) || vdpu_load(d, p) || vdpu_program_symbol(p, sym, &s) ||
        vdpu_wram_write(d, s.offset, &val, sizeof val)) {
        fprintf(stderr, "vprof-bench: %s: cannot load, or no symbol %s\n", elf, sym);
        return 1;
    }
    uint64_t c_off, c_on;
    const int reps = 3;
    double off = time_runs(d, reps, &c_off);
    if (vdpu_profile_enable(d, 1)) {
        fprintf(stderr, "vprof-bench: cannot enable the profiler\n");
        return 1;
    }
    double on = time_runs(d, reps, &c_on);
    printf("%-40s off %7.3f s  on %7.3f s  ratio %.2f (measured CPU time, best of 3 rounds of "
           "%d runs; modeled cycles %llu / %llu)\n",
           elf, off, on, on / off, reps, (unsigned long long)c_off, (unsigned long long)c_on);
    vdpu_free(d);
    vdpu_program_free(p);
    return c_off != c_on;
}

int main(int argc, char **argv)
{
    if (argc == 4)
        return bench(argv[1], argv[2], (uint32_t)strtoul(argv[3], NULL, 0));
    if (argc != 1) {
        fprintf(stderr, "usage: vprof-bench [prog.elf SYMBOL VALUE]\n");
        return 2;
    }
    if (system("mkdir -p build/emu && sh emu/bin/dpu-upmem-dpurte-clang -O2 -DNR_TASKLETS=16 "
               "-o build/emu/vprof_loop.elf tests/emu/progs/bench_loop.c && "
               "sh emu/bin/dpu-upmem-dpurte-clang -O2 -DNR_TASKLETS=16 "
               "-o build/emu/vprof_stream.elf tests/emu/progs/stream.c") != 0) {
        fprintf(stderr, "vprof-bench: cannot build the programs (run from the repo root)\n");
        return 1;
    }
    return bench("build/emu/vprof_loop.elf", "iterations", 200) |
           bench("build/emu/vprof_stream.elf", "total_bytes", 48u << 20);
}
