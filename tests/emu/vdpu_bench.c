/* vdpu_bench.c -- measured speed of the virtual DPU interpreter (simulated
 * instructions per second on one host core), timed and fast modes.
 * usage: vdpu-bench [prog.elf]   (default: builds tests/emu/progs/bench_loop.c
 * with 16 tasklets via emu/bin/dpu-upmem-dpurte-clang; run from the repo root) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vdpu.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *elf = "build/emu/bench_loop.elf";
    if (argc > 1) {
        elf = argv[1];
    } else if (system(
                   "mkdir -p build/emu && sh emu/bin/dpu-upmem-dpurte-clang -O2 -DNR_TASKLETS=16 "
                   "-o build/emu/bench_loop.elf tests/emu/progs/bench_loop.c") != 0) {
        fprintf(stderr,
                "vdpu-bench: cannot build the benchmark program (run from the repo root)\n");
        return 1;
    }
    char msg[256];
    vdpu_program_t *p;
    if (vdpu_program_load_file(elf, &p, msg, sizeof msg)) {
        fprintf(stderr, "vdpu-bench: %s\n", msg);
        return 1;
    }
    vdpu_symbol_t it;
    if (vdpu_program_symbol(p, "iterations", &it)) {
        fprintf(stderr, "vdpu-bench: program has no 'iterations' symbol\n");
        return 1;
    }
    printf("vdpu-bench: %s, %u tasklets (measured on this machine, 1 host core: wall time and "
           "the thread's CPU time, which a shared machine disturbs less)\n",
           elf, vdpu_program_nr_tasklets(p));
    /* timed, timed without steady-state skipping (the baseline of the same
     * run, and a check that both give the same cycles), fast */
    static const char *const names[3] = {"timed", "timed-noskip", "fast"};
    uint32_t iters = 8;
    uint64_t timed_cycles = 0;
    for (int m = 0; m < 3; m++) {
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.mode = m == 2 ? VDPU_MODE_FAST : VDPU_MODE_TIMED;
        prm.skip_steady = m == 0;
        vdpu_t *d;
        if (vdpu_create(&prm, &d) || vdpu_load(d, p))
            return 1;
        vdpu_result_t r;
        for (;;) {
            vdpu_wram_write(d, it.offset, &iters, 4);
            double t0 = now_s(), c0 = cpu_s();
            vdpu_run(d, &r);
            double dt = now_s() - t0, dc = cpu_s() - c0;
            if (r.status != VDPU_STATUS_DONE) {
                fprintf(stderr, "vdpu-bench: fault: %s\n", r.fault_msg);
                return 1;
            }
            if (m == 0 && dc < 0.5) { /* the first mode sizes the run for all */
                iters *= 2;
                continue;
            }
            printf("  %-12s %llu instructions: %.3f s wall = %.1f M/s, %.3f s CPU = %.1f M "
                   "simulated instructions/s (measured)",
                   names[m], (unsigned long long)r.instructions, dt,
                   (double)r.instructions / dt / 1e6, dc, (double)r.instructions / dc / 1e6);
            if (m < 2)
                printf("; modeled %llu DPU cycles = %.3f ms at %.0f MHz",
                       (unsigned long long)r.cycles, (double)r.cycles / prm.clock_mhz / 1e3,
                       prm.clock_mhz);
            printf("\n");
            if (m == 0)
                timed_cycles = r.cycles;
            else if (m == 1 && r.cycles != timed_cycles) {
                fprintf(stderr, "vdpu-bench: skipping changed the modeled cycles (%llu vs %llu)\n",
                        (unsigned long long)timed_cycles, (unsigned long long)r.cycles);
                return 1;
            }
            break;
        }
        vdpu_free(d);
    }
    vdpu_program_free(p);
    return 0;
}
