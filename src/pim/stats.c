/*
 * stats.c -- both clocks of a pim call (see pim_internal.h): the measured
 * one (host time in each phase's calls; in the asynchronous modes they
 * overlap, so only the total is a duration) and, on the virtual UPMEM, the
 * modeled one from dpu_emu.h (what the real machine would take).
 */
#include <dpu.h> /* DPU_EMU: the virtual UPMEM, which has a modeled clock */
#include <string.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "cryptopim.h"
#include "pim_internal.h"

void cpim_pim_clocks_start(cpim_pim_clocks *c)
{
    memset(c, 0, sizeof *c);
#ifdef DPU_EMU
    dpu_emu_stats_t m;
    dpu_emu_get_stats(&m);
    c->modeled[0] = m.phase[DPU_EMU_PHASE_CPU_DPU];
    c->modeled[1] = m.phase[DPU_EMU_PHASE_KERNEL];
    c->modeled[2] = m.phase[DPU_EMU_PHASE_DPU_CPU];
    c->modeled[3] = m.host_time;
    c->modeled_j = m.energy;
#endif
    c->t0 = cpim_now();
}

void cpim_pim_clocks_stop(const cpim_pim_machine *m, const cpim_pim_clocks *c,
                          const cpim_pim_times *t, cpim_stats *st)
{
    st->measured.total_s = cpim_now() - c->t0;
    st->measured.cpu_dpu_s = t->in;
    st->measured.kernel_s = t->kernel;
    st->measured.dpu_cpu_s = t->out;
    st->ranks = cpim_pim_machine_ranks(m);
    st->dpus = cpim_pim_machine_dpus(m);
    st->tasklets = cpim_pim_machine_tasklets(m);
#ifdef DPU_EMU
    dpu_emu_stats_t m1;
    dpu_emu_get_stats(&m1);
    st->virtual_upmem = 1;
    st->has_modeled = 1;
    st->modeled.clock = CPIM_CLOCK_MODELED;
    st->modeled.cpu_dpu_s = m1.phase[DPU_EMU_PHASE_CPU_DPU] - c->modeled[0];
    st->modeled.kernel_s = m1.phase[DPU_EMU_PHASE_KERNEL] - c->modeled[1];
    st->modeled.dpu_cpu_s = m1.phase[DPU_EMU_PHASE_DPU_CPU] - c->modeled[2];
    st->modeled.total_s = m1.host_time - c->modeled[3];
    st->modeled_joules = m1.energy - c->modeled_j;
#endif
}
