/*
 * tests/emu/host/test_probe.c -- <dpu_probe.h> and the power model: the
 * energy of a window equals the power model integrated over the modeled
 * clock (idle DPUs of the allocated ranks, running launches, transfers),
 * the window's time is the modeled clock's, and the reductions and errors
 * are as dpu_probe.h says.
 *
 * Part of test-host (same folder, same DPU programs).
 */
#include <dpu.h>
#include <dpu_emu.h>
#include <dpu_probe.h>
#include <math.h>
#include <string.h>

#include "set.h" /* emu_model_param_table: the default powers */
#include "test.h"

#define P_OK(call)                                                                                 \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == DPU_OK, "line %d: %s returned %d", __LINE__, #call, (int)e_);                  \
    } while (0)

static double pparam(const char *key)
{
    for (unsigned i = 0; i < emu_model_param_count; i++)
        if (!strcmp(emu_model_param_table[i].key, key))
            return emu_model_param_table[i].def;
    return NAN;
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-12 + 1e-9 * fabs(want);
}

/* One rank of 8 DPUs: a push to all, a launch, a push back, bracketed by a
 * probe; with hostClock=none the modeled clock is exactly the ranks' work. */
TEST(emu_probe_energy_is_the_power_model)
{
    enum { N = 512 };
    static uint64_t in[8][N], out[8][N];
    struct dpu_set_t set, dpu;
    uint32_t n = N, i;
    P_OK(dpu_alloc_ranks(1, "nrDpusPerRank=8,hostClock=none", &set));
    P_OK(dpu_load(set, "basic.dpu", NULL));
    P_OK(dpu_copy_to(set, "n_elems", 0, &n, sizeof n));
    dpu_emu_reset();
    struct dpu_probe_t probe;
    P_OK(dpu_probe_init("energy_probe", &probe));
    P_OK(dpu_probe_start(&probe));
    DPU_FOREACH (set, dpu, i)
        P_OK(dpu_prepare_xfer(dpu, in[i]));
    P_OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof in[0],
                       DPU_XFER_DEFAULT));
    P_OK(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i)
        P_OK(dpu_prepare_xfer(dpu, out[i]));
    P_OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0],
                       sizeof out[0], DPU_XFER_DEFAULT));
    P_OK(dpu_probe_stop(&probe));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    double idle = pparam("dpuIdleW"), act = pparam("dpuActiveW"), xw = pparam("xferDpuW");
    double want_static = 8 * idle * s.host_time;
    double want_kernel = 8 * act * s.phase_rank_sum[DPU_EMU_PHASE_KERNEL];
    double want_xfer =
        8 * xw *
        (s.phase_rank_sum[DPU_EMU_PHASE_CPU_DPU] + s.phase_rank_sum[DPU_EMU_PHASE_DPU_CPU]);
    CHECK(s.host_time > 0 && s.phase_rank_sum[DPU_EMU_PHASE_KERNEL] > 0, "nothing modeled");
    CHECK(near(s.energy_static, want_static), "static %.12g J, want %.12g J", s.energy_static,
          want_static);
    CHECK(near(s.energy_phase[DPU_EMU_PHASE_KERNEL], want_kernel), "kernel %.12g J, want %.12g J",
          s.energy_phase[DPU_EMU_PHASE_KERNEL], want_kernel);
    CHECK(near(s.energy_phase[DPU_EMU_PHASE_CPU_DPU] + s.energy_phase[DPU_EMU_PHASE_DPU_CPU],
               want_xfer),
          "transfers %.12g J, want %.12g J",
          s.energy_phase[DPU_EMU_PHASE_CPU_DPU] + s.energy_phase[DPU_EMU_PHASE_DPU_CPU], want_xfer);
    CHECK(near(s.energy, want_static + want_kernel + want_xfer), "total %.12g J", s.energy);
    CHECK(near(dpu_emu_energy(), s.energy), "dpu_emu_energy %.12g J vs stats %.12g J",
          dpu_emu_energy(), s.energy);
    double e, t;
    P_OK(dpu_probe_get(&probe, DPU_ENERGY, DPU_ACCUMULATE, &e));
    P_OK(dpu_probe_get(&probe, DPU_TIME, DPU_ACCUMULATE, &t));
    CHECK(near(e, s.energy), "probe %.12g J vs the model's %.12g J", e, s.energy);
    CHECK(near(t, s.host_time), "probe %.12g s vs the modeled clock's %.12g s", t, s.host_time);
    printf("# modeled: 8 DPUs, push+launch+push: %.6g s, %.6g J (static %.3g, kernel %.3g, "
           "transfers %.3g)\n",
           t, e, s.energy_static, s.energy_phase[DPU_EMU_PHASE_KERNEL], want_xfer);

    /* a second, kernel-only window: the reductions */
    P_OK(dpu_probe_start(&probe));
    P_OK(dpu_launch(set, DPU_SYNCHRONOUS));
    P_OK(dpu_probe_stop(&probe));
    double acc, avg, mn, mx, e2 = dpu_emu_energy() - s.energy;
    P_OK(dpu_probe_get(&probe, DPU_ENERGY, DPU_ACCUMULATE, &acc));
    P_OK(dpu_probe_get(&probe, DPU_ENERGY, DPU_AVERAGE, &avg));
    P_OK(dpu_probe_get(&probe, DPU_ENERGY, DPU_MINIMUM, &mn));
    P_OK(dpu_probe_get(&probe, DPU_ENERGY, DPU_MAXIMUM, &mx));
    CHECK(near(acc, e + e2) && near(avg, (e + e2) / 2) && near(mn, e2 < e ? e2 : e) &&
              near(mx, e2 < e ? e : e2),
          "windows %.9g and %.9g J: sum %.9g avg %.9g min %.9g max %.9g", e, e2, acc, avg, mn, mx);
    P_OK(dpu_probe_deinit(&probe));
    P_OK(dpu_free(set));
}

