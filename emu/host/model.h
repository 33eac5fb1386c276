/*
 * model.h -- the modeled clock (design.md §3.3): one timeline for the host
 * and one per rank, the host<->DPU cost model, per-phase totals and the
 * Chrome trace. Layer: model (see host.h); prices jobs from plain numbers
 * and knows neither ranks nor operations.
 *
 * The rank timelines are an event-ordered (discrete-event) simulation, so
 * the modeled times do not depend on the order in which this machine's
 * threads happen to run (docs/VIRTUAL_UPMEM_HOST.md §4):
 *  - every job of a rank is a *record*, created when the host submits the
 *    call (in the host thread's own, deterministic order) and appended to the
 *    rank's queue; it starts at max(submission time, end of the rank's
 *    previous record);
 *  - a record becomes *ready* when its job has executed functionally (a
 *    launch's cycles, a callback's own time are known only then) or was
 *    dropped (cancelled: zero time);
 *  - the simulation runs lazily, in time order, only when the host needs a
 *    time (a synchronous completion, the statistics, the trace), waiting for
 *    the readiness of a record only when it reaches it;
 *  - transfers share bandwidth as a fluid (processor-sharing) model: at
 *    every start or end of a transfer the rates of all active transfers are
 *    recomputed, max-min fair under each one's per-rank bandwidth and the
 *    system-wide cap of its direction.
 * A record submitted later starts at or after the host's present, and the
 * simulation never runs past the host's present except to complete what the
 * host is waiting for (which then becomes its present): what it has
 * simulated is final.
 */
#ifndef EMU_MODEL_H
#define EMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/dpu_emu.h"
#include "profile.h"

typedef struct emu_mrank emu_mrank_t; /* a rank's queue of records (model.c)   */
typedef struct emu_rec emu_rec_t;     /* one job on a rank's modeled timeline */

/* A rank's modeled timeline: the rank embeds it, the model owns the queue
 * (it outlives the rank until its last record is simulated). */
typedef struct {
    emu_mrank_t *mr;
} emu_timeline_t;

typedef enum { XK_SERIAL, XK_PARALLEL, XK_BROADCAST } xfer_kind_t;

/* Wall clock (seconds, monotonic). */
double emu_host_wall(void);

/* ---- the host timeline ---- */

/* How host work between API calls is measured (profile key hostClock). */
typedef enum {
    EMU_HOST_CLOCK_WALL,   /* wall time (default)                            */
    EMU_HOST_CLOCK_THREAD, /* CPU time of the thread calling in              */
    EMU_HOST_CLOCK_NONE,   /* not at all: host work (and callbacks) cost 0,
                            * so the modeled clock is bit-reproducible       */
} emu_host_clock_t;

/* The first API call of an application thread (enter) adds the host work
 * since the last exit (entry.c decides when). */
void emu_model_api_enter(void);
void emu_model_api_exit(void);
double emu_model_host_now(void);
/* Process-wide: the last dpu_alloc decides. */
void emu_model_set_host_clock(emu_host_clock_t clock);
/* The modeled host time at this instant: the host timeline plus the host
 * work since the last API exit, measured as hostClock says (what the next
 * API entry would add); while an application thread is inside the library,
 * the host timeline alone. For the program's clock calls (clock.h). */
double emu_model_host_present(void);
/* Host waited for modeled time t (a synchronous completion). */
void emu_model_host_advance_to(double t);
/* The calling thread is a library worker: it never waits for the simulation
 * (entry.c). */
void emu_model_mark_worker(void);

/* ---- rank timelines ---- */

/* A new rank's timeline (empty: its first record starts at its submission). */
void emu_model_timeline_init(emu_timeline_t *tl, uint32_t rank_id);
/* The rank is destroyed; its queue lives on until simulated. */
void emu_model_timeline_retire(emu_timeline_t *tl);

typedef enum {
    EMU_REC_XFER,     /* a transfer: fixed cost, then bytes at a shared rate  */
    EMU_REC_LAUNCH,   /* overhead + slowest DPU's cycles (emu_model_set_cycles) */
    EMU_REC_TIMED,    /* a known duration (dpu_load)                          */
    EMU_REC_MARK,     /* zero length: dpu_sync's place in the queue            */
    EMU_REC_CALLBACK, /* a callback's own time (emu_model_set_own)            */
    EMU_REC_BARRIER,  /* zero length; the records of emu_model_link start together */
} emu_rec_kind_t;

