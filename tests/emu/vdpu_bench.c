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
    printf("vdpu-bench: %s, %u tasklets (measured on this machine, wall time, 1 host core)\n", elf,
           vdpu_program_nr_tasklets(p));
    for (int m = 0; m < 2; m++) {
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.mode = m == 0 ? VDPU_MODE_TIMED : VDPU_MODE_FAST;
        vdpu_t *d;
        if (vdpu_create(&prm, &d) || vdpu_load(d, p))
            return 1;
        uint32_t iters = 8;
        double best = 0;
        vdpu_result_t r;
        for (;;) {
            vdpu_wram_write(d, it.offset, &iters, 4);
            double t0 = now_s();
            vdpu_run(d, &r);
            double dt = now_s() - t0;
            if (r.status != VDPU_STATUS_DONE) {
                fprintf(stderr, "vdpu-bench: fault: %s\n", r.fault_msg);
                return 1;
            }
            if (dt < 0.5) {
                iters *= 2;
                continue;
            }
            best = (double)r.instructions / dt;
            printf("  %-6s mode: %llu instructions in %.3f s = %.1f M simulated instructions/s "
                   "(measured)",
                   m == 0 ? "timed" : "fast", (unsigned long long)r.instructions, dt, best / 1e6);
            if (m == 0)
                printf("; modeled %llu DPU cycles = %.3f ms at %.0f MHz, IPC %.3f",
                       (unsigned long long)r.cycles, (double)r.cycles / prm.clock_mhz / 1e3,
                       prm.clock_mhz, (double)r.slots / (double)r.cycles);
            printf("\n");
            break;
        }
        vdpu_free(d);
    }
    vdpu_program_free(p);
    return 0;
}
