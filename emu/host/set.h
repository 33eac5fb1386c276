/*
 * set.h -- allocations, ranks and DPUs (struct dpu_set_t's objects), set
 * checks and the allocation bookkeeping. Layer: set (see host.h), above
 * profile, prog, model, entry and pool.
 */
#ifndef EMU_SET_H
#define EMU_SET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../include/dpu.h"
#include "../include/dpu_description.h"
#include "../include/dpu_runner.h"
#include "../vdpu/vdpu.h"
#include "model.h"
#include "profile.h"
#include "prog.h"

struct dpu_t {
    struct dpu_rank_t *rank;
    uint32_t index; /* in the rank                       */
    bool enabled;   /* visible to the API                */
    vdpu_t *v;
    struct dpu_program_t *program; /* NULL until loaded                 */
    void *xfer_buf;                /* prepared buffer (rank's table)    */
    bool fault;                    /* last launch faulted               */
    bool not_simulated;            /* skipped by a sampled launch: its
                                      memory is not what the program
                                      computes, so reads of it fail      */
    vdpu_result_t *res;            /* last run (allocated on first run) */
    bool reused;                   /* last run: an identical one's result
                                      (sampleReuse, reuse.h), not run    */
};

typedef struct alloc alloc_t;
struct emu_job; /* queue.h */

/* sampleRanks: one launch of a rank that runs launches (an executor),
 * indexed by the rank's launch number; ranks that do not run are charged
 * its cycles (ops.c).  Under the allocation's sample_mu. */
typedef enum { EMU_SAMPLE_PENDING, EMU_SAMPLE_DONE, EMU_SAMPLE_FAILED } emu_sample_state_t;
typedef struct {
    const struct dpu_program_t *program; /* of the rank's DPUs at submission */
    uint64_t cycles;                     /* its slowest executed DPU's        */
    emu_sample_state_t state;
} emu_launch_sample_t;

struct dpu_rank_t {
    uint32_t id;      /* machine rank id                       */
    uint32_t pos;     /* position in its allocation            */
    uint32_t nr_dpus; /* DPUs in the rank (incl. disabled)     */
    uint32_t nr_enabled;
    struct dpu_t *dpus;
    alloc_t *owner;
    const profile_t *prof;

    /* the job queue: state of queue.c, created and destroyed with the rank */
    pthread_mutex_t mu; /* queue, busy, sticky, xfer table       */
    pthread_cond_t cv;
    struct emu_job *head, *tail;
    uint32_t qlen;
    bool busy; /* a job of this rank is executing       */
    bool worker_on, stop;
    pthread_t worker;
    dpu_error_t sticky; /* async error, DPU_OK if none           */

    emu_timeline_t tl; /* modeled clock (model.c)               */
    /* The lane of its DPU_XFER_PARALLEL transfers and DPU_CALLBACK_PARALLEL
     * callbacks, which the SDK runs while the rank's DPUs run: a second
     * modeled timeline, so they do not wait for a kernel (created by the
     * first such call, under mu; ops.c). */
    emu_timeline_t tl_par;

    /* sampleRanks (ops.c): launches of the whole rank submitted so far (the
     * submitting thread's), and, on an executor rank, their records
     * (owner->sample_mu); sample_broken when one could not be recorded */
    uint64_t nlaunch;
    emu_launch_sample_t *samples;
    uint64_t nsamples, samples_cap;
    bool sample_broken;

    /* dpu_management.h / dpu_runner.h (sdk.c): the program's own recursive
     * lock (dpu_lock_rank), the description (filled on first use, under
     * mu) and the run context of the last dpu_poll_rank */
    pthread_mutex_t user_mu;
    struct _dpu_description_t desc;
    bool desc_ready;
    struct _dpu_run_context_t run_ctx;
};

struct alloc {
    struct dpu_rank_t **ranks;
    uint32_t nr_ranks;
    profile_t prof;
    alloc_t *next;
    pthread_mutex_t sample_mu; /* the ranks' samples (sampleRanks) */
    pthread_cond_t sample_cv;  /* a sample was recorded            */
};

/* Iterates the enabled DPUs of a set: for a DPU set only that DPU. */
static inline bool dpu_in_scope(const struct dpu_t *d, const struct dpu_t *single)
{
    return d->enabled && (single == NULL || d == single);
}

/* The set's ranks as a list (a DPU set gives its one rank). */
static inline uint32_t set_ranks(struct dpu_set_t *set, struct dpu_rank_t ***out,
                                 struct dpu_rank_t **one, struct dpu_t **single)
{
    if (set->kind == DPU_SET_DPU) {
        *one = set->dpu->rank;
        *out = one;
        *single = set->dpu;
        return 1;
    }
    *out = set->list.ranks;
    *single = NULL;
    return set->list.nr_ranks;
}

dpu_error_t emu_set_check(struct dpu_set_t set);
/* The DPU's id as libdpu prints it: rank << 16 | chip << 8 | DPU in chip. */
uint32_t emu_dpu_id(const struct dpu_t *d);

/* An allocation in two halves.  The first reads the profile (all its
 * sources) and sets the host clock it asks for; it runs before the API
 * entry of dpu_alloc, which charges the host's time since its last call, so
 * that hostClock=none holds from the allocating call on and a run's
 * modeled timeline does not start with measured time. */
dpu_error_t emu_alloc_begin(const char *profile, alloc_t **a);
/* The second takes the ranks (dpu_alloc: nr_dpus, nr_ranks == 0;
 * dpu_alloc_ranks: nr_dpus == 0) and fills *set; it consumes a, which it
 * frees on an error. */
dpu_error_t emu_alloc_new(alloc_t *a, uint32_t nr_dpus, uint32_t nr_ranks, struct dpu_set_t *set);
/* The allocation whose value dpu_alloc returned in set, taken off the list
 * of live allocations; NULL if set is not such a value. */
alloc_t *emu_alloc_take(struct dpu_set_t set);
/* The live allocation of exactly the one rank r (dpu_get_rank_of_type's),
 * taken off the list; NULL if there is none (r is not read). */
alloc_t *emu_alloc_take_rank(const struct dpu_rank_t *r);
/* Destroys a taken allocation and frees its ranks for later allocations.
 * Its ranks' workers must have been stopped (queue.h). */
void emu_alloc_release(alloc_t *a);
/* Calls fn on every allocated rank. */
void emu_alloc_foreach_rank(void (*fn)(struct dpu_rank_t *r));

#endif /* EMU_SET_H */
