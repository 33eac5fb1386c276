/* vprof_internal.h -- the profiler's collector, between the interpreter
 * (run.c, which calls these hooks only when dpu->prof is set) and profile.c
 * (not installed). */
#ifndef VPROF_INTERNAL_H
#define VPROF_INTERNAL_H

#include "vdpu_internal.h"
#include "vprof.h"

/* What one DPU collects during a run (vdpu->prof). */
typedef struct vprof_run {
    vprof_t out;                       /* the run's profile, finished by vdpu_prof_run_end   */
    uint64_t *tslots;                  /* [nr_tasklets * n_insns] issue slots per tasklet */
    uint32_t *fidx;                    /* [n_insns] entry of the function of each insn   */
    uint32_t cur[VDPU_MAX_TASKLETS];   /* current calling context (node),
                                          always a node (vdpu_prof_run_begin) */
    uint64_t first[VDPU_MAX_TASKLETS]; /* cycle of its first issue       */
    uint8_t started[VDPU_MAX_TASKLETS];
    uint64_t blocked_seen[VDPU_MAX_TASKLETS]; /* st.blocked_cycles attributed */
    uint32_t last_pc[VDPU_MAX_TASKLETS];      /* its last head instruction   */
    uint32_t min_sp[VDPU_MAX_TASKLETS];
} vprof_run_t;

void vdpu_prof_run_begin(vdpu_t *d);
void vdpu_prof_run_end(vdpu_t *d);
/* before the head instruction at pc issues */
void vdpu_prof_head(vdpu_t *d, const vtask_t *t, uint32_t pc);
/* a jump at pc (or folded into it) moved t: its calling context follows */
void vdpu_prof_control(vdpu_t *d, const vtask_t *t, uint32_t pc, int with_next);

/* the instruction at pc executed: `count` DPU instructions, `slots` issue
 * slots; t->pc is where it went; with_next: an instruction folded into it
 * (cost 0) executed with it (exec_core does so, runahead does not). Inline:
 * it runs for every instruction of a profiled run. */
static inline void vdpu_prof_insn(vdpu_t *d, const vtask_t *t, uint32_t pc, uint32_t count,
                                  uint32_t slots, int with_next)
{
    vprof_run_t *P = d->prof;
    vprof_t *o = &P->out;
    const unsigned k = (unsigned)(t - d->t);
    o->insn[pc].count += count;
    o->insn[pc].slots += slots;
    P->tslots[(size_t)k * o->n_insns + pc] += slots;
    o->node[P->cur[k]].slots += slots;
    if (t->r[2] < P->min_sp[k])
        P->min_sp[k] = t->r[2];
    const uint8_t op = d->code[pc].op;
    if (op == OP_JAL || op == OP_JALR || (with_next && d->code[pc + 1].cost == 0))
        vdpu_prof_control(d, t, pc, with_next);
}

/* the instruction at pc (a head) moved `n` DMAs of `bytes` in total */
void vdpu_prof_dma(vdpu_t *d, uint32_t pc, uint64_t n, uint64_t bytes, int write);
/* t's next issue waits `cycles` for the DMA of the head at pc */
void vdpu_prof_dma_wait(vdpu_t *d, const vtask_t *t, uint32_t pc, uint64_t cycles);
/* the head at pc was a synchronisation attempt that will be retried */
void vdpu_prof_spin(vdpu_t *d, const vtask_t *t, uint32_t slots);
/* 1 when the instruction writes MRAM (sdma, mram_write, a store) */
int vdpu_prof_is_write(const vinsn_t *I, const vtask_t *t);

#endif