typedef struct {
    emu_rec_kind_t kind;
    uint64_t op;           /* the API call (emu_model_op_id): "the last launch" */
    const profile_t *prof; /* prices (the rank's profile)                       */
    uint32_t call_ranks;   /* ranks taking part in the call (fixed costs)       */
    /* EMU_REC_XFER: len bytes to (to) or from each of k DPUs of the rank;
     * EMU_REC_LAUNCH: k DPUs run (the power model) */
    bool to;
    xfer_kind_t xk;
    size_t len;
    uint32_t k;
    /* EMU_REC_TIMED */
    dpu_emu_phase_t phase;
    const char *name;
    double dur;
} emu_rec_desc_t;

/* A fresh id for an API call. */
uint64_t emu_model_op_id(void);
/* Appends a record to the rank's queue (or, from inside a callback on that
 * rank, right before the callback's own time) and returns it with one
 * reference for the caller (emu_model_put), or NULL when out of memory (the
 * job then takes no modeled time). Not ready. */
emu_rec_t *emu_model_rec_new(emu_timeline_t *tl, const emu_rec_desc_t *d);
/* EMU_REC_BARRIER records of one call on n ranks: they start together, when
 * the last of them could. Before they are ready. */
void emu_model_link(emu_rec_t *const *recs, uint32_t n);
/* Results of the functional execution, before emu_model_ready. */
void emu_model_set_cycles(emu_rec_t *r, uint64_t max_cycles);
/* DPU-side spans of a launch record for the trace: span[k] = [begin, end)
 * of tasklet k of its slowest DPU, in DPU cycles from the kernel's start
 * (after the launch overhead); copied; n <= 24. Nothing without a trace. */
void emu_model_set_dpu_spans(emu_rec_t *r, const uint64_t (*span)[2], unsigned n);
void emu_model_set_own(emu_rec_t *r, double own_seconds);
/* The job executed: the simulation may now pass this record. */
void emu_model_ready(emu_rec_t *r);
/* The job will never execute (dropped after a sticky error, refused): the
 * record takes no time and counts for nothing. */
void emu_model_cancel(emu_rec_t *r);
void emu_model_put(emu_rec_t *r);
/* Simulates until the n records (NULLs skipped) have ended; returns the
 * latest end. A worker thread or a callback does not wait for the
 * simulation: it gets -1 unless the records are already simulated. */
double emu_model_wait(emu_rec_t *const *recs, uint32_t n);

/* A callback runs (in this thread): records created meanwhile on the rank of
 * own[i] go right before own[i], the callback's own time, in the order
 * created. Calls nest. */
void emu_model_cb_enter(emu_rec_t *const *own, uint32_t n);
void emu_model_cb_leave(void);

/* ---- for <dpu_emu.h> (emu.c) ---- */

/* The modeled timeline up to the host's present: what ended, and the part
 * before the present of what runs. */
void emu_model_get_stats(dpu_emu_stats_t *s);
/* The power model's static part: the allocated ranks' DPUs draw delta_w
 * more (an allocation) or less (a free, negative) from the host's present
 * on; integrated into the statistics' energy. */
void emu_model_static_power(double delta_w);
/* End of the rank's last record if nothing else is submitted (a projection:
 * the committed simulation is not advanced). Call with every rank's queue
 * drained functionally. */
double emu_model_rank_end(emu_timeline_t *tl);
/* Simulates every queued record, then puts the host timeline, the totals and
 * the rank timelines back to 0. Call with every rank's queue drained. */
void emu_model_reset(void);
dpu_error_t emu_model_trace_start(const char *path);
dpu_error_t emu_model_trace_stop(void);

/* ---- test support: the rate segments of the fluid model ---- */

/* One transfer's constant-rate stretch of the modeled timeline. */
typedef struct {
    double t0, t1; /* modeled seconds                                  */
    uint32_t row;  /* rank id + 1 (the trace's row)                    */
    int dir;       /* 0 = CPU->DPU, 1 = DPU->CPU                       */
    double rate;   /* bytes/s delivered                                */
    double weight; /* cap units per byte (broadcast: P18/P20, else 1)  */
    double rmax;   /* the transfer's own bandwidth (bytes/s)           */
    double cap;    /* its direction's system cap (cap units/s)         */
    uint64_t rec;  /* the record's sequence number                     */
    double bytes;  /* the record's shared-phase bytes                  */
} emu_model_seg_t;

/* Starts (on) or stops recording segments; starting clears the log. */
void emu_model_debug_segments(bool on);
/* A copy of the log (malloc'd, the caller frees it; NULL if empty). */
emu_model_seg_t *emu_model_debug_take(size_t *n);

#endif /* EMU_MODEL_H */
