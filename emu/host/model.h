/*
 * model.h -- the modeled clock (design.md §3.3): one timeline for the host
 * and one per rank, the host<->DPU cost model, per-phase totals and the
 * Chrome trace. Layer: model (see host.h); prices jobs from plain numbers
 * and knows neither ranks nor operations.
 */
#ifndef EMU_MODEL_H
#define EMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/dpu_emu.h"
#include "profile.h"

/* A rank's modeled timeline (embedded in the rank, guarded by the model's
 * lock). */
typedef struct {
    double t_end;       /* modeled end of the rank's last job  */
    uint32_t trace_row; /* its row in the trace (rank id + 1)  */
} emu_timeline_t;

typedef enum { XK_SERIAL, XK_PARALLEL, XK_BROADCAST } xfer_kind_t;

/* Wall clock (seconds, monotonic). */
double emu_host_wall(void);

/* The host timeline: the first API call of an application thread (enter)
 * adds the host work since the last exit (entry.c decides when). */
void emu_model_api_enter(void);
void emu_model_api_exit(void);
double emu_model_host_now(void);
/* The modeled host time at this instant: the host timeline plus the host
 * work since the last API exit, measured as hostClock says (what the next
 * API entry would add); while an application thread is inside the library,
 * the host timeline alone. For the program's clock calls (clock.h). */
double emu_model_host_present(void);
/* Host work between API calls is measured as wall time (default), or with
 * thread_cpu_time as the CPU time of the thread calling in: immune to the
 * simulator's own threads competing for the cores, exact for a host that
 * does its work on one thread and never blocks (profile key hostClock; the
 * last dpu_alloc decides, process-wide). */
void emu_model_set_host_clock(bool thread_cpu_time);
/* Host waited for modeled time t (a synchronous completion). */
void emu_model_host_advance_to(double t);

/* A new rank's timeline: it starts at the host's present. */
void emu_model_timeline_init(emu_timeline_t *tl, uint32_t rank_id);
double emu_model_rank_end(emu_timeline_t *tl);
void emu_model_rank_set_end(emu_timeline_t *tl, double t);
/* Start of a job on the rank submitted at host time submit. */
double emu_model_job_start(emu_timeline_t *tl, double submit);
/* Ends a job: rank timeline to start+dur, phase bookkeeping, trace. */
void emu_model_job_end(emu_timeline_t *tl, double start, double dur, dpu_emu_phase_t phase,
                       const char *name, uint64_t bytes, int dir);

/* Transfer cost (seconds) of one rank's part of a call moving len bytes to
 * (to) or from each of k DPUs, the call spanning call_ranks ranks; op_id
 * tells this call's other ranks from other calls sharing the caps. */
double emu_model_xfer_cost(const model_params_t *m, bool to, xfer_kind_t kind, size_t len,
                           uint32_t call_ranks, uint32_t k, double start, const void *op_id);
double emu_model_launch_cost(const profile_t *p, uint32_t call_ranks, uint64_t max_cycles);
void emu_model_note_launch(uint64_t max_cycles);

/* For <dpu_emu.h> (emu.c). */
void emu_model_get_stats(dpu_emu_stats_t *s);
/* Host timeline, totals and transfer history back to 0 (the ranks'
 * timelines are the caller's: emu_model_rank_set_end). */
void emu_model_reset(void);
dpu_error_t emu_model_trace_start(const char *path);
dpu_error_t emu_model_trace_stop(void);

#endif /* EMU_MODEL_H */