/* Freed ranks draw nothing: the static power stops with dpu_free. */
TEST(emu_probe_static_power_follows_allocations)
{
    struct dpu_set_t a, b;
    P_OK(dpu_alloc_ranks(1, "nrDpusPerRank=4,hostClock=none", &a));
    P_OK(dpu_load(a, "basic.dpu", NULL));
    dpu_emu_reset();
    P_OK(dpu_launch(a, DPU_SYNCHRONOUS)); /* moves the modeled clock */
    double t1 = dpu_emu_host_time(), e1;
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    e1 = s.energy_static;
    CHECK(near(e1, 4 * pparam("dpuIdleW") * t1), "one rank: %.12g J over %.12g s", e1, t1);
    P_OK(dpu_alloc_ranks(1, "nrDpusPerRank=4,hostClock=none", &b));
    P_OK(dpu_free(a));
    P_OK(dpu_load(b, "basic.dpu", NULL));
    P_OK(dpu_launch(b, DPU_SYNCHRONOUS));
    double t2 = dpu_emu_host_time();
    dpu_emu_get_stats(&s);
    /* between t1 and t2 only b (4 DPUs) was allocated; a free changes no time */
    CHECK(near(s.energy_static, e1 + 4 * pparam("dpuIdleW") * (t2 - t1)),
          "after the free: %.12g J, want %.12g J", s.energy_static,
          e1 + 4 * pparam("dpuIdleW") * (t2 - t1));
    P_OK(dpu_free(b));
    P_OK(dpu_alloc(1, "hostClock=wall", &a)); /* back to the default for later tests */
    P_OK(dpu_free(a));
}

/* A profile may switch a part of the power model off (0 W is allowed). */
TEST(emu_probe_power_keys)
{
    struct dpu_set_t set;
    P_OK(dpu_alloc_ranks(1, "nrDpusPerRank=2,hostClock=none,dpuIdleW=0,xferDpuW=0,dpuActiveW=2",
                         &set));
    P_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_reset();
    P_OK(dpu_launch(set, DPU_SYNCHRONOUS));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    CHECK(s.energy_static == 0.0, "dpuIdleW=0: %.9g J static", s.energy_static);
    CHECK(near(s.energy, 2 * 2.0 * s.phase_rank_sum[DPU_EMU_PHASE_KERNEL]),
          "dpuActiveW=2 on 2 DPUs: %.9g J over %.9g s", s.energy,
          s.phase_rank_sum[DPU_EMU_PHASE_KERNEL]);
    P_OK(dpu_free(set));
    CHECK(dpu_alloc(1, "dpuActiveW=-1", &set) == DPU_ERR_INVALID_PROFILE,
          "a negative power was accepted");
    P_OK(dpu_alloc(1, "hostClock=wall", &set));
    P_OK(dpu_free(set));
}

TEST(emu_probe_errors)
{
    struct dpu_probe_t p;
    double v;
    memset(&p, 0, sizeof p);
    CHECK(dpu_probe_start(&p) == DPU_ERR_INTERNAL, "start before init");
    CHECK(dpu_probe_init("x", NULL) == DPU_ERR_INTERNAL, "init(NULL)");
    P_OK(dpu_probe_init("x", &p));
    CHECK(dpu_probe_stop(&p) == DPU_ERR_INTERNAL, "stop without start");
    P_OK(dpu_probe_get(&p, DPU_ENERGY, DPU_AVERAGE, &v));
    CHECK(v == 0.0, "no window: average %g", v);
    P_OK(dpu_probe_start(&p));
    CHECK(dpu_probe_start(&p) == DPU_ERR_INTERNAL, "start twice");
    P_OK(dpu_probe_stop(&p));
    CHECK(dpu_probe_get(&p, (dpu_probe_option_t)7, DPU_AVERAGE, &v) == DPU_ERR_INTERNAL,
          "a bad option");
    CHECK(dpu_probe_get(&p, DPU_TIME, (dpu_probe_option_type_t)9, &v) == DPU_ERR_INTERNAL,
          "a bad reduction");
    CHECK(dpu_probe_get(&p, DPU_TIME, DPU_AVERAGE, NULL) == DPU_ERR_INTERNAL, "NULL value");
    P_OK(dpu_probe_deinit(&p));
    CHECK(dpu_probe_get(&p, DPU_TIME, DPU_AVERAGE, &v) == DPU_ERR_INTERNAL, "get after deinit");
}
