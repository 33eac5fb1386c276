/*
 * dpu_emu.h -- virtual-UPMEM-only extras: the modeled clock and traces.
 *
 * Not part of the UPMEM SDK: a real SDK build has no such header, so guard
 * every use:
 *     #include <dpu.h>
 *     #ifdef DPU_EMU
 *     #include <dpu_emu.h>
 *     #endif
 *
 * The modeled clock is what the real UPMEM server would take (the model and
 * its parameter table are in docs/VIRTUAL_UPMEM_HOST.md); it is never a
 * measurement. All times are in seconds on the modeled timeline, whose
 * origin is the first API call (or the last dpu_emu_reset).
 */
#ifndef DPU_EMU_H
#define DPU_EMU_H

#include <stdint.h>

#include "dpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phases of the modeled timeline. */
typedef enum {
    DPU_EMU_PHASE_CPU_DPU, /* host -> DPU transfers (copy, push, broadcast)   */
    DPU_EMU_PHASE_KERNEL,  /* DPU launches incl. launch overhead              */
    DPU_EMU_PHASE_DPU_CPU, /* DPU -> host transfers                           */
    DPU_EMU_PHASE_OTHER,   /* dpu_load, callbacks run on the rank's queue     */
    DPU_EMU_NR_PHASES
} dpu_emu_phase_t;

typedef struct {
    double host_time; /* modeled host time now                    */
    double host_work; /* measured host work between API calls     */
    /* Length of the union of the intervals in which at least one rank was in
     * the phase (so overlapped work is not counted twice). */
    double phase[DPU_EMU_NR_PHASES];
    /* Sum over ranks of their busy time in the phase. */
    double phase_rank_sum[DPU_EMU_NR_PHASES];
    uint64_t bytes_to_dpu, bytes_from_dpu; /* payload moved                          */
    uint64_t nr_launches, nr_transfers;    /* calls (one per rank involved)           */
    uint64_t dpu_cycles_max;               /* slowest DPU of the last launch          */
    /* Modeled energy (joules) of the allocated ranks up to the host's
     * present, from the power model (docs/MODEL.md, power; profile keys
     * dpuIdleW, dpuActiveW, xferDpuW): never a measurement. */
    double energy;        /* total: energy_static + sum of energy_phase      */
    double energy_static; /* every DPU of an allocated rank, all the time    */
    /* added while records of the phase ran: launches (running DPUs),
     * transfers (DPUs whose data moves); 0 for OTHER */
    double energy_phase[DPU_EMU_NR_PHASES];
} dpu_emu_stats_t;

/* Reads the counters: the modeled timeline up to the host's present (a job
 * running then counts up to it; call dpu_sync first to include all queued
 * work). */
void dpu_emu_get_stats(dpu_emu_stats_t *stats);
/* Modeled energy (joules) of the allocated ranks from the first API call
 * (or the last dpu_emu_reset) to the host's present: stats.energy. */
double dpu_emu_energy(void);
/* Modeled host time now (seconds). */
double dpu_emu_host_time(void);
/* Modeled time at which the last job queued on the rank_index-th rank of the
 * set would end if nothing else were submitted (waits for the queued work to
 * run; a projection: later calls sharing bandwidth with it can move it). */
double dpu_emu_rank_time(struct dpu_set_t set, uint32_t rank_index);
/* Restarts the modeled timeline and zeroes every counter (waits for all
 * queued work first). Trace events recorded so far are kept. Modeled times
 * are differences of points on one timeline: runs that start at the same
 * point (after a reset) compute them bit for bit alike. */
void dpu_emu_reset(void);

/* Records modeled events (one Chrome-trace thread per rank, plus the host)
 * and writes them as Chrome trace JSON (chrome://tracing, ui.perfetto.dev)
 * at dpu_emu_trace_stop() (the timeline up to the host's present) or process
 * exit. The environment variable UPMEM_TRACE=file.json starts a trace at the
 * first API call. */
dpu_error_t dpu_emu_trace_start(const char *path);
dpu_error_t dpu_emu_trace_stop(void);

/* Prints the modeled clock summary (host time, phases) to stream. */
void dpu_emu_print_stats(FILE *stream);

#ifdef __cplusplus
}
#endif

#endif /* DPU_EMU_H */
