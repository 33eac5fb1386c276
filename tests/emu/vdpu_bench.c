/* vdpu_bench.c -- measured speed of the virtual DPU interpreter (simulated
 * instructions per second on one host core), timed and fast modes, fast
 * both interpreted and translated to host code (vdpuJit).
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
    /* timed (translated run-ahead, steady-state skipping), timed
     * interpreted (vdpuJit=0), timed without the skipping either (the
     * baselines of the same run, which must give the same cycles), fast
     * interpreted (vdpuJit=0: the baseline of the translated run, which must
     * give the same instructions, slots and WRAM), fast translated */
    static const struct {
        const char *name;
        vdpu_mode_t mode;
        uint32_t skip, jit;
    } modes[5] = {{"timed", VDPU_MODE_TIMED, 1, 1},
                  {"timed-interp", VDPU_MODE_TIMED, 1, 0},
                  {"timed-noskip", VDPU_MODE_TIMED, 0, 0},
                  {"fast-interp", VDPU_MODE_FAST, 1, 0},
                  {"fast", VDPU_MODE_FAST, 1, 1}};
    uint32_t iters = 8, fast_iters = 8;
    uint64_t timed_cycles = 0, interp_insns = 0, interp_slots = 0;
    double interp_cpu = 0, timed_cpu = 0;
    static uint8_t wram_interp[VDPU_WRAM_SIZE], wram_jit[VDPU_WRAM_SIZE];
    double timed_interp_cpu = 0;
    uint64_t timed_insns = 0;
    for (int m = 0; m < 5; m++) {
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.mode = modes[m].mode;
        prm.skip_steady = modes[m].skip;
        prm.jit = modes[m].jit;
        const int fast = prm.mode == VDPU_MODE_FAST;
        vdpu_t *d;
        if (vdpu_create(&prm, &d) || vdpu_load(d, p))
            return 1;
        vdpu_result_t r;
        for (;;) {
            /* the first mode of each clock sizes the runs of that clock */
            uint32_t *n = fast ? &fast_iters : &iters;
            if (vdpu_load(d, p))
                return 1;
            vdpu_wram_write(d, it.offset, n, 4);
            double t0 = now_s(), c0 = cpu_s();
            vdpu_run(d, &r);
            double dt = now_s() - t0, dc = cpu_s() - c0;
            if (r.status != VDPU_STATUS_DONE) {
                fprintf(stderr, "vdpu-bench: fault: %s\n", r.fault_msg);
                return 1;
            }
            if ((m == 0 || m == 3) && dc < 0.5) {
                *n *= 2;
                continue;
            }
            printf("  %-12s %llu instructions: %.3f s wall = %.1f M/s, %.3f s CPU = %.1f M "
                   "simulated instructions/s (measured)",
                   modes[m].name, (unsigned long long)r.instructions, dt,
                   (double)r.instructions / dt / 1e6, dc, (double)r.instructions / dc / 1e6);
            if (!fast)
                printf("; modeled %llu DPU cycles = %.3f ms at %.0f MHz",
                       (unsigned long long)r.cycles, (double)r.cycles / prm.clock_mhz / 1e3,
                       prm.clock_mhz);
            if (m == 4 && interp_cpu > 0 && dc > 0)
                printf("; %.2fx the interpreter (CPU time)",
                       ((double)r.instructions / dc) / ((double)interp_insns / interp_cpu));
            if (m == 1)
                timed_interp_cpu = dc;
            if (m == 1 && timed_interp_cpu > 0 && dc > 0)
                printf("; timed translated: %.2fx this (CPU time)",
                       ((double)timed_insns / timed_cpu) / ((double)r.instructions / dc));
            printf("\n");
            if (m == 0) {
                timed_cycles = r.cycles;
                timed_insns = r.instructions;
                timed_cpu = dc;
            } else if (!fast && (r.cycles != timed_cycles || r.instructions != timed_insns)) {
                fprintf(stderr,
                        "vdpu-bench: the translation or the skipping changed the modeled cycles "
                        "(%llu vs %llu)\n",
                        (unsigned long long)timed_cycles, (unsigned long long)r.cycles);
                return 1;
            }
            if (m == 3) {
                interp_insns = r.instructions;
                interp_slots = r.slots;
                interp_cpu = dc;
                vdpu_wram_read(d, 0, wram_interp, VDPU_WRAM_SIZE);
            } else if (m == 4) {
                vdpu_wram_read(d, 0, wram_jit, VDPU_WRAM_SIZE);
                if (r.instructions != interp_insns || r.slots != interp_slots ||
                    memcmp(wram_interp, wram_jit, VDPU_WRAM_SIZE)) {
                    fprintf(stderr,
                            "vdpu-bench: the translation changed the run (%llu vs %llu "
                            "instructions, or WRAM)\n",
                            (unsigned long long)r.instructions, (unsigned long long)interp_insns);
                    return 1;
                }
            }
            break;
        }
        vdpu_free(d);
    }
    vdpu_program_free(p);
    return 0;
}
