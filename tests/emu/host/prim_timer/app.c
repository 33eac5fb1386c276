/*
 * tests/emu/host/prim_timer/app.c -- a host program timed as PrIM times
 * itself (support/timer.h: gettimeofday around each step), built with
 * dpu-pkg-config and run by tests/emu/host/modeled_time.sh after
 * `. emu/upmem_env.sh --modeled-time`: nothing in it asks for the modeled
 * clock, so its timers print modeled times only through the environment.
 *
 * Prints, per step, the timer's milliseconds and (virtual UPMEM only) the
 * modeled phase time and the host work of <dpu_emu.h> around the step;
 * exits 1 unless timer - phase is in [-1 us, host work + 1 us] for each
 * (gettimeofday has 1 us steps).
 *
 * Usage: app basic.dpu
 */
#define _DEFAULT_SOURCE
#include <dpu.h>
#include <stdio.h>
#include <sys/time.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#define N 2048

typedef struct {
    struct timeval startTime[4], stopTime[4];
    double time[4];
} Timer;

static void start(Timer *t, int i)
{
    t->time[i] = 0.0;
    gettimeofday(&t->startTime[i], NULL);
}

static void stop(Timer *t, int i)
{
    gettimeofday(&t->stopTime[i], NULL);
    t->time[i] += (t->stopTime[i].tv_sec - t->startTime[i].tv_sec) * 1000000.0 +
                  (t->stopTime[i].tv_usec - t->startTime[i].tv_usec);
}

static uint64_t in[4][N], out[4][N];

int main(int argc, char **argv)
{
    struct dpu_set_t set, dpu;
    uint32_t i, n = N;
    if (argc != 2 || dpu_alloc(4, NULL, &set) != DPU_OK || dpu_load(set, argv[1], NULL) != DPU_OK)
        return 2;
    for (int d = 0; d < 4; d++)
        for (int k = 0; k < N; k++)
            in[d][k] = (uint64_t)(d * N + k);
    DPU_ASSERT(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    Timer t;
    int bad = 0;
    static const char *const names[4] = {"", "CPU-DPU", "DPU Kernel", "DPU-CPU"};
    for (int step = 1; step <= 3; step++) {
#ifdef DPU_EMU
        dpu_emu_stats_t s0, s1;
        dpu_emu_get_stats(&s0);
#endif
        start(&t, step);
        if (step == 1) {
            DPU_FOREACH (set, dpu, i)
                DPU_ASSERT(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in[i], sizeof in[i]));
        } else if (step == 2) {
            DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
        } else {
            DPU_FOREACH (set, dpu, i)
                DPU_ASSERT(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0], out[i],
                                         sizeof out[i]));
        }
        stop(&t, step);
        printf("%s Time (ms): %f", names[step], t.time[step] / 1000);
#ifdef DPU_EMU
        dpu_emu_get_stats(&s1);
        static const dpu_emu_phase_t ph[4] = {0, DPU_EMU_PHASE_CPU_DPU, DPU_EMU_PHASE_KERNEL,
                                              DPU_EMU_PHASE_DPU_CPU};
        double want = (s1.phase[ph[step]] - s0.phase[ph[step]]) * 1e6;
        double hw = (s1.host_work - s0.host_work) * 1e6, got = t.time[step];
        printf("\tmodeled phase (ms): %f\thost work (ms): %f", want / 1000, hw / 1000);
        if (got < want - 1.001 || got > want + hw + 1.001) {
            printf("\tMISMATCH");
            bad = 1;
        }
#endif
        printf("\n");
    }
    for (int d = 0; d < 4; d++)
        if (out[d][7] != in[d][7] * 2)
            bad = 1;
    dpu_free(set);
    return bad;
}
