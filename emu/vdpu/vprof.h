/*
 * emu/vdpu/vprof.h -- the virtual DPU's profiler (libvdpu.a, host side).
 *
 * A DPU with the profiler enabled (vdpu_profile_enable) records, for every
 * run, where each tasklet's modeled cycles went: per instruction (hence per
 * function and source line) and per calling context (folded stacks). A run
 * with the profiler on executes the same instructions in the same order at
 * the same modeled cycles as one without it: outputs, cycles and stats are
 * identical (test-vprof: vprof_*_identical); only the host's wall time grows.
 *
 * Attribution, per tasklet, of the DPU's modeled cycles [0, cycles) of a run
 * (every cycle of every tasklet lands in exactly one category, so each
 * tasklet's categories sum to the run's modeled cycles; test-vprof: vprof_*_totals):
 *   boot      before its first issue (tasklets 1.. wait for tasklet 0's boot)
 *   issue     cycles in which it issued an instruction slot (its issue slots),
 *             spin slots excluded
 *   spin      issue slots of a synchronisation service that did not complete
 *             and is retried (an acquire on a taken mutex bit, a resume of a
 *             running tasklet, a vmutex wait)
 *   dma       cycles its next issue waited for its own DMA beyond the revolver
 *             period (the DMA latency not hidden by the pipeline)
 *   sync      cycles it was stopped (barrier, semaphore, handshake: the
 *             runtime builds them on stop/resume)
 *   revolver  the rest between its first issue and its exit: waiting for its
 *             turn in the revolver pipeline (at least revolver_cycles between
 *             two issues of one tasklet) or for a slot another tasklet took
 *   done      after its exit, up to the end of the run
 * Per instruction, the cycles attributed are: its issue slots times the
 * tasklet's (issue + spin + revolver) / (its issue slots) -- the pipeline
 * time is shared among a tasklet's instructions in proportion to their
 * slots --, plus the dma cycles of the DMA it issued, plus the sync cycles
 * of the stop it executed. They sum, over instructions, to the tasklets'
 * cycles minus boot and done.
 *
 * The library never prints and never exits.
 */
#ifndef VPROF_H
#define VPROF_H

#include <stdint.h>
#include <stdio.h>

#include "vdpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* one tasklet's modeled cycles, by category (see above) */
typedef struct {
    uint64_t boot, issue, spin, dma, sync, revolver, done;
    uint64_t slots;       /* issue slots (issue + spin)                     */
    uint32_t stack_peak;  /* deepest stack use seen, bytes (max over runs)   */
    uint32_t stack_size;  /* its stack, bytes                                */
    uint32_t wram_low_sp; /* lowest WRAM address its sp reached             */
} vprof_tasklet_t;

/* one instruction (index into .text), summed over tasklets and runs */
typedef struct {
    uint64_t count;                 /* times executed (DPU instructions: an RV32
                                       instruction folded into the one before it counts
                                       with that one)                              */
    uint64_t slots;                 /* issue slots (mul/div count several)         */
    uint64_t dma_count;             /* DMAs (mram_read/write, ldma/sdma, direct
                                       __mram_ptr load/store)                      */
    uint64_t mram_read, mram_write; /* bytes                           */
    uint64_t dma_wait;              /* dma cycles (see above)                      */
    uint64_t sync_wait;             /* sync cycles (see above)                     */
    double cycles;                  /* attributed (see above)                      */
} vprof_insn_t;

/* a calling context: a function called from its parent's context; the
 * roots are the tasklets */
typedef struct {
    uint32_t parent;  /* node index, UINT32_MAX for a root                */
    uint32_t func;    /* instruction index of the function's entry, or the
                         tasklet number for a root                        */
    uint32_t child;   /* first child, UINT32_MAX if none                   */
    uint32_t sibling; /* next sibling, UINT32_MAX if none                  */
    uint64_t slots;   /* self issue slots                                  */
    uint64_t waits;   /* self dma + sync cycles                            */
    double cycles;    /* self attributed cycles                            */
} vprof_node_t;

/* A profile: one run of one DPU, or the sum of several runs of the same
 * program (vdpu_prof_merge). */
typedef struct vprof {
    const vdpu_program_t *prog;
    uint32_t n_insns;
    unsigned nr_tasklets;
    double clock_mhz;
    int timed;             /* 0: FAST mode (no cycles, counts only)         */
    uint64_t runs, faults; /* DPU runs summed, of which faulted             */
    uint64_t cycles_sum;   /* modeled cycles, summed over runs              */
    uint64_t cycles_max;   /* the longest run                               */
    uint64_t instructions, slots, dma_count, dma_bytes;
    vprof_tasklet_t tasklet[VDPU_MAX_TASKLETS];
    vprof_insn_t *insn; /* [n_insns]                                        */
    vprof_node_t *node;
    uint32_t n_nodes, cap_nodes;
} vprof_t;

/* An empty profile of prog (0 runs), to vdpu_prof_merge runs into. */
vdpu_err_t vdpu_prof_new(const vdpu_program_t *prog, vprof_t **out);
void vdpu_prof_free(vprof_t *p);
/* Add src (same program) to dst. */
vdpu_err_t vdpu_prof_merge(vprof_t *dst, const vprof_t *src);

/* Turn the DPU's profiler on (on != 0) or off. With it on, every vdpu_run
 * leaves its profile in vdpu_profile_last until the next run. */
vdpu_err_t vdpu_profile_enable(vdpu_t *dpu, int on);
/* The last run's profile, NULL if the profiler is off or nothing ran. */
const vprof_t *vdpu_profile_last(const vdpu_t *dpu);

/* Write p as the text format docs/PROFILING.md describes, the program
 * named `name` (its ELF path, for the report's line numbers); `extra`
 * (NULL: none) is written as it is before the block's last line. Returns
 * 0, or -1 when the stream failed. */
int vdpu_prof_write(FILE *f, const vprof_t *p, const char *name, const char *extra);

#ifdef __cplusplus
}
#endif
#endif /* VPROF_H */
