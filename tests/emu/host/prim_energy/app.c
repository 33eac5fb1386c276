/*
 * tests/emu/host/prim_energy/app.c -- a host program measuring energy as
 * PrIM does when built with ENERGY=1 (#include <dpu_probe.h>, a probe
 * around each synchronous launch, dpu_probe_get with DPU_ACCUMULATE and
 * DPU_AVERAGE for DPU_ENERGY and DPU_TIME), built with dpu-pkg-config by
 * tests/emu/host/modeled_time.sh, as `-DENERGY=1` and without.
 *
 * On the virtual UPMEM the probe's figures are modeled; the program checks
 * them against <dpu_emu.h> (the power model's energy and the modeled clock
 * around the same windows) and exits 1 if they differ. Run it with
 * UPMEM_PROFILE=hostClock=none (no host work in the windows).
 *
 * Usage: app basic.dpu
 */
#include <dpu.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#ifndef ENERGY
#define ENERGY 0
#endif
#if ENERGY
#include <dpu_probe.h>
#endif
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#define N     2048
#define NREPS 3

int main(int argc, char **argv)
{
    static uint64_t in[N];
    struct dpu_set_t set, dpu;
    uint32_t n = N, nr_dpus;
    if (argc != 2) {
        fprintf(stderr, "usage: app basic.dpu\n");
        return 2;
    }
    for (uint32_t i = 0; i < N; i++)
        in[i] = i;
    DPU_ASSERT(dpu_alloc(4, NULL, &set));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));
    DPU_ASSERT(dpu_load(set, argv[1], NULL));
#if ENERGY
    struct dpu_probe_t probe;
    DPU_ASSERT(dpu_probe_init("energy_probe", &probe));
#endif
    int bad = 0;
    double want_e = 0, want_t = 0;
    for (int rep = 0; rep < NREPS; rep++) {
        DPU_ASSERT(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
        DPU_FOREACH (set, dpu)
            DPU_ASSERT(dpu_prepare_xfer(dpu, in));
        DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in,
                                 DPU_XFER_DEFAULT));
#ifdef DPU_EMU
        dpu_emu_stats_t s0, s1;
        dpu_emu_get_stats(&s0);
#endif
#if ENERGY
        DPU_ASSERT(dpu_probe_start(&probe));
#endif
        DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
#if ENERGY
        DPU_ASSERT(dpu_probe_stop(&probe));
#endif
#ifdef DPU_EMU
        dpu_emu_get_stats(&s1);
        want_e += s1.energy - s0.energy;
        want_t += s1.host_time - s0.host_time;
#endif
    }
#if ENERGY
    double acc_energy, avg_energy, acc_time, avg_time;
    DPU_ASSERT(dpu_probe_get(&probe, DPU_ENERGY, DPU_ACCUMULATE, &acc_energy));
    DPU_ASSERT(dpu_probe_get(&probe, DPU_ENERGY, DPU_AVERAGE, &avg_energy));
    DPU_ASSERT(dpu_probe_get(&probe, DPU_TIME, DPU_ACCUMULATE, &acc_time));
    DPU_ASSERT(dpu_probe_get(&probe, DPU_TIME, DPU_AVERAGE, &avg_time));
    printf("DPU Energy (J): %g (modeled), average %g J; time %g s, average %g s (modeled)\n",
           acc_energy, avg_energy, acc_time, avg_time);
#ifdef DPU_EMU
    /* run with UPMEM_PROFILE=hostClock=none: no host work, so the probe's
     * windows are exactly those of the <dpu_emu.h> readings */
    if (!(acc_energy > 0 && acc_time > 0) || fabs(acc_energy - want_e) > 1e-9 * want_e ||
        fabs(acc_time - want_t) > 1e-9 * want_t ||
        fabs(avg_energy * NREPS - acc_energy) > 1e-9 * acc_energy) {
        printf("probe %g J / %g s vs <dpu_emu.h> %g J / %g s\n", acc_energy, acc_time, want_e,
               want_t);
        bad = 1;
    }
#endif
    DPU_ASSERT(dpu_probe_deinit(&probe));
#endif
    printf("%u DPUs, %d launches, %s\n", nr_dpus, NREPS, bad ? "MISMATCH" : "OK");
    DPU_ASSERT(dpu_free(set));
    return bad;
}
